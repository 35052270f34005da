"""What the hardware reports: small frozen values, handed to the app's event loop.

Drivers never decide what an input means in a game. A button press or a tag on a reader
becomes an intent only through the app's bindings (data per game and table).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import ClassVar, Literal

ReaderState = Literal["connected", "disconnected", "error"]
READER_STATES: tuple[ReaderState, ...] = ("connected", "disconnected", "error")


@dataclass(frozen=True)
class ButtonPressed:
    """A button went down (after debouncing)."""

    kind: ClassVar[str] = "hw.button_pressed"
    name: str
    role: str


@dataclass(frozen=True)
class ButtonReleased:
    """A button came up (after debouncing); ``held`` tells whether a ButtonHeld came before."""

    kind: ClassVar[str] = "hw.button_released"
    name: str
    role: str
    held: bool = False


@dataclass(frozen=True)
class ButtonHeld:
    """A button stayed down for its hold time (once per press)."""

    kind: ClassVar[str] = "hw.button_held"
    name: str
    role: str


@dataclass(frozen=True)
class TagSeen:
    """A tag arrived on a reader (once per placement). ``uid`` is upper-case hex."""

    kind: ClassVar[str] = "hw.tag_seen"
    reader: str
    uid: str


@dataclass(frozen=True)
class TagGone:
    """The placement of a tag on a reader ended (see docs/wiring.md for how each type infers it)."""

    kind: ClassVar[str] = "hw.tag_gone"
    reader: str
    uid: str


@dataclass(frozen=True)
class ReaderStatus:
    """A reader's connection changed: connected, disconnected (port missing/lost) or error (no answer)."""

    kind: ClassVar[str] = "hw.reader_status"
    reader: str
    status: ReaderState
    detail: str = ""


HardwareEvent = ButtonPressed | ButtonReleased | ButtonHeld | TagSeen | TagGone | ReaderStatus


def event_json(event: HardwareEvent) -> dict[str, str | bool]:
    """Plain JSON for logs and the diagnostics screen: ``{"kind": ..., fields...}``."""
    return {"kind": event.kind, **asdict(event)}
