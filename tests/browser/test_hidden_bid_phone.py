"""The fourth game's phone module: each seat bids on its own phone (ctx.seat), secretly."""

from __future__ import annotations

import asyncio
from pathlib import Path

from browser import PHONE, chromium
from harness import rig

from companion.core import TABLE
from companion.games.hidden_bid.rules import DrawPrizes


def test_two_phones_bid_and_the_prize_goes_to_the_higher_bid(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rig(tmp_path, "hidden_bid", {"players": ["Ann", "Bob"]}, seed=4) as r, chromium() as browser:
            assert r.table.current is not None
            await r.table.submit(DrawPrizes(), TABLE, r.table.seq, game_id=r.table.current.header.id)
            tokens = r.tokens(["p1", "p2"])
            pages = {}
            for seat in ("p1", "p2"):
                context = await browser.new_context(viewport=PHONE)
                pages[seat] = page = await context.new_page()
                await page.goto(r.base + "/s/" + tokens[seat])
                await page.wait_for_selector("[data-bid='7']", timeout=30_000)
            await pages["p1"].click("[data-bid='7']")
            await pages["p1"].wait_for_selector("[data-placed='7']", timeout=30_000)
            assert "7" not in (await pages["p2"].inner_text("main")).split("Your coins")[0]
            await pages["p2"].click("[data-bid='3']")
            await pages["p2"].wait_for_selector("[data-coins='17']", timeout=30_000)
            state = r.table.current.game.state
            assert state.coins == (13, 17) and state.points[0] == state.prizes[0] and state.round == 1
            await pages["p1"].screenshot(path=str(tmp_path / "hb-phone.png"))

    asyncio.run(scenario())
