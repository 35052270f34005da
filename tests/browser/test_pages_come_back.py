"""The pages themselves, in real Chromium against a real ``companion serve`` (issue 26, items 8 and 10):

- a phone page open while the server stops (Ctrl-C) says "reconnecting" and, when the next server
  runs, is back on its seat with the game — nobody reloads anything;
- a host page open when ``companion host-link --new`` makes a new link is let go at once and says
  why (on main it kept working with the old link).

Screenshots: artifacts/screenshots/phone-reconnected.png, host-replaced.png."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from browser import PHONE, SHOTS, chromium
from served import Box, stop

WAIT = 30_000
SETUP = '{"mister_x": "Xavier", "detectives": ["Dora"]}'


def test_a_phone_page_reconnects_to_the_next_server_and_a_replaced_host_link_lets_its_page_go(tmp_path: Path) -> None:
    box = Box(tmp_path)
    assert box.cli("new", "scotland_yard", "--setup", SETUP).returncode == 0
    server = box.serve()
    try:
        token = box.token("mrx")
        host = box.cli("host-link").stdout.strip()

        async def scenario() -> None:
            nonlocal server
            async with chromium() as browser:
                phone = await browser.new_page(viewport=PHONE)
                await phone.goto(f"http://127.0.0.1:{box.port}/s/{token}")
                status = "document.getElementById('status').dataset.state"
                await phone.wait_for_function(f"{status} === 'connected'", timeout=WAIT)
                await phone.wait_for_selector("main section", timeout=WAIT)
                page = await browser.new_page(viewport=PHONE)
                await page.goto(host)
                await page.wait_for_function(f"{status} === 'connected'", timeout=WAIT)

                # The server stops with both pages open: each is told "going away" and waits.
                server.send_signal(signal.SIGINT)
                await asyncio.to_thread(server.wait, 30)
                await phone.wait_for_function(f"{status} === 'reconnecting'", timeout=WAIT)
                server = await asyncio.to_thread(box.serve)  # the next program
                await phone.wait_for_function(f"{status} === 'connected'", timeout=60_000)
                await phone.wait_for_selector("main section", timeout=WAIT)
                SHOTS.mkdir(parents=True, exist_ok=True)
                await phone.screenshot(path=str(SHOTS / "phone-reconnected.png"))

                # The host page came back too; a new host link lets it go, in words.
                await page.wait_for_function(f"{status} === 'connected'", timeout=60_000)
                await asyncio.to_thread(box.cli, "host-link", "--new")
                await page.wait_for_function(f"{status} === 'closed'", timeout=WAIT)
                notice = await page.locator("#notice").inner_text()
                assert "host-link --new" in notice, notice
                await page.screenshot(path=str(SHOTS / "host-replaced.png"))

        asyncio.run(scenario())
    finally:
        stop(server, signal.SIGTERM)
