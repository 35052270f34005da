"""The Mister X benchmark's detective teams (``benchmarks/ai_teams.py``) manage their tickets.

Rulebook: "Kann keiner der Detektive mehr ziehen, weil ihnen die passenden Fahrscheine fehlen,
hat Mister X gewonnen." A team that spends the wrong tickets strands itself, and the benchmark
would count that as Mister X's escape: his strength would be overstated (the issue measured the
coordinating team stranding itself in 5-10 % of its games). Seeded games, real rules; no timing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.append(str(BENCHMARKS))  # last, so it shadows nothing; its modules import each other as scripts do

import bench_ai  # type: ignore[import-not-found]  # noqa: E402


@pytest.mark.parametrize("team", ["random", "greedy", "team", "hunter"])
def test_no_team_strands_itself_in_seeded_games(team: str) -> None:
    """60 games (seeds 0-59) of the greedy Mister X, who runs far and long, against each team.
    Without the ticket management (every legal move offered) the same seeds strand the random team
    in 43 of them, the greedy team in 7 and the coordinating team in 2 (the hunter in none: a guard)."""
    stranded = [seed for seed in range(60) if bench_ai.play("greedy", team, seed, 3).stranded]
    assert stranded == []
