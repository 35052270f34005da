"""What a detective's phone shows while others play, in real Chromium: a half-done choice that is
still legal survives another figure's move (and one that is not goes, with a word); a move the
table takes back is announced on the phone that made it; Mister X's last reveal stays on the phone
until his next one, announced the same way when it came inside a double move; the end shows no
possible stations.

Rulebook (Scotland Yard Master, basic game): Mister X shows himself after his 3rd, 8th, 13th, 18th
and 24th move ("In den Runden 3, 8, 13, 18 und 24 muss sich Mister X zeigen"); with a double move
whose first step is such a field, he is shown there and disappears again with the second step.
Screenshots: artifacts/screenshots/phone-sy-*.png (360 px)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from browser import chromium
from harness import Rig, rig
from phone_steps import WAIT, open_phones, settled, shot, tap
from playwright.async_api import Page

from companion.core import TABLE, Audience, Undo
from companion.games.scotland_yard.model import EndGame, Move, PlaceDetectives, PlaceX, Step, XDouble, XMove

CONFIG = {"mister_x": "Xavier", "detectives": ["Dora", "Emil"], "tracker": True}
PATH = {35, 36, 37, 50, 49, 66}
MRX = Audience.of_seat("mrx")
NOTICE = "document.querySelector('#notice').textContent"


async def submit(r: Rig, intent: object, actor: Audience = TABLE, source: str = "touchscreen") -> None:
    assert r.table.current is not None
    await r.table.submit(intent, actor, r.table.seq, game_id=r.table.current.header.id, source=source)  # type: ignore[arg-type]


async def detectives_move(r: Rig) -> None:
    """Every figure still to move, by the table, never onto Mister X's way."""
    game = r.table.game
    assert game is not None
    while game.state.phase == "detectives":
        moves = game.rules.legal(game.state, TABLE)["moves"]  # type: ignore[index]
        figure = next(f for f in game.state.figures if f in moves)
        choices = [(line, s) for line in sorted(moves[figure]) for s in moves[figure][line]]
        line, station = next(c for c in choices if c[1] not in PATH and c[1] != game.state.x_station)
        await submit(r, Move(figure, line, station))  # type: ignore[arg-type]


async def notice(page: Page) -> str:
    text: str = await page.evaluate(
        "() => { const n = document.querySelector('#notice'); return n.hidden ? '' : n.textContent; }"
    )
    return text


@pytest.mark.slow
def test_a_detective_phone_keeps_its_choice_hears_of_undo_and_keeps_the_last_reveal(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rig(tmp_path, "scotland_yard", CONFIG) as r, chromium() as browser:
            await submit(r, PlaceDetectives((("D1", 13), ("D2", 26), ("B1", 29), ("B2", 53))))
            await submit(r, PlaceX(35), MRX, "phone:mrx")
            await submit(r, XMove("taxi", 36), MRX, "phone:mrx")
            pages = await open_phones(r, browser, ["d1", "d2"])
            dora = pages["d1"]

            # Dora picks D1 and a destination; Emil moves D2 elsewhere on his phone meanwhile.
            await tap(dora, "[data-select=D1]")
            await tap(dora, "[data-section=move] .dest[data-ticket=taxi][data-station='4']")
            await submit(r, Move("D2", "taxi", 39), Audience.of_seat("d2"), "phone:d2")
            await settled(dora, r.table.seq)
            assert await dora.locator("[data-select=D1].sel").count() == 1  # still legal: kept
            assert await dora.locator("[data-action=confirm]").count() == 1
            assert "cleared" not in await notice(dora)
            await shot(dora, "sy-choice-kept")

            # She confirms; the table takes her move back at the touchscreen: her phone says so.
            await tap(dora, "[data-action=confirm]")
            await dora.wait_for_function(
                "() => document.querySelector('#notice').textContent === 'Done.'", timeout=WAIT
            )
            await submit(r, Undo())
            await settled(dora, r.table.seq)
            await dora.wait_for_function(
                f"() => {NOTICE}.startsWith('Your move was taken back at the table')",
                timeout=WAIT,
            )
            assert "D1" in await notice(dora) or "Detective 1" in await notice(dora)
            await shot(dora, "sy-undone-by-the-table")

            # She picks D1 again; the table moves D1 itself: her choice is gone, and she is told why.
            await tap(dora, "[data-select=D1]")
            await tap(dora, "[data-section=move] .dest[data-ticket=taxi][data-station='4']")
            await submit(r, Move("D1", "taxi", 23))
            await settled(dora, r.table.seq)
            assert await dora.locator("[data-action=confirm]").count() == 0
            assert "cleared" in await notice(dora)

            # Rounds 2 and 3: his double move begins on a reveal field (3: station 50).
            await detectives_move(r)
            await submit(r, XMove("taxi", 37), MRX, "phone:mrx")
            await detectives_move(r)
            await submit(r, XDouble(Step("taxi", 50), Step("black", 49)), MRX, "phone:mrx")
            await settled(dora, r.table.seq)
            assert await dora.inner_text("[data-reveal-now='3']") == "Mister X shows himself at 50 (move 3)!"
            assert await dora.inner_text("[data-mrx-shown]") == "50"
            await shot(dora, "sy-detective-double-reveal")
            await detectives_move(r)
            await submit(r, XMove("taxi", 66), MRX, "phone:mrx")  # he moves on, unseen
            await settled(dora, r.table.seq)
            assert await dora.locator("[data-reveal-now]").count() == 0
            assert await dora.inner_text("[data-mrx-shown]") == "50"  # still where he was last seen
            assert await dora.inner_text("[data-mrx-seen-move]") == "move 3"
            await shot(dora, "sy-detective-last-seen")

            # The table ends the game: the route is everyone's, no list of possible stations is left.
            await submit(r, EndGame())
            await settled(dora, r.table.seq)
            await dora.wait_for_selector("[data-end]", timeout=WAIT)
            assert await dora.locator("[data-section=tracker]").count() == 0
            assert "possible station" not in await dora.inner_text("#main")
            await shot(dora, "sy-detective-end")

    asyncio.run(scenario())
