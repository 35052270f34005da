"""Victorian Masterminds phones in real Chromium (360 px): the table places for a player whose phone
keeps the pile, and only that phone is told which agent; the table link names a face-up agent of a
turned-over stack again; a Gunner's owner takes back its answer from its phone although the stack
moved on; and every phone says why the Secret Service level rose. Screenshots:
artifacts/screenshots/phone-vm-trust-*.png.

Rulebook (DE p.9, Draufgängerin): with firepower at least the Secret Service level, the Gunner takes
a building of the city, "danach steigt der Geheimdienst um 1" — then the Secret Service rises by 1."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from browser import chromium
from harness import Rig, rig
from phone_steps import WAIT, confirm, open_phones, settled, shot, tap

from companion.app.seats import TABLE_SEAT
from companion.core import TABLE, Audience
from companion.games.victorian_masterminds.events import Adjust, Place, Start

CONFIG = {
    "players": [
        {"seat": "p1", "colour": "red", "machine": 1, "name": "Ann"},
        {"seat": "p2", "colour": "blue", "machine": 2},
        {"seat": "p3", "colour": "green", "machine": 3},
    ],
    "secret_service_start": 2,
}


async def submit(r: Rig, intent: object, actor: Audience = TABLE) -> None:
    assert r.table.current is not None
    await r.table.submit(intent, actor, r.table.seq, game_id=r.table.current.header.id, source="touchscreen")  # type: ignore[arg-type]


@pytest.mark.slow
def test_told_named_again_taken_back_and_why_the_level_rose(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rig(tmp_path, "victorian_masterminds", CONFIG, seed=4) as r, chromium() as browser:
            await submit(r, Start())
            game = r.table.game
            assert game is not None and game.state.player("p1").pile[0] == "gunner"
            await submit(r, Adjust("firepower", 3, "p1"))
            pages = await open_phones(r, browser, ["p1", "p2", TABLE_SEAT])
            ann, p2, table = pages["p1"], pages["p2"], pages[TABLE_SEAT]

            # Ann plays at the touchscreen although her phone keeps her pile: her top agent is placed,
            # and her phone alone says which.
            await submit(r, Place("p1", "paris", books=True))
            await settled(ann, r.table.seq)
            assert await ann.inner_text("[data-told=gunner]") == "The table placed your Gunner in Paris."
            await settled(p2, r.table.seq)
            assert await p2.locator("[data-told]").count() == 0 and "Gunner" not in await p2.inner_text("#main")
            await shot(ann, "vm-trust-told")

            # Tag scans fill Paris and it is turned over; p2's disc was read as a Number Two but is its Gunner.
            await submit(r, Place("p2", "paris", "number_two"))
            await submit(r, Place("p3", "paris", "engineer"))
            resolution = game.state.resolution
            assert resolution is not None and resolution.city == "paris" and resolution.stage == "gunner"
            await settled(table, r.table.seq)
            await tap(table, "[data-reidentify='1']")
            await tap(table, "[data-choice=reidentify] [data-name=gunner]")
            await shot(table, "vm-trust-name-again")
            await confirm(r, table)
            resolution = game.state.resolution
            assert resolution is not None and resolution.agents[1].agent == "gunner"

            # Ann's Gunner: a wrong building tapped; the stack moves on to p3's Engineer by itself, and
            # Ann takes her answer back from her phone.
            await settled(ann, r.table.seq)
            await tap(ann, "[data-building=university]")
            await confirm(r, ann)
            resolution = game.state.resolution
            assert resolution is not None and resolution.index == 2  # p3's Engineer waits now
            await settled(ann, r.table.seq)
            assert (await ann.inner_text("[data-action=undo]")).startswith("Undo:")
            await shot(ann, "vm-trust-undo-own-answer")
            await ann.click("[data-action=undo]")
            await ann.wait_for_function(
                "() => C.state && C.state.view.resolution && C.state.view.resolution.index === 0", timeout=WAIT
            )
            assert game.state.level == 2
            await tap(ann, "[data-building=furnace]")
            await confirm(r, ann)

            # Every phone says why the level rose.
            why = "Secret Service 2 → 3: captured by Ann's Gunner: Furnace, Paris"
            for page in (ann, p2, table):
                await settled(page, r.table.seq)
                assert await page.inner_text("[data-level-why=gunner]") == why
            await shot(p2, "vm-trust-level-why")

    asyncio.run(scenario())
