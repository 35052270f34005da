"""A phone's language over the real server's web socket: the welcome names the languages, a seat
may choose its own (every phone of that seat is told, and the Pi's refusals to it use it), ``null``
follows the table again, an unknown language changes nothing; a change of the table's language
reaches every phone that follows it at once, and none that chose its own."""

from __future__ import annotations

import asyncio
from pathlib import Path

from harness import rig

from companion.app.names import refusal_text
from companion.core.errors import CompanionError

CONFIG = {"mister_x": "Alice", "detectives": ["Bob"]}


def test_a_seat_chooses_its_language_and_the_others_follow_the_table(tmp_path: Path) -> None:
    table_language = ["fr"]

    async def scenario() -> None:
        async with rig(tmp_path, "scotland_yard", CONFIG) as r:
            r.server.language = lambda: table_language[0]
            tokens = r.tokens(["mrx", "d1"])
            x = await r.phone(tokens["mrx"])
            welcome = await x.recv()
            assert welcome["type"] == "welcome" and welcome["lang"] == "fr" and welcome["own_lang"] is False
            assert [lang["code"] for lang in welcome["languages"]][:1] == ["en"]
            assert {"code": "es", "name": "Español"} in welcome["languages"]
            x2 = await r.phone(tokens["mrx"], device=x.device)  # the same phone, a second tab
            assert (await x2.recv())["type"] == "welcome"
            d = await r.phone(tokens["d1"])
            assert (await d.recv())["lang"] == "fr"

            await x.send({"type": "lang", "lang": "es"})
            for phone in (x, x2):  # both tabs of that seat
                assert await phone.until("lang") == {"type": "lang", "lang": "es", "own_lang": True}
            game = r.table.game
            assert game is not None
            refused = await x.intent(game.seq, {"kind": "sy.move", "figure": "D1", "ticket": "taxi", "station": 1})
            assert refused["type"] == "refused"
            error = CompanionError(refused["code"], **refused["params"])
            assert (
                refused["text"]
                == refusal_text(error, "es", (), r.table.current)
                != refusal_text(error, "fr", (), r.table.current)
            )

            # The table's language changes: the detective is told, Mister X is not.
            table_language[0] = "de"
            r.server.language_changed()
            assert await d.until("lang") == {"type": "lang", "lang": "de", "own_lang": False}
            await x.send({"type": "lang", "lang": "xx"})  # no such language: refused, nothing changes
            assert (await x.until("refused"))["code"] == "malformed"
            assert not [m for m in x.received if '"lang": "de"' in m]

            await x.send({"type": "lang", "lang": None})  # follow the table again
            assert await x.until("lang") == {"type": "lang", "lang": "de", "own_lang": False}
            for phone in (x, x2, d):
                await phone.close()

    asyncio.run(scenario())
