"""Who looks at a view, and who acts.

There is no default audience: every view is computed for an explicit one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.core.errors import Forbidden

AudienceKind = Literal["table", "seat", "debug"]


@dataclass(frozen=True)
class Audience:
    """The public table (touchscreen), one seat (a phone), or debug (tests and export only)."""

    kind: AudienceKind
    seat: str | None = None

    def __post_init__(self) -> None:
        if (self.kind == "seat") != (self.seat is not None):
            raise ValueError("a seat audience needs a seat id, and only it")

    @staticmethod
    def table() -> Audience:
        return Audience("table")

    @staticmethod
    def of_seat(seat: str) -> Audience:
        return Audience("seat", seat)

    @staticmethod
    def debug() -> Audience:
        return Audience("debug")

    @property
    def is_table(self) -> bool:
        return self.kind == "table"

    @property
    def is_debug(self) -> bool:
        return self.kind == "debug"

    def is_seat(self, seat: str) -> bool:
        return self.kind == "seat" and self.seat == seat

    def label(self) -> str:
        return self.seat if self.kind == "seat" and self.seat else self.kind

    @staticmethod
    def parse(label: str) -> Audience:
        if label in ("table", "debug"):
            return Audience(label)  # type: ignore[arg-type]
        return Audience.of_seat(label)


TABLE = Audience.table()
DEBUG = Audience.debug()


# -- checks every game's ``decide`` makes (each game raises its own code and words) --------------


def require_table(actor: Audience, code: str, message: str = "only the table may do this") -> None:
    """Only the table (the touchscreen, or the table link) may do this."""
    if not actor.is_table:
        raise Forbidden(code, message)


def require_seat(actor: Audience, seat: str, code: str, message: str = "only that seat may do this") -> None:
    """Only ``seat``'s own phone may do this (not even the table: e.g. a secret move)."""
    if not actor.is_seat(seat):
        raise Forbidden(code, message)


def require_table_or_seat(
    actor: Audience, seat: str, code: str, message: str = "a seat may act only for itself"
) -> None:
    """The table may act for any seat; a seat only for itself."""
    if not (actor.is_table or actor.is_seat(seat)):
        raise Forbidden(code, message, seat=seat)
