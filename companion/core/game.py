"""A game in progress as a log: replay is a fold, undo is an appended marker.

:class:`Game` is pure bookkeeping (no I/O). The table in ``companion.app`` asks it to
``decide`` an intent, commits the events durably, and only then calls ``commit`` here.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from companion.core.audience import Audience
from companion.core.codec import KindCodec
from companion.core.errors import Forbidden, GameOver, StaleIntent, UndoRefused
from companion.core.events import Event, Intent, Undo, Undone, UndoRule
from companion.core.jsonvalue import JSON, JSONObject
from companion.core.rules import Outcome, Rules

S = TypeVar("S")

CORE_EVENTS: KindCodec[Event] = KindCodec([Undone])
CORE_INTENTS: KindCodec[Intent] = KindCodec([Undo])


@dataclass(frozen=True)
class Entry:
    """One logged event: ``seq`` counts from 1; ``action`` is the seq of the first event
    written by the same intent (all events of one intent are committed together)."""

    seq: int
    action: int
    event: Event


def event_codec(rules: Rules[Any]) -> KindCodec[Event]:
    return rules.events.merged(CORE_EVENTS)


def intent_codec(rules: Rules[Any]) -> KindCodec[Intent]:
    return rules.intents.merged(CORE_INTENTS)


def undone_actions(entries: Iterable[Entry]) -> set[int]:
    return {e.event.target for e in entries if isinstance(e.event, Undone)}


def fold(rules: Rules[S], start: S, entries: Iterable[Entry]) -> S:
    """The state after ``entries``: every event not undone, applied in order."""
    entries = list(entries)
    skip = undone_actions(entries)
    state = start
    for entry in entries:
        if entry.action in skip or isinstance(entry.event, Undone):
            continue
        state = rules.apply(state, entry.event)
    return state


def may_undo(event: Event, actor: Audience) -> bool:
    rule = event.undo_rule()
    if rule is UndoRule.NEVER:
        return False
    if actor.is_table and rule in (UndoRule.TABLE, UndoRule.TABLE_OR_OWNER):
        return True
    owner = event.owner()
    return rule in (UndoRule.OWNER, UndoRule.TABLE_OR_OWNER) and owner is not None and actor.is_seat(owner)


class Game(Generic[S]):
    """The live log of one game and the state it folds to."""

    def __init__(self, rules: Rules[S], config: JSONObject, seed: int, entries: Sequence[Entry] = ()) -> None:
        self.rules = rules
        self.config = config
        self.seed = seed
        self.start: S = rules.setup(config)
        self.entries: list[Entry] = list(entries)
        self.state: S = fold(rules, self.start, self.entries)

    @property
    def seq(self) -> int:
        """The state sequence number: how many events the log holds."""
        return len(self.entries)

    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self.state)

    def rng(self) -> random.Random:
        return random.Random(f"{self.seed}/{self.seq}")

    def decide(
        self, intent: Intent, actor: Audience, expected_seq: int, rng: random.Random | None = None
    ) -> tuple[Event, ...]:
        """Validate ``intent`` against the current state; return the events it causes. ``rng``:
        where chance comes from (default: this game's seeded draw for this seq)."""
        if actor.is_debug:
            raise Forbidden("forbidden.debug", "the debug audience never acts")
        if expected_seq != self.seq:
            raise StaleIntent("stale", "the game has moved on; look again", seq=self.seq)
        if isinstance(intent, Undo):
            return (self.decide_undo(actor),)
        if self.outcome() is not None:
            raise GameOver("game_over", "the game has ended")
        return self.rules.decide(self.state, intent, actor, self.rng() if rng is None else rng)

    def last_action(self) -> list[Entry]:
        skip = undone_actions(self.entries)
        live = [e for e in self.entries if e.action not in skip and not isinstance(e.event, Undone)]
        if not live:
            return []
        action = live[-1].action
        return [e for e in live if e.action == action]

    def decide_undo(self, actor: Audience) -> Undone:
        last = self.last_action()
        if not last:
            raise UndoRefused("undo.nothing", "there is nothing to undo")
        if not all(may_undo(e.event, actor) for e in last):
            raise UndoRefused("undo.not_allowed", "this cannot be undone from here")
        return Undone(last[0].action)

    def can_undo(self, actor: Audience) -> bool:
        try:
            self.decide_undo(actor)
        except UndoRefused:
            return False
        return True

    def entries_for(self, events: Sequence[Event]) -> list[Entry]:
        """The log entries ``events`` would become as the next action."""
        action = self.seq + 1
        return [Entry(action + i, action, ev) for i, ev in enumerate(events)]

    def after(self, events: Sequence[Event]) -> S:
        """The state ``events`` would lead to, without changing anything."""
        if any(isinstance(ev, Undone) for ev in events):
            return fold(self.rules, self.start, [*self.entries, *self.entries_for(events)])
        state = self.state
        for ev in events:
            state = self.rules.apply(state, ev)
        return state

    def commit(self, events: Sequence[Event], state: S | None = None) -> list[Entry]:
        """Append already-durable events and advance the state (``state`` if already computed by
        :meth:`after`)."""
        if not events:
            return []
        new = self.entries_for(events)
        self.state = self.after(events) if state is None else state
        self.entries.extend(new)
        return new

    def snapshot(self, audience: Audience) -> JSONObject:
        """Everything one screen gets: built only from ``view`` and ``legal`` for it."""
        legal: JSON = self.rules.legal(self.state, audience) if not audience.is_debug else None
        return {
            "game": self.rules.name,
            "seq": self.seq,
            "view": self.rules.view(self.state, audience),
            "legal": legal,
            "can_undo": (not audience.is_debug) and self.can_undo(audience),
        }
