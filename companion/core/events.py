"""Events (what happened, trusted, replayed) and intents (what someone asks for, untrusted).

Both are frozen dataclasses deriving from :class:`Event` / :class:`Intent` with a class-level
``kind`` string; :class:`~companion.core.codec.KindCodec` turns them into JSON and back.

Undo policy is declared with the event kind (``undo = UndoRule.TABLE`` on the class), and an
event may refine it from its own fields by overriding :meth:`Event.undo_rule` (a Mister X
move that reveals him can never be undone, one that does not may be undone by its owner).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from companion.core.audience import Audience
from companion.core.codec import Tagged


class UndoRule(enum.Enum):
    """Who may undo an event."""

    NEVER = "never"
    TABLE = "table"  # the touchscreen (public)
    OWNER = "owner"  # only the seat that owns the event (see Event.owner)
    TABLE_OR_OWNER = "table_or_owner"


class Event(Tagged):
    """Base of all events. Subclasses are ``@dataclass(frozen=True)`` with a ``kind``."""

    undo: ClassVar[UndoRule] = UndoRule.TABLE

    def undo_rule(self) -> UndoRule:
        return self.undo

    def owner(self) -> str | None:
        """The seat that owns this event, for ``UndoRule.OWNER``."""
        return None

    def chance(self) -> tuple[object, ...]:
        """The chance outcomes this event records, one per draw of the ``rng`` that ``decide``
        made for it, in draw order, each exactly as the draw returned it (``rng.choice``: the
        value; ``rng.sample``: the list; ``rng.randint``: the number). Empty for an event
        nobody drew. A re-check of an imported log trusts these and nothing else (see
        :mod:`companion.core.recheck`)."""
        return ()


def may_undo(event: Event, actor: Audience) -> bool:
    """Whether ``event``'s own rule lets ``actor`` take it back."""
    rule = event.undo_rule()
    if rule is UndoRule.NEVER:
        return False
    if actor.is_table and rule in (UndoRule.TABLE, UndoRule.TABLE_OR_OWNER):
        return True
    owner = event.owner()
    return rule in (UndoRule.OWNER, UndoRule.TABLE_OR_OWNER) and owner is not None and actor.is_seat(owner)


class Intent(Tagged):
    """Base of all intents. Subclasses are ``@dataclass(frozen=True)`` with a ``kind``."""


@dataclass(frozen=True)
class Undone(Event):
    """Marker appended by an undo: the action starting at ``target`` no longer counts."""

    kind: ClassVar[str] = "core.undone"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    target: int


@dataclass(frozen=True)
class Undo(Intent):
    """Ask to undo the last action that still counts."""

    kind: ClassVar[str] = "core.undo"
