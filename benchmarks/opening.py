"""P6: open a game of 10,000 events from its SQLite file (``savedgame.load_game``: read the rows
and checkpoints, fold from the last checkpoint, decoding only what counts) against the floor: a
raw read of the same rows from the same file."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from common import Ratio, interleaved
from workloads import Played

from companion.app.savedgame import checkpoint_rows, load_game
from companion.app.store import Store, StoredEvent
from companion.core import event_codec

ROWS_SQL = "SELECT seq, action, body FROM events WHERE game_id = ? ORDER BY seq"


def write(path: Path, played: Played) -> int:
    """Store the game as the table would have, one file per game: its events, and the checkpoints
    the table writes with every 16th action that counts."""
    game = played.game
    codec = event_codec(game.rules)
    with Store(path) as store:
        game_id = store.create_game(game.rules.name, "bench", game.config, game.seed)
        rows = [StoredEvent(e.seq, e.action, codec.encode(e.event)) for e in game.entries]
        for start in range(0, len(rows), 1000):
            store.append(game_id, rows[start : start + 1000]).result()
        store.put_checkpoints(game_id, game.fold_key, checkpoint_rows(game))
    return game_id


def measure(folder: Path, label: str, played: Played, pairs: int) -> Ratio:
    path = folder / f"open-{played.game.rules.name}.sqlite3"
    game_id = write(path, played)
    ratio = Ratio(
        "P6",
        f"open a game of {played.game.seq:,} events from its file ({label})",
        "raw read of the same rows (sqlite3, one SELECT)",
        "savedgame.load_game: read, fold from the last checkpoint",
        target_median=3.0,
    )
    raw = sqlite3.connect(str(path))
    with Store(path) as store:

        def floor() -> float:
            t0 = time.perf_counter()
            rows = raw.execute(ROWS_SQL, (game_id,)).fetchall()
            elapsed = time.perf_counter() - t0
            assert len(rows) == played.game.seq
            return elapsed

        def project() -> float:
            t0 = time.perf_counter()
            loaded = load_game(store, game_id)
            elapsed = time.perf_counter() - t0
            assert loaded.game.seq == played.game.seq
            return elapsed

        assert load_game(store, game_id).game.state == played.game.state, "the file folds to the live state"
        floor(), project()  # warm the page cache and the code paths
        interleaved(pairs, floor, project, ratio)
    raw.close()
    return ratio
