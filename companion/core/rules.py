"""The rules base every game subclasses (pure functions over frozen state), with the game's
optional parts declared once, with their defaults."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

from companion.core.audience import Audience
from companion.core.codec import KindCodec
from companion.core.events import Event, Intent, may_undo
from companion.core.hardware import HardwareRules
from companion.core.jsonvalue import JSON, JSONObject
from companion.core.summary import Line, Summary

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


@dataclass(frozen=True)
class TableTurn:
    """A move the table itself must make now, as ``seat`` (Scotland Yard's Mister X played by the
    table): ``decide()`` is pure and may be slow — the app calls it on a worker thread and submits
    its intent as that seat, through the same ``decide`` as a phone's."""

    seat: str
    decide: Callable[[], Intent]


class Rules(ABC, Generic[S]):
    """A game: data plus pure functions. No I/O, no clock, no hidden randomness.

    Every game subclasses this base; what it must implement is abstract (a game that forgets one
    cannot be made), what it may add has a default here, so nothing looks a game's part up by name.

    Must implement:

    - ``setup(config)`` validates the table's setup choices and returns the state before
      the first event (raise :class:`~companion.core.errors.SetupError` on bad options). The
      state is a frozen dataclass whose fields the exact codec writes (:mod:`companion.core.codec`:
      ints, strings, tuples, frozen dataclasses, ... — no ``dict``, no ``list``): the table writes
      it down as checkpoints, and a game whose state cannot be written refuses to start.
    - ``seats(state)``: the seats, in order.
    - ``decide`` validates an untrusted intent from ``actor`` and returns the events it
      causes, or raises a :class:`~companion.core.errors.CompanionError`. Chance is drawn
      from ``rng`` only, and recorded in the events it returns.
    - ``apply`` is trusted and used for replay.
    - ``view`` is what ``audience`` may see. Every audience must be handled explicitly. The
      table's view carries ``"acting"``: :meth:`acting` of the same state.
    - ``legal`` lists what ``actor`` may do now, so screens offer only legal choices; a seat that
      is not :meth:`acting` is offered no move of the turn (only what it may do at any time).
    - ``acting(state)``: who acts now — the seats whose move the game waits for (empty when it
      waits for the table alone, or is over). Public by nature: the seat lights, the summary's
      status line and ``legal`` all follow it.
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
    - ``summary()``: the game in words (:class:`~companion.core.summary.Summary`), for the command
      line, the play history and the host page (usually imported from the game's ``summary``
      module when first asked for).

    May add (defaults here):

    - ``facts``: the constants its screens need, as JSON (cities, tickets, a track's length).
    - ``new_game_config``: setup options every new game is given unless set (see the attribute).
    - ``preferences``: the table's preferences for it, each a JSON object with ``key``,
      ``default``, ``choices`` (or ``low`` and ``high``) and the ``setup_key`` it pre-fills.
    - ``hardware``: what the box's buttons, tags and lights mean in it
      (:class:`~companion.core.hardware.HardwareRules`), or ``None``.
    - ``may_undo(events, actor)``: whether ``actor`` may take back one action (default: every
      event's own undo rule allows it).
    - ``table_turn(state, seed, cpu_budget)``: a move the table itself must make now
      (:class:`TableTurn`), or ``None`` — e.g. a seat played by the computer.
    - ``for_phone(state, intent, actor)``: an intent the table sends on a seat's behalf that must
      go otherwise when that seat's phone holds its link (the phone keeps the seat's secrets, e.g. a
      Victorian Masterminds pile): ``(seat, the intent to decide then)``, or ``None`` (the default).
      The table (:class:`companion.app.table.Table`) asks it of every intent, whatever screen, button
      or tag reader sent it, so no screen has to know who has a phone.
    - ``fresh_chance(state, rng)``: for a game whose state holds chance drawn once for later draws
      (a salt every later shuffle derives from), the events that draw it again from ``rng``
      (default: none). An imported game file gets them as one more action, drawn from fresh
      randomness, so a file fixes only the chance it records, never what comes after
      (:func:`companion.app.savedgame.import_game`); a re-check of a log replays them like any draw.
    - ``announcements(before, after)``: what the table's speaker says about one action, from the
      public table view before it and after it (a pure function of two *public* views, like the
      buzzer's ``signal``): lines in words (:class:`~companion.core.summary.Line`); none by default.
    """

    name: str
    events: KindCodec[Event]
    intents: KindCodec[Intent]
    facts: ClassVar[JSONObject] = {}  # never changed: a game sets its own
    # setup options every new game is given unless its setup sets them: a rule that changed can keep
    # its old form for the games set up before (their setups lack the option), so their logs still
    # re-check as they were played, while every new game gets the new one
    new_game_config: ClassVar[JSONObject] = {}
    preferences: ClassVar[tuple[JSONObject, ...]] = ()
    hardware: ClassVar[HardwareRules | None] = None

    @abstractmethod
    def setup(self, config: JSONObject) -> S: ...

    @abstractmethod
    def seats(self, state: S) -> tuple[str, ...]: ...

    @abstractmethod
    def decide(self, state: S, intent: Intent, actor: Audience, rng: random.Random) -> tuple[Event, ...]: ...

    @abstractmethod
    def apply(self, state: S, event: Event) -> S: ...

    @abstractmethod
    def view(self, state: S, audience: Audience) -> JSONObject: ...

    @abstractmethod
    def legal(self, state: S, actor: Audience) -> JSON: ...

    @abstractmethod
    def acting(self, state: S) -> tuple[str, ...]: ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    @abstractmethod
    def recorded_intents(self, state: S, events: tuple[Event, ...]) -> Sequence[tuple[Intent, Audience]]: ...

    @abstractmethod
    def describe_action(self, state: S, events: tuple[Event, ...], audience: Audience) -> Line: ...

    @abstractmethod
    def summary(self) -> Summary: ...

    def may_undo(self, events: Sequence[Event], actor: Audience) -> bool:
        """Whether ``actor`` may take back one action (``events``: every event it wrote). The default:
        when every event's own rule lets the actor (:func:`~companion.core.events.may_undo`). A game
        may widen it, e.g. let a seat take back its own answer together with the steps the game
        then took by itself."""
        return all(may_undo(event, actor) for event in events)

    def announcements(self, before: JSONObject, after: JSONObject) -> tuple[Line, ...]:
        """What the table's speaker says when one action took the public table view from ``before``
        to ``after`` (both the table audience's views of this game): Mister X shows himself, a stack's
        result, the winner. It reads nothing but these two public views, so it can never say what the
        touchscreen does not show. Not asked for an undo, nor for the first view after a game is
        opened. None by default."""
        return ()

    def table_turn(self, state: S, seed: int, cpu_budget: float | None) -> TableTurn | None:
        """A move the table must make now as one seat, or ``None`` (the default: never).
        ``seed`` (the game's) makes the choice repeatable; ``cpu_budget`` caps its thinking."""
        return None

    def for_phone(self, state: S, intent: Intent, actor: Audience) -> tuple[str, Intent] | None:
        """``(seat, intent as decided when that seat's phone holds its link)``, or ``None`` (the
        default: no phone changes what an intent means)."""
        return None

    def fresh_chance(self, state: S, rng: random.Random) -> tuple[Event, ...]:
        """The chance this state fixed for later draws, drawn again from ``rng`` (an import's fresh
        randomness): the default, none."""
        return ()
