"""P8: the cost of one action late in a long game against one early in the same game.

An action's cost is everything the table does on the event loop for it besides waiting for the
disk: decide, the state it leads to, encoding the rows, committing it to the live game, and every
screen's new snapshot (the table and each seat) serialised as the table serialises them (each
audience's once, the part of the views they share once). The early and late actions are
measured alternately, each late one against an early one of the same kind (a move against a move,
an undo against an undo), so the ratio shows what the log's length costs and not that the end of a
game asks for other decisions than its start. Before each sample, a game is rebuilt from the log
up to the action before, and that action is committed to it as the table would (not timed: a
game just rebuilt holds its log in a list of exactly its length, which only its first commit
after opening has to grow). Deciding and publishing change nothing, so each is timed three
times and its fastest run counted: a time slice lost to another process on a shared machine is not
the action's cost.
"""

from __future__ import annotations

import copy
import gc
import statistics
import time
from collections.abc import Callable
from typing import Any

from common import Ratio
from workloads import Played

from companion.core import TABLE, Audience, Game, event_codec
from companion.core.jsonvalue import dumps
from companion.core.shared import SharedText

REPEAT = 3  # each pure step is timed this often and its fastest run kept (preemption is not cost)


def fastest(step: Callable[[], object], prepare: Callable[[], object] = lambda: None) -> float:
    best = float("inf")
    for _ in range(REPEAT):
        prepare()
        t0 = time.perf_counter()
        step()
        best = min(best, time.perf_counter() - t0)
    return best


def action_cost(played: Played, index: int) -> float:
    seq, intent, actor = played.actions[index]
    source = played.game
    before = played.actions[index - 1][0] if index > 0 else seq
    game: Game[Any] = Game(source.rules, source.config, source.seed, source.entries[:before])
    game.commit([entry.event for entry in source.entries[before:seq]])
    assert game.seq == seq
    audiences = [TABLE, *(Audience.of_seat(s) for s in game.rules.seats(game.state))]
    codec = event_codec(game.rules)
    gc.collect()  # the rebuild's garbage is not this action's
    events = game.decide(intent, actor, game.seq)
    state = game.after(events)

    def decide() -> None:
        caused = game.decide(intent, actor, game.seq)
        game.after(caused)
        [dumps(codec.encode(e.event)) for e in game.entries_for(caused)]

    def publish() -> None:
        shared = SharedText()  # the table's serialiser; a new one each time, so nothing is kept from the last run
        for audience in audiences:
            shared.dumps(game.snapshot(audience))

    def anew() -> None:
        # Views keep their shared part for the last state they saw (companion.core.shared): every
        # run must build it as after a real commit, so each is shown a new (equal) state object.
        game.state = copy.copy(game.state)

    cost = fastest(decide)
    t0 = time.perf_counter()
    game.commit(events, state)
    cost += time.perf_counter() - t0
    return cost + fastest(publish, anew)


def pairs_of_a_kind(played: Played) -> list[tuple[int, int]]:
    """Every action of the last tenth with an action of the same kind from the first tenth."""
    total = played.game.seq
    early: dict[type, list[int]] = {}
    for i, (seq, intent, _) in enumerate(played.actions):
        if seq < total // 10:
            early.setdefault(type(intent), []).append(i)
    out = []
    for i, (seq, intent, _) in enumerate(played.actions):
        same = early.get(type(intent))
        if seq >= total - total // 10 and same:
            out.append((same[len(out) % len(same)], i))
    return out


def measure(label: str, played: Played, pairs: int) -> Ratio:
    chosen = pairs_of_a_kind(played)
    ratio = Ratio(
        "P8",
        f"one action in the last tenth / the first tenth of a {played.game.seq:,}-event game ({label})",
        "an action of the same kind in the first tenth",
        "an action in the last tenth",
        target_median=1.1,
        note=f"{pairs} pairs drawn from the {len(chosen)} late actions, each with an early one of the same kind",
    )
    for i in range(pairs):
        early, late = chosen[i * len(chosen) // pairs]  # spread over the whole tenth
        if i % 2 == 0:
            ratio.floor.add(action_cost(played, early))
            ratio.project.add(action_cost(played, late))
        else:
            ratio.project.add(action_cost(played, late))
            ratio.floor.add(action_cost(played, early))
    # The samples mix kinds of action whose costs differ (a move, a double move, an undo), so the
    # medians of the two sides can fall between two kinds' costs and jump from run to run; the
    # median of each pair's own ratio does not. Told beside the table's figure, not instead of it.
    each = statistics.median(p / f for f, p in zip(ratio.floor.samples, ratio.project.samples, strict=True))
    ratio.note += f"; median of the pairs' own ratios {each:.2f}×"
    return ratio
