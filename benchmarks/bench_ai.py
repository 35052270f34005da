"""How strong is the Mister X AI? Seeded games of every Mister X against every detective team.

    .venv/bin/python benchmarks/bench_ai.py [--games N] [--detectives K] [--jobs J] [--x ...] [--team ...]

Every game is played with the real rules (``RULES.decide`` checks every move and ``RULES.apply``
folds the events): the table draws the start cards, then Mister X and the detectives move until
the end. Game ``g`` uses seed ``g`` for the start cards in every pairing, so each Mister X faces
the same starts; the players' own randomness is seeded from it too, so a run repeats exactly.

Mister X:
- ``random``: a legal single move chosen uniformly;
- ``greedy``: the single move that maximises the distance to the nearest detective or bobby;
- ``easy``, ``normal``, ``hard``: the AI (``companion.games.scotland_yard.ai``).

Detective teams (they know only public facts: the tracker's set of possible stations):
- ``random``: every figure makes a legal move chosen uniformly;
- ``greedy``: every figure heads for the nearest station of the possible set;
- ``team``: a coordinating team that spreads over the possible set: the figures still to move
  are paired with possible stations (nearest pairs first, each target claiming its neighbours
  too, so the next figure covers another part of the set); a figure lands on a possible station
  when it can, and otherwise steps towards its target.

Prints, per pairing, Mister X's escape rate (he wins: round 22 ends, or no detective can move),
the mean round of his capture (over the games he loses), and for the AI the CPU seconds per
decision (mean and slowest, thread CPU time).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.core import TABLE, Audience, Intent, JSONObject
from companion.games.scotland_yard import RULES, ai, moves
from companion.games.scotland_yard.ai_maps import maps
from companion.games.scotland_yard.model import DrawStart, Move, SYState, XMove

MRX = Audience.of_seat("mrx")
X_PLAYERS = ("random", "greedy", "easy", "normal", "hard")
TEAMS = ("random", "greedy", "team")


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


def x_ai(level: str) -> Callable[[SYState, random.Random, int], Intent]:
    def play(state: SYState, rng: random.Random, seed: int) -> Intent:
        return ai.choose(state, level, seed)

    return play


X_POLICY: dict[str, Callable[[SYState, random.Random, int], Intent]] = {
    "random": x_random,
    "greedy": x_greedy,
    **{level: x_ai(level) for level in ai.LEVELS},
}

# ------------------------------------------------------------------------------------ detectives

Option = tuple[int, str, int]  # figure index, line, station


def options_of(state: SYState, i: int) -> list[Option]:
    return [(i, line, s) for line, dests in moves.figure_options(state, i).items() for s in dests]


def d_random(state: SYState, rng: random.Random) -> Option:
    figure = rng.choice(moves.to_move(state))
    return rng.choice(options_of(state, figure))


def d_greedy(state: SYState, rng: random.Random) -> Option:
    """The first figure still to move heads for the nearest possible station (ties: at random)."""
    m = maps(state.board)
    figure = moves.to_move(state)[0]
    scored = [(min(m.dist[s][c] for c in state.candidates), o) for o in options_of(state, figure) for s in [o[2]]]
    best = min(d for d, _ in scored)
    return rng.choice([o for d, o in scored if d == best])


def d_team(state: SYState, rng: random.Random) -> Option:
    """The team spreads over the possible set, then the first figure still to move makes its move.

    Figures are paired with possible stations nearest pair first; a station taken as a target
    also takes its neighbours out of the pool, so the next figure heads for another part of the
    set. A figure that can land on a possible station does (it may catch him, and it shrinks the
    set); otherwise it steps towards its target."""
    m = maps(state.board)
    todo = moves.to_move(state)
    candidates = state.candidates
    pool = set(candidates)
    pairs = sorted((m.dist[state.positions[i]][c], rng.random(), i, c) for i in todo for c in candidates)
    target: dict[int, int] = {}
    for _d, _r, i, c in pairs:
        if i in target or c not in pool:
            continue
        target[i] = c
        pool -= {c, *m.around[c]}
        if not pool:
            pool = set(candidates) - set(target.values())
        if len(target) == len(todo):
            break
    first = todo[0]
    options = options_of(state, first)
    hits = [o for o in options if o[2] in candidates]
    goal = m.dist[target.get(first, min(candidates))]
    options = hits or options
    best = min(goal[o[2]] for o in options)
    return rng.choice([o for o in options if goal[o[2]] == best])


TEAM_POLICY: dict[str, Callable[[SYState, random.Random], Option]] = {
    "random": d_random,
    "greedy": d_greedy,
    "team": d_team,
}

# ------------------------------------------------------------------------------------------ games

CONFIGS: dict[int, JSONObject] = {
    k: {"mister_x": "X", "detectives": [f"D{i}" for i in range(1, k + 1)]} for k in range(1, 6)
}


@dataclass(frozen=True)
class Result:
    escaped: bool
    round: int
    cpu: tuple[float, ...]  # seconds per Mister X decision


def play(x_name: str, team: str, game_seed: int, detectives: int) -> Result:
    state = RULES.setup(CONFIGS[detectives])
    table_rng = random.Random(game_seed)
    state = _commit(state, RULES.decide(state, DrawStart(), TABLE, table_rng))
    x_rng = random.Random(f"x/{game_seed}")
    d_rng = random.Random(f"d/{game_seed}")
    x_policy, d_policy = X_POLICY[x_name], TEAM_POLICY[team]
    cpu: list[float] = []
    while state.end is None:
        if state.phase == "x":
            t0 = time.thread_time()
            intent = x_policy(state, x_rng, game_seed)
            cpu.append(time.thread_time() - t0)
            state = _commit(state, RULES.decide(state, intent, MRX, table_rng))
        else:
            i, line, station = d_policy(state, d_rng)
            move = Move(state.figures[i], line, station)  # type: ignore[arg-type]
            state = _commit(state, RULES.decide(state, move, TABLE, table_rng))
    return Result(state.end.reason in ("x_escaped", "detectives_stuck"), state.round, tuple(cpu))


def _commit(state: SYState, events: tuple[object, ...]) -> SYState:
    for event in events:
        state = RULES.apply(state, event)  # type: ignore[arg-type]
    return state


def _job(args: tuple[str, str, int, int]) -> Result:
    return play(*args)


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
    parser.add_argument("--games", type=int, default=1000, help="seeded games per pairing (seeds 0..N-1)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--detectives", type=int, default=3, choices=range(1, 6), help="detective players")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="worker processes")
    parser.add_argument("--x", nargs="+", default=list(X_PLAYERS), choices=X_PLAYERS)
    parser.add_argument("--team", nargs="+", default=list(TEAMS), choices=TEAMS)
    args = parser.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.games)
    figures = RULES.setup(CONFIGS[args.detectives]).figures
    print(
        f"Mister X AI benchmark: {args.games} games per pairing (seeds {seeds.start}..{seeds.stop - 1}), "
        f"{args.detectives} detective player(s) = figures {', '.join(figures)}; "
        f"{cpu_name()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, "
        f"{args.jobs} worker(s); CPU budget per decision {ai.CPU_BUDGET} s"
    )
    header = f"{'Mister X':<8} | " + " | ".join(f"{'vs ' + t:^26}" for t in args.team) + " | CPU s/decision: mean, max"
    print(header)
    print("-" * len(header))
    start = time.perf_counter()
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(args.jobs) as pool:
        for x_name in args.x:
            cells = []
            cpu: list[float] = []
            for team in args.team:
                jobs = [(x_name, team, s, args.detectives) for s in seeds]
                results = pool.map(_job, jobs, chunksize=max(1, len(jobs) // (8 * args.jobs)))
                escapes = sum(r.escaped for r in results)
                lost = [r.round for r in results if not r.escaped]
                mean = f"{statistics.mean(lost):4.1f}" if lost else "  - "
                cells.append(f"escapes {100 * escapes / len(results):5.1f}%, caught rd {mean}")
                cpu += [c for r in results for c in r.cpu]
            timing = f"{statistics.mean(cpu):.4f}, {max(cpu):.3f}" if x_name in ai.LEVELS else "-"
            print(f"{x_name:<8} | " + " | ".join(f"{c:^26}" for c in cells) + f" | {timing}", flush=True)
    print(f"({time.perf_counter() - start:.0f} s wall)")


if __name__ == "__main__":
    main()
