"""The table core: events, intents, the rules protocol, replay, visibility and errors.

Standard library only; no I/O.
"""

from companion.core.audience import DEBUG, TABLE, Audience
from companion.core.codec import KindCodec, decode, encode
from companion.core.errors import (
    CompanionError,
    Forbidden,
    GameOver,
    IllegalMove,
    MalformedInput,
    SetupError,
    StaleIntent,
    UndoRefused,
)
from companion.core.events import Event, Intent, Undo, Undone, UndoRule
from companion.core.game import Entry, Game, event_codec, fold, intent_codec
from companion.core.jsonvalue import JSON, JSONObject
from companion.core.rules import Outcome, Rules

__all__ = [
    "DEBUG",
    "JSON",
    "TABLE",
    "Audience",
    "CompanionError",
    "Entry",
    "Event",
    "Forbidden",
    "Game",
    "GameOver",
    "IllegalMove",
    "Intent",
    "JSONObject",
    "KindCodec",
    "MalformedInput",
    "Outcome",
    "Rules",
    "SetupError",
    "StaleIntent",
    "Undo",
    "UndoRefused",
    "UndoRule",
    "Undone",
    "decode",
    "encode",
    "event_codec",
    "fold",
    "intent_codec",
]
