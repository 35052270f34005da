"""The phone page is a shell plus one plain ES module per game, served as static files (no build
step): the server answers exactly the files of its static folder, and the shell loads a game's
module when that game's first state arrives."""

from __future__ import annotations

import asyncio
import importlib.resources
import json
from pathlib import Path

import pytest
from browser import PHONE, chromium
from harness import rig
from toygame import Draw

from companion.core import TABLE
from companion.games import entry, facts, game_names
from companion.net.server import STATIC_FILES

STATIC = Path(__file__).resolve().parents[2] / "companion" / "net" / "static"


def test_the_shell_and_every_registered_game_module_are_served_and_nothing_else(tmp_path: Path) -> None:
    on_disk = {p.name for p in STATIC.iterdir() if p.suffix in (".js", ".css")}
    assert set(STATIC_FILES) == on_disk and {"phone.js", "kit.js", "phone.css"} <= on_disk

    async def scenario() -> None:
        async with rig(tmp_path, "scotland_yard", {"mister_x": "X", "detectives": ["D"]}) as r:
            for name in sorted(on_disk):
                async with r.session.get(f"{r.base}/static/{name}") as resp:
                    assert resp.status == 200, name
                    assert resp.content_type == ("text/css" if name.endswith(".css") else "text/javascript")
                    assert (await resp.text()) == (STATIC / name).read_text("utf-8")
            # A game's module and facts come from where its registry entry says (the test game's from tests/).
            for game in game_names():
                package, _, path = entry(game).phone.partition(":")
                module = importlib.resources.files(package).joinpath(path).read_text("utf-8")
                async with r.session.get(f"{r.base}/static/games/{game}.js") as resp:
                    assert resp.status == 200 and resp.content_type == "text/javascript", game
                    assert await resp.text() == module
                async with r.session.get(f"{r.base}/static/games/{game}.json") as resp:
                    assert await resp.json() == facts(game)
            for bad in ("games/nope.js", "games/nope.json", "games/%2e%2e/phone.html", "phone.html", "../server.py"):
                async with r.session.get(f"{r.base}/static/{bad}") as resp:
                    assert resp.status == 404, bad

    asyncio.run(scenario())


@pytest.mark.slow
def test_the_test_games_own_phone_module_plays_and_without_it_the_view_is_shown_as_text(tmp_path: Path) -> None:
    """The test game's module (tests/toygame/phone.js, registered like a boxed game's) draws the page
    and sends its intents; when a game has no module (here: the request for it fails) the page
    still shows the seat's view, as text."""

    async def scenario() -> None:
        async with rig(tmp_path, "toy", {}) as r, chromium() as browser:
            assert r.table.current is not None
            await r.table.submit(Draw(), TABLE, r.table.seq, game_id=r.table.current.header.id)
            tokens = r.tokens(["a", "b"])
            context = await browser.new_context(viewport=PHONE)
            page = await context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            await page.goto(r.base + "/s/" + tokens["a"])
            await page.wait_for_selector("[data-add='2']", timeout=30_000)
            assert "a adds next (target 10)." in await page.inner_text("main")  # the test game's own catalogue
            secret = await page.get_attribute("[data-secret]", "data-secret")
            assert secret is not None and int(secret) == r.table.current.game.state.secrets[0]  # type: ignore[union-attr]
            await page.click("[data-add='2']")
            await page.wait_for_selector("[data-total='2']", timeout=30_000)
            assert r.table.current.game.state.total == 2  # type: ignore[union-attr]
            assert await page.query_selector("[data-add]") is None  # now it is b's turn
            await context.close()

            plain = await browser.new_context(viewport=PHONE)
            await plain.route("**/static/games/toy.js", lambda route: route.fulfill(status=404, body=""))
            page = await plain.new_page()
            await page.goto(r.base + "/s/" + tokens["b"])
            await page.wait_for_selector(".pre", timeout=30_000)
            shown = json.loads(await page.inner_text(".pre"))
            assert shown["total"] == 2 and shown["me"] == "b" and "secrets" not in shown
            await plain.close()
            assert errors == []

    asyncio.run(scenario())
