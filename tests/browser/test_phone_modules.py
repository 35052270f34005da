"""The phone page is a shell plus one plain ES module per game, served as static files (no build
step): the server answers exactly the files of its static folder, and the shell loads a game's
module when that game's first state arrives."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from browser import PHONE, chromium
from harness import rig

from companion.net.server import STATIC_FILES

STATIC = Path(__file__).resolve().parents[2] / "companion" / "net" / "static"


def test_every_script_of_the_static_folder_is_served_and_nothing_else(tmp_path: Path) -> None:
    on_disk = {p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.suffix in (".js", ".css")}
    assert set(STATIC_FILES) == on_disk
    assert {"phone.js", "kit.js", "games/scotland_yard.js", "games/mykerinos.js"} <= on_disk

    async def scenario() -> None:
        async with rig(tmp_path, "scotland_yard", {"mister_x": "X", "detectives": ["D"]}) as r:
            for name in sorted(on_disk):
                async with r.session.get(f"{r.base}/static/{name}") as resp:
                    assert resp.status == 200, name
                    assert resp.content_type == ("text/css" if name.endswith(".css") else "text/javascript")
                    assert (await resp.text()) == (STATIC / name).read_text("utf-8")
            for bad in ("games/nope.js", "games/%2e%2e/phone.html", "phone.html", "../server.py"):
                async with r.session.get(f"{r.base}/static/{bad}") as resp:
                    assert resp.status == 404, bad

    asyncio.run(scenario())


@pytest.mark.slow
def test_a_game_without_a_phone_module_is_shown_by_the_fallback_and_a_game_with_one_by_its_module(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with chromium() as browser:
            for game, config, selector in [
                ("toy", {}, ".pre"),
                ("scotland_yard", {"mister_x": "X", "detectives": ["D"]}, "[data-mrx-shown]"),
            ]:
                (tmp_path / game).mkdir()
                async with rig(tmp_path / game, game, config) as r:
                    seat = "a" if game == "toy" else "d1"
                    context = await browser.new_context(viewport=PHONE)
                    page = await context.new_page()
                    errors: list[str] = []
                    page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                    await page.goto(r.base + "/s/" + r.tokens([seat])[seat])
                    await page.wait_for_selector("#status.connected", timeout=30_000)
                    await page.wait_for_selector(selector, timeout=30_000)
                    seq = await page.evaluate("() => C.state.seq")
                    assert seq == r.table.seq
                    if game == "toy":
                        assert '"total"' in await page.inner_text(".pre")  # the seat's view, as text
                    else:
                        assert await page.query_selector(".pre") is None
                    assert errors == []
                    await context.close()  # the page's socket closes before the server stops

    asyncio.run(scenario())
