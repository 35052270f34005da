"""The AI's decision time on one Raspberry Pi 4 core (``bench_ai.py --pi-speed``), Mister X's
(:func:`run`) and the table's detectives' (:func:`run_detectives`).

Games of each level against the strongest team are played here, uncapped; every one of Mister
X's decisions is made by a worker process inside the Pi-speed cgroup (``pispeed.CpuCap``), which
times it: wall time there is a Pi 4 core's CPU time (one thread, the quota's share of one
core). The worker gets the AI's CPU budget scaled by the calibration's ratio (its thread CPU
clock counts this machine's seconds), so a decision is cut short exactly where the Pi would cut
it; cut decisions are counted. As a cross-check each decision's host CPU time times the ratio is
reported too. Without cgroups (not root), the worker runs uncapped and the table says so.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pispeed
from ai_teams import TEAMS
from sy_games import MRX, commit, quantiles, start

from companion.core import TABLE
from companion.games.scotland_yard import RULES, ai, detectives_ai
from companion.games.scotland_yard.model import Move

TEAM = "hunter"


def _x_worker(path: str | None, conn: Connection) -> None:
    if path is not None:
        pispeed.CpuCap.join(Path(path))
    while True:
        job = conn.recv()
        if job is None:
            return
        state, level, seed, budget = job
        w0, c0 = time.perf_counter(), time.thread_time()
        decision = ai.decide(state, level, seed, budget)
        conn.send((decision.choice, time.perf_counter() - w0, time.thread_time() - c0, decision.cut))


def _d_worker(path: str | None, conn: Connection) -> None:
    """The table's detectives' decisions, timed inside the Pi-speed cgroup."""
    if path is not None:
        pispeed.CpuCap.join(Path(path))
    while True:
        job = conn.recv()
        if job is None:
            return
        state, level, seed = job
        w0, c0 = time.perf_counter(), time.thread_time()
        choice = detectives_ai.decide(state, level, seed)
        conn.send(((choice.figure, choice.line, choice.station), time.perf_counter() - w0, time.thread_time() - c0))


def _calibrated() -> tuple[str | None, pispeed.Calibration]:
    """The calibration, said, and why the cap is unavailable (``None``: it is there)."""
    reason = pispeed.unavailable()
    cal = pispeed.calibrate(check=reason is None)
    print(cal.describe(), flush=True)
    if reason:
        print(f"Pi-speed cap UNAVAILABLE ({reason}): the times below are this machine's, uncapped", flush=True)
    return reason, cal


def _header(reason: str | None, tail: str = "") -> None:
    wall = "Pi s (capped wall)" if reason is None else "UNCAPPED wall s"
    print(f"{'level':<7} | {'decisions':>9} | {wall:<18}: median, p90, max | host CPU x ratio: median, p90, max{tail}")


@contextlib.contextmanager
def _worker(target: Callable[[str | None, Connection], None], cap_path: str | None) -> Iterator[Connection]:
    """A forked worker (inside the cap when ``cap_path`` is given) and the pipe to it."""
    mine, theirs = multiprocessing.get_context("fork").Pipe()
    worker = multiprocessing.get_context("fork").Process(target=target, args=(cap_path, theirs))
    worker.start()
    try:
        yield mine
    finally:
        mine.send(None)
        worker.join()


def _row(level: str, walls: list[float], cpus: list[float], tail: str = "") -> dict[str, Any]:
    """One level's line of the table, printed; its numbers returned."""
    w, c = _quantiles(walls), _quantiles(cpus)
    print(
        f"{level:<7} | {len(walls):>9} | {w['median']:.3f}, {w['p90']:.3f}, {w['max']:.3f}"
        f"{'':>16} | {c['median']:.3f}, {c['p90']:.3f}, {c['max']:.3f}{tail}",
        flush=True,
    )
    return {"decisions": len(walls), "pi_wall": w, "pi_from_cpu": c}


def run_detectives(games: int, detectives: int, x_level: str = "normal") -> dict[str, Any]:
    """Time every decision of the table's detectives (playing every figure) at each level in
    ``games`` games against Mister X played by the product AI at ``x_level`` (uncapped, here: his
    time is not measured). Each decision is one figure's move; the detectives' AI has no CPU budget
    (it does not search), so none is cut."""
    reason, cal = _calibrated()
    out: dict[str, Any] = {"calibration": cal.as_json(), "capped": reason is None, "games": games, "levels": {}}
    print(f"The table's detectives' decisions at Pi speed: {games} games per level vs Mister X {x_level}")
    _header(reason)
    cap = pispeed.CpuCap(cal, f"companion-pispeed-dai-{id(out)}")
    with cap if reason is None else _Nothing():
        for level in detectives_ai.LEVELS:
            walls: list[float] = []
            cpus: list[float] = []
            with _worker(_d_worker, str(cap.path) if reason is None else None) as pipe:
                for seed in range(games):
                    state, table_rng = start(seed, detectives)
                    while state.end is None:
                        if state.phase == "x":
                            choice = ai.choose(state, x_level, seed, None)
                            state = commit(state, RULES.decide(state, choice, MRX, table_rng))
                            continue
                        ours = replace(state, d_ai=level, by_table=tuple(True for _ in state.figures))
                        pipe.send((ours, level, seed))  # the rules move them as the players (no pawn waits)
                        (i, line, station), wall_s, cpu = pipe.recv()
                        walls.append(wall_s)
                        cpus.append(cal.pi_seconds(cpu))
                        move = Move(state.figures[i], line, station)
                        state = commit(state, RULES.decide(state, move, TABLE, table_rng))
            out["levels"][level] = _row(level, walls, cpus)
    return out


def _quantiles(samples: list[float]) -> dict[str, float]:
    return dict(zip(("median", "p90", "max"), quantiles(samples), strict=True))


def run(games: int, detectives: int) -> dict[str, Any]:
    """Time every level's decisions in ``games`` games (seeds 0..games-1) and print the table."""
    reason, cal = _calibrated()
    budget = cal.host_budget(ai.CPU_BUDGET)
    out: dict[str, Any] = {"calibration": cal.as_json(), "capped": reason is None, "games": games, "levels": {}}
    print(
        f"AI decisions at Pi speed: {games} games per level vs {TEAM}, seeds 0..{games - 1}; "
        f"budget {ai.CPU_BUDGET} s of Pi CPU = {budget:.3f} s here"
    )
    _header(reason, " | cut")
    cap = pispeed.CpuCap(cal, f"companion-pispeed-ai-{id(out)}")
    with cap if reason is None else _Nothing():
        for level in ai.LEVELS:
            walls: list[float] = []
            cpus: list[float] = []
            cuts = 0
            with _worker(_x_worker, str(cap.path) if reason is None else None) as pipe:
                for seed in range(games):
                    state, table_rng = start(seed, detectives)
                    team = TEAMS[TEAM]()
                    d_rng = random.Random(f"d/{seed}")
                    while state.end is None:
                        if state.phase == "x":
                            pipe.send((state, level, seed, budget))
                            choice, wall, cpu, cut = pipe.recv()
                            walls.append(wall)
                            cpus.append(cal.pi_seconds(cpu))
                            cuts += cut
                            state = commit(state, RULES.decide(state, choice, MRX, table_rng))
                        else:
                            i, line, station = team(state, d_rng)
                            move = Move(state.figures[i], line, station)  # type: ignore[arg-type]
                            state = commit(state, RULES.decide(state, move, TABLE, table_rng))
            out["levels"][level] = {**_row(level, walls, cpus, f"{'':>14} | {cuts}"), "cut": cuts}
    return out


class _Nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        return None
