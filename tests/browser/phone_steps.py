"""Steps shared by the game-screen browser tests: open one phone per seat, tap, confirm and wait for the
Pi's ack, take screenshots, and check that nothing sticks out sideways at 360 px."""

from __future__ import annotations

from typing import Any

from browser import PHONE, SHOTS
from harness import Rig
from playwright.async_api import Browser, Page

from companion.core import TABLE

WAIT = 30_000  # ms; generous, for a loaded test machine
ANSWERED = (
    "() => { const n = document.querySelector('#notice'); return !n.hidden && !n.textContent.startsWith('Send'); }"
)


async def open_phones(r: Rig, browser: Browser, seats: list[str]) -> dict[str, Page]:
    """One browser context per seat (separate devices, each page in front so nothing is throttled)."""
    tokens = r.tokens(seats)
    pages: dict[str, Page] = {}
    for seat in seats:
        context = await browser.new_context(viewport={"width": PHONE["width"], "height": PHONE["height"]})
        pages[seat] = await context.new_page()
        await pages[seat].goto(r.base + "/s/" + tokens[seat])
    for page in pages.values():
        await settled(page, r.table.seq)
    return pages


async def table_do(r: Rig, intent: dict[str, Any]) -> None:
    """What the touchscreen would do (zone counts, setup draws), through the table's own API."""
    await r.table.submit_json({"seq": r.table.seq, "intent": intent}, TABLE, game_id=r.table.current.header.id)


def view(r: Rig) -> Any:
    """The public view the table sees now."""
    assert r.table.current is not None
    return r.table.current.game.snapshot(TABLE)["view"]


async def settled(page: Page, seq: int) -> None:
    """The page shows the state at ``seq`` (or later) and no intent of it waits for an ack."""
    await page.wait_for_function(
        "seq => C.state && C.state.seq >= seq && !document.querySelector('#notice').textContent.startsWith('Send')",
        arg=seq,
        timeout=WAIT,
        polling=50,
    )


async def tap(page: Page, selector: str) -> None:
    await page.locator(selector).first.click()


async def confirm(r: Rig, page: Page, selector: str = "[data-action=confirm]") -> int:
    """Tap the confirm button; the page must say "Done." only once the Pi acknowledged the intent."""
    before = r.table.seq
    await tap(page, selector)
    await page.wait_for_function(ANSWERED, timeout=WAIT, polling=50)
    assert await page.inner_text("#notice") == "Done.", await page.inner_text("#notice")  # not a refusal
    assert r.table.seq > before
    return r.table.seq


async def act(r: Rig, page: Page, *selectors: str, shot_as: str | None = None) -> int:
    """Wait for the current state, tap ``selectors`` in turn, then confirm; returns the new seq."""
    await settled(page, r.table.seq)
    for selector in selectors:
        await tap(page, selector)
    if shot_as:
        await shot(page, shot_as)
    return await confirm(r, page)


async def shot(page: Page, name: str) -> None:
    """A full-page screenshot ``artifacts/screenshots/phone-<name>.png``; also checks the width."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.evaluate("() => window.scrollTo(0, 0)")
    await page.screenshot(path=str(SHOTS / f"phone-{name}.png"), full_page=True)
    await no_overflow(page)


async def no_overflow(page: Page) -> None:
    """Nothing is cut off sideways at 360 px."""
    wide = await page.evaluate(
        """w => [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > w)
               .map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').slice(0, 30))""",
        PHONE["width"],
    )
    assert not wide, wide
