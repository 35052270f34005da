"""Child process for the crash test: plays a driven game (its seed and the driver's given) into a
real SQLite file through the table and prints ``ACK <seq>`` after every acknowledged intent, up to
the point the test chose (see :func:`main`), until it is killed."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import conftest  # noqa: F401  (registers the toy game)
from drivers import DRIVERS

from companion.app.store import Store
from companion.app.table import Table


async def main(path: str, driver: str, game_seed: int, driver_seed: int, kill_at: int) -> None:
    """Play until the log reaches ``kill_at``, say ``ARMED``, play one action more (the kill lands
    while it is written, or just after), then wait for the kill. A whole game ends with ``END``."""
    rules_name, config, choose = DRIVERS[driver]
    table = Table(Store(path))
    await table.start()
    await table.new_game(rules_name, config, "crash", seed=game_seed)
    print("READY", flush=True)
    rng = random.Random(driver_seed)
    armed = False
    while table.game is not None and table.game.outcome() is None:
        if table.seq >= kill_at:
            if armed:
                break
            armed = True
            print("ARMED", flush=True)
        choice = choose(table.game, rng)
        if choice is None:
            break
        ack = await table.submit(choice[0], choice[1], table.seq, game_id=table.current.header.id)
        print(f"ACK {ack.seq}", flush=True)
    print("END", flush=True)
    await asyncio.sleep(3600)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])))
