"""Seeded Scotland Yard games for the AI benchmarks (``bench_ai.py`` and its Pi-speed part,
``pi_timing.py``), played with the real rules: the configurations by number of detectives, a
game's start (the table draws the start cards from the game's seed), committing a decision's
events, and the median / p90 / max of the decision times both report.

It imports the rules and the standard library only; the two benchmarks import it, never each other
(``bench_ai.py`` starts ``pi_timing.py``'s run, one way).
"""

from __future__ import annotations

import random
import statistics

from companion.core import TABLE, Audience, JSONObject
from companion.games.scotland_yard import RULES
from companion.games.scotland_yard.model import DrawStart, SYState

MRX = Audience.of_seat("mrx")
CONFIGS: dict[int, JSONObject] = {
    k: {"mister_x": "X", "detectives": [f"D{i}" for i in range(1, k + 1)]} for k in range(1, 6)
}


def commit(state: SYState, events: tuple[object, ...]) -> SYState:
    """The state after a decision's events (``RULES.decide`` checked them)."""
    for event in events:
        state = RULES.apply(state, event)  # type: ignore[arg-type]
    return state


def start(game_seed: int, detectives: int) -> tuple[SYState, random.Random]:
    """Game ``game_seed`` with ``detectives`` detectives after the start cards' draw, and the
    table's random source that drew them (it draws the rest of the game's chance too)."""
    state = RULES.setup(CONFIGS[detectives])
    table_rng = random.Random(game_seed)
    return commit(state, RULES.decide(state, DrawStart(), TABLE, table_rng)), table_rng


def quantiles(samples: list[float]) -> tuple[float, float, float]:
    """The median, the nearest-rank 90th percentile and the largest of at least one sample."""
    ordered = sorted(samples)
    p90 = ordered[max(0, -(-9 * len(ordered) // 10) - 1)]  # ceil(0.9 n) in integers: 0.9 * 70 > 63
    return statistics.median(ordered), p90, ordered[-1]
