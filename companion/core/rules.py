"""The rules protocol every game implements (pure functions over frozen state)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from companion.core.audience import Audience
from companion.core.codec import KindCodec
from companion.core.events import Event, Intent
from companion.core.jsonvalue import JSON, JSONObject
from companion.core.summary import Line

S = TypeVar("S")


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winners`` are seat ids (several when they share the win)."""

    reason: str
    winners: tuple[str, ...]
    scores: tuple[tuple[str, int], ...] = ()

    def to_json(self) -> JSONObject:
        return {
            "reason": self.reason,
            "winners": list(self.winners),
            "scores": {seat: points for seat, points in self.scores},
        }


class Rules(Protocol[S]):
    """A game: data plus pure functions. No I/O, no clock, no hidden randomness.

    - ``setup(config)`` validates the table's setup choices and returns the state before
      the first event (raise :class:`~companion.core.errors.SetupError` on bad options).
    - ``decide`` validates an untrusted intent from ``actor`` and returns the events it
      causes, or raises a :class:`~companion.core.errors.CompanionError`. Chance is drawn
      from ``rng`` only, and recorded in the events it returns.
    - ``apply`` is trusted and used for replay.
    - ``view`` is what ``audience`` may see. Every audience must be handled explicitly.
    - ``legal`` lists what ``actor`` may do now, so screens offer only legal choices.
    - ``outcome`` is ``None`` while the game runs.
    - ``recorded_intents`` maps one logged action (every event one intent wrote, in the state
      before it) back to the intents and actors that could have written it, most likely first
      (empty when no intent writes such an action, e.g. a step the game takes by itself). An
      imported log is re-decided with these (:mod:`companion.core.recheck`): what a player
      decided is checked again, and only the chance outcomes the events record are trusted.
    - ``describe_action`` says one logged action in words for ``audience`` (a message code and its
      params, see :class:`~companion.core.summary.Line`), given the state before it — "D2 taxi
      53 → 69" — never more than that audience may know. Screens name what an undo would take back
      with it, and why a half-done choice vanished.
    """

    name: str
    events: KindCodec[Event]
    intents: KindCodec[Intent]

    def setup(self, config: JSONObject) -> S: ...

    def seats(self, state: S) -> tuple[str, ...]: ...

    def decide(self, state: S, intent: Intent, actor: Audience, rng: random.Random) -> tuple[Event, ...]: ...

    def apply(self, state: S, event: Event) -> S: ...

    def view(self, state: S, audience: Audience) -> JSONObject: ...

    def legal(self, state: S, actor: Audience) -> JSON: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def recorded_intents(self, state: S, events: tuple[Event, ...]) -> Sequence[tuple[Intent, Audience]]: ...

    def describe_action(self, state: S, events: tuple[Event, ...], audience: Audience) -> Line: ...
