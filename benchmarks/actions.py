"""P8: the cost of one action late in a long game against one early in the same game.

An action's cost is everything the table does on the event loop for it besides waiting for the
disk: decide, the state it leads to, encoding the rows, committing it to the live game, and every
screen's new snapshot (the table and each seat) serialised once. The early and late actions are
measured alternately: before each sample, a game is rebuilt from the log up to that action
(not timed), so both sides run under the same load.
"""

from __future__ import annotations

import json
import time
from typing import Any

from common import Ratio
from workloads import Played

from companion.core import TABLE, Audience, Game, event_codec
from companion.core.jsonvalue import dumps


def action_cost(played: Played, index: int) -> float:
    seq, intent, actor = played.actions[index]
    source = played.game
    game: Game[Any] = Game(source.rules, source.config, source.seed, source.entries[:seq])
    audiences = [TABLE, *(Audience.of_seat(s) for s in game.rules.seats(game.state))]
    codec = event_codec(game.rules)
    t0 = time.perf_counter()
    events = game.decide(intent, actor, game.seq)
    state = game.after(events)
    rows = [dumps(codec.encode(e.event)) for e in game.entries_for(events)]
    game.commit(events, state)
    for audience in audiences:
        json.dumps(game.snapshot(audience), ensure_ascii=False)
    elapsed = time.perf_counter() - t0
    assert rows, "the action caused events"
    return elapsed


def measure(label: str, played: Played, pairs: int) -> Ratio:
    total = played.game.seq
    first = [i for i, (seq, _, _) in enumerate(played.actions) if seq < total // 10]
    last = [i for i, (seq, _, _) in enumerate(played.actions) if seq >= total - total // 10]
    ratio = Ratio(
        "P8",
        f"one action in the last tenth / the first tenth of a {total:,}-event game ({label})",
        "an action in the first tenth",
        "an action in the last tenth",
        target_median=1.1,
    )
    for i in range(pairs):
        early, late = first[i % len(first)], last[i % len(last)]
        if i % 2 == 0:
            ratio.floor.add(action_cost(played, early))
            ratio.project.add(action_cost(played, late))
        else:
            ratio.project.add(action_cost(played, late))
            ratio.floor.add(action_cost(played, early))
    return ratio
