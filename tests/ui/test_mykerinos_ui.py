"""Mykerinos on the real touchscreen app: setup by seating order, the draws, an excavation round
tapped on the screen, and a survey — counts per zone with the large +/- controls, then the ranked
choices: a parcel entered by what it shows, and the museum with only the legal rooms offered."""

from __future__ import annotations

from typing import Any

from driver import AppProcess
from PIL import Image

SEATS = ("blue", "red", "green")
DANGER = (0xD9, 0x53, 0x4F)  # ui/theme.py's DANGER: a refusal's box


def scores(state: dict[str, Any]) -> dict[str, int]:
    return {s: int(state["tids"][f"myk.score.{s}"]["text"]) for s in SEATS}


def test_mykerinos_survey(app: AppProcess) -> None:
    app.tap("start.new")
    app.tap("new.mykerinos")
    for colour in SEATS:
        app.tap(f"setup.myk.colour.{colour}")
    app.wait(lambda s: s["tids"]["setup.myk.colour.green"]["text"].startswith("3."))
    app.screenshot("myk_setup")
    app.tap("new.start")
    app.wait_screen("game")
    app.screenshot("myk_table_setup")
    # the museum board's layout: a ring of five 2-rooms here (switchable until a room is taken)
    app.tap("game.options")
    app.tap("myk.options.layout")
    app.wait(lambda s: "myk.layout.ring5" in s["tids"], what="the layout dialog")
    app.screenshot("myk_layout_dialog")
    app.tap("myk.layout.ring5")
    app.wait(lambda s: "myk.room.5-1:2" in s["tids"], what="the ring's fifth 2-room")
    before = app.state()["tids"]
    app.tap("myk.draw_start_player")
    state = app.wait(lambda s: "myk.start_player" in s["tids"], what="who was drawn")
    # nothing moves under the finger: the patrons' buttons stay where they were, the start player's
    # stay in their places, unavailable now (issue 42)
    for tid in ("myk.draw_start_player", "myk.draw_patrons", "myk.choose_start_player", "myk.enter_patrons"):
        assert state["tids"][tid]["box"] == before[tid]["box"], tid
    assert state["tids"]["myk.draw_start_player"]["disabled"] and state["tids"]["myk.choose_start_player"]["disabled"]
    assert not state["tids"]["myk.draw_patrons"]["disabled"]
    drawn = state["tids"]["myk.start_player"]["text"].removeprefix("Start player: ")
    # each colour with its shape (colour-blind players tell red from green by it)
    assert drawn in ("\u25cf\u00a0Blue", "\u25b2\u00a0Red", "\u25a0\u00a0Green")
    assert state["toast"] == f"Drawn: {drawn} starts."
    app.screenshot("myk_table_start_drawn")
    app.tap("myk.draw_patrons")
    state = app.wait(lambda s: "myk.pass" in s["tids"], what="season 1")
    assert "Season 1/4" in state["tids"]["game.status"]["text"]
    assert all(state["tids"][f"myk.wing.{w}"]["text"] for w in range(1, 6))
    app.screenshot("myk_table_excavation")

    # Everybody starts one excavation (one archaeologist each), then passes.
    for _ in SEATS:
        seq = state["seq"]
        app.tap("myk.excavate.start.plain")
        state = app.wait(lambda s, q=seq: s["seq"] > q)
    supplies = {s: state["tids"][f"myk.supply.{s}"]["text"] for s in SEATS}
    assert set(supplies.values()) == {"10"}  # 11 handed out, one on the board
    while "myk.counts.done" not in state["tids"]:
        seq = state["seq"]
        app.tap("myk.pass")
        state = app.wait(lambda s, q=seq: s["seq"] > q, what="the next pass")
    app.screenshot("myk_table_counts_empty")

    # Zone 1: one blue and one red archaeologist (entered with the +/- controls).
    assert state["tids"]["myk.count.blue.minus"]["disabled"]  # nothing below zero
    app.tap("myk.count.blue.plus")
    app.tap("myk.count.red.plus")
    state = app.wait(lambda s: s["tids"]["myk.count.red.value"]["text"] == "1")
    assert state["tids"]["myk.count.red.plus"]["disabled"]  # red has only one on the board
    app.screenshot("myk_table_counts")
    before = scores(state)
    app.tap("myk.counts.done")
    state = app.wait(lambda s: "myk.take_parcel" in s["tids"], what="the first choice")
    assert "rank 1" in state["tids"]["myk.prompt"]["text"]
    assert state["tids"]["myk.zone_where"]["text"] == "Zone 1 of 4 · row 1 from the board, left"
    app.screenshot("myk_table_survey_choice")

    # 1st takes a parcel: Lady Violet on the back, 3 points on the front. Nothing is preselected,
    # so OK before reading the card records nothing; a patron's parcel is never worth 5.
    app.tap("myk.take_parcel")
    state = app.wait(lambda s: s["dialog"])
    assert "myk.parcel.points.5" not in state["tids"] and "myk.parcel.points.3" in state["tids"]
    app.screenshot("myk_parcel_dialog_empty")
    seq = state["seq"]
    app.tap("myk.parcel.ok")
    state = app.wait(lambda s: s["toast"] != "", what="the refusal")
    assert "patron" in state["toast"] and state["seq"] == seq and state["dialog"]
    # the refusal is drawn over the dialog's dim layer: its red box as bright as on a bare screen
    shot = Image.open(app.screenshot("myk_parcel_dialog_refused")).convert("RGB")
    corner = shot.getpixel((26, shot.height - 22))  # inside the toast's box, left of its words
    assert all(abs(a - b) <= 16 for a, b in zip(corner, DANGER, strict=True)), corner
    app.tap("myk.parcel.patron.lady_violet")
    app.tap("myk.parcel.points.3")
    app.screenshot("myk_parcel_dialog")
    app.tap("myk.parcel.ok")
    state = app.wait(lambda s: "rank 2" in s["tids"].get("myk.prompt", {}).get("text", ""), what="the second choice")
    after = scores(state)
    first = next(s for s in SEATS if after[s] != before[s])
    assert after[first] == before[first] + 3
    assert state["tids"][f"myk.cards.{first}.lady_violet"]["text"] == "1"

    # 2nd goes to the museum: only legal rooms are offered (all 2- and 3-rooms, no 5-room yet).
    app.tap("myk.museum")
    state = app.wait(lambda s: "myk.room.cancel" in s["tids"])
    offered = {t.split("myk.pick.", 1)[1] for t in state["tids"] if t.startswith("myk.pick.")}
    assert offered == {f"{w}:3" for w in range(1, 6)} | {f"{w}-{w + 1}:2" for w in range(1, 5)} | {"5-1:2"}, offered
    app.screenshot("myk_table_museum_choice")
    app.tap("myk.pick.1:3")
    state = app.wait(lambda s: "myk.count.green.plus" in s["tids"], what="zone 2")
    second = next(s for s in ("blue", "red") if s != first)

    # Zone 2 (row 1, right): green alone takes a parcel; the board is empty, the season ends by itself.
    state = app.wait(lambda s: "row 1 from the board, right" in s["tids"]["myk.zone_where"]["text"])
    app.tap("myk.count.green.plus")
    app.tap("myk.counts.done")
    app.tap("myk.take_parcel")
    app.tap("myk.parcel.patron.lord_lemon")
    app.tap("myk.parcel.points.2")
    app.tap("myk.parcel.ok")
    state = app.wait(lambda s: "Season 2/4" in s["tids"]["game.status"]["text"], what="season 2")
    assert int(state["tids"]["myk.score.green"]["text"]) == 2
    museum = state["tids"]["myk.room.1:3"]["text"]
    assert second.capitalize() in museum, museum  # the museum shows who holds the room
    assert int(state["tids"][f"myk.projection.{second}"]["text"]) >= int(state["tids"][f"myk.score.{second}"]["text"])
    app.screenshot("myk_table_season2")
