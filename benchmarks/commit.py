"""P1: one intent through the whole table — decide, commit durably, apply, publish every screen's
view — against the floor: a bare SQLite commit (WAL, ``synchronous=FULL``) of a similar row on a
writer thread, awaited from the same event loop (one loop hop)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import sqlite3
import time
from pathlib import Path
from typing import Any

from common import Ratio
from toygame import Add, Added, Draw

from companion.app.store import Store
from companion.app.table import Table
from companion.core import TABLE, Audience, event_codec
from companion.core.jsonvalue import dumps
from companion.games import get_rules

SEATS = ("a", "b", "c")


class BareWriter:
    """The floor: one thread, one connection with the store's durability settings, one row per commit."""

    def __init__(self, path: Path) -> None:
        self.pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="bench-floor")
        self.db = self.pool.submit(self._open, path).result()
        self.seq = 0

    @staticmethod
    def _open(path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute(
            "CREATE TABLE events (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, action INTEGER NOT NULL,"
            " body TEXT NOT NULL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID"
        )
        return db

    def _commit(self, seq: int, body: str) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute("INSERT INTO events VALUES (1, ?, ?, ?)", (seq, seq, body))
        self.db.execute("COMMIT")

    async def commit(self, body: str) -> None:
        self.seq += 1
        await asyncio.wrap_future(self.pool.submit(self._commit, self.seq, body))

    def close(self) -> None:
        self.pool.submit(self.db.close).result()
        self.pool.shutdown()


async def _round(folder: Path, pairs: int, ratio: Ratio) -> None:
    body = dumps(event_codec(get_rules("toy")).encode(Added("a", 1)))
    floor = BareWriter(folder / "floor.sqlite3")
    store = Store(folder / "table.sqlite3")
    table = Table(store)
    await table.start()
    try:
        game_id = await table.new_game("toy", {"seats": list(SEATS), "target": 10**9}, "bench")
        # The touchscreen and one phone per seat listen, as at a real table.
        received: list[Any] = []
        for audience in (TABLE, *(Audience.of_seat(s) for s in SEATS)):
            table.subscribe(audience, received.append, send_now=False)
        await table.submit(Draw(), TABLE, table.seq, game_id=game_id)

        async def project() -> float:
            game = table.game
            assert game is not None
            seat = game.state.seats[game.state.turn]
            t0 = time.perf_counter()
            await table.submit(Add(seat, 1), Audience.of_seat(seat), game.seq, game_id=game_id)
            return time.perf_counter() - t0

        async def bare() -> float:
            t0 = time.perf_counter()
            await floor.commit(body)
            return time.perf_counter() - t0

        for _ in range(20):  # warm both paths up
            await bare()
            await project()
        for i in range(pairs):
            if i % 2 == 0:
                ratio.floor.add(await bare())
                ratio.project.add(await project())
            else:
                ratio.project.add(await project())
                ratio.floor.add(await bare())
        assert len(received) >= pairs * (len(SEATS) + 1), "every screen got every change"
    finally:
        await table.stop()
        store.close()
        floor.close()


def measure(folder: Path, rounds: int, pairs: int) -> Ratio:
    ratio = Ratio(
        "P1",
        "intent → committed → views published",
        "bare SQLite WAL+FULL commit of a similar row + one loop hop",
        "table.submit of a move, 4 screens listening (toy game)",
        target_median=1.2,
        target_p99=1.5,
    )
    for r in range(rounds):
        sub = folder / f"p1-{r}"
        sub.mkdir()
        asyncio.run(_round(sub, pairs, ratio))
    return ratio
