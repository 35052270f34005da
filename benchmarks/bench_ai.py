"""How strong is the Mister X AI? Seeded games of every Mister X against every detective team.

    .venv/bin/python benchmarks/bench_ai.py [--games N] [--first-seed S] [--detectives K] [--jobs J]
                                            [--x ...] [--team ...] [--pi-speed] [--pi-games G] [--json FILE]

Every game is played with the real rules (``RULES.decide`` checks every move and ``RULES.apply``
folds the events): the table draws the start cards, then Mister X and the detectives move until
the end. Game ``g`` uses seed ``g`` for the start cards in every pairing, so each Mister X faces
the same starts; the players' own randomness is seeded from it too, so a run repeats exactly.

Mister X:
- ``random``: a legal single move chosen uniformly;
- ``greedy``: the single move that maximises the distance to the nearest detective or bobby
  (a black ticket only where nothing else goes);
- ``easy``, ``normal``, ``hard``: the AI (``companion.games.scotland_yard.ai``).

Detective teams: ``random``, ``greedy``, ``team`` (coordinating), ``table-easy``, ``table-normal``,
``table-hard`` (the table's own detectives) and ``hunter`` (the strongest, ours), which the AI was
tuned against, and a panel it was never tuned on: ``mcts`` (Monte Carlo tree search after Nijssen
& Winands) and ``family`` (loosely coordinated, careless now and then); all but ``table-easy`` with
ticket management; see ``benchmarks/ai_teams.py``.

Per pairing it prints Mister X's escapes (he wins: round 22 ends, or no detective can move) with
a 95 % interval (Wilson score), the games the detectives stranded themselves in (no detective
could move: counted as his escapes, as the rules say), how often a move of his ended within a
detective's reach (a station some detective or bobby can move to next) while a legal move
(single or double, any ticket) ending out of reach existed, and the mean round of his capture.
For the AI levels, the host's thread CPU seconds per decision.

``--pi-speed``: the AI's decision time on one Raspberry Pi 4 core. The run first calibrates the
Pi-speed cap (``benchmarks/pispeed.py``: a pure-Python workload with a published Raspberry Pi 4
time, measured here; the cgroup CPU quota that makes it run at the Pi's speed), then replays the
AI's decisions of ``--pi-games`` games per level against the strongest team in a worker process
capped to that quota, and reports the wall time of each decision there (the Pi's CPU seconds:
one thread, one capped core), median, p90 and max per level, with the AI's own CPU budget scaled
to the cap so it stops where it would on a Pi; then the same for the table's detectives
(``pi_timing.run_detectives``: each level against Mister X ``normal``).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai_teams import TEAMS, stranded
from sy_games import CONFIGS, MRX, commit, quantiles, start

from companion.core import TABLE, Intent
from companion.games.scotland_yard import RULES, ai, moves
from companion.games.scotland_yard.ai_maps import maps
from companion.games.scotland_yard.model import NORMAL, Move, SYState, XDouble, XMove

X_PLAYERS = ("random", "greedy", "easy", "normal", "hard")
TEAM_NAMES = tuple(TEAMS)
XPolicy = Callable[[SYState, random.Random, int], Intent]

# ------------------------------------------------------------------------------------- Mister X


def x_random(state: SYState, rng: random.Random, seed: int) -> Intent:
    options = [(t, s) for t, dests in moves.x_singles(state).items() for s in dests]
    ticket, station = rng.choice(options)
    return XMove(ticket, station)  # type: ignore[arg-type]


def x_greedy(state: SYState, rng: random.Random, seed: int) -> Intent:
    m = maps(state.board)
    best: list[tuple[str, int]] = []
    top = -1
    for ticket, dests in moves.x_singles(state).items():
        for s in dests:
            d = min(m.dist[p][s] for p in state.positions)
            if d > top:
                top, best = d, []
            if d == top:
                best.append((ticket, s))
    normal = [c for c in best if c[0] != "black"]  # a black ticket only where nothing else goes
    ticket, station = rng.choice(normal or best)
    return XMove(ticket, station)  # type: ignore[arg-type]


def x_ai(level: str, budget: float | None = ai.CPU_BUDGET) -> XPolicy:
    def play(state: SYState, rng: random.Random, seed: int) -> Intent:
        return ai.choose(state, level, seed, budget)

    return play


X_POLICY: dict[str, XPolicy] = {"random": x_random, "greedy": x_greedy, **{lv: x_ai(lv) for lv in ai.LEVELS}}

# ------------------------------------------------------------------------------ what we count


def reach_zone(state: SYState) -> set[int]:
    """Stations some detective or bobby can move to next (with its tickets; Mister X's station
    is free, so only the lines and tickets matter)."""
    out: set[int] = set()
    for i, here in enumerate(state.positions):
        purse = state.purse_of[i]
        for k, line in enumerate(NORMAL):
            if purse < 0 or state.purses[purse][k] > 0:
                out.update(state.board.neighbours(line, here))
    return out


def safe_move_exists(state: SYState, zone: set[int]) -> bool:
    """Some legal move of Mister X (single or double, any ticket) ends out of ``zone``."""
    if any(s not in zone for dests in moves.x_singles(state).values() for s in dests):
        return True
    return any(s not in zone for _t, _s, then in moves.x_doubles(state) for dests in then.values() for s in dests)


def final_station(intent: Intent) -> int:
    if isinstance(intent, XDouble):
        return intent.second.station
    assert isinstance(intent, XMove)
    return intent.station


# ------------------------------------------------------------------------------------------ games


@dataclass(frozen=True)
class Result:
    escaped: bool
    stranded: bool
    round: int
    decisions: int
    in_reach: int  # his moves that ended in reach while a safe move existed
    cpu: tuple[float, ...]  # host thread CPU seconds per Mister X decision


def play(x_name: str, team: str, game_seed: int, detectives: int, x_policy: XPolicy | None = None) -> Result:
    state, table_rng = start(game_seed, detectives)
    x_rng = random.Random(f"x/{game_seed}")
    d_rng = random.Random(f"d/{game_seed}")
    x_play = x_policy or X_POLICY[x_name]
    d_play = TEAMS[team]()
    cpu: list[float] = []
    in_reach = 0
    while state.end is None:
        if state.phase == "x":
            t0 = time.thread_time()
            intent = x_play(state, x_rng, game_seed)
            cpu.append(time.thread_time() - t0)
            zone = reach_zone(state)
            if final_station(intent) in zone and safe_move_exists(state, zone):
                in_reach += 1
            state = commit(state, RULES.decide(state, intent, MRX, table_rng))
        else:
            i, line, station = d_play(state, d_rng)
            move = Move(state.figures[i], line, station)  # type: ignore[arg-type]
            state = commit(state, RULES.decide(state, move, TABLE, table_rng))
    escaped = state.end.reason in ("x_escaped", "detectives_stuck")
    return Result(escaped, stranded(state), state.round, len(cpu), in_reach, tuple(cpu))


def _job(args: tuple[str, str, int, int]) -> Result:
    return play(*args)


# -------------------------------------------------------------------------------------- report


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion ``k / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Cell:
    x: str
    team: str
    games: int
    escapes: int
    low: float
    high: float
    stranded: int
    in_reach: int
    decisions: int
    caught_round: float | None

    @classmethod
    def of(cls, x: str, team: str, results: list[Result]) -> Cell:
        escapes = sum(r.escaped for r in results)
        low, high = wilson(escapes, len(results))
        lost = [r.round for r in results if not r.escaped]
        return cls(
            x,
            team,
            len(results),
            escapes,
            low,
            high,
            sum(r.stranded for r in results),
            sum(r.in_reach for r in results),
            sum(r.decisions for r in results),
            statistics.mean(lost) if lost else None,
        )

    def text(self) -> str:
        rate = 100 * self.escapes / self.games
        return (
            f"{rate:5.1f}% [{100 * self.low:4.1f}–{100 * self.high:4.1f}] "
            f"strand {self.stranded:3d} reach {self.in_reach:4d}"
        )


def targets(cells: list[Cell]) -> None:
    """The issue's targets against the strongest team, where this run has the cells for them."""
    by = {(c.x, c.team): c for c in cells}
    team = "hunter"
    base = by.get(("greedy", team))
    for level, margin in (("hard", 40), ("normal", 25)):
        cell = by.get((level, team))
        if base and cell:
            gap = 100 * (cell.escapes / cell.games - base.escapes / base.games)
            verdict = "met" if gap >= margin else "NOT met"
            print(f"target: {level} >= greedy + {margin} points vs {team}: {gap:+.1f} points, {verdict}")
    reach = sum(c.in_reach for c in cells if c.x in ai.LEVELS)
    if any(c.x in ai.LEVELS for c in cells):
        verdict = "met" if reach == 0 else "NOT met"
        print(f"target: 0 AI moves ending in reach while a safe one existed: {reach}, {verdict}")


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="seeded games per pairing (seeds S..S+N-1)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--detectives", type=int, default=3, choices=range(1, 6), help="detective players")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="worker processes")
    parser.add_argument("--x", nargs="+", default=list(X_PLAYERS), choices=X_PLAYERS)
    parser.add_argument("--team", nargs="+", default=list(TEAM_NAMES), choices=TEAM_NAMES)
    parser.add_argument("--pi-speed", action="store_true", help="also time the AI's decisions at Pi 4 speed")
    parser.add_argument("--pi-games", type=int, default=20, help="games per level timed at Pi speed")
    parser.add_argument("--json", type=Path, help="write every cell (and the Pi-speed timings) to this file")
    args = parser.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.games)
    figures = RULES.setup(CONFIGS[args.detectives]).figures
    print(
        f"Mister X AI benchmark: {args.games} games per pairing (seeds {seeds.start}..{seeds.stop - 1}), "
        f"{args.detectives} detective player(s) = figures {', '.join(figures)}; "
        f"{cpu_name()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{args.jobs} worker(s); CPU budget per decision {ai.CPU_BUDGET} s",
        flush=True,
    )
    print("cells: escapes % [95 % interval], stranded games, moves ended in reach while a safe one existed")
    header = f"{'Mister X':<8} | " + " | ".join(f"{'vs ' + t:^40}" for t in args.team) + " | host CPU s/decision"
    print(header)
    print("-" * len(header))
    start_time = time.perf_counter()
    cells: list[Cell] = []
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(args.jobs) as pool:
        for x_name in args.x:
            row = []
            cpu: list[float] = []
            for team in args.team:
                jobs = [(x_name, team, s, args.detectives) for s in seeds]
                results = pool.map(_job, jobs, chunksize=max(1, len(jobs) // (8 * args.jobs)))
                cell = Cell.of(x_name, team, results)
                cells.append(cell)
                row.append(cell.text())
                cpu += [c for r in results for c in r.cpu]
            timing = "-"
            if x_name in ai.LEVELS:
                med, p90, top = quantiles(cpu)
                timing = f"median {med:.4f}, p90 {p90:.4f}, max {top:.3f}"
            print(f"{x_name:<8} | " + " | ".join(f"{c:^40}" for c in row) + f" | {timing}", flush=True)
    print(f"({time.perf_counter() - start_time:.0f} s wall)", flush=True)
    targets(cells)
    report: dict[str, object] = {
        "games": args.games,
        "first_seed": args.first_seed,
        "cells": [asdict(c) for c in cells],
    }
    if args.pi_speed:
        import pi_timing

        report["pi_speed"] = pi_timing.run(args.pi_games, args.detectives)
        report["pi_speed_detectives"] = pi_timing.run_detectives(args.pi_games, args.detectives)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
