"""The store: a real SQLite file with the durability settings, games listed, resumed, exported,
imported, deleted, and the schema upgraded by migrations."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from toygame import RULES, Add, Draw

from companion.app import store as store_module
from companion.app.savedgame import export_game, import_game, load_game
from companion.app.store import SCHEMA_VERSION, Store, StoredEvent, StoreError, connect
from companion.core import TABLE, Audience, Game, MalformedInput, event_codec


def store_game(store: Store, game: Game) -> int:  # type: ignore[type-arg]
    game_id = store.create_game("toy", "a toy", game.config, game.seed)
    codec = event_codec(RULES)
    for entry in game.entries:
        store.append(game_id, [StoredEvent(entry.seq, entry.action, codec.encode(entry.event))]).result()
    return game_id


def toy_game() -> Game:  # type: ignore[type-arg]
    game = Game(RULES, {}, seed=11)
    game.commit(game.decide(Draw(), TABLE, 0))
    game.commit(game.decide(Add("a", 2), Audience.of_seat("a"), 1))
    return game


def test_durability_settings(tmp_path: Path) -> None:
    with Store(tmp_path / "c.sqlite3"):
        pass
    db = connect(tmp_path / "c.sqlite3")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_header_counts_the_actions_a_player_made_not_only_the_events() -> None:
    """The saved-games list says "3 actions", the moves, draws and undos a player made, not how many
    events they wrote (a double move writes several)."""
    from companion.core.events import Undo

    game = toy_game()
    game.commit(game.decide(Undo(), Audience.of_seat("a"), game.seq))
    with Store(":memory:") as store:
        gid = store_game(store, game)
        [header] = store.games()
        assert header.actions == 3 == len({e.action for e in game.entries})
        assert header.events == len(game.entries)
        assert store.header(gid).actions == 3
        assert load_game(store, gid).header.actions == 3


def test_list_resume_export_import_delete(tmp_path: Path) -> None:
    game = toy_game()
    with Store(tmp_path / "c.sqlite3") as store:
        gid = store_game(store, game)
        assert store.current() == gid
        [header] = store.games()
        assert (header.rules, header.events, header.status) == ("toy", 2, "playing")
        assert load_game(store, gid).game.state == game.state

        data = export_game(store, gid)
        other = import_game(store, data)
        assert other != gid
        assert load_game(store, other).game.state == game.state
        assert export_game(store, other)["events"] == data["events"]

        store.delete(gid)
        assert store.current() is None
        assert [h.id for h in store.games()] == [other]
        with pytest.raises(StoreError) as info:
            store.header(gid)
        assert info.value.code == "store.no_game"


def test_an_action_is_one_transaction(tmp_path: Path) -> None:
    with Store(tmp_path / "c.sqlite3") as store:
        gid = store.create_game("toy", "t", {}, 1)
        store.append(gid, [StoredEvent(1, 1, {"kind": "toy.secrets", "values": [1, 2]})]).result()
        # The second event of this action collides with seq 1: nothing of the action is kept.
        bad = [StoredEvent(2, 2, {"kind": "toy.added", "seat": "a", "amount": 1}), StoredEvent(1, 2, {"kind": "x"})]
        with pytest.raises(sqlite3.IntegrityError):
            store.append(gid, bad).result()
        assert [e.seq for e in store.events(gid)] == [1]


def test_the_games_row_follows_the_status_at_once_and_the_time_every_few_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The status (the saved games list; a finished game's end time in the history) is written with
    the commit that changes it; while it stays the same, the "last played" time only every
    TOUCH_EVERY seconds, so most commits write one row instead of two."""
    path = tmp_path / "t.sqlite3"
    look = sqlite3.connect(str(path), isolation_level=None)  # a second reader, as WAL allows

    def row() -> tuple[str, str]:
        found = look.execute("SELECT updated, status FROM games").fetchone()
        return found[0], found[1]

    def append(store: Store, seq: int, status: str) -> None:
        store.append(gid, [StoredEvent(seq, seq, {"kind": "toy.added", "seat": "a", "amount": 1})], status).result()

    with Store(path) as store:
        gid = store.create_game("toy", "t", {}, 1)
        look.execute("UPDATE games SET updated = 'then'")
        append(store, 1, "playing")
        assert row()[0] != "then", "a store's first commit of a game writes its time"
        look.execute("UPDATE games SET updated = 'then'")
        append(store, 2, "playing")
        assert row() == ("then", "playing"), "the same status a moment later: the row is left alone"
        append(store, 3, "finished")
        assert row()[0] != "then" and row()[1] == "finished", "a new status is written at once"
        look.execute("UPDATE games SET updated = 'then'")
        monkeypatch.setattr(store_module, "TOUCH_EVERY", 0.0)
        append(store, 4, "finished")
        assert row()[0] != "then", "once the time is old enough, it is written again"
        monkeypatch.undo()
    look.execute("UPDATE games SET updated = 'then'")
    with Store(path) as again:  # after a restart (or a power cut): written with the first commit
        append(again, 5, "finished")
    assert row()[0] != "then"
    look.close()


@pytest.mark.parametrize(
    "garbage",
    [
        None,
        {"format": "something else"},
        {"format": "companion-game", "version": 99},
        {
            "format": "companion-game",
            "version": 1,
            "rules": "toy",
            "title": "t",
            "config": {},
            "seed": 1,
            "events": [{"seq": 2, "action": 2, "event": {"kind": "toy.secrets", "values": [1, 2]}}],
        },
        {
            "format": "companion-game",
            "version": 1,
            "rules": "toy",
            "title": "t",
            "config": {},
            "seed": 1,
            "events": [{"seq": 1, "action": 1, "event": {"kind": "toy.secrets", "values": "no"}}],
        },
        {
            "format": "companion-game",
            "version": 1,
            "rules": "toy",
            "title": "t",
            "config": {},
            "seed": 1,
            "events": [{"seq": 1, "action": 1, "event": {"kind": "sy.x_moved", "station": 1}}],
        },
    ],
)
def test_import_refuses_garbage_and_stores_nothing(tmp_path: Path, garbage: object) -> None:
    with Store(tmp_path / "c.sqlite3") as store:
        with pytest.raises(MalformedInput):
            import_game(store, garbage)  # type: ignore[arg-type]
        assert store.games() == []


def test_migration_from_version_1_keeps_the_games(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    from companion.app import store as store_module

    store_module.MIGRATIONS[0](db)
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO games (rules, title, config, seed, created, updated) VALUES ('toy','old','{}',5,'x','x')")
    db.close()
    with Store(path) as store:
        assert [h.title for h in store.games()] == ["old"]
        store.set_preference("language", "de")
        assert store.preferences() == {"language": "de"}
    assert connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_newer_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError) as info:
        Store(path)
    assert info.value.code == "store.too_new"


def test_a_job_given_after_close_is_refused_not_left_waiting(tmp_path: Path) -> None:
    """A request handler's thread that reads the saved games while the app stops must get an answer:
    a job queued behind the writer's end marker never ran, and its caller (the event loop's executor,
    joined at the stop) waited forever — a stop that hung until the test's 600 s limit."""
    store = Store(tmp_path / "c.sqlite3")
    assert store.games() == []
    store.close()
    done: list[BaseException] = []

    def reader() -> None:
        try:
            store.games()
        except BaseException as exc:
            done.append(exc)

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    thread.join(timeout=30)
    assert not thread.is_alive(), "a read after close() waits forever"
    assert isinstance(done[0], StoreError) and done[0].code == "store.closed"
    store.close()  # twice is fine
