"""No text is longer than its place on a 360 px phone, and no code or unfilled {parameter} shows, in
any language: each box is played at random to a busy state, then every seat's phone and the table
link are opened in Chromium in each language and measured — no element whose content is wider than
its box (``scrollWidth > clientWidth``: a word spilling out of a chip or a cell, a text cut with an
ellipsis), no word cut across two lines (a break after a hyphen is fine) and nothing reaching past the
screen's right edge. Screenshots go to
``artifacts/screenshots/phone-fit-<lang>-<game>-<seat>.png``.

With ``COMPANION_DOCS_SCREENSHOTS=1`` Mister X's phone in French and Spanish is copied to
``docs/screenshots/`` (as README's English one)."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, SHOTS, chromium
from drivers import DRIVERS
from harness import Rig, rig
from phone_steps import settled

from companion.app.i18n import LANGUAGES
from companion.app.seats import TABLE_SEAT
from companion.core import TABLE
from companion.core.errors import CompanionError

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

# rules -> (setup, "busy enough to show every part of the screens")
GAMES: dict[str, tuple[dict[str, Any], Any]] = {
    "scotland_yard": (
        {"mister_x": "Alice", "detectives": ["Bob", "Carla"]},
        lambda v: v["round"] >= 4 and v["turn"] == "mrx" and v["mrx"]["station"],
    ),
    "victorian_masterminds": (
        {},
        lambda v: v["phase"] == "turn" and sum(len(p["buildings"]) for p in v["players"]) >= 3,
    ),
    "mykerinos": (
        {"seats": ["blue", "red", "green", "white"], "layout": "line4"},
        lambda v: v["season"] >= 3 and len(v["museum"]) >= 3 and v["phase"] == "excavation",
    ),
}

OVERFLOW = """w => [...document.querySelectorAll('body *')].filter(e => {
    const style = getComputedStyle(e);
    if (style.display === 'none' || style.visibility === 'hidden') return false;
    const box = e.getBoundingClientRect();
    if (box.right > w + 0.5) return true;                     // past the screen's edge
    if (style.display === 'inline' || e.tagName === 'TABLE') return false;
    return e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1;   // content wider than its box
  }).map(e => e.tagName + '.' + e.className + ' "' + (e.textContent || '').trim().slice(0, 40) + '"')"""

# A word (a run of letters and digits) laid out on more than one line: cut inside by a box too
# narrow for it ("Haut-fourn" / "eau"). A break after a hyphen ("Haut-" / "fourneau") or a space is fine.
BROKEN = r"""() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const box = node.parentElement;
      if (!box || !box.getClientRects().length || getComputedStyle(box).visibility === "hidden") continue;
      const line = (i) => {  // the bottom of the line that character i is drawn on
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        return rects.length ? Math.round(rects[rects.length - 1].bottom) : null;
      };
      // a soft hyphen (U+00AD) is a place to break, as a hyphen is: it ends a word here
      for (const m of node.data.matchAll(/[\p{L}\p{N}]+/gu)) {
        const first = line(m.index), last = line(m.index + m[0].length - 1);
        if (first !== null && last !== null && first !== last) out.push("a word broken across lines: " + m[0]);
      }
    }
    return out;
  }"""

RAW = r"""() => {
    const text = document.body.innerText;
    const codes = text.match(/\\b(phone|game|vm|sy|myk|ui|language)\\.[a-z0-9_]+(\\.[a-z0-9_]+)*/g) || [];
    const holes = text.match(/\\{[A-Za-z_][A-Za-z0-9_]*(, *plural[^}]*)?\\}/g) || [];
    return codes.concat(holes);
  }"""


async def play_until(r: Rig, rules: str, config: dict[str, Any], busy: Any) -> None:
    """Random legal play (the tests' drivers) until ``busy``; a game that ends first is replaced."""
    _, default, choose = DRIVERS[rules]
    rng = random.Random(1)
    title = {"scotland_yard": "Scotland Yard", "victorian_masterminds": "Victorian Masterminds"}.get(rules, "Mykerinos")
    await r.table.new_game(rules, config or default, title, seed=1)  # the phones' title bar: a name in no language
    for attempt in range(40):
        game = r.table.game
        assert game is not None
        for _ in range(3000):
            if game.outcome() is not None or busy(game.snapshot(TABLE)["view"]):
                break
            choice = choose(game, rng)
            if choice is None:
                break
            try:
                await r.table.submit(choice[0], choice[1], game.seq, game_id=r.table.current.header.id)
            except CompanionError:
                continue
        if game.outcome() is None and busy(game.snapshot(TABLE)["view"]):
            return
        await r.table.new_game(rules, config or default, title, seed=attempt + 2)
    raise AssertionError(f"no random {rules} game got busy")


@pytest.mark.slow
@pytest.mark.parametrize("rules", list(GAMES))
def test_every_phone_screen_fits_360_px_in_every_language(tmp_path: Path, rules: str) -> None:
    config, busy = GAMES[rules]

    async def scenario() -> dict[str, list[str]]:
        problems: dict[str, list[str]] = {}
        async with rig(tmp_path, rules, config or DRIVERS[rules][1]) as r, chromium() as browser:
            await play_until(r, rules, config, busy)
            assert r.table.current is not None
            game = r.table.current.game
            seats = list(game.rules.seats(game.state))
            tokens = r.tokens([*seats, TABLE_SEAT])
            # One browser context per seat for the whole test: a seat is bound to the first device.
            contexts = {seat: await browser.new_context(viewport=PHONE) for seat in [*seats, TABLE_SEAT]}
            for lang in LANGUAGES:
                r.server.language = lambda lang=lang: lang
                for seat, context in contexts.items():
                    page = await context.new_page()
                    await page.goto(f"{r.base}/s/{tokens[seat]}")
                    await page.wait_for_selector("#status.connected", timeout=30_000)
                    await settled(page, r.table.seq)
                    await page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
                    if rules == "scotland_yard" and seat == "mrx":
                        await page.locator("[data-section=move] .dest").first.click()  # the confirm button too
                    name = f"phone-fit-{lang}-{rules}-{seat.strip('@')}"
                    SHOTS.mkdir(parents=True, exist_ok=True)
                    await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
                    found = await page.evaluate(OVERFLOW, PHONE["width"]) + await page.evaluate(RAW)
                    found += await page.evaluate(BROKEN)
                    if found:
                        problems[name] = found
                    docs = os.environ.get("COMPANION_DOCS_SCREENSHOTS") and lang in ("fr", "es")
                    if docs and rules == "scotland_yard" and seat == "mrx":
                        shutil.copyfile(SHOTS / f"{name}.png", DOCS / f"{lang}-phone-mister-x.png")
                    await page.close()
            for context in contexts.values():
                await context.close()  # the pages' sockets close before the server stops
        return problems

    assert asyncio.run(scenario()) == {}
