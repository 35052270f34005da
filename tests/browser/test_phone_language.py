"""The phones follow the table's language at once, and a phone can choose its own language for its
seat: on real pages in Chromium over a real server. The table's language changes exactly as the
touchscreen's Settings and the host page change it (the server is told, ``language_changed``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from browser import PHONE, chromium
from harness import rig
from playwright.async_api import Page

CONFIG = {"mister_x": "Alice", "detectives": ["Bob"]}
WAIT = 30_000


async def speaks(page: Page, lang: str, status: str) -> None:
    """The page has loaded ``lang``'s texts and shows them (the connection pill is a sure word)."""
    await page.wait_for_function(
        "([l, s]) => document.documentElement.lang === l && document.getElementById('status').textContent === s",
        arg=[lang, status],
        timeout=WAIT,
    )


@pytest.mark.slow
def test_phones_follow_the_table_and_a_seat_keeps_its_own_language(tmp_path: Path) -> None:
    table_language = ["en"]

    async def scenario() -> None:
        async with rig(tmp_path, "scotland_yard", CONFIG) as r, chromium() as browser:
            r.server.language = lambda: table_language[0]
            tokens = r.tokens(["mrx", "d1"])
            x_context = await browser.new_context(viewport=PHONE)
            d_context = await browser.new_context(viewport=PHONE)
            x, d = await x_context.new_page(), await d_context.new_page()
            await x.goto(f"{r.base}/s/{tokens['mrx']}")
            await d.goto(f"{r.base}/s/{tokens['d1']}")
            for page in (x, d):
                await speaks(page, "en", "connected")
                assert await page.input_value("[data-lang-select]") == ""  # follows the table

            # The touchscreen (or the host page) switches to French: both phones follow at once.
            table_language[0] = "fr"
            r.server.language_changed()
            for page in (x, d):
                await speaks(page, "fr", "connecté")
            assert "TABLEAU DE PARCOURS" in (await d.inner_text("main")).upper()

            # Mister X picks Spanish for his own seat: only his phone changes.
            await x.select_option("[data-lang-select]", "es")
            await speaks(x, "es", "conectado")
            assert r.server.seat_languages == {(r.table.current.header.id, "mrx"): "es"}
            await speaks(d, "fr", "connecté")

            # The table changes again: the detective follows, Mister X keeps his choice.
            table_language[0] = "de"
            r.server.language_changed()
            await speaks(d, "de", "verbunden")
            await asyncio.sleep(0.3)
            await speaks(x, "es", "conectado")

            # A reload (or a restart of the Pi, which forgets): the seat keeps Spanish.
            await x.reload()
            await speaks(x, "es", "conectado")
            assert await x.input_value("[data-lang-select]") == "es"
            r.server.seat_languages.clear()  # what a restart of the Pi forgets ...
            await x.reload()
            await speaks(x, "es", "conectado")  # ... the phone remembers and tells it again
            assert r.server.seat_languages == {(r.table.current.header.id, "mrx"): "es"}

            # Back to the table's language.
            await x.select_option("[data-lang-select]", "")
            await speaks(x, "de", "verbunden")
            assert r.server.seat_languages == {}
            for context in (x_context, d_context):
                await context.close()

    asyncio.run(scenario())


@pytest.mark.slow
def test_a_phone_says_whose_it_is_and_shows_the_whole_title(tmp_path: Path) -> None:
    """Under the game's title each phone says whose it is, in the phone's language ("Mister X ·
    Alice", "Détective 1 · Bob", "Écran de la table"); a long title wraps at 360 px instead of being
    cut with an ellipsis."""
    title = "Scotland Yard chez Anne-Sophie et Jean-Baptiste, vendredi soir"
    expected = {"mrx": "Mister X · Alice", "d1": "Détective 1 · Bob", "@table": "Écran de la table"}

    async def scenario() -> None:
        async with rig(tmp_path, "scotland_yard", CONFIG) as r, chromium() as browser:
            r.server.language = lambda: "fr"
            await r.table.new_game("scotland_yard", CONFIG, title, seed=1)
            tokens = r.tokens(list(expected))
            seen = {}
            for seat in expected:
                page = await (await browser.new_context(viewport=PHONE)).new_page()
                await page.goto(f"{r.base}/s/{tokens[seat]}")
                await speaks(page, "fr", "connecté")
                await page.wait_for_selector("#seat:not(:empty)", timeout=WAIT)
                seen[seat] = await page.inner_text("#seat")
                shown = await page.evaluate(
                    "() => { const t = document.getElementById('title');"
                    " return {text: t.textContent, cut: t.scrollWidth > t.clientWidth + 1,"
                    " right: t.getBoundingClientRect().right}; }"
                )
                assert shown["text"] == title and not shown["cut"] and shown["right"] <= PHONE["width"], shown
                if seat == "d1":  # the player's own language: the label follows it
                    await page.select_option("[data-lang-select]", "de")
                    await speaks(page, "de", "verbunden")
                    await page.wait_for_function(
                        "() => document.getElementById('seat').textContent === 'Detektiv 1 · Bob'", timeout=WAIT
                    )
            assert seen == expected

    asyncio.run(scenario())
