"""Saved games made before the app starts: random legal play (``tests/drivers.py``) through the real
table and store, so the app opens them like any table's saved games (end screens, busy boards); a
seat the table plays (Mister X played by the table) is played by the rules' own table turn."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from drivers import DRIVERS

from companion.app.store import Store
from companion.app.table import Table
from companion.core.audience import TABLE, Audience
from companion.core.errors import CompanionError
from companion.core.jsonvalue import JSONObject


async def _play(store: Store, rules: str, config: JSONObject | None, title: str, seed: int, until: Any) -> int:
    table = Table(store)
    await table.start()
    try:
        _, default, choose = DRIVERS[rules]
        game_id = await table.new_game(rules, config if config is not None else default, title, seed=seed)
        rng = random.Random(seed)
        for _ in range(5000):
            game = table.game
            assert game is not None
            if game.outcome() is not None or until(table.message(TABLE)):
                break
            turn_of = getattr(game.rules, "table_turn", None)  # a seat the table plays (Mister X)
            turn = turn_of(game.state, game.seed, None) if turn_of is not None else None
            choice = (turn.decide(), Audience.of_seat(turn.seat)) if turn is not None else choose(game, rng)
            if choice is None:
                break
            try:
                await table.submit(choice[0], choice[1], game.seq, game_id=table.current.header.id)
            except CompanionError:
                continue  # a random driver may try something refused; nothing changed
        return game_id
    finally:
        await table.stop()


def saved_game(
    data_dir: Path,
    rules: str,
    title: str,
    seed: int = 1,
    config: JSONObject | None = None,
    until: Any = lambda message: False,
) -> int:
    """Play ``rules`` randomly until the game ends or ``until(table snapshot)``; returns the game id."""
    data_dir.mkdir(parents=True, exist_ok=True)
    store = Store(data_dir / "companion.sqlite3")
    try:
        return asyncio.run(_play(store, rules, config, title, seed, until))
    finally:
        store.close()
