"""P8: the cost of one action late in a long game against one early in the same game.

An action's cost is everything the table does on the event loop for it besides waiting for the
disk: decide, the state it leads to, encoding the rows, committing it to the live game, and every
screen's new snapshot (the table and each seat) serialised as the table serialises them (each
audience's once, the part of the views they share once, by a serialiser that has written the last
state's messages, so the parts of views kept from that state are not written again). The early
and late actions are measured alternately, each late one against an early one of the same kind that caused as many
events (a move against a move, an undo against an undo, a placement that flips a stack against one
that flips a stack), so the ratio shows what the log's length costs and not that the end of a game
asks for other decisions than its start. Before each sample, a game is rebuilt from the log
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
from companion.core.shared import SharedText, forget_parts

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
    previous = game.state
    gc.collect()  # the rebuild's garbage is not this action's
    events = game.decide(intent, actor, game.seq)
    state = game.after(events)
    shared = SharedText()

    def decide() -> None:
        caused = game.decide(intent, actor, game.seq)
        game.after(caused)
        [dumps(codec.encode(e.event)) for e in game.entries_for(caused)]

    def publish() -> None:
        for audience in audiences:
            shared.dumps(game.snapshot(audience))

    def anew() -> None:
        # Every run as right after a real commit: the views of the state before the action were
        # built and written by the table's serialiser, nothing of this state's was, so only what the
        # two share (the pieces of the players the action did not touch, companion.core.shared) is
        # kept; and the views' shared part (per_state) is built again for a new (equal) state object.
        nonlocal shared
        forget_parts()
        shared = SharedText()
        for audience in audiences:
            shared.dumps(game.rules.view(previous, audience))
        game.state = copy.copy(game.state)

    cost = fastest(decide)
    t0 = time.perf_counter()
    game.commit(events, state)
    cost += time.perf_counter() - t0
    return cost + fastest(publish, anew)


def caused(played: Played, index: int) -> int:
    """How many events action ``index`` added to the log."""
    following = played.actions[index + 1][0] if index + 1 < len(played.actions) else played.game.seq
    return following - played.actions[index][0]


def pairs_of_a_kind(played: Played) -> tuple[list[tuple[int, int]], int]:
    """Every action of the last tenth with an action from the first tenth of the same kind that
    caused as many events (one that causes more does more: such a pair would measure what happened
    in the game, not the log's length); and how many late actions had no such partner."""
    total = played.game.seq
    early: dict[tuple[type, int], list[int]] = {}
    for i, (seq, intent, _) in enumerate(played.actions):
        if seq < total // 10:
            early.setdefault((type(intent), caused(played, i)), []).append(i)
    out: list[tuple[int, int]] = []
    alone = 0
    for i, (seq, intent, _) in enumerate(played.actions):
        if seq < total - total // 10:
            continue
        same = early.get((type(intent), caused(played, i)))
        if same:
            out.append((same[len(out) % len(same)], i))
        else:
            alone += 1
    return out, alone


def measure(label: str, played: Played, pairs: int) -> Ratio:
    chosen, alone = pairs_of_a_kind(played)
    if not chosen:
        raise RuntimeError(f"P8 ({label}): no late action has an early one of the same kind and size")
    ratio = Ratio(
        "P8",
        f"one action in the last tenth / the first tenth of a {played.game.seq:,}-event game ({label})",
        "an action of the same kind and size in the first tenth",
        "an action in the last tenth",
        target_median=1.1,
        note=(
            f"{pairs} pairs drawn from the {len(chosen)} late actions with an early one of the same kind that"
            f" caused as many events ({alone} late actions had none)"
        ),
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
