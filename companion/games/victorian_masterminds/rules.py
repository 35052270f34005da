"""Victorian Masterminds as a :class:`~companion.core.rules.Rules` implementation."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from companion.core.audience import Audience
from companion.core.codec import KindCodec
from companion.core.events import Event, Intent, UndoRule
from companion.core.jsonvalue import JSON, JSONObject
from companion.core.rules import Outcome, Rules
from companion.core.summary import Line, Summary
from companion.games.victorian_masterminds import flow, recorded, views
from companion.games.victorian_masterminds.engine import SALT_MAX, apply_event, final_scores
from companion.games.victorian_masterminds.events import (
    EVENT_CLASSES,
    INTENT_CLASSES,
    AgentPlaced,
    AgentResolved,
    AgentRevealed,
    BuildingCaptured,
    GameEnded,
    LootTaken,
    MissionTaken,
    OrderChosen,
    Place,
    PlaceUnder,
    SaltDrawn,
)
from companion.games.victorian_masterminds.facts import FACTS, PREFERENCES
from companion.games.victorian_masterminds.hardware import HARDWARE
from companion.games.victorian_masterminds.model import VMState
from companion.games.victorian_masterminds.setup import setup


class VictorianMastermindsRules(Rules[VMState]):
    name = "victorian_masterminds"
    events: KindCodec[Event] = KindCodec(EVENT_CLASSES)
    intents: KindCodec[Intent] = KindCodec(INTENT_CLASSES)
    facts = FACTS
    preferences = PREFERENCES
    hardware = HARDWARE

    def setup(self, config: JSONObject) -> VMState:
        return setup(config)

    def seats(self, state: VMState) -> tuple[str, ...]:
        return state.seats

    def decide(self, state: VMState, intent: Intent, actor: Audience, rng: random.Random) -> tuple[Event, ...]:
        return flow.decide(state, intent, actor, rng)

    def apply(self, state: VMState, event: Event) -> VMState:
        return apply_event(state, event)

    def view(self, state: VMState, audience: Audience) -> JSONObject:
        return views.view(state, audience)

    def legal(self, state: VMState, actor: Audience) -> JSON:
        return views.legal(state, actor)

    def acting(self, state: VMState) -> tuple[str, ...]:
        return views.acting(state)

    def summary(self) -> Summary:
        from companion.games.victorian_masterminds.summary import SUMMARY

        return SUMMARY

    def announcements(self, before: JSONObject, after: JSONObject) -> tuple[Line, ...]:
        from companion.games.victorian_masterminds.speech import announcements

        return announcements(before, after)

    def outcome(self, state: VMState) -> Outcome | None:
        if not state.ended:
            return None
        scores, winners = final_scores(state)
        return Outcome("vm.final_score", winners, scores)

    def may_undo(self, events: Sequence[Event], actor: Audience) -> bool:
        """Beside each event's own rule: a seat takes back its own answer during a resolution (which
        agent it was, loot or ability first, the Gunner's building, the Engineer's power and its
        placement, the loot) with the steps the game then took by itself — other agents' loot and
        abilities that asked nobody, the end of the stack, a reshuffle that comes out the same again
        — unless one of them may never be undone or the game ended. Nobody else decided anything in
        that action; their questions come in the next one."""
        if super().may_undo(events, actor):
            return True
        owner = answer_owner(events[0]) if events else None
        if owner is None or not actor.is_seat(owner):
            return False
        return all(e.undo_rule() is not UndoRule.NEVER and not isinstance(e, (GameEnded, MissionTaken)) for e in events)

    def recorded_intents(self, state: VMState, events: tuple[Event, ...]) -> list[tuple[Intent, Audience]]:
        return recorded.recorded_intents(state, events)

    def describe_action(self, state: VMState, events: tuple[Event, ...], audience: Audience) -> Line:
        return recorded.describe_action(state, events, audience)

    def for_phone(self, state: VMState, intent: Intent, actor: Audience) -> tuple[str, Intent] | None:
        """The table's placement from a seat's pile — a touchscreen tap, the table's browser screen,
        a disc scanned on a tag reader — goes by that seat's phone's books when a phone holds the
        seat's link (``books``): the phone's top agent, and that phone is told which; never a
        silent change to a pile only the phone sees (issue 30, item 2)."""
        if (
            actor.is_table
            and isinstance(intent, Place | PlaceUnder)
            and not intent.books
            and not (isinstance(intent, Place) and intent.recycle)
        ):
            return intent.seat, replace(intent, books=True)
        return None

    def fresh_chance(self, state: VMState, rng: random.Random) -> tuple[Event, ...]:
        """What a game file fixed for the future, drawn again from ``rng`` (fresh randomness) when
        it is imported: the salt every later pile shuffle derives from. A game not started, over,
        or from before the salt has none to draw."""
        if not state.started or state.ended or not state.salt:
            return ()
        return (SaltDrawn(rng.randint(1, SALT_MAX)),)


def answer_owner(event: Event) -> str | None:
    """The seat whose answer during a resolution starts an action with ``event``, if it is one."""
    if isinstance(event, (AgentRevealed, OrderChosen, LootTaken)):
        return event.seat or None
    if isinstance(event, BuildingCaptured) and event.via == "gunner":
        return event.seat
    if isinstance(event, AgentResolved) and event.outcome in ("declined", "engineer"):
        return event.seat
    if isinstance(event, AgentPlaced) and event.under:
        return event.seat
    return None


RULES = VictorianMastermindsRules()
