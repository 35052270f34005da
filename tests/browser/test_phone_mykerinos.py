"""Mykerinos phone pages in real headless Chromium at 360x740: three seats play season 1's excavation and
survey by tapping real buttons, the table link enters zone counts with its steppers, and a two-player game
plays the neutral's steps. Screenshots: artifacts/screenshots/phone-mykerinos-*.png."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from browser import chromium
from harness import rig
from phone_steps import act, confirm, open_phones, settled, shot, table_do, tap, view

from companion.app.seats import TABLE_SEAT

SEATS = ["blue", "red", "green"]
PATRONS = ["lady_violet", "lord_lemon", "sir_brown", "mrs_blackmore", "colonel_tangerine"]
START = "[data-choice=excavate][data-action=start]"
EXTEND = "[data-choice=excavate][data-action=extend]"
PASS = "[data-choice=pass]"


@pytest.mark.slow
def test_three_phones_play_a_season(tmp_path: Path) -> None:
    async def scenario() -> None:
        # Green's player typed a name in lower case: every screen shows it as typed.
        async with rig(tmp_path, "mykerinos", {"seats": SEATS, "names": {"green": "om"}}) as r, chromium() as browser:
            await table_do(r, {"kind": "myk.choose_start_player", "seat": "blue"})
            await table_do(r, {"kind": "myk.enter_patrons", "order": PATRONS})
            pages = await open_phones(r, browser, [*SEATS, TABLE_SEAT])
            blue, red, green, table = (pages[s] for s in [*SEATS, TABLE_SEAT])

            # Blue's turn: only blue is offered choices; the others see whose turn it is.
            assert await blue.locator("[data-choice]").count() == 2  # start an excavation, pass
            assert await red.locator("[data-choice]").count() == 0
            assert await red.locator("[data-turn=blue]").count() == 1
            assert await blue.locator("[data-supply]").get_attribute("data-supply") == "11"
            seq = await act(r, blue, START, shot_as="mykerinos-excavation")
            assert view(r)["players"]["blue"]["supply"] == 10
            await settled(blue, seq)
            assert await blue.locator("[data-supply]").get_attribute("data-supply") == "10"

            # Red passes, green starts, blue passes, green (last) extends once and passes by itself.
            await act(r, red, PASS)
            await act(r, green, START)
            seq = await act(r, blue, PASS)
            await settled(green, seq)
            assert await green.locator("text=(last action)").count() == 1
            seq = await act(r, green, EXTEND)
            v = view(r)
            assert v["phase"] == "survey" and v["board"] == {"blue": 1, "green": 3}
            assert v["pass_track"] == [["red", 1], ["blue", 2], ["green", 3]]

            # The table link counts zone 1 with its steppers: green 3, blue 1.
            await settled(table, seq)
            assert await table.locator("[data-section=counts]").count() == 1
            for colour, n in (("green", 3), ("blue", 1)):
                for _ in range(n):
                    await tap(table, f"[data-count={colour}] [data-step='+']")
            assert await table.locator("[data-count=green] .step-n").inner_text() == "3"
            await shot(table, "mykerinos-table-counts")
            seq = await confirm(r, table, "[data-action=counts]")
            assert view(r)["survey"]["ranking"] == ["green", "blue"]
            await settled(green, seq)  # where zone 1 lies: the first row, on the left
            assert await green.locator("[data-section=survey] [data-where]").inner_text() == "(row 1, left)"
            await shot(green, "mykerinos-zone-where")
            # Whose choice it is, the verb agreeing: "om chooses" on the others' phones, "You choose" on om's.
            assert await green.locator("#seat").inner_text() == "Green · om"
            assert (await green.locator("p[data-turn=green]").inner_text()).endswith("You choose as no. 1")
            await settled(blue, seq)
            assert (await blue.locator("p[data-turn=green]").inner_text()).endswith("om chooses as no. 1")

            # Green (1st) takes the Lord Lemon parcel worth 3: patron, then points, then confirm.
            await settled(green, seq)
            assert await green.locator("[data-turn=green].myk-yours").count() == 1
            await tap(green, "[data-choice=parcel][data-patron=lord_lemon]")
            assert await green.locator("[data-action=confirm]").count() == 0  # no points chosen yet
            seq = await act(r, green, "[data-points='3']", shot_as="mykerinos-parcel")
            mine = view(r)["players"]["green"]
            assert mine["score"] == 3 and mine["cards"] == {"lord_lemon": 1}
            await settled(green, seq)
            assert await green.locator("[data-score]").get_attribute("data-score") == "3"
            assert await green.locator("[data-card=lord_lemon] b").inner_text() == "×1"

            # Blue (2nd) goes to the museum: only legal rooms are buttons (no 5-room without a neighbour).
            await settled(blue, seq)
            await tap(blue, "[data-choice=museum]")
            legal_rooms = await blue.locator("button.myk-room").evaluate_all("bs => bs.map(b => b.dataset.room)")
            assert legal_rooms and not any(room.endswith(":5") for room in legal_rooms)
            seq = await act(r, blue, "button.myk-room[data-room='2:3']", shot_as="mykerinos-museum")
            assert view(r)["museum"] == {"2:3": "blue"}
            # Green's Lord Lemon card is worth 1 in the exhibition now (green has no room in wing 2): 3 + 1.
            assert view(r)["players"]["green"]["projection"] == 4
            await settled(green, seq)
            assert await green.locator("[data-projection]").get_attribute("data-projection") == "4"
            await settled(blue, seq)
            assert await blue.locator(".myk-room.myk-blue[data-room='2:3']").count() == 1
            await shot(blue, "mykerinos-after-museum")
            await settled(table, seq)
            await shot(table, "mykerinos-table")

            # Blue's placement closed the zone; nothing else was on the board, so season 2 began with green
            # (last on the pass track). Green uses its Lord Lemon card: it is then used for this season.
            v = view(r)
            assert (v["season"], v["turn"]["seat"]) == (2, "green")
            await settled(green, seq)
            assert await green.locator("[data-card=lord_lemon]").inner_text() == "Lord Lemon\twing 2\t×1\t1 ready"
            seq = await act(r, green, START + "[data-patron=lord_lemon]")
            assert view(r)["players"]["green"]["ready"] == {}
            await settled(green, seq)
            assert (await green.locator("[data-card=lord_lemon]").inner_text()).endswith("0 ready")
            assert await green.locator("[data-patron=lord_lemon]").count() == 0  # not offered again this season

    asyncio.run(scenario())


@pytest.mark.slow
def test_two_players_with_the_neutral(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rig(tmp_path, "mykerinos", {"seats": ["blue", "red"]}) as r, chromium() as browser:
            await table_do(r, {"kind": "myk.choose_start_player", "seat": "blue"})
            await table_do(r, {"kind": "myk.enter_patrons", "order": PATRONS})
            pages = await open_phones(r, browser, ["blue", "red"])
            blue, red = pages["blue"], pages["red"]
            assert await blue.locator("[data-supply]").get_attribute("data-supply") == "11"
            assert "neutral: 4" in await blue.locator(".myk-supply").inner_text()

            seq = await act(r, blue, START)
            # Right after the normal action: the neutral step, with only its legal actions.
            await settled(blue, seq)
            actions = await blue.locator("[data-choice=neutral]").evaluate_all("bs => bs.map(b => b.dataset.action)")
            assert actions == ["start", "skip"]  # no neutral excavation to extend yet
            await act(r, blue, "[data-choice=neutral][data-action=start]", shot_as="mykerinos-neutral-step")
            assert view(r)["players"]["blue"]["neutral_supply"] == 3
            await act(r, red, PASS)
            await act(r, blue, PASS)

            # Neutral (green) 1st by the pass track, blue 2nd: red, absent from the zone, picks its parcel.
            await table_do(r, {"kind": "myk.zone_counts", "counts": [["blue", 1], ["green", 1]]})
            await settled(red, r.table.seq)
            assert await red.locator("[data-choice]").count() == 1
            await act(r, red, "[data-choice=neutral_pick]", shot_as="mykerinos-neutral-pick")
            assert view(r)["survey"]["parcels"] == 1
            # Blue takes the patron-less card: its points are fixed, so confirm comes at once.
            await act(r, blue, "[data-choice=parcel][data-patron=blank]")
            assert view(r)["players"]["blue"]["score"] == 5 and view(r)["players"]["blue"]["blank"] == 1

    asyncio.run(scenario())
