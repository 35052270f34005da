"""Companion benchmarks — run by hand, never by the tests:

    .venv/bin/python benchmarks/bench.py [--dir DIR] [--events N]

Prints, as numbers:
1. per-event commit latency through the store, next to a bare SQLite insert+commit with the same
   settings (WAL, synchronous=FULL) on the same disk — the floor;
2. the same through the whole table (decide → commit → apply → publish → ack);
3. replay (fold) time of a 10,000-event log: the toy game's log, and real Scotland Yard games;
4. the Scotland Yard tracker's cost per Mister X move.

Use ``--dir`` to measure on the disk that matters (the Pi's SD card), not /tmp.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import conftest  # noqa: E402,F401  (registers the toy game used as a neutral workload)
from drivers import DRIVERS, reference_run  # noqa: E402
from toygame import RULES as TOY  # noqa: E402
from toygame import Add, Added, Draw  # noqa: E402

from companion.app.store import Store, StoredEvent  # noqa: E402
from companion.app.table import Table  # noqa: E402
from companion.core import TABLE, Audience, Game, event_codec  # noqa: E402


def summary(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"median {statistics.median(ms):7.3f} ms   p95 {p95:7.3f} ms   max {ms[-1]:7.3f} ms   (n={len(ms)})"


def bench_floor(path: Path, n: int) -> list[float]:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute(
        "CREATE TABLE events (game_id INTEGER, seq INTEGER, action INTEGER, body TEXT, PRIMARY KEY (game_id, seq))"
    )
    body = '{"amount":2,"ends_turn":true,"kind":"toy.added","seat":"a"}'
    out = []
    for seq in range(1, n + 1):
        t0 = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO events VALUES (1, ?, ?, ?)", (seq, seq, body))
        db.execute("COMMIT")
        out.append(time.perf_counter() - t0)
    db.close()
    return out


def bench_store(path: Path, n: int) -> list[float]:
    codec = event_codec(TOY)
    body = codec.encode(Added("a", 2))
    out = []
    with Store(path) as store:
        gid = store.create_game("toy", "bench", {}, 1)
        for seq in range(1, n + 1):
            t0 = time.perf_counter()
            store.append(gid, [StoredEvent(seq, seq, body)]).result()
            out.append(time.perf_counter() - t0)
    return out


def bench_table(path: Path, n: int) -> list[float]:
    async def run() -> list[float]:
        table = Table(Store(path))
        await table.start()
        gid = await table.new_game("toy", {"seats": ["a"], "target": 10**9}, "bench")
        table.subscribe(TABLE, lambda _m: None)
        table.subscribe(Audience.of_seat("a"), lambda _m: None)
        await table.submit(Draw(), TABLE, 0, game_id=gid)
        out = []
        for _ in range(n):
            t0 = time.perf_counter()
            await table.submit(Add("a", 1), Audience.of_seat("a"), table.seq, game_id=gid)
            out.append(time.perf_counter() - t0)
        await table.stop()
        table.store.close()
        return out

    return asyncio.run(run())


def timed(fn: Callable[[], Any], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def bench_replay_toy() -> str:
    game: Game[Any] = Game(TOY, {"target": 10**9}, 3)
    game.commit(game.decide(Draw(), TABLE, 0))
    while game.seq < 10_000:
        seat = game.state.seats[game.state.turn]
        game.commit(game.decide(Add(seat, 1), Audience.of_seat(seat), game.seq))
    entries = game.entries
    seconds = timed(lambda: Game(TOY, game.config, game.seed, entries))
    return f"toy game, {len(entries)} events: {seconds * 1000:.1f} ms ({len(entries) / seconds:,.0f} events/s)"


def bench_replay_real(name: str, target_events: int = 10_000) -> str:
    if name not in DRIVERS:
        return f"{name}: no driver yet"
    rules_name, config, _ = DRIVERS[name]
    rng = random.Random(5)
    games = []
    total = 0
    while total < target_events:
        g = reference_run(rules_name, config, rng.randrange(1 << 30), rng.randrange(1 << 30), past_seq=10**9)
        games.append(g)
        total += g.seq
    seconds = timed(lambda: [Game(g.rules, g.config, g.seed, g.entries) for g in games], repeat=3)
    return f"{name}: {total} events in {len(games)} games: {seconds * 1000:.1f} ms ({total / seconds:,.0f} events/s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", help="directory on the disk to measure (default: a temporary one)")
    parser.add_argument("--events", type=int, default=300, help="events per commit benchmark")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        base = Path(tmp)
        print(f"commit latency per event on {base} ({args.events} events each)")
        print("  bare SQLite insert+commit (floor):", summary(bench_floor(base / "floor.sqlite3", args.events)))
        print("  store.append (writer thread)     :", summary(bench_store(base / "store.sqlite3", args.events)))
        print("  table.submit → ack               :", summary(bench_table(base / "table.sqlite3", args.events)))
    print("replay (fold) of a 10,000-event log")
    print("  " + bench_replay_toy())
    for name in ("scotland_yard", "victorian_masterminds", "mykerinos"):
        print("  " + bench_replay_real(name))
    tracker = EXTRA.get("tracker")
    print("Scotland Yard tracker cost per Mister X move")
    print("  " + (tracker() if tracker else "no tracker benchmark yet"))


def bench_tracker() -> str:
    """The tracker's step after each Mister X move, timed over the moves of real random games."""
    from companion.core import Undone, fold
    from companion.games.scotland_yard import tracker
    from companion.games.scotland_yard.model import XMoved

    rules_name, config, _ = DRIVERS["scotland_yard"]
    rng = random.Random(9)
    samples: list[float] = []
    sizes: list[int] = []
    while len(samples) < 2000:
        g = reference_run(rules_name, config, rng.randrange(1 << 30), rng.randrange(1 << 30), past_seq=10**9)
        undone = {e.event.target for e in g.entries if isinstance(e.event, Undone)}
        state = g.start
        for entry in g.entries:
            if entry.action in undone or isinstance(entry.event, Undone):
                continue
            if isinstance(entry.event, XMoved):
                occupied = {p for p in state.positions if p}
                t0 = time.perf_counter()
                tracker.after_x_move(state.board, state.candidates, entry.event.ticket, occupied)
                samples.append(time.perf_counter() - t0)
                sizes.append(len(state.candidates))
            state = g.rules.apply(state, entry.event)
        assert state == fold(g.rules, g.start, g.entries)
    return f"{summary(samples)}; candidates before the move: median {statistics.median(sizes):.0f}"


EXTRA: dict[str, Callable[[], str]] = {"tracker": bench_tracker}

if __name__ == "__main__":
    main()
