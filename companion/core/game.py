"""A game in progress as a log: replay is a fold, undo is an appended marker.

:class:`Game` is pure bookkeeping (no I/O). The table in ``companion.app`` asks it to
``decide`` an intent, commits the events durably, and only then calls ``commit`` here.
"""

from __future__ import annotations

import functools
import itertools
import operator
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

from companion.core.audience import Audience
from companion.core.checkpoint import fold_key, require_writable, seal, state_reader, unseal
from companion.core.codec import KindCodec
from companion.core.errors import Forbidden, GameOver, MalformedInput, StaleIntent, UndoRefused
from companion.core.events import Event, Intent, Undo, Undone
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


class _NotAsWritten(Exception):
    """The stored log holds an undo marker its reader did not recognise: fold it as written."""


def _known(before: object) -> bool:
    return before is not None and not isinstance(before, _Written)


def _check_numbering(numbers: list[tuple[int, int]]) -> None:
    """(seq, action) as the table writes them: seq 1, 2, 3, ...; an action starts at its own seq
    and its further events follow it directly."""
    previous = 0
    for expected, (seq, action) in enumerate(numbers, start=1):
        if seq != expected or (action != seq and action != previous):
            raise MalformedInput("import.bad_sequence", "events are not numbered 1, 2, 3, ...", seq=seq)
        previous = action


CHECKPOINT = 16  # the state before every 16th live action is kept, so an undo refolds at most 15


@dataclass(slots=True)
class _Action:
    """One action that still counts: where its events are in the log and, on every CHECKPOINT-th,
    the state before it (``before``: the state, a :class:`_Written` one, or None until needed)."""

    action: int  # its seq, and the index + 1 of its first event in the log
    count: int
    before: Any = None


@dataclass(frozen=True)
class _Written:
    """A checkpoint as stored, read when first needed."""

    text: str


class Log(Sequence[Entry]):
    """A game's entries, in order. Rows read from a file may stay as stored until first asked for
    (:meth:`Game.from_rows` decodes only the events that count)."""

    __slots__ = ("_decode", "_items")

    def __init__(self, items: Iterable[Entry | tuple[Any, ...]], decode: Callable[[Any], Event] | None = None):
        self._items: list[Entry | tuple[Any, ...]] = list(items)
        self._decode = decode

    def _get(self, index: int) -> Entry:
        item = self._items[index]
        if type(item) is tuple:
            assert self._decode is not None
            entry = Entry(item[0], item[1], self._decode(item[2]))
            self._items[index] = entry
            return entry
        return item  # type: ignore[return-value]

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> list[Entry]: ...

    def __getitem__(self, index: int | slice) -> Entry | list[Entry]:
        if isinstance(index, slice):
            return [self._get(i) for i in range(*index.indices(len(self._items)))]
        return self._get(index if index >= 0 else index + len(self._items))

    def __iter__(self) -> Iterator[Entry]:
        for i in range(len(self._items)):
            yield self._get(i)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Log({list(self)!r})"

    def append(self, entry: Entry) -> None:
        self._items.append(entry)

    def extend(self, entries: Iterable[Entry]) -> None:
        self._items.extend(entries)


class Game(Generic[S]):
    """The live log of one game and the state it folds to.

    What undo needs is kept as the log grows (the stack of actions that still count, with a state
    checkpoint every :data:`CHECKPOINT` of them), so deciding, committing, undoing and every
    snapshot cost the same at event 10 and at event 10,000. The log is append-only: change it only
    through :meth:`commit` and :meth:`append`.
    """

    # :meth:`_last_after`'s last answer: (the events asked about, the seq then, the answer)
    _after: tuple[Sequence[Event], int, tuple[Sequence[Entry], int] | None] | None = None

    def __init__(self, rules: Rules[S], config: JSONObject, seed: int, entries: Sequence[Entry] = ()) -> None:
        self.rules = rules
        self.config = config
        self.seed = seed
        self.start: S = rules.setup(config)
        require_writable(self.start)  # a state its checkpoints cannot write is refused at once
        self._entries = Log(entries)
        self._rebuild()

    @classmethod
    def from_rows(
        cls,
        rules: Rules[S],
        config: JSONObject,
        seed: int,
        rows: Sequence[tuple[Any, ...]],
        decode: Callable[[Any], Event],
        markers: Mapping[int, int],
        checkpoints: Mapping[int, str] | None = None,
    ) -> Game[S]:
        """A game from its stored rows ``(seq, action, stored event, ...)``, reading only what counts.

        ``markers``: the target of every undo marker in the log, by the marker's seq (found without
        decoding the other events); ``decode(stored)`` makes an event (raising for a stored form
        that is not one of the rules' events). ``checkpoints``: the state before an action (by its
        seq) as :meth:`sealed` wrote it, for some of the actions that are a :data:`CHECKPOINT`
        apart. The state is folded from the last checkpoint that unseals (one of another game,
        action or version of the code, or changed in any way, is ignored); events below it, and
        the others, are decoded when first asked for (an undo, a playthrough). A log that is not
        as a table writes it (a marker that is not the last action that counts, a marker missing
        from ``markers``) is folded as written.
        """
        game = cls.__new__(cls)
        game.rules, game.config, game.seed = rules, config, seed
        game.start = rules.setup(config)
        require_writable(game.start)
        game._entries = Log(rows, decode)
        # Whole columns at a time: the numbering, then each action (its first event: its seq is
        # its action) with its length; each marker takes back the last action that counts.
        seqs = [row[0] for row in rows]
        actions = [row[1] for row in rows]
        starts = list(itertools.compress(seqs, map(operator.eq, seqs, actions)))
        # Numbered 1, 2, 3, ..., no event of a later action, and the action changes only where one
        # starts (at its own seq): as many changes as starts (each start is a change).
        numbered = seqs == list(range(1, len(rows) + 1)) and all(map(operator.le, actions, seqs))
        if not numbered or sum(map(operator.ne, actions, [0, *actions])) != len(starts):
            _check_numbering(list(zip(seqs, actions, strict=True)))  # names the first event out of order
        if not markers.keys() <= set(starts):  # a marker inside an action, or none of this log: as written
            return cls(rules, config, seed, list(game._entries))
        ends = [*starts[1:], len(rows) + 1] if starts else []
        counting: list[int] = []  # the index in ``starts`` of each action that counts, so far
        undone: set[int] = set()
        marker, keep, drop, taken = markers.get, counting.append, counting.pop, undone.add
        for index, start in enumerate(starts):
            target = marker(start)
            if target is None:
                keep(index)
            elif ends[index] - start != 1 or not counting or starts[counting[-1]] != target:  # not what a
                return cls(rules, config, seed, list(game._entries))  # table writes: fold it as written
            else:
                drop()
                taken(target)
        live = [_Action(starts[i], ends[i] - starts[i]) for i in counting]
        game._undone = undone
        game._live = live
        game._refused = set()
        stored = checkpoints or {}
        if live:
            live[0].before = game.start
        for index in range(CHECKPOINT, len(live), CHECKPOINT):
            text = stored.get(live[index].action)
            if text is not None:
                live[index].before = _Written(text)
        base = len(live) - 1 - (len(live) - 1) % CHECKPOINT if live else 0
        try:
            state = game._checkpoint(base) if live else game.start
            game.state = game._fold_live(base, len(live), state)
        except _NotAsWritten:
            return cls(rules, config, seed, list(game._entries))
        return game

    def _rebuild(self) -> None:
        """Fold the whole log (any log whose actions are contiguous) and rebuild the undo stack."""
        _check_numbering([(entry.seq, entry.action) for entry in self._entries])
        self._refused: set[int] = set()
        self._undone: set[int] = undone_actions(self._entries)
        self._live: list[_Action] = []
        state = self.start
        for entry in self._entries:
            if entry.action in self._undone or isinstance(entry.event, Undone):
                continue
            self._push(entry, state)
            state = self.rules.apply(state, entry.event)
        self.state: S = state

    def _push(self, entry: Entry, before: S) -> None:
        live = self._live
        if live and live[-1].action == entry.action:
            live[-1].count += 1
        else:
            live.append(_Action(entry.action, 1, before if len(live) % CHECKPOINT == 0 else None))

    def _events(self, action: _Action) -> list[Entry]:
        return self._entries[action.action - 1 : action.action - 1 + action.count]

    def _fold_live(self, first: int, end: int, state: S) -> S:
        """Fold the live actions ``first`` to ``end`` onto ``state``, noting each checkpoint passed."""
        live = self._live
        for index in range(first, end):
            if index % CHECKPOINT == 0:
                live[index].before = state
            for entry in self._events(live[index]):
                if isinstance(entry.event, Undone):  # a marker the caller's ``marker`` did not see
                    raise _NotAsWritten
                state = self.rules.apply(state, entry.event)
        return state

    def _checkpoint(self, base: int) -> S:
        """The state before live action ``base`` (a multiple of CHECKPOINT): its checkpoint, read if
        written, else folded from the nearest one below that reads (the first is the start)."""
        live = self._live
        below = base
        while True:
            before = live[below].before
            if isinstance(before, _Written):
                action = live[below].action
                try:
                    live[below].before = before = unseal(self.fold_key, action, before.text, state_reader(self.start))
                except (MalformedInput, ValueError, TypeError, RecursionError):  # a cache: fold instead
                    live[below].before = before = None
                    self._refused.add(action)
            if before is not None:
                break
            below -= CHECKPOINT
        state: S = before
        if below < base:
            state = self._fold_live(below, base, state)
            live[base].before = state
        return state

    def _state_before(self, index: int) -> S:
        """The state before the live action at ``index``: from the nearest checkpoint below it."""
        base = index - index % CHECKPOINT
        try:
            return self._fold_live(base, index, self._checkpoint(base))
        except _NotAsWritten:  # only a reader that misses markers (see from_rows) gets here
            raise MalformedInput("malformed", "the stored log holds an undo marker its reader missed") from None

    @functools.cached_property
    def fold_key(self) -> str:
        """What this game's checkpoints are sealed for (see :func:`~companion.core.checkpoint.fold_key`)."""
        return fold_key(self.rules, self.config, self.seed)

    def checkpoints(self) -> list[tuple[int, S]]:
        """(action, state before it) for every live action a :data:`CHECKPOINT` apart (but the
        first), as far as they are known: what a store keeps so the game opens quickly."""
        return [(a.action, a.before) for a in self._live[CHECKPOINT::CHECKPOINT] if _known(a.before)]

    def sealed(self, action: int, state: S) -> str:
        """The checkpoint text of ``state``, the state before action ``action``, as :meth:`from_rows` reads it."""
        return seal(self.fold_key, action, state, self.start)

    @property
    def refused_checkpoints(self) -> frozenset[int]:
        """The actions whose checkpoint, given to :meth:`from_rows`, did not unseal (it was folded instead)."""
        return frozenset(self._refused)

    def checkpoint_due(self, events: Sequence[Event]) -> tuple[int, S] | None:
        """If ``events``, committed, become a live action that needs a checkpoint: (its seq, the
        state before it) — to be written with them."""
        found = self._last_after(events)
        if found is None or found[1] != len(self._live) or found[1] % CHECKPOINT or not found[1]:
            return None
        return self.seq + 1, self.state

    def state_before_last(self) -> S:
        """The state before the last action that still counts (what undoing it gives back)."""
        return self._state_before(len(self._live) - 1) if self._live else self.start

    def _last_after(self, events: Sequence[Event]) -> tuple[Sequence[Entry], int] | None:
        """The entries of the last action that will count once ``events`` are committed, and its
        place among the actions that count (-1: none); None when only the commit can tell. (The
        table asks three times for the same events: the answer is kept until the log grows.)"""
        memo = self._after
        if memo is not None and memo[0] is events and memo[1] == self.seq:
            return memo[2]
        found: tuple[Sequence[Entry], int] | None
        if self._simple_undo(events):
            index = len(self._live) - 2
            found = (self._events(self._live[index]), index) if index >= 0 else ((), -1)
        elif any(isinstance(ev, Undone) for ev in events) or self.seq + 1 in self._undone:
            found = None
        else:
            found = self.entries_for(events), len(self._live)
        self._after = (events, self.seq, found)
        return found

    def last_action_after(self, events: Sequence[Event]) -> tuple[list[Entry], S] | None:
        """What :meth:`last_action` will give once ``events`` are committed, with the state before
        that action (``[]`` and the start if none); None for an undo no table decides."""
        found = self._last_after(events)
        if found is None:
            return None
        entries, index = found
        if index == len(self._live):
            return list(entries), self.state
        return list(entries), (self._state_before(index) if index >= 0 else self.start)

    @property
    def entries(self) -> Log:
        """The whole log, in order (read only)."""
        return self._entries

    @property
    def seq(self) -> int:
        """The state sequence number: how many events the log holds."""
        return len(self._entries)

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
        """The entries of the last action that still counts (what an undo would take back)."""
        return self._events(self._live[-1]) if self._live else []

    def decide_undo(self, actor: Audience) -> Undone:
        if not self._live:
            raise UndoRefused("undo.nothing", "there is nothing to undo")
        last = self._live[-1]
        if not self.rules.may_undo([e.event for e in self._events(last)], actor):
            raise UndoRefused("undo.not_allowed", "this cannot be undone from here")
        return Undone(last.action)

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
            if self._simple_undo(events):
                return self.state_before_last()
            return fold(self.rules, self.start, [*self._entries, *self.entries_for(events)])
        state = self.state
        for ev in events:
            state = self.rules.apply(state, ev)
        return state

    def _simple_undo(self, events: Sequence[Event]) -> bool:
        """Is this what :meth:`decide_undo` makes: one marker taking back the last action that counts?"""
        return (
            len(events) == 1
            and isinstance(events[0], Undone)
            and bool(self._live)
            and events[0].target == self._live[-1].action
        )

    def commit(self, events: Sequence[Event], state: S | None = None) -> list[Entry]:
        """Append already-durable events as the next action and advance the state (``state`` if
        already computed by :meth:`after`)."""
        if not events:
            return []
        new = self.entries_for(events)
        if state is None:
            state = self.after(events)
        first = events[0]
        if isinstance(first, Undone) and self._simple_undo(events):
            self._live.pop()
            self._undone.add(first.target)
            self._entries.append(new[0])
        elif any(isinstance(ev, Undone) for ev in events) or new[0].action in self._undone:
            self._entries.extend(new)  # an undo no table decides: fold the log again
            self._rebuild()
            return new
        else:
            for entry in new:
                self._push(entry, self.state)
            self._entries.extend(new)
        self.state = state
        return new

    def append(self, entry: Entry) -> None:
        """Append one logged event: the next action's first event, or the next event of the last
        action (a replay that stops after every event, e.g. :mod:`companion.core.playthrough`)."""
        if entry.seq != self.seq + 1:
            raise ValueError(f"entry {entry.seq} does not follow {self.seq}")
        if entry.action == entry.seq:
            self.commit([entry.event])
            return
        if not self._entries or entry.action != self._entries[-1].action:
            raise ValueError(f"entry {entry.seq} continues action {entry.action}, which is not the last")
        self._entries.append(entry)
        if isinstance(entry.event, Undone) or not self._live or self._live[-1].action != entry.action:
            self._rebuild()  # not what a table writes: fold the log again
            return
        self._live[-1].count += 1
        self.state = self.rules.apply(self.state, entry.event)

    def snapshot(self, audience: Audience) -> JSONObject:
        """Everything one screen gets: built only from ``view`` and ``legal`` for it."""
        return self._snapshot(self.state, self.seq, self._events(self._live[-1]) if self._live else [], audience)

    def snapshots_after(self, events: Sequence[Event], state: S) -> Callable[[Audience], JSONObject] | None:
        """What :meth:`snapshot` will give once ``events`` are committed with ``state`` (from
        :meth:`after`), for building the screens' views while the events are being written; None
        for an undo that no table decides (its result is only known after the commit)."""
        found = self._last_after(events)
        if found is None:
            return None
        last = found[0]
        seq = self.seq + len(events)
        return lambda audience: self._snapshot(state, seq, last, audience)

    def _snapshot(self, state: S, seq: int, last: Sequence[Entry], audience: Audience) -> JSONObject:
        debug = audience.is_debug
        legal: JSON = self.rules.legal(state, audience) if not debug else None
        return {
            "game": self.rules.name,
            "seq": seq,
            "view": self.rules.view(state, audience),
            "legal": legal,
            "can_undo": not debug and bool(last) and self.rules.may_undo([e.event for e in last], audience),
        }
