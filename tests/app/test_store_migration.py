"""A store file written by the last version before checkpoints (schema 4) opens and keeps every
game: the file in tests/app/data/schema4.db was made by that version's own table
(tests/app/data/make_store_file.py), three games played by the tests' random players with undos,
sources, phone links and preferences. Opening it upgrades the schema and changes no row; every
game folds to what its events, re-decided by the rules, give; and play goes on, with checkpoints."""

from __future__ import annotations

import asyncio
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from drivers import DRIVERS

from companion.app.savedgame import check_game, export_game, import_game, keep_checkpoints, load_game, status_of
from companion.app.store import SCHEMA_VERSION, Store
from companion.app.table import Table
from companion.core import Game, Undo
from companion.core.playthrough import audiences

OLD = Path(__file__).resolve().parent / "data" / "schema4.db"
KEPT = {  # every row the old version wrote, as it wrote it
    "games": "SELECT id, rules, title, config, seed, created, updated, status FROM games ORDER BY id",
    "events": "SELECT game_id, seq, action, body, source FROM events ORDER BY game_id, seq",
    "links": "SELECT game_id, seat, token, device, issued FROM seat_links ORDER BY game_id, seat",
    "preferences": "SELECT key, value FROM preferences ORDER BY key",
    "meta": "SELECT key, value FROM meta ORDER BY key",
}


def read(path: Path, sql: str) -> list[tuple[Any, ...]]:
    db = sqlite3.connect(path)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def old_file(tmp_path: Path) -> Path:
    path = tmp_path / "table.sqlite3"
    shutil.copyfile(OLD, path)
    assert read(path, "PRAGMA user_version") == [(4,)]
    return path


def test_a_schema_4_file_opens_and_keeps_every_game(tmp_path: Path) -> None:
    path = old_file(tmp_path)
    before = {name: read(path, sql) for name, sql in KEPT.items()}
    assert [(g[1], g[7]) for g in before["games"]] == [
        ("scotland_yard", "finished"),
        ("victorian_masterminds", "playing"),
        ("mykerinos", "playing"),
    ]
    assert len(before["events"]) > 500 and before["links"] and before["preferences"]
    sources = {(e[0], e[1]): e[4] for e in before["events"] if e[4]}
    with Store(path) as store:
        assert store.call(lambda db: db.execute("PRAGMA user_version").fetchone()[0]) == SCHEMA_VERSION
        assert store.preferences()["language"] == "de"
        assert store.current() == 3
        for header in store.games():
            loaded = load_game(store, header.id)
            replayed = check_game(header.rules, header.config, header.seed, store.events(header.id))
            assert loaded.game.state == replayed.state and loaded.game.entries == replayed.entries
            assert status_of(loaded.game) == header.status
            assert loaded.checkpointed == frozenset()  # none in an old file
            for (game_id, action), source in sources.items():
                if game_id == header.id:
                    assert loaded.source(action) == source
    # Opening changed no row the old version wrote.
    assert {name: read(path, sql) for name, sql in KEPT.items()} == before


def test_play_goes_on_in_an_upgraded_file_with_checkpoints(tmp_path: Path) -> None:
    """The table opens the old file's current game, then the long one, plays on and undoes; the
    store gets the checkpoints of the old events; every reopening folds to the whole log."""
    path = old_file(tmp_path)
    rules, _, choose = DRIVERS["victorian_masterminds"]

    async def play_on() -> Game[Any]:
        table = Table(Store(path))
        await table.start()
        assert table.current is not None and table.current.header.id == 3
        await table.open_game(2)
        rng = random.Random(8)
        undos = 0
        for n in range(40):
            game = table.game
            assert game is not None
            undoers = [a for a in audiences(game) if game.can_undo(a)] if n % 5 == 4 else []
            choice = (Undo(), undoers[0]) if undoers else choose(game, rng)
            assert choice is not None
            undos += isinstance(choice[0], Undo)
            await table.submit(choice[0], choice[1], game.seq, game_id=2, source="touchscreen")
        game = table.game
        assert game is not None and undos >= 2
        await table.stop()
        table.store.close()
        return game

    played = asyncio.run(play_on())
    with Store(path) as store:
        loaded = load_game(store, 2)
        assert len(loaded.checkpointed) >= len(played.checkpoints()) > 4
        assert not loaded.game.refused_checkpoints
        whole = Game(played.rules, played.config, played.seed, list(store_entries(store, 2)))
        assert loaded.game.state == whole.state == played.state
        assert keep_checkpoints(store, loaded) is None
        # The upgraded file's games travel as before: exported, imported, the same game (what
        # follows its recorded events is drawn afresh: Victorian Masterminds' salt, see protocol.md).
        again = load_game(store, import_game(store, export_game(store, 2)))
        recorded = list(again.game.entries)[: played.seq]
        assert Game(again.game.rules, again.header.config, again.header.seed, recorded).state == played.state
        assert again.header.rules == rules


def store_entries(store: Store, game_id: int) -> list[Any]:
    header = store.header(game_id)
    return list(check_game(header.rules, header.config, header.seed, store.events(game_id)).entries)
