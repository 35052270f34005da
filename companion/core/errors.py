"""One error root for everything a player or a device can get wrong.

Every error carries a stable ``code`` (e.g. ``"sy.no_ticket"``) and JSON ``params``.
Front ends render the words in the table's language from the code; the English
``str()`` is for logs and developers only. Params never carry hidden values: a
game raising an error for one seat must not put another seat's secret into it.
"""

from __future__ import annotations

from companion.core.jsonvalue import JSON


class CompanionError(ValueError):
    """Root of all refusals. Also a ``ValueError`` so plain callers can catch it."""

    default_code = "error"

    def __init__(self, code: str | None = None, message: str = "", **params: JSON) -> None:
        self.code: str = code or self.default_code
        self.params: dict[str, JSON] = dict(params)
        self.message = message or self.code
        super().__init__(self.message)

    def to_json(self) -> dict[str, JSON]:
        return {"code": self.code, "params": dict(self.params)}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.params!r})"


class MalformedInput(CompanionError):
    """The input is not a well-formed intent or frame (bad JSON, wrong types, unknown kind)."""

    default_code = "malformed"


class Forbidden(CompanionError):
    """The actor may not do this (wrong seat, table-only action, ...)."""

    default_code = "forbidden"


class IllegalMove(CompanionError):
    """Well-formed and allowed for the actor, but against the rules in this state."""

    default_code = "illegal"


class StaleIntent(CompanionError):
    """The intent was made against an older state (double tap, two phones at once)."""

    default_code = "stale"


class GameOver(CompanionError):
    """The game has ended; no more moves."""

    default_code = "game_over"


class UndoRefused(CompanionError):
    """Nothing may be undone here by this actor."""

    default_code = "undo_refused"


class SetupError(CompanionError):
    """A game cannot be set up with these options."""

    default_code = "setup"
