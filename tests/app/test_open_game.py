"""Opening a game from its SQLite file decodes only the events that still count; the game it
gives is the game that was played: the same state, the same undo, the same log (read lazily)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toygame import RULES, Add, Draw, scripted

from companion.app.savedgame import build_game, export_game, load_game, parse_export
from companion.app.store import Store, StoredEvent
from companion.core import TABLE, Audience, Game, MalformedInput, Undo, Undone, event_codec
from companion.games import get_rules

CONFIG = {"target": 10**6}


def played(script: list[tuple[str, int]], seed: int = 4) -> Game[Any]:
    return scripted(script, seed, CONFIG, by_seat=True)


def stored(store: Store, game: Game[Any]) -> int:
    codec = event_codec(game.rules)
    game_id = store.create_game(game.rules.name, "t", game.config, game.seed)
    rows = [StoredEvent(e.seq, e.action, codec.encode(e.event)) for e in game.entries]
    if rows:
        store.append(game_id, rows).result()
    return game_id


scripts = st.lists(st.tuples(st.sampled_from(["add", "add", "twice", "undo", "undo"]), st.integers(1, 3)), max_size=60)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(scripts)
def test_opened_game_equals_the_played_one(tmp_path: Path, script: list[tuple[str, int]]) -> None:
    game = played(script)
    with Store(tmp_path / f"g{len(script)}-{abs(hash(tuple(script)))}.sqlite3") as store:
        opened = load_game(store, stored(store, game)).game
    assert opened.state == game.state and opened.seq == game.seq
    assert opened.last_action() == game.last_action()
    assert [opened.can_undo(a) for a in (TABLE, Audience.of_seat("a"))] == [
        game.can_undo(a) for a in (TABLE, Audience.of_seat("a"))
    ]
    assert opened.entries == game.entries  # the undone events too, decoded when read
    if game.can_undo(TABLE):
        undo = opened.decide(Undo(), TABLE, opened.seq)
        assert opened.after(undo) == game.after(undo)


def test_undone_events_are_read_only_when_asked_for(tmp_path: Path) -> None:
    game = played([("add", 1), ("add", 2), ("undo", 0)])
    assert isinstance(game.entries[-1].event, Undone) and game.entries[-1].event.target == 3
    with Store(tmp_path / "g.sqlite3") as store:
        game_id = stored(store, game)
        # Damage the undone event (seq 3) in the file: the game still opens, since its state never
        # depended on that event; reading the event itself is refused with a clear error.
        store.call(lambda db: db.execute('UPDATE events SET body = \'{"kind":"toy.nope"}\' WHERE seq = 3'))
        opened = load_game(store, game_id).game
        assert opened.state == game.state
        with pytest.raises(MalformedInput) as info:
            list(opened.entries)
        assert info.value.code == "malformed.unknown_kind"
        # Damage an event that counts: opening is refused.
        store.call(lambda db: db.execute('UPDATE events SET body = \'{"kind":"toy.added"}\' WHERE seq = 2'))
        with pytest.raises(MalformedInput) as info:
            load_game(store, game_id)
        assert info.value.code == "malformed.missing_field"
        store.call(lambda db: db.execute("UPDATE events SET body = 'not json' WHERE seq = 2"))
        with pytest.raises(MalformedInput) as info:
            load_game(store, game_id)
        assert info.value.code == "import.malformed"


def test_an_undo_marker_written_another_way_is_still_an_undo(tmp_path: Path) -> None:
    game = played([("add", 1), ("add", 2), ("undo", 0)])
    with Store(tmp_path / "g.sqlite3") as store:
        game_id = stored(store, game)
        store.call(
            lambda db: db.execute('UPDATE events SET body = \'{ "target": 3, "kind": "core.undone" }\' WHERE seq = 4')
        )
        opened = load_game(store, game_id).game
    assert opened.state == game.state and opened.last_action() == game.last_action()


def test_numbering_the_table_never_writes_is_refused(tmp_path: Path) -> None:
    game = played([("add", 1), ("twice", 2)])
    with Store(tmp_path / "g.sqlite3") as store:
        game_id = stored(store, game)
        # The second event of the double addition claims to start an action of its own.
        store.call(lambda db: db.execute("UPDATE events SET action = 1 WHERE seq = 4"))
        with pytest.raises(MalformedInput) as info:
            load_game(store, game_id)
        assert (info.value.code, info.value.params) == ("import.bad_sequence", {"seq": 4})


@pytest.mark.parametrize("name", ["scotland_yard", "victorian_masterminds", "mykerinos"])
def test_real_games_open_from_their_files_as_played(tmp_path: Path, name: str) -> None:
    from drivers import DRIVERS, reference_run

    rules_name, config, _ = DRIVERS[name]
    game = reference_run(rules_name, config, seed=21, driver_seed=22, past_seq=400)
    with Store(tmp_path / "g.sqlite3") as store:
        game_id = stored(store, game)
        opened = load_game(store, game_id).game
        exported = export_game(store, game_id)
    assert opened.rules is get_rules(name)
    assert opened.state == game.state and opened.last_action() == game.last_action()
    assert opened.entries == game.entries
    rules, _, setup, seed, rows = parse_export(exported)
    assert build_game(rules, setup, seed, rows).state == game.state


def test_the_file_holds_what_was_played(tmp_path: Path) -> None:
    """The rows are the canonical text the store writes (what the fast marker check relies on)."""
    game = played([("add", 1), ("undo", 0)])
    with Store(tmp_path / "g.sqlite3") as store:
        stored(store, game)
    db = sqlite3.connect(tmp_path / "g.sqlite3")
    (body,) = db.execute("SELECT body FROM events WHERE seq = 3").fetchone()
    db.close()
    assert body == '{"kind":"core.undone","target":2}'


def test_the_table_writes_checkpoints_and_opening_reads_them(tmp_path: Path) -> None:
    """Every 16th action that counts is written with the state before it; a reopened game folds
    from the last one. Checkpoints of other code, or spoilt, are ignored; the store gets sound ones."""
    import asyncio

    from companion.app.savedgame import checkpoint_rows, keep_checkpoints
    from companion.app.table import Table
    from companion.core.game import CHECKPOINT

    path = tmp_path / "t.sqlite3"

    async def play() -> Game[Any]:
        table = Table(Store(path))
        await table.start()
        gid = await table.new_game("toy", CONFIG, "long")
        await table.submit(Draw(), TABLE, table.seq, game_id=gid)
        for i in range(3 * CHECKPOINT + 5):
            game = table.game
            assert game is not None
            seat = game.state.seats[game.state.turn]
            intent = Undo() if i % 7 == 6 else Add(seat, 1 + i % 3)
            await table.submit(intent, TABLE, game.seq, game_id=gid)
        game = table.game
        assert game is not None
        await table.stop()
        table.store.close()
        return game

    played_game = asyncio.run(play())
    rows = checkpoint_rows(played_game)
    assert len(rows) >= 2

    def stored() -> list[tuple[int, str, str]]:
        db = sqlite3.connect(path)
        found = db.execute("SELECT action, version, state FROM checkpoints ORDER BY action").fetchall()
        db.close()
        return found

    key = played_game.fold_key
    # Written as the game was played (also for actions taken back later: those are never read).
    assert set(rows) <= {(a, s) for a, v, s in stored() if v == key}
    with Store(path) as store:
        loaded = load_game(store, 1)
        assert loaded.checkpointed >= {a for a, _ in rows} and not loaded.game.refused_checkpoints
        assert loaded.game.state == played_game.state and loaded.game.entries == played_game.entries
        assert keep_checkpoints(store, loaded) is None  # nothing missing, nothing spoilt
        # A spoilt checkpoint (the last one: opening reads it) is ignored, and written again.
        last = rows[-1][0]
        # The same text but for its total (1 put before it): still a state, no longer its seal.
        spoil = "UPDATE checkpoints SET state = replace(state, '\"total\":', '\"total\":1') WHERE action = ?"
        assert store.call(lambda db: db.execute(spoil, (last,)).rowcount) == 1
        spoilt = load_game(store, 1)
        assert spoilt.game.refused_checkpoints == {last} and spoilt.game.state == played_game.state
        written = keep_checkpoints(store, spoilt)
        assert written is not None
        written.result()
        assert set(rows) <= {(a, s) for a, _, s in stored()}
        # Checkpoints of another version of the code are ignored; opening folds, then keeps new ones.
        store.call(lambda db: db.execute("UPDATE checkpoints SET version = 'older', state = '{}'"))
        again = load_game(store, 1)
        assert again.checkpointed == frozenset() and again.game.state == played_game.state
        written = keep_checkpoints(store, again)
        assert written is not None
        written.result()
    assert set(rows) <= {(a, s) for a, _, s in stored()} and {v for _, v, _ in stored()} == {key}


def test_import_takes_no_checkpoint_from_the_file(tmp_path: Path) -> None:
    """A saved-game file carries no checkpoints; one crafted with any is re-checked by replay
    all the same: the imported game's state and checkpoints are those its events fold to."""
    from companion.app.savedgame import checkpoint_rows, import_game
    from companion.core.game import CHECKPOINT

    game = played([("add", 3)] * (3 * CHECKPOINT))
    with Store(tmp_path / "a.sqlite3") as store:
        data = export_game(store, stored(store, game))
        assert "checkpoints" not in data and all(set(e) == {"seq", "action", "event"} for e in data["events"])  # type: ignore[union-attr]
        # A crafted file: a forged state (total 999,999) before every action, in any form it could take.
        forged = {action: game.sealed(action, replace_total(state)) for action, state in game.checkpoints()}
        crafted = {**data, "checkpoints": forged}
        gid = import_game(store, crafted)
        loaded = load_game(store, gid)
        assert loaded.game.state == game.state
        kept = store.call(
            lambda db: db.execute("SELECT action, state FROM checkpoints WHERE game_id = ?", (gid,)).fetchall()
        )
        # (sealed for the imported game's own, fresh seed)
        assert sorted(kept) == sorted(checkpoint_rows(Game(game.rules, game.config, loaded.header.seed, game.entries)))
        # Events with a key the format does not have are refused, not read around.
        events = [{**e, "checkpoint": forged[next(iter(forged))]} for e in data["events"]]  # type: ignore[union-attr,dict-item]
        with pytest.raises(MalformedInput):
            import_game(store, {**data, "events": events})


def replace_total(state: Any) -> Any:
    import dataclasses

    return dataclasses.replace(state, total=999_999)


bodies = st.one_of(
    st.integers(-5, 10**20).map(lambda n: f'{{"kind":"core.undone","target":{n}}}'),
    st.from_regex(r'\{"kind":"core\.undone","target":0*[0-9]{1,3}\} ?', fullmatch=True),
    st.sampled_from(
        [
            '{"kind":"core\\u002eundone","target":3}',
            '{"kind": "core.undone", "target": 3}',
            '{"target":3,"kind":"core.undone"}',
            '{"kind":"toy.added","seat":"a","amount":1,"note":"core.undone"}',
            '{"kind":"core.undone","target":"3"}',
            '{"kind":"core.undone","target":3,"x":1}',
            '{"kind":"toy.added","seat":"a","amount":2}',
        ]
    ),
)


@settings(max_examples=80, deadline=None)
@given(st.lists(bodies, min_size=1, max_size=12))
def test_the_markers_found_in_the_rows_are_those_the_reader_reads(texts: list[str]) -> None:
    """Opening a game finds the undo markers among the stored texts without decoding the others
    (and the canonical ones without decoding at all): exactly those the event reader reads."""
    from companion.app.savedgame import EventReader

    read = EventReader(RULES)
    rows = [(i, i, text, None) for i, text in enumerate(texts, start=1)]
    try:
        expected = {seq: t for seq, _, text, _ in rows if (t := read.undo_target(text)) is not None}
    except MalformedInput:  # a text the reader must decode to tell, and cannot: the game does not open
        with pytest.raises(MalformedInput):
            read.markers(rows)
        return
    assert read.markers(rows) == expected
