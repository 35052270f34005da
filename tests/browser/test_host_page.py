"""The host flow in real Chromium, with no touchscreen anywhere: the host page starts a Scotland Yard
game with its setup, shows Mister X's QR code (read back with zbar), Mister X joins on another phone
by typing the room code on the landing page, Dora joins by the QR code's link, both play on their
phone pages until Dora's detective catches Mister X, and the host page's end screen shows a BG
Stats QR code that reads back as the expected play.

Rulebook (basic game): "Mister X ist gefasst, wenn ein Detektiv auf das Feld zieht, auf dem sich
Mister X befindet" – Mister X is caught when a detective moves onto his station (here D1, by
underground from 13 onto 67, in round 1). Screenshots: artifacts/screenshots/host-*.png."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import shutil
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, SHOTS, chromium
from hostrig import HostRig, host_rig
from phone_steps import no_overflow
from phone_steps import shot as phone_shot
from PIL import Image
from playwright.async_api import Browser, Page, Route
from playwright.async_api import Error as PlaywrightError
from pyzbar.pyzbar import decode

from companion.app import bgstats
from companion.app.autoplay import TablePlayer
from companion.app.history import History
from companion.app.i18n import text
from companion.app.speech import Announcer, Speaker
from companion.core import TABLE, Audience
from companion.games.scotland_yard.model import Move, PlaceDetectives, PlaceX, XMove
from hardware.voice import RecordingVoice

WAIT = 30_000
TABLET = {"width": 800, "height": 1000}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


async def read_qr(page: Page, selector: str) -> str:
    """The QR code as the browser draws it (a screenshot of the element), read with zbar."""
    found: list[str] = []
    for attempt in range(10):  # a state pushed meanwhile redraws the page: take the new element
        try:
            await page.wait_for_function(
                "s => { const i = document.querySelector(s); return i && i.complete && i.naturalWidth > 0; }",
                arg=selector,
                timeout=WAIT,
            )
            code = page.locator(selector)
            await code.evaluate("e => e.scrollIntoView({block: 'center'})")  # clear of the sticky header bar
            png = await code.screenshot()
        except PlaywrightError:
            if attempt == 9:
                raise
            continue
        found = [d.data.decode("utf-8") for d in decode(Image.open(io.BytesIO(png)))]
        if len(found) == 1:
            return found[0]
        await asyncio.sleep(0.2)
    raise AssertionError(f"{selector}: {len(found)} codes")


async def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.evaluate("() => window.scrollTo(0, 0)")
    await page.screenshot(path=str(SHOTS / f"host-{name}.png"), full_page=True)
    if page.viewport_size and page.viewport_size["width"] == PHONE["width"]:
        await no_overflow(page)


async def open_host(r: HostRig, browser: Browser, viewport: dict[str, int]) -> Page:
    page = await (await browser.new_context(viewport=viewport)).new_page()  # type: ignore[arg-type]
    await page.goto(r.host_url)
    await page.wait_for_selector("#status.connected", timeout=WAIT)
    await page.wait_for_selector("nav.tabs", timeout=WAIT)
    return page


async def notice(page: Page, words: str) -> str:
    """The notice's text once it says ``words``: it first says "Working…" while the request is on
    its way (a test that read it as soon as it was shown read that on a loaded machine)."""
    await page.wait_for_function(
        "w => { const n = document.querySelector('#notice'); return !n.hidden && n.textContent.includes(w); }",
        arg=words,
        timeout=WAIT,
    )
    return await page.inner_text("#notice")


async def phone_ready(page: Page, seat: str) -> None:
    await page.wait_for_selector("#status.connected", timeout=WAIT)
    await page.wait_for_function("() => window.C && C.state", timeout=WAIT)


@pytest.mark.slow
def test_a_scotland_yard_night_run_from_the_host_page(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with host_rig(tmp_path) as r, chromium() as browser:
            host = await open_host(r, browser, PHONE)
            await host.wait_for_selector("[data-no-game]")
            await shot(host, "empty")

            # A new game, set up on the host page.
            await host.click("[data-tab=new]")
            await host.click("[data-choose=scotland_yard]")
            await host.fill("[data-key=mister_x] input", "Xavier")
            await host.fill("[data-name='0']", "Dora")
            await host.click("[data-remove='1']")  # one detective player: the two-player game
            await host.fill("[data-title]", "Friday")
            await shot(host, "new-scotland-yard")
            await host.click("[data-start]")
            await host.wait_for_selector("[data-screen=game] [data-seat=mrx] [data-show]", timeout=WAIT)
            assert r.table.current is not None
            game_id = r.table.current.header.id
            assert r.table.current.header.config == {
                "mister_x": "Xavier",
                "detectives": ["Dora"],
                "tracker": False,
                "bobbies_keep_game_alive": False,
            }
            tokens = r.tokens(["mrx", "d1", "@table"])

            # Mister X's code, on the host page only, one at a time.
            await host.click("[data-show=mrx]")
            await host.wait_for_selector("[data-qr=mrx]", timeout=WAIT)
            assert await read_qr(host, "[data-qr=mrx]") == f"{r.base}/s/{tokens['mrx']}"
            code = (await host.inner_text("[data-code=mrx]")).strip()
            assert len(code) == 5
            await shot(host, "seat-qr")
            await host.click("[data-show=d1]")  # showing Dora's hides Mister X's
            await host.wait_for_selector("[data-qr=d1]", timeout=WAIT)
            assert await host.locator("[data-qr=mrx]").count() == 0
            dora_link = await read_qr(host, "[data-qr=d1]")

            # Mister X types the room code on the landing page of another phone.
            x = await (await browser.new_context(viewport=PHONE)).new_page()
            await x.goto(r.base + "/")
            await x.fill("#code", "zz zzz")
            await x.click("#join button")
            assert "does not open a seat" in await notice(x, "does not open a seat")
            await x.fill("#code", code.lower())
            await shot(x, "landing")
            await x.click("#join button")
            await x.wait_for_url(f"**/s/{tokens['mrx']}", timeout=WAIT)
            await phone_ready(x, "mrx")
            await host.wait_for_selector("[data-seat=mrx] [data-release]", timeout=WAIT)
            # Dora scans her code.
            dora_page = await (await browser.new_context(viewport=PHONE)).new_page()
            await dora_page.goto(dora_link)
            await phone_ready(dora_page, "d1")
            await host.wait_for_selector("[data-seat=d1] [data-release]", timeout=WAIT)
            assert await host.locator("[data-qr]").count() == 0  # the code went when the phone came
            await shot(host, "seats-joined")

            # The detectives' start cards as drawn by hand (the table's own entry), then the game.
            await r.table.submit(
                PlaceDetectives((("D1", 13), ("D2", 26), ("B1", 29), ("B2", 34))), TABLE, r.table.seq, game_id=game_id
            )
            await x.wait_for_selector("[data-place='51']", timeout=WAIT)
            await phone_shot(x, "mrx-joined-by-room-code")
            await x.click("[data-place='51']", timeout=WAIT)
            await x.click("[data-section=move] .dest[data-ticket=taxi][data-station='67']", timeout=WAIT)
            await x.click("[data-action=confirm]")
            await dora_page.click("[data-select=D1]", timeout=WAIT)
            await dora_page.click("[data-section=move] .dest[data-ticket=underground][data-station='67']", timeout=WAIT)
            await dora_page.click("[data-action=confirm]")

            # The end, on the host page: the result and the play for BG Stats.
            await host.wait_for_selector("[data-bgstats-qr]", timeout=WAIT)
            assert "Mister X has been caught" in await host.inner_text("[data-how]")
            short = await read_qr(host, "[data-bgstats-qr]")  # the code: the Pi's short link ...
            link = await host.get_attribute("[data-bgstats-link]", "href")  # ... to the whole link
            assert short.startswith(r.base + "/b/") and isinstance(link, str)
            forward = await (await browser.new_context(viewport=PHONE)).new_page()
            await forward.route("https://app.bgstatsapp.com/**", lambda route: route.fulfill(body="BG Stats"))
            async with forward.expect_request("https://app.bgstatsapp.com/**", timeout=WAIT) as went:
                await forward.goto(short)
            assert (await went.value).url == link  # a phone that scans the code lands on the whole link
            play = await asyncio.to_thread(History(r.table.store).play, game_id)
            data = bgstats.decode(link)
            assert data == bgstats.play_data(play)
            assert isinstance(data, dict)
            assert data["game"] == {  # type: ignore[comparison-overlap]
                "name": "Scotland Yard",
                "bggId": 438,
                "sourceGameId": "scotland_yard",
                "highestWins": True,
                "noPoints": True,
            }
            assert data["players"] == [
                {
                    "name": "Xavier",
                    "sourcePlayerId": "xavier",
                    "startPlayer": True,
                    "winner": False,
                    "role": "Mister X",
                },
                {"name": "Dora", "sourcePlayerId": "dora", "startPlayer": False, "winner": True, "role": "Detective"},
            ]
            assert urllib.parse.urlsplit(link).netloc == "app.bgstatsapp.com"
            await shot(host, "end-bgstats")
            await dora_page.wait_for_selector("[data-end]", timeout=WAIT)
            await phone_shot(dora_page, "detective-caught-mrx")

            # The same page on a tablet, and its history.
            tablet = await open_host(r, browser, TABLET)
            await tablet.wait_for_selector("[data-bgstats-qr]", timeout=WAIT)
            await shot(tablet, "end-tablet")
            await host.click("[data-tab=history]")
            await host.wait_for_selector(f"[data-play='{game_id}']", timeout=WAIT)
            await host.click(f"[data-play-bgstats='{game_id}']")
            await host.wait_for_selector(f"[data-play='{game_id}'] [data-bgstats-qr]", timeout=WAIT)
            assert await read_qr(host, f"[data-play='{game_id}'] [data-bgstats-qr]") == short
            await shot(host, "history")
            # Speech switched on and made softer on the host page: the table says so at that volume.
            announcer = Announcer(
                r.table, Speaker(voice := RecordingVoice()), language=lambda: r.prefs.language, pref=r.prefs.get
            )
            announcer.start()
            r.prefs.changed.append(announcer.setting_changed)
            await host.click("[data-tab=settings]")
            await host.wait_for_selector("[data-setting=language]")
            await host.check("[data-setting=speech]")
            await host.wait_for_function("() => HOST.state.settings.speech === true", timeout=WAIT)
            for _ in range(5):  # (a state pushed meanwhile draws the page anew: type into the new field)
                await host.fill("[data-setting=speech_volume]", "40")
                await host.press("[data-setting=speech_volume]", "Tab")  # leaving the field commits it
                with contextlib.suppress(PlaywrightError):
                    await host.wait_for_function("() => HOST.state.settings.speech_volume === 40", timeout=5000)
                    break
            assert r.prefs.get("speech_volume") == 40
            labels = await host.locator("[data-screen=settings] label span").all_inner_texts()
            assert "Speech: the table says reveals, results and the winner aloud" in labels, labels
            assert announcer.speaker.idle()
            assert [(u.text, u.volume) for u in voice.said] == [
                ("The table speaks at this volume.", 80),
                ("The table speaks at this volume.", 40),
            ]
            announcer.close()
            await shot(host, "settings")

    asyncio.run(scenario())


@pytest.mark.slow
def test_victorian_masterminds_and_mykerinos_set_up_on_the_host_page(tmp_path: Path) -> None:
    """The other boxes' setups: players with colours and machines and the Secret Service start
    level (remembered for that player count), then Mykerinos colours tapped in seating order."""

    async def scenario() -> None:
        async with host_rig(tmp_path) as r, chromium() as browser:
            await r.prefs.set("vm.start_level.3", 5)
            await r.prefs.set("vm.gunner_rule", ">")
            host = await open_host(r, browser, PHONE)
            await host.click("[data-tab=new]")
            await host.click("[data-choose=victorian_masterminds]")
            assert await host.locator("[data-player]").count() == 2
            await host.click("[data-add=players]")
            assert await host.input_value("[data-key=secret_service_start] input") == "5"  # known for 3
            await host.select_option("[data-colour='2']", "yellow")
            await host.select_option("[data-machine='2']", "6")
            await host.fill("[data-machine-name='0']", "Beluga")
            await host.fill("[data-player-name='0']", "Ann")  # names are optional, next to the colours
            await host.fill("[data-player-name='2']", "Cleo")
            await host.select_option("[data-lab-cells='1']", "3")
            await host.fill("[data-key=secret_service_start] input", "4")
            await host.select_option("[data-key=first_player] select", "p2")
            await shot(host, "new-victorian-masterminds")
            await host.click("[data-start]")
            await host.wait_for_selector("[data-screen=game] [data-seat=p3]", timeout=WAIT)
            assert r.table.current is not None
            assert r.table.current.header.config == {
                "players": [
                    {"seat": "p1", "colour": "red", "machine": 1, "machine_name": "Beluga", "name": "Ann"},
                    {"seat": "p2", "colour": "blue", "machine": 2, "lab_cells": 3},
                    {"seat": "p3", "colour": "yellow", "machine": 6, "name": "Cleo"},
                ],
                "secret_service_start": 4,
                "gunner_rule": ">",
                "capture_city_loot": False,
                "first_player": "p2",
            }
            await host.wait_for_function("() => HOST.state.settings['vm.start_level.3'] === 4", timeout=WAIT)
            assert r.prefs.get("vm.start_level.3") == 4  # remembered for the next three-player game
            await host.click("[data-tab=new]")
            await host.click("[data-choose=victorian_masterminds]")  # the next game starts with the same people
            assert await host.locator("[data-player]").count() == 3
            assert [await host.input_value(f"[data-player-name='{i}']") for i in range(3)] == ["Ann", "", "Cleo"]
            assert await host.input_value("[data-colour='2']") == "yellow"

            await host.click("[data-tab=new]")
            await host.click("[data-choose=mykerinos]")
            await host.click("[data-start]")  # no colours yet: refused in words, nothing started
            assert "2 to 4 different colours" in await notice(host, "2 to 4 different colours")
            for colour in ("red", "white", "blue"):
                await host.click(f"[data-colour={colour}]")
            assert (await host.inner_text("[data-colour=blue]")).startswith("3.")
            await host.fill("[data-name-of=white]", "Ann")
            await host.select_option("[data-key=layout] select", "ring5")
            await shot(host, "new-mykerinos")
            await host.click("[data-start]")
            await host.wait_for_selector("[data-screen=game] [data-seat=white]", timeout=WAIT)
            assert r.table.current.header.config == {
                "seats": ["red", "white", "blue"],
                "layout": "ring5",
                "names": {"white": "Ann"},
                "last_zone": "confirm",  # every new game's table confirms the last zone (Rules.new_game_config)
            }
            await host.click("[data-tab=saved]")
            await host.wait_for_selector("[data-game]", timeout=WAIT)
            assert await host.locator("[data-game]").count() == 2
            await shot(host, "saved")

    asyncio.run(scenario())


@pytest.mark.slow
def test_mister_x_played_by_the_table_set_up_on_the_host_page(tmp_path: Path) -> None:
    """ "Mister X: the table (hard)" on the host page: his name field goes, the game starts with
    mister_x_ai, the host page offers no seat (no QR code) for him, and once the detectives stand
    on their start cards the table draws his X card and moves him: a detective's phone says the
    table is thinking meanwhile, and the host page says whose turn it is, never naming his station."""

    async def scenario() -> None:
        async with host_rig(tmp_path) as r, chromium() as browser:
            player = TablePlayer(r.table, thinking=3, cpu_budget=None)  # long enough to be seen thinking
            player.start()
            try:
                host = await open_host(r, browser, PHONE)
                await host.click("[data-tab=new]")
                await host.click("[data-choose=scotland_yard]")
                assert await host.locator("[data-key=mister_x] input").count() == 1  # a player, by default
                await host.click("[data-mrx=hard]")
                await host.wait_for_selector("[data-mrx=hard].sel", timeout=WAIT)
                assert await host.locator("[data-key=mister_x] input").count() == 0  # no name: nobody plays him
                assert "nobody needs his phone" in await host.inner_text("[data-mrx-note]")
                await host.fill("[data-name='0']", "Dora")
                await host.fill("[data-name='1']", "Emil")
                await shot(host, "new-scotland-yard-table-x")
                await host.click("[data-start]")
                await host.wait_for_selector("[data-screen=game] [data-seat=d2]", timeout=WAIT)
                assert r.table.current is not None
                assert r.table.current.header.config == {
                    "mister_x_ai": "hard",
                    "detectives": ["Dora", "Emil"],
                    "tracker": False,
                    "bobbies_keep_game_alive": False,
                }
                assert await host.locator("[data-seat=mrx]").count() == 0  # no seat, so no QR code for him

                game_id = r.table.current.header.id
                dora = await (await browser.new_context(viewport=PHONE)).new_page()
                await dora.goto(f"{r.base}/s/{r.tokens(['d1'])['d1']}")
                await phone_ready(dora, "d1")
                stations = (("D1", 13), ("D2", 26), ("B1", 29), ("B2", 34))
                await r.table.submit(PlaceDetectives(stations), TABLE, r.table.seq, game_id=game_id)
                # his X card drawn, his move next: the line is read in the page as it appears (read after
                # the wait, it could be gone already if the table's move came first on a slow machine)
                thinking = await dora.wait_for_function(
                    "() => { const line = document.querySelector('[data-mrx-turn]'); return line && line.innerText }",
                    timeout=WAIT,
                )
                assert await thinking.json_value() == "The table is thinking for Mister X…"
                await phone_shot(dora, "detective-while-the-table-thinks")
                await player.idle()  # his first move
                assert r.table.game is not None and r.table.game.state.phase == "detectives"
                await host.wait_for_function(
                    f"() => HOST.state.current && HOST.state.current.seq === {r.table.seq}", timeout=WAIT
                )
                page = await host.inner_text("body")
                assert "the detectives move" in page, page
                assert str(r.table.game.state.x_station) not in page.split()  # his station is his secret
                await shot(host, "game-table-x")

                # The host ends the game, as the touchscreen's "End the game now" does: nobody wins, the
                # table's Mister X is the table in the result (and in the play for BG Stats).
                host.on("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
                await host.click("[data-end-game]")
                await host.wait_for_selector("[data-result]", timeout=WAIT)
                assert "The game was ended at the table." in await host.inner_text("[data-how]")
                assert "The table (hard)" in await host.inner_text("[data-result]")
                assert await host.locator("[data-end-game]").count() == 0
                await shot(host, "end-table-x")
            finally:
                await player.stop()

    asyncio.run(scenario())


@pytest.mark.slow
def test_the_tables_detectives_set_up_on_the_host_page_move_and_wait_for_their_pawn(tmp_path: Path) -> None:
    """Issue 43 from the host's side: "Who plays the detectives: the table (normal)", then which seats
    it plays (all of them to start with; the host gives detective 1 back to a person). The game
    starts with detectives_ai and table_detectives; the host page offers no code for the table's
    seats. The app's real table player moves the table's figures one at a time: each move waits as
    an instruction until a phone taps Done — then the table makes its next one."""

    async def scenario() -> None:
        async with host_rig(tmp_path) as r, chromium() as browser:
            player = TablePlayer(r.table, thinking=0.05, cpu_budget=None)
            player.start()
            try:
                host = await open_host(r, browser, PHONE)
                await host.click("[data-tab=new]")
                await host.click("[data-choose=scotland_yard]")
                assert await host.locator("[data-table-plays]").count() == 0  # players, by default
                await host.click("[data-mrx=hard]")  # the table plays him: it does not offer the detectives too
                await host.wait_for_selector("[data-mrx=hard].sel", timeout=WAIT)
                assert await host.locator("[data-detectives]").count() == 0
                await host.click("[data-mrx=player]")
                await host.click("[data-detectives=normal]")
                await host.wait_for_selector("[data-detectives=normal].sel", timeout=WAIT)
                await host.click("[data-add=detectives]")
                await host.fill("[data-name='0']", "Dora")
                await host.fill("[data-input=mister_x]", "Xavier")
                await host.click("[data-table-plays=d1]")  # Dora plays detective 1 herself
                await host.wait_for_selector("[data-table-plays=d1]:not(.sel)", timeout=WAIT)
                for seat in ("d2", "d3", "bobbies"):  # the table keeps one at least: the last stays chosen
                    await host.click(f"[data-table-plays={seat}]")
                assert await host.locator("[data-table-plays].sel").all_inner_texts() == ["Bobbies"]
                for seat in ("d2", "d3"):
                    await host.click(f"[data-table-plays={seat}]")
                labels = await host.locator("[data-table-plays]").all_inner_texts()
                assert labels == ["Dora", "Detective 2", "Detective 3", "Bobbies"], labels
                await shot(host, "new-scotland-yard-table-detectives")
                await host.click("[data-start]")
                await host.wait_for_selector("[data-screen=game] [data-seat=d1]", timeout=WAIT)
                assert r.table.current is not None
                config = r.table.current.header.config
                assert config["detectives_ai"] == "normal" and config["table_detectives"] == ["d2", "d3", "bobbies"]
                assert config["detectives"] == ["Dora", "", ""] and config["mister_x"] == "Xavier"
                assert await host.locator("[data-seat=d2], [data-seat=d3]").count() == 0  # the table's: no code

                gid = r.table.current.header.id
                game = r.table.game
                assert game is not None
                dora = await (await browser.new_context(viewport=PHONE)).new_page()
                await dora.goto(f"{r.base}/s/{r.tokens(['d1'])['d1']}")
                await phone_ready(dora, "d1")
                figures = tuple(zip(game.state.figures, (13, 26, 29, 34, 50), strict=False))
                await r.table.submit(PlaceDetectives(figures), TABLE, r.table.seq, game_id=gid)
                await r.table.submit(PlaceX(51), Audience.of_seat("mrx"), r.table.seq, game_id=gid)
                await r.table.submit(XMove("taxi", 67), Audience.of_seat("mrx"), r.table.seq, game_id=gid)
                moved: list[str] = []
                for _ in range(2):  # two of the table's moves, each waiting for its pawn
                    box = await dora.wait_for_selector("[data-instruction] [data-action=table-done]", timeout=WAIT)
                    assert game.state.instruction is not None
                    await player.idle()
                    figure = game.state.instruction.figure
                    assert figure not in moved and figure != "D1"  # never Dora's detective
                    assert game.state.instruction is not None  # the table waits: no second move meanwhile
                    if not moved:
                        await phone_shot(dora, "detective-table-instruction")
                    moved.append(figure)
                    seq = r.table.seq
                    await box.click()
                    await dora.wait_for_function("(s) => C.state && C.state.seq > s", arg=seq, timeout=WAIT)
                assert len(moved) == 2
            finally:
                await player.stop()

    asyncio.run(scenario())


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["fr", "es"])
def test_the_host_page_speaks_the_table_language_from_its_first_picture(tmp_path: Path, lang: str) -> None:
    """A French (Spanish) table's host page is French from its first picture, not English until the
    next change; a game started there is named ("La partie de Scotland Yard a commencé.", never
    "Game 5 started."); Mister X without a name is "Mister X" once in the result, not "Mister X ·
    Mister X"; the play's heading is its title once ("Scotland Yard 28.11. 20:15", not "Scotland Yard
    · Scotland Yard 28.11. 20:15"). With ``COMPANION_DOCS_SCREENSHOTS=1`` the new game, a seat's code
    and the end are copied to docs/screenshots/<lang>-host-*.png."""

    def words(code: str, **params: Any) -> str:
        return text(code, params, lang, ("companion.net",))

    async def docs_shot(page: Page, name: str) -> None:
        await shot(page, f"{lang}-{name}")
        if os.environ.get("COMPANION_DOCS_SCREENSHOTS"):
            shutil.copyfile(SHOTS / f"host-{lang}-{name}.png", DOCS / f"{lang}-host-{name}.png")

    async def scenario() -> None:
        async with host_rig(tmp_path) as r, chromium() as browser:
            await r.prefs.set("language", lang)
            host = await (await browser.new_context(viewport=PHONE)).new_page()  # type: ignore[arg-type]

            async def slowly(route: Route) -> None:  # the table's texts come late (a busy Pi, weak Wi-Fi)
                await asyncio.sleep(1.0)
                await route.continue_()

            await host.route(f"**/texts/{lang}.json", slowly)
            await host.goto(r.host_url)
            await host.wait_for_selector("#status.connected", timeout=WAIT)
            await host.wait_for_selector("nav.tabs", timeout=WAIT)
            tabs = await host.eval_on_selector_all("nav.tabs [data-tab]", "tabs => tabs.map(b => b.textContent)")
            assert tabs == [words(f"host.tab.{t}") for t in ("game", "new", "saved", "history", "settings")]
            assert await host.inner_text("#status") == words("phone.connected")

            await host.click("[data-tab=new]")
            await host.click("[data-choose=scotland_yard]")
            await host.fill("[data-name='0']", "Dora")
            await host.click("[data-remove='1']")  # one detective player; Mister X without a name
            await docs_shot(host, "new-game")
            await host.click("[data-start]")
            await host.wait_for_selector("[data-screen=game] [data-seat=mrx] [data-show]", timeout=WAIT)
            assert await host.inner_text("#notice") == words("host.started", game="Scotland Yard")
            assert await host.locator("[data-screen=game] h2").first.text_content() == words("host.seats")  # no
            # "Scotland Yard" above "Scotland Yard 28.11. 20:15"
            await host.click("[data-show=mrx]")
            await host.wait_for_selector("[data-qr=mrx]", timeout=WAIT)
            await docs_shot(host, "seat-qr")
            await host.click("[data-hide=mrx]")

            assert r.table.current is not None
            game_id = r.table.current.header.id
            stations = (("D1", 13), ("D2", 26), ("B1", 29), ("B2", 34))
            await r.table.submit(PlaceDetectives(stations), TABLE, r.table.seq, game_id=game_id)
            await r.table.submit(PlaceX(51), Audience.of_seat("mrx"), r.table.seq, game_id=game_id)
            await r.table.submit(XMove("taxi", 67), Audience.of_seat("mrx"), r.table.seq, game_id=game_id)
            await r.table.submit(Move("D1", "underground", 67), Audience.of_seat("d1"), r.table.seq, game_id=game_id)
            await host.wait_for_selector("[data-bgstats-qr]", timeout=WAIT)
            rows = await host.eval_on_selector_all("table.result td:first-child", "tds => tds.map(c => c.textContent)")
            assert rows[0] == "Mister X", rows  # his label is his role: said once
            await docs_shot(host, "end")

            await host.click("[data-tab=history]")
            await host.wait_for_selector(f"[data-play='{game_id}'] h2", timeout=WAIT)
            heading = await host.eval_on_selector(f"[data-play='{game_id}'] h2", "h => h.textContent")  # not upper case
            assert heading == r.table.current.header.title and heading.startswith("Scotland Yard "), heading

    asyncio.run(scenario())


@pytest.mark.slow
def test_a_language_switched_on_the_host_page_reaches_its_status_and_notice(tmp_path: Path) -> None:
    """Switched to German on the host page itself: the whole page, its status pill and its own
    notice ("Erledigt.") are German — they kept the old language before (issue 42, item 12)."""

    async def scenario() -> None:
        async with host_rig(tmp_path) as r, chromium() as browser:
            host = await open_host(r, browser, PHONE)
            assert await host.inner_text("#status") == text("phone.connected", {}, "en", ("companion.net",))
            await host.click("[data-tab=settings]")
            await host.select_option("[data-setting=language]", "de")
            await host.wait_for_function("() => HOST.state && HOST.state.lang === 'de'", timeout=WAIT)
            german = ("companion.net",)
            await notice(host, text("host.done", {}, "de", german))
            assert await host.inner_text("#status") == text("phone.connected", {}, "de", german)
            assert await host.inner_text("#notice") == text("host.done", {}, "de", german)
            await shot(host, "settings-de-after-switch")

    asyncio.run(scenario())
