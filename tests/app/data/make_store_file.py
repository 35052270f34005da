"""Write a table's store file with the Companion found on the import path, as its table writes it.

The migration tests open files made this way by released versions (``schema4.db``: the last
version before checkpoints). To make the file of an older version, run this script with that
version's checkout first on the path::

    git worktree add /tmp/old <commit> && cd /tmp/old
    PYTHONPATH=.:tests python tests/app/data/make_store_file.py OUT.db

Three games are played through the real table by the tests' random players, with sources, undos,
phone links and preferences: Scotland Yard to its end, Victorian Masterminds and Mykerinos left
running (the last one current).
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TESTS = HERE.parents[1]
for folder in (TESTS, TESTS / "games" / "scotland_yard"):
    sys.path.insert(0, str(folder))

import conftest  # noqa: E402, F401  (the toy game, the shared helpers)
from drivers import DRIVERS  # noqa: E402

from companion.app.seats import SeatLinks  # noqa: E402
from companion.app.store import Store  # noqa: E402
from companion.app.table import Table  # noqa: E402
from companion.core import TABLE, Undo  # noqa: E402

GAMES: list[tuple[str, str, int, int]] = [  # (driver, title, actions at most, seed)
    ("scotland_yard", "Scotland Yard, Friday", 400, 4),
    ("victorian_masterminds", "Masterminds, long evening", 140, 5),
    ("mykerinos", "Mykerinos", 40, 6),
]


async def play(table: Table, name: str, title: str, actions: int, seed: int) -> int:
    rules, config, choose = DRIVERS[name]
    game_id = await table.new_game(rules, config, title)
    rng = random.Random(seed)
    for n in range(actions):
        game: Any = table.game
        if game.outcome() is not None:
            break
        if n % 9 == 8 and game.can_undo(TABLE):
            await table.submit(Undo(), TABLE, game.seq, game_id=game_id, source="touchscreen")
            continue
        choice = choose(game, rng)
        if choice is None:
            break
        intent, actor = choice
        source = f"phone:{actor.seat}" if actor.seat else ("touchscreen" if n % 2 else "input")
        await table.submit(intent, actor, game.seq, game_id=game_id, source=source)
    return game_id


async def main(path: Path) -> None:
    store = Store(path)
    table = Table(store)
    await table.start()
    links = SeatLinks(store)
    for name, title, actions, seed in GAMES:
        game_id = await play(table, name, title, actions, seed)
        game: Any = table.game
        links.ensure(game_id, game.rules.seats(game.state))
    store.set_preference("language", "de")
    store.set_preference("names", ["Ann", "Bob", "Cleo"])
    await table.stop()
    store.close()


if __name__ == "__main__":
    out = Path(sys.argv[1])
    if out.exists():
        sys.exit(f"{out} exists")
    asyncio.run(main(out))
