"""The phone page in a real browser: a Mister X phone and a detective phone play Scotland Yard
for several rounds (single moves, the reveal warning and reveal, a double move). Screenshots at
360×740 go to artifacts/screenshots/."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from browser import PHONE, SHOTS, chromium
from harness import rig
from playwright.async_api import Page

from companion.core import TABLE, Audience
from companion.games.scotland_yard import moves
from companion.games.scotland_yard.model import DrawStart, Move, PlaceDetectives, PlaceX, SYState, XMove
from companion.games.scotland_yard.views import legal

CONFIG = {"mister_x": "Xavier", "detectives": ["Dora"]}  # two players: d1 runs D1, D2 and both bobbies


async def seq_of(page: Page) -> int:
    value: int = await page.evaluate("() => C.state ? C.state.seq : -1")
    return value


async def confirm_and_wait(page: Page, table_seq: int) -> None:
    """Tap confirm; the page must show the action as pending until the Pi confirms it."""
    await page.click("[data-action=confirm]")
    await page.wait_for_function("(s) => C.state && C.state.seq > s", arg=table_seq, timeout=30_000)
    await page.wait_for_selector("#notice.info", timeout=30_000)


@pytest.mark.slow
def test_mister_x_and_a_detective_play_rounds_in_chromium(tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)

    async def scenario() -> None:
        async with rig(tmp_path, "scotland_yard", CONFIG) as r, chromium() as browser:
            game = r.table.game
            assert game is not None
            await r.table.submit(DrawStart(), TABLE, game.seq, game_id=r.table.current.header.id)
            tokens = r.tokens(["mrx", "d1"])
            x_page = await (await browser.new_context(viewport=PHONE)).new_page()
            d_page = await (await browser.new_context(viewport=PHONE)).new_page()
            await x_page.goto(f"{r.base}/s/{tokens['mrx']}")
            await d_page.goto(f"{r.base}/s/{tokens['d1']}")
            for page in (x_page, d_page):
                await page.wait_for_selector("#status.connected", timeout=30_000)

            for rnd in range(1, 5):
                state = game.state
                if state.phase == "over":
                    break
                assert state.phase == "x" and state.round == rnd
                await x_page.wait_for_selector("[data-section=move] .dest")
                assert await x_page.inner_text("[data-my-station]") == str(state.x_station)
                warning = await x_page.query_selector("[data-warning=reveal]")
                assert (warning is not None) == (len(state.route) + 1 == 3), "reveal warning before field 3 only"
                if rnd < 4:
                    await x_page.click("[data-section=move] .dest")
                    if rnd == 1:
                        await x_page.screenshot(path=str(SHOTS / "phone-sy-mrx-choose.png"), full_page=True)
                    await confirm_and_wait(x_page, game.seq)
                else:
                    await x_page.click("[data-mode=double]")
                    await x_page.click("[data-section=move] .dest")
                    await x_page.wait_for_selector("text=Second step:")
                    await x_page.click("[data-section=move] .dest")
                    await x_page.screenshot(path=str(SHOTS / "phone-sy-mrx-double.png"), full_page=True)
                    await confirm_and_wait(x_page, game.seq)
                    assert [f.step for f in game.state.route[-2:]] == [1, 2]
                assert game.state.phase in ("detectives", "over")

                # The detective phone: what it shows of Mister X is only what the table may know.
                await d_page.wait_for_function("(s) => C.state && C.state.seq >= s", arg=game.seq)
                shown = await d_page.inner_text("[data-mrx-shown]")
                revealed = [f.station for f in game.state.route if f.field in (3, 8, 13, 18, 24)]
                if game.state.shown:
                    assert shown == str(game.state.shown) == str(game.state.x_station)
                    await d_page.screenshot(path=str(SHOTS / "phone-sy-detective-reveal.png"), full_page=True)
                else:  # where he was last shown stays until his next reveal
                    assert shown == (str(revealed[-1]) if revealed else "?")
                # The station reached the detective's page only if it was shown (a reveal round).
                received = await d_page.evaluate("() => C.state.view.mrx.station")
                assert received == (game.state.shown or None)
                log_text = await d_page.inner_text(".log")
                assert "Taxi" in log_text or "Bus" in log_text or "Underground" in log_text or "Black" in log_text

                while game.state.phase == "detectives" and game.state.round == rnd:
                    await d_page.wait_for_selector("[data-select]")
                    await d_page.click("[data-select]")
                    await d_page.click("[data-section=move] .dest")
                    if rnd == 1:
                        await d_page.screenshot(path=str(SHOTS / "phone-sy-detective-move.png"), full_page=True)
                    await confirm_and_wait(d_page, game.seq)
            assert game.state.round >= 4 or game.state.phase == "over"
            await x_page.wait_for_function("(s) => C.state && C.state.seq >= s", arg=game.seq)
            await x_page.screenshot(path=str(SHOTS / "phone-sy-mrx.png"), full_page=True)
            # Mister X's route on his own phone shows his stations.
            route_text = await x_page.inner_text(".log")
            assert all(str(f.station) in route_text for f in game.state.route)

    asyncio.run(scenario())


@pytest.mark.slow
def test_a_detective_phone_open_at_the_end_says_where_mister_x_was(tmp_path: Path) -> None:
    """Rulebook: "Mister X ist gefasst, wenn ein Detektiv auf das Feld zieht, auf dem sich Mister X
    befindet". Once caught, a detective phone that stayed open shows where he was (as the table's
    end screen does: "Mister X was at 67"), the winner and his whole route — no longer a stale
    "last seen"."""
    SHOTS.mkdir(parents=True, exist_ok=True)

    async def scenario() -> None:
        async with rig(tmp_path, "scotland_yard", CONFIG) as r, chromium() as browser:
            gid = r.table.current.header.id
            x = Audience.of_seat("mrx")
            await r.table.submit(
                PlaceDetectives((("D1", 13), ("D2", 26), ("B1", 29), ("B2", 34))), TABLE, r.table.seq, game_id=gid
            )
            tokens = r.tokens(["d1"])
            d_page = await (await browser.new_context(viewport=PHONE)).new_page()
            await d_page.goto(f"{r.base}/s/{tokens['d1']}")
            await d_page.wait_for_selector("#status.connected", timeout=30_000)
            await r.table.submit(PlaceX(51), x, r.table.seq, game_id=gid)
            await r.table.submit(XMove("taxi", 67), x, r.table.seq, game_id=gid)
            await d_page.wait_for_selector("[data-mrx-shown]")
            await r.table.submit(Move("D1", "underground", 67), TABLE, r.table.seq, game_id=gid)
            await d_page.wait_for_selector("[data-end]", timeout=30_000)
            assert await d_page.inner_text("[data-mrx-was]") == "67"
            assert await d_page.query_selector("[data-mrx-shown]") is None
            assert "67" in await d_page.inner_text(".log")  # his route, now public
            assert "Dora" in await d_page.inner_text("[data-end]")  # who caught him, by the name typed
            await d_page.screenshot(path=str(SHOTS / "phone-sy-detective-end.png"), full_page=True)

    asyncio.run(scenario())


YARD_CONFIG = {  # a lone Mister X and one detective player; the table plays the rest
    "mister_x": "Xavier",
    "detectives": ["Dora", "", ""],
    "detectives_ai": "normal",
    "table_detectives": ["d2", "d3", "bobbies"],
}


@pytest.mark.slow
def test_the_tables_detectives_move_on_every_phone_and_a_phone_confirms_the_pawn(tmp_path: Path) -> None:
    """Issue 43: the table's detectives' moves are instructions ("Move detective 2 by Taxi to 94")
    that every phone shows; a player moves the pawn and taps Done on any phone — detective 1's or
    Mister X's (a lone Mister X has nobody else). Rulebook: "anschließend in beliebiger Reihenfolge
    alle Detektive und Bobbies" — the table's figures move among the players' in any order."""
    SHOTS.mkdir(parents=True, exist_ok=True)

    async def scenario() -> None:
        async with rig(tmp_path, "scotland_yard", YARD_CONFIG) as r, chromium() as browser:
            game = r.table.game
            assert game is not None
            gid = r.table.current.header.id
            await r.table.submit(DrawStart(), TABLE, game.seq, game_id=gid)
            await r.table.submit(XMove(*first_x_move(game.state)), Audience.of_seat("mrx"), game.seq, game_id=gid)
            tokens = r.tokens(["mrx", "d1"])
            pages = {}
            for seat in ("mrx", "d1"):
                pages[seat] = await (await browser.new_context(viewport=PHONE)).new_page()
                await pages[seat].goto(f"{r.base}/s/{tokens[seat]}")
                await pages[seat].wait_for_selector("#status.connected", timeout=30_000)
            yard = Audience.of_seat("yard")  # as the app's table player submits its detectives' moves
            for figure, confirmer in (("D2", "d1"), ("B1", "mrx")):
                state = game.state
                assert figure not in legal(state, TABLE).get("moves", {})  # the table's figures: never offered
                line, station = table_move(state, state.figures.index(figure))
                await r.table.submit(Move(figure, line, station), yard, game.seq, game_id=gid)
                kind = "bobby" if figure == "B1" else "detective"
                words = f"Move {kind} {figure[1:]} by {line.capitalize()} to {station}"
                for seat, page in pages.items():
                    box = await page.wait_for_selector(f"[data-instruction={figure}]", timeout=30_000)
                    said = await box.inner_text()
                    assert "The table says:" in said and words in said, (seat, said)
                    assert await page.query_selector(f"[data-instruction={figure}] [data-action=table-done]")
                await pages[confirmer].screenshot(path=str(SHOTS / f"phone-sy-yard-{confirmer}.png"), full_page=True)
                seq = game.seq
                await pages[confirmer].click("[data-action=table-done]")
                await pages[confirmer].wait_for_function("(s) => C.state && C.state.seq > s", arg=seq, timeout=30_000)
                assert game.state.instruction is None  # confirmed: the table may move again
                for page in pages.values():
                    await page.wait_for_selector(f"[data-instruction={figure}]", state="detached", timeout=30_000)

    asyncio.run(scenario())


def first_x_move(state: SYState) -> tuple[str, int]:
    """His first single move in ``legal`` order (any legal move does here)."""
    single = legal(state, Audience.of_seat("mrx"))["x"]["single"]
    ticket = sorted(single)[0]
    return ticket, single[ticket][0]


def table_move(state: SYState, i: int) -> tuple[str, int]:
    """A legal move for the table's figure ``i`` (what its AI chose does not matter to the phones):
    a bobby by bus where it can, to show "by Bus" in the words."""
    options = moves.figure_options(state, i)
    line = "bus" if "bus" in options else sorted(options)[0]
    return line, sorted(options[line])[0]
