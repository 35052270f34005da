"""The last zone confirmed on the table link in real Chromium (360 px): the steppers start from what
the books leave there, the page names the earlier zones as counted, and after a lower count every
phone says that many stood in an earlier zone counted too low. Screenshots:
artifacts/screenshots/phone-myk-last-zone-*.png.

Rulebook (DE, Wertung): each zone ranks the players by the archaeologists standing in it; a player
with none there is not ranked."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from browser import chromium
from harness import rig
from phone_steps import confirm, open_phones, settled, shot, tap, view

from companion.app.seats import TABLE_SEAT
from companion.core import TABLE
from companion.games.mykerinos.intents import ChooseStartPlayer, EnterPatrons

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "mykerinos"))
from myk_helpers import parse

SEATS = ["blue", "red", "green"]
PATRONS = ["lord_lemon", "mrs_blackmore", "sir_brown", "colonel_tangerine", "lady_violet"]


@pytest.mark.slow
def test_the_last_zone_is_confirmed_and_a_lower_count_points_back(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rig(tmp_path, "mykerinos", {"seats": SEATS}) as r, chromium() as browser:
            assert r.table.current is not None and r.table.current.header.config["last_zone"] == "confirm"
            game_id = r.table.current.header.id
            await r.table.submit(ChooseStartPlayer("blue"), TABLE, r.table.seq, game_id=game_id)
            await r.table.submit(EnterPatrons(tuple(PATRONS)), TABLE, r.table.seq, game_id=game_id)
            script = [
                "blue start", "red start", "green start", "blue extend", "red extend",
                "green pass", "blue pass", "red pass",
                "counts blue=2 red=1", "blue parcel lemon 2", "red parcel brown 3", "counts", "counts",
            ]  # fmt: skip
            for line in script:
                intent, actor = parse(line)
                await r.table.submit(intent, actor, r.table.seq, game_id=game_id)
            pages = await open_phones(r, browser, ["blue", TABLE_SEAT])
            blue, table = pages["blue"], pages[TABLE_SEAT]
            assert view(r)["survey"]["zone"] == 4 and view(r)["survey"]["counts"] is None

            text = await table.inner_text("[data-last-zone=confirm]")
            assert "by the books: Blue 1, Red 2, Green 1" in text and "zone 1: Blue 2, Red 1" in text
            for colour, n in (("blue", 1), ("red", 2), ("green", 1)):  # the steppers start from the books
                assert await table.locator(f"[data-count={colour}] .step-n").inner_text() == str(n)
            await shot(table, "myk-last-zone-confirm")
            await tap(table, "[data-count=blue] [data-step='-']")  # blue's last one stood in zone 1
            await confirm(r, table, "[data-action=counts]")
            assert view(r)["survey"]["ranking"] == ["red", "green"]
            for page in (blue, table):
                await settled(page, r.table.seq)
                missed = await page.inner_text("[data-last-zone=missed]")
                assert missed.startswith("Fewer than the books here (Blue 1)") and "zone 1: Blue 2, Red 1" in missed
            await shot(blue, "myk-last-zone-missed")

    asyncio.run(scenario())
