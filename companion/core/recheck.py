"""Re-checking a log read from outside (an imported game file) against the rules.

A log that only *folds* may still be a game nobody could have played: a detective teleporting,
six black tickets from a purse of five, an escape in round 1, an undo of what may never be undone.
:func:`recheck` re-decides it action by action, as the table would have decided it:

- each action (the events one intent wrote) is mapped back to the intents and actors that could
  have written it by the game's :meth:`~companion.core.rules.Rules.recorded_intents`;
- the intent is decided again in the state before the action, through the same checks as a live
  input (whose turn, which tickets, which rooms, the game not over, ...);
- chance is not drawn again: the ``rng`` replays the outcomes the events record
  (:meth:`~companion.core.events.Event.chance`), each checked to be a possible draw (a start card
  from the deck, a shuffle of exactly that pile). Those outcomes are the only thing trusted;
- the decided events must equal the recorded ones exactly, or the file is refused;
- an undo marker must be an undo the table or the action's owner could have made then.

The first event that fails is named in the refusal (:class:`IllegalLog`, code
``import.illegal_event``, params ``seq``, ``kind``, and ``reason`` with ``reason_params`` — the
rules' own refusal).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, TypeVar

from companion.core.audience import TABLE, Audience
from companion.core.errors import CompanionError, IllegalMove, MalformedInput
from companion.core.events import Event, Intent, Undo, Undone
from companion.core.game import Entry, Game
from companion.core.jsonvalue import JSONObject
from companion.core.rules import Rules

S = TypeVar("S")
T = TypeVar("T")


class IllegalLog(MalformedInput):
    """An imported log holds an event the rules would not have written there."""

    default_code = "import.illegal_event"


class ChanceRefused(IllegalMove):
    """A recorded chance outcome is not a possible draw (or is missing, or left over)."""

    default_code = "import.chance"


class RecordedChance(random.Random):
    """An ``rng`` that answers each draw with the next recorded outcome, after checking that the
    draw could have given it. Draw kinds without a check (``random()``, ``uniform``, ...) refuse:
    a game that uses them cannot have its log re-checked, which its tests show at once."""

    def __init__(self, outcomes: Iterable[object]) -> None:
        super().__init__(0)
        self._outcomes = list(outcomes)
        self._next = 0

    @property
    def left(self) -> int:
        return len(self._outcomes) - self._next

    def _take(self) -> object:
        if self._next >= len(self._outcomes):
            raise ChanceRefused("import.chance", "a draw that the log does not record")
        value = self._outcomes[self._next]
        self._next += 1
        return value

    def choice(self, seq: Sequence[T]) -> T:  # type: ignore[override]
        value = self._take()
        for i in range(len(seq)):
            if seq[i] == value:
                return seq[i]
        raise ChanceRefused("import.chance", "a recorded draw that the deck does not hold")

    def sample(self, population: Sequence[T], k: int, *, counts: Iterable[int] | None = None) -> list[T]:
        value = self._take()
        if counts is not None or not isinstance(value, (list, tuple)) or len(value) != k:
            raise ChanceRefused("import.chance", "a recorded draw of the wrong size")
        if not _sub_multiset(value, population):
            raise ChanceRefused("import.chance", "a recorded draw that the pile does not hold")
        return list(value)

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        value = self._take()
        if not isinstance(value, (list, tuple)) or len(value) != len(x) or not _sub_multiset(value, x):
            raise ChanceRefused("import.chance", "a recorded shuffle of another pile")
        x[:] = list(value)

    def randint(self, a: int, b: int) -> int:
        value = self._take()
        if isinstance(value, bool) or not isinstance(value, int) or not a <= value <= b:
            raise ChanceRefused("import.chance", "a recorded number out of range")
        return value

    def random(self) -> float:
        raise ChanceRefused("import.chance", "a draw that cannot be re-checked")


def _sub_multiset(drawn: Sequence[object], population: Sequence[object]) -> bool:
    try:
        have = Counter(_key(v) for v in population)
        want = Counter(_key(v) for v in drawn)
    except TypeError:
        return False
    return all(have[k] >= n for k, n in want.items())


def _key(value: object) -> Hashable:
    if isinstance(value, list):
        return tuple(_key(v) for v in value)
    if not isinstance(value, Hashable):
        raise TypeError(value)
    return value


def actions(entries: Sequence[Entry]) -> list[list[Entry]]:
    """The log cut into actions; refused unless every action starts at its own ``action`` seq
    and its events follow each other (as the table writes them)."""
    out: list[list[Entry]] = []
    for entry in entries:
        if out and entry.action == out[-1][0].seq:
            out[-1].append(entry)
        elif entry.action == entry.seq:
            out.append([entry])
        else:
            raise _illegal(entry, IllegalMove("import.bad_action", f"filed under action {entry.action}"))
    return out


def recheck(rules: Rules[S], config: JSONObject, seed: int, entries: Sequence[Entry]) -> Game[S]:
    """Re-decide ``entries`` from the start; the game they lead to, or :class:`IllegalLog`."""
    game: Game[S] = Game(rules, config, seed)
    for action in actions(entries):
        events = tuple(e.event for e in action)
        try:
            decided = _redecide(game, events)
        except CompanionError as exc:
            raise _illegal(action[0], exc) from None
        for entry, ours in zip(action, decided, strict=False):
            if entry.event != ours:
                raise _illegal(entry, IllegalMove("import.not_what_the_rules_do", f"the rules write {ours.kind} here"))
        if len(decided) != len(action):
            where = action[len(decided)] if len(action) > len(decided) else action[-1]
            raise _illegal(where, IllegalMove("import.not_what_the_rules_do", "the rules write other events here"))
        game.commit(events)
    return game


def _illegal(entry: Entry, why: CompanionError) -> IllegalLog:
    return IllegalLog(
        "import.illegal_event",
        f"event {entry.seq} ({entry.event.kind}) breaks the rules: {why.message}",
        seq=entry.seq,
        kind=entry.event.kind,
        reason=why.code,
        reason_params=dict(why.params),
    )


def _redecide(game: Game[S], events: tuple[Event, ...]) -> tuple[Event, ...]:
    first = events[0]
    if isinstance(first, Undone):
        return _redecide_undo(game)
    outcomes = [o for ev in events for o in ev.chance()]
    chance = RecordedChance(outcomes)  # chance drawn again at an import: re-drawn from its recorded outcome
    try:
        drawn = game.rules.fresh_chance(game.state, chance)
    except CompanionError:
        drawn = ()
    if drawn and drawn == events and chance.left == 0:
        return drawn
    candidates: Sequence[tuple[Intent, Audience]] = game.rules.recorded_intents(game.state, events)
    if not candidates:
        raise IllegalMove("import.not_an_action", f"no intent writes {first.kind} here")
    refusal: CompanionError | None = None
    best: tuple[Event, ...] | None = None
    for intent, actor in candidates:
        chance = RecordedChance(outcomes)
        try:
            decided = game.decide(intent, actor, game.seq, chance)
        except CompanionError as exc:
            refusal = refusal or exc
            continue
        if decided == events and chance.left == 0:
            return decided
        if best is None or _agreeing(decided, events) > _agreeing(best, events):
            best = decided
    if best is None:
        assert refusal is not None
        raise refusal
    return best  # not what was recorded: the caller names the first event that differs


def _agreeing(decided: tuple[Event, ...], recorded: tuple[Event, ...]) -> int:
    """How many events from the start of an action the rules and the log agree on."""
    n = 0
    while n < min(len(decided), len(recorded)) and decided[n] == recorded[n]:
        n += 1
    return n


def _redecide_undo(game: Game[S]) -> tuple[Event, ...]:
    """An undo the table or the owner of the last action could have made."""
    owners = {e.event.owner() for e in game.last_action()}
    actors = [TABLE, *(Audience.of_seat(o) for o in sorted(o for o in owners if o))]
    refusal: CompanionError | None = None
    for actor in actors:
        try:
            return game.decide(Undo(), actor, game.seq)
        except CompanionError as exc:
            refusal = refusal or exc
    assert refusal is not None
    raise refusal
