"""Fan-out: every screen's next view is built while the disk commits, once per audience, and
sent only after the commit; screens of one audience share one message and one JSON text."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

from toygame import Add, AddTwice, Draw

from companion.app.store import Store
from companion.app.table import Table
from companion.core import TABLE, Audience, Undo
from companion.core.jsonvalue import JSONObject

A, B = Audience.of_seat("a"), Audience.of_seat("b")


def test_each_audience_gets_one_message_built_ahead_equal_to_the_committed_view(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = Table(Store(tmp_path / "t.sqlite3"))
        await table.start()
        gid = await table.new_game("toy", {}, "fan-out")
        seen: dict[str, list[JSONObject]] = {}
        # Two screens on the table audience (the touchscreen and a table link), one per seat.
        for label, audience in (("table1", TABLE), ("table2", TABLE), ("a", A), ("b", B)):
            table.subscribe(audience, seen.setdefault(label, []).append, send_now=False)
        steps: list[tuple[Any, Audience]] = [
            (Draw(), TABLE),
            (Add("a", 2), A),
            (AddTwice("b", 1), B),
            (Undo(), TABLE),  # back to the state before b's double addition
            (Undo(), A),  # a's own addition, taken back by a
            (Add("a", 3), TABLE),
        ]
        for number, (intent, actor) in enumerate(steps, start=1):
            await table.submit(intent, actor, table.seq, game_id=gid)
            # The message built before the commit is the one the committed game gives now.
            for label, audience in (("table1", TABLE), ("a", A), ("b", B)):
                assert len(seen[label]) == number
                assert seen[label][-1] == table.message(audience), (intent, label)
            assert seen["table1"][-1] is seen["table2"][-1]  # built once for the audience
            text = table.text(seen["table1"][-1])
            assert text is table.text(seen["table2"][-1]) and json.loads(text) == seen["table1"][-1]
        assert [m["can_undo"] for m in seen["a"]] == [False, True, False, True, False, True]
        await table.stop()
        table.store.close()

    asyncio.run(scenario())


def test_nothing_is_published_when_the_commit_fails(tmp_path: Path) -> None:
    """Views built while the disk works are dropped if the events never become durable."""

    async def scenario() -> None:
        table = Table(Store(tmp_path / "t.sqlite3"))
        await table.start()
        gid = await table.new_game("toy", {}, "fan-out")
        await table.submit(Draw(), TABLE, table.seq, game_id=gid)
        seen: list[JSONObject] = []
        table.subscribe(A, seen.append, send_now=False)
        # Another writer takes the next seq behind the table's back: the table's commit fails.
        db = sqlite3.connect(tmp_path / "t.sqlite3")
        db.execute("INSERT INTO events (game_id, seq, action, body) VALUES (?, 2, 2, '{}')", (gid,))
        db.commit()
        db.close()
        before = table.game.state  # type: ignore[union-attr]
        try:
            await table.submit(Add("a", 1), A, table.seq, game_id=gid)
        except sqlite3.IntegrityError:
            pass
        else:
            raise AssertionError("the commit should have failed")
        assert seen == [] and table.seq == 1 and table.game.state == before  # type: ignore[union-attr]
        await table.stop()
        table.store.close()

    asyncio.run(scenario())
