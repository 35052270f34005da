"""Every snapshot names the last action that still counts, in the game's own words for that
screen, and where it came from (issue 12, item 9): "Undo: D2 taxi 53 → 69 (from D2's phone)?"
The words never say more than the screen may know, and survive a restart."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from companion.app.i18n import text
from companion.app.readable import phrase
from companion.app.store import Store
from companion.app.table import Table
from companion.core import TABLE, Audience, Undo
from companion.core.jsonvalue import JSONObject
from companion.games.scotland_yard.model import Move, PlaceDetectives, PlaceX, XDouble, XMove
from companion.games.scotland_yard.model import Step as XStep

MRX, D2 = Audience.of_seat("mrx"), Audience.of_seat("d2")
SY = {"mister_x": "Xavier", "detectives": ["Dora", "Emil"]}


def words(last: Any, lang: str = "en") -> str:
    assert isinstance(last, dict)
    said = last["text"]
    return phrase(said["code"], said["params"], lang)


def test_the_last_action_is_named_for_each_screen_and_survives_a_restart(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = Table(Store(tmp_path / "t.sqlite3"))
        await table.start()
        gid = await table.new_game("scotland_yard", SY, "Friday")
        assert table.message(TABLE)["last"] is None
        await table.submit(
            PlaceDetectives((("D1", 13), ("D2", 53), ("B1", 29), ("B2", 34))), TABLE, game_id=gid, source="touchscreen"
        )
        await table.submit(PlaceX(35), MRX, game_id=gid, source="phone:mrx")
        screens: dict[str, list[JSONObject]] = {"table": [], "d2": [], "mrx": []}
        for name, audience in (("table", TABLE), ("d2", D2), ("mrx", MRX)):
            table.subscribe(audience, screens[name].append, send_now=False)
        await table.submit(XMove("taxi", 48), MRX, game_id=gid, source="phone:mrx")
        # Mister X's move: the table hears the ticket only, he hears his stations.
        public, own = table.message(TABLE)["last"], table.message(MRX)["last"]
        assert words(public) == "Mister X's move (" + text("sy.ticket.taxi") + ")"
        assert "48" not in str(public) and "35" not in str(public)
        assert words(own).endswith("35 → 48") and own["source"] == "phone:mrx"  # type: ignore[index]
        # As published: the screens told the same words share one object (its text written once),
        # Mister X's own words are another; every text is json.dumps of its message.
        sent = {name: got[-1] for name, got in screens.items()}
        assert sent["table"]["last"] is sent["d2"]["last"] and sent["table"]["last"] == public
        assert sent["mrx"]["last"] is not sent["table"]["last"] and sent["mrx"]["last"] == own
        for message in sent.values():
            assert table.text(message) == json.dumps(message, ensure_ascii=False)
        await table.submit(Move("D2", "taxi", 69), D2, game_id=gid, source="phone:d2")
        last = table.message(TABLE)["last"]
        assert last == table.message(D2)["last"]
        assert words(last) == f"D2 {text('sy.ticket.taxi')} 53 → 69"
        assert last["source"] == "phone:d2" and last["seq"] == 4  # type: ignore[index]
        await table.stop()
        table.store.close()

        # After a restart (the state before the action is folded again) and after an undo.
        table = Table(Store(tmp_path / "t.sqlite3"))
        await table.start()
        again = table.message(TABLE)["last"]
        assert again == last
        await table.submit(Undo(), TABLE, game_id=gid, source="touchscreen")
        undone = table.message(MRX)["last"]
        assert words(undone).endswith("35 → 48") and undone["seq"] == 3  # type: ignore[index]
        await table.stop()
        table.store.close()

    asyncio.run(scenario())


def test_a_double_move_is_one_action_in_words(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = Table(Store(tmp_path / "t.sqlite3"))
        await table.start()
        gid = await table.new_game("scotland_yard", SY, "Friday")
        await table.submit(PlaceDetectives((("D1", 13), ("D2", 53), ("B1", 29), ("B2", 34))), TABLE, game_id=gid)
        await table.submit(PlaceX(35), MRX, game_id=gid)
        await table.submit(XDouble(XStep("taxi", 48), XStep("taxi", 62)), MRX, game_id=gid)
        seen: dict[str, JSONObject] = {}
        for audience in (TABLE, MRX, D2):
            last = table.message(audience)["last"]
            assert isinstance(last, dict) and last["source"] == ""
            seen[audience.label()] = last
        assert "48" not in words(seen["table"]) and "62" not in words(seen["d2"])
        assert "35 → 48" in words(seen["mrx"]) and "62" in words(seen["mrx"])
        assert words(seen["table"], "de").startswith("Doppelzug von Mister X")
        await table.stop()
        table.store.close()

    asyncio.run(scenario())
