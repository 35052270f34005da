"""The Mister X benchmark's detective teams (``benchmarks/ai_teams.py``) manage their tickets and
know only public facts.

Rulebook: "Kann keiner der Detektive mehr ziehen, weil ihnen die passenden Fahrscheine fehlen,
hat Mister X gewonnen." A team that spends the wrong tickets strands itself, and the benchmark
would count that as Mister X's escape: his strength would be overstated (the issue measured the
coordinating team stranding itself in 5-10 % of its games). Seeded games, real rules; no timing.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core import TABLE
from companion.core.frozen import replace
from companion.games.scotland_yard import RULES, detectives_ai
from companion.games.scotland_yard.model import REVEALS, Move, SYState

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.append(str(BENCHMARKS))  # last, so it shadows nothing; its modules import each other as scripts do

import ai_teams  # type: ignore[import-not-found]  # noqa: E402
import bench_ai  # type: ignore[import-not-found]  # noqa: E402
from sy_games import MRX, commit, start  # type: ignore[import-not-found]  # noqa: E402

#: the MCTS team's iterations in these tests: its ticket management and its inputs do not depend
#: on the count, and a few keep the 60 games within seconds
FEW = 12


@pytest.mark.parametrize("team", ["random", "greedy", "team", "hunter", "family", "mcts"])
def test_no_team_strands_itself_in_seeded_games(team: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """60 games (seeds 0-59) of the greedy Mister X, who runs far and long, against each team.
    Without the ticket management (every legal move offered) the same seeds strand the random team
    in 43 of them, the greedy team in 7 and the coordinating team in 2 (the hunter in none: a guard;
    the family pays careless tickets only among the lines that keep it going as long)."""
    monkeypatch.setitem(ai_teams.TEAMS, "mcts", lambda: ai_teams.Mcts(FEW))
    stranded = [seed for seed in range(60) if bench_ai.play("greedy", team, seed, 3).stranded]
    assert stranded == []


def _midgame(seed: int, turns: int) -> SYState | None:
    """Game ``seed`` of the greedy Mister X against the greedy team: the last state within ``turns``
    moves where a detective is to move and the tracker's set holds more than his station."""
    state, table_rng = start(seed, 3)
    x_rng, d_rng = random.Random(seed), random.Random(-seed)
    found = None
    for _ in range(turns):
        if state.end is not None:
            break
        if state.phase == "x":
            state = commit(state, RULES.decide(state, bench_ai.x_greedy(state, x_rng, seed), MRX, table_rng))
            continue
        if len(state.candidates) > 1:
            found = state
        i, line, station = ai_teams.d_greedy(state, d_rng)
        state = commit(state, RULES.decide(state, Move(state.figures[i], line, station), TABLE, table_rng))
    return found


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    team=st.sampled_from(["family", "mcts"]),
    turns=st.integers(2, 60),
    pick=st.randoms(use_true_random=False),
)
def test_the_new_teams_cannot_read_mister_x_from_anything_they_are_given(
    seed: int, team: str, turns: int, pick: random.Random
) -> None:
    """Two states differing only in his hidden station (another station of the tracker's set, where
    he may as well be) and the hidden stations of his log have the same public facts, and the team
    makes the same move in both from the same random source."""
    state = _midgame(seed, turns)
    if state is None:
        return
    elsewhere = sorted(state.candidates - {state.x_station})
    route = tuple(f if f.field in REVEALS else replace(f, station=pick.randint(1, 199)) for f in state.route)
    twin = replace(state, x_station=pick.choice(elsewhere), route=route)
    assert twin != state
    assert detectives_ai.public_facts(twin) == detectives_ai.public_facts(state)
    make = ai_teams.TEAMS[team]
    assert make()(twin, random.Random(seed)) == make()(state, random.Random(seed))
