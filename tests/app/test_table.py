"""The table on a real event loop with a real SQLite file: one consumer, acknowledgement only
after commit, stale intents refused, per-audience publishing, inputs from other threads."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from toygame import Add, Draw

from companion.app.savedgame import load_game
from companion.app.store import Store
from companion.app.table import Table
from companion.core import TABLE, Audience, MalformedInput, StaleIntent, Undo
from companion.core.jsonvalue import JSONObject

A, B = Audience.of_seat("a"), Audience.of_seat("b")


async def open_table(path: Path) -> Table:
    table = Table(Store(path))
    await table.start()
    return table


async def close_table(table: Table) -> None:
    await table.stop()
    table.store.close()


def test_intents_are_acknowledged_after_commit_and_published_per_audience(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table(tmp_path / "t.sqlite3")
        seen: dict[str, list[JSONObject]] = {"table": [], "a": [], "b": []}
        for aud in (TABLE, A, B):
            table.subscribe(aud, seen[aud.label()].append)
        gid = await table.new_game("toy", {}, "test")
        await table.submit(Draw(), TABLE, table.seq, game_id=table.current.header.id)
        ack = await table.submit(Add("a", 3), A, table.seq, game_id=table.current.header.id)
        assert ack.seq == 2
        # Acknowledged means durable: another connection sees the events.
        with Store(tmp_path / "t.sqlite3") as other:
            assert len(other.events(gid)) == 2
        secret_a = seen["a"][-1]["view"]["secret"]  # type: ignore[index]
        assert "secret" not in seen["table"][-1]["view"]  # type: ignore[operator]
        secrets = table.game.state.secrets  # type: ignore[union-attr]
        assert (secret_a, seen["b"][-1]["view"]["secret"]) == secrets  # type: ignore[index]
        assert all("secrets" not in m.get("view", {}) for msgs in seen.values() for m in msgs)  # type: ignore[operator]
        assert seen["table"][0] == {"type": "no_game"}
        assert [m["seq"] for m in seen["table"][1:]] == [0, 1, 2]
        await close_table(table)

    asyncio.run(scenario())


def test_stale_and_malformed_intents_change_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table(tmp_path / "t.sqlite3")
        await table.new_game("toy", {}, "")
        await table.submit(Draw(), TABLE, 0, game_id=table.current.header.id)
        with pytest.raises(StaleIntent):
            await table.submit(Add("a", 1), A, 0, game_id=table.current.header.id)
        for garbage in (
            None,
            [],
            {"seq": 1},
            {"seq": True, "intent": {}},
            {"seq": 1, "intent": {"kind": "x"}},
            {"seq": 1, "intent": {"kind": "toy.add", "seat": "a"}},
            {"seq": 1, "intent": "add"},
        ):
            with pytest.raises(MalformedInput):
                await table.submit_json(garbage, A, game_id=table.current.header.id)  # type: ignore[arg-type]
        assert table.seq == 1
        assert len(table.store.events(table.current.header.id)) == 1  # type: ignore[union-attr]
        # The same intent twice against the same seq (a double tap): only the first counts.
        first = table.submit_json(
            {"seq": 1, "intent": {"kind": "toy.add", "seat": "a", "amount": 1}}, A, game_id=table.current.header.id
        )
        second = table.submit_json(
            {"seq": 1, "intent": {"kind": "toy.add", "seat": "a", "amount": 1}}, A, game_id=table.current.header.id
        )
        results = await asyncio.gather(first, second, return_exceptions=True)
        assert results[0].seq == 2  # type: ignore[union-attr]
        assert isinstance(results[1], StaleIntent)
        await close_table(table)

    asyncio.run(scenario())


def test_other_threads_hand_intents_to_the_loop(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table(tmp_path / "t.sqlite3")
        await table.new_game("toy", {"seats": ["a"]}, "")
        await table.submit(Draw(), TABLE, 0, game_id=table.current.header.id)
        loop_thread = threading.get_ident()
        listener_threads: set[int] = set()
        table.subscribe(TABLE, lambda _m: listener_threads.add(threading.get_ident()), send_now=False)
        futures = []

        def press() -> None:
            for _ in range(3):
                futures.append(table.submit_threadsafe(Add("a", 1), TABLE, game_id=table.current.header.id))

        threads = [threading.Thread(target=press) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        acks = [await asyncio.wrap_future(f) for f in futures]
        assert sorted(a.seq for a in acks) == list(range(2, 11))
        assert table.game.state.total == 9  # type: ignore[union-attr]
        assert listener_threads == {loop_thread}
        await close_table(table)

    asyncio.run(scenario())


def test_a_failing_listener_does_not_stop_the_table_and_restart_resumes(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table(tmp_path / "t.sqlite3")

        def broken(_m: JSONObject) -> None:
            raise RuntimeError("screen crashed")

        table.subscribe(TABLE, broken, send_now=False)
        await table.new_game("toy", {}, "")
        await table.submit(Draw(), TABLE, 0, game_id=table.current.header.id)
        await table.submit(Add("a", 2), A, 1, game_id=table.current.header.id)
        await table.submit(Undo(), A, 2, game_id=table.current.header.id)
        state = table.game.state  # type: ignore[union-attr]
        await close_table(table)

        again = await open_table(tmp_path / "t.sqlite3")
        assert again.game is not None and again.game.state == state and again.seq == 3
        assert load_game(again.store, again.current.header.id).game.state == state  # type: ignore[union-attr]
        await close_table(again)

    asyncio.run(scenario())


def test_debug_audience_cannot_subscribe(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table(tmp_path / "t.sqlite3")
        with pytest.raises(ValueError):
            table.subscribe(Audience.debug(), lambda _m: None)
        await close_table(table)

    asyncio.run(scenario())
