"""Undo names the action, and a half-done choice that vanishes says why (issue 12, item 9).

The touchscreen has D2 picked (its destinations on screen) when D2's own phone moves it first:
the picker goes away with a message saying what happened and from where. The Undo question
then names that move and its phone: "Undo: D2 taxi 53 → 69 (from Detective 2's phone)?" instead of
"Undo the last action?"."""

from __future__ import annotations

import re

from driver import AppProcess
from phones import SyncPhone
from test_scotland_yard_ui import decode_qr, x_move

from companion.app.i18n import text


def link(app: AppProcess, seat: str) -> SyncPhone:
    app.tap("game.seats")
    app.wait_screen("seats")
    app.tap(f"seats.show.{seat}")
    app.wait(lambda s: "seats.qr" in s["tids"], what=f"{seat}'s QR code")
    phone = SyncPhone(decode_qr(app.screenshot(f"undo_naming_qr_{seat}")))
    assert phone.connect()["seat"] == seat
    app.wait(lambda s: "seats.qr" not in s["tids"], what="the code hidden once claimed")
    app.tap("seats.back")
    app.wait_screen("game")
    return phone


def test_undo_names_the_action_and_a_vanished_choice_says_why(app: AppProcess) -> None:
    app.tap("start.new")
    app.tap("new.scotland_yard")
    app.tap("setup.sy.detectives.2")
    app.tap("new.start")
    app.wait_screen("game")
    app.tap("sy.draw_start")
    app.wait(lambda s: "sy.x_no_phone" in s["tids"])
    mrx = link(app, "mrx")
    d2 = link(app, "d2")
    try:
        x = x_move(mrx, want_threat=False, or_farthest=True)  # the start cards are drawn at random
        state = app.wait(lambda s: "sy.figure.D2.movable" in s["tids"], what="the detectives' turn")

        # The touchscreen picks D2 ... and D2's own phone moves it first.
        app.tap("sy.figure.D2")
        app.wait(lambda s: any(t.startswith("sy.dest.") for t in s["tids"]), what="D2's destinations")
        seen = d2.state()
        start = next(f["station"] for f in seen["view"]["figures"] if f["figure"] == "D2")
        moves = seen["legal"]["moves"]["D2"]
        # a move that does not end the game (landing on Mister X would): by taxi where one fits
        options = [(t, st) for t in sorted(moves, key=lambda t: t != "taxi") for st in moves[t] if st != x["station"]]
        ticket, target = options[0]
        reply = d2.intent({"kind": "sy.move", "figure": "D2", "ticket": ticket, "station": target}, seen["seq"])
        assert reply["type"] == "ack", reply
        ticket_words = text(f"sy.ticket.{ticket}")
        moved = f"D2 {ticket_words} {start} → {target}"
        state = app.wait(lambda s: s["toast"] != "", what="why the picker vanished")
        assert not any(t.startswith("sy.dest.") for t in state["tids"])
        assert moved in state["toast"] and "phone" in state["toast"], state["toast"]
        assert state["toast_kind"] == "info"
        app.screenshot("sy_vanished_choice")

        # Undo names it, and where it came from.
        app.tap("game.undo")
        state = app.wait(lambda s: s["dialog"], what="the undo question")
        question = next(t for t in state["texts"] if t.startswith("Undo:"))
        assert re.fullmatch(rf"Undo: {re.escape(moved)} \(from .*D2.*'s phone\)\?", question), question
        app.screenshot("sy_undo_named")
        app.tap("confirm.yes")
        state = app.wait(lambda s: s["seq"] > seen["seq"] + 1 and not s["dialog"], what="undone")
        assert "sy.figure.D2.movable" in state["tids"]
        assert "Traceback" not in app.log()
    finally:
        d2.close()
        mrx.close()
