"""Who looks at a view, and who acts.

There is no default audience: every view is computed for an explicit one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

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
