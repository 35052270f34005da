"""Scotland Yard with no phone for Mister X (issue 12, item 5): the table screen used to say
"Mister X is choosing his move on his phone…" and wait forever. Now it says he has no phone
connected and offers his QR code in one tap; once his phone joins, the screen waits for his move;
when it goes away, the screen says so again."""

from __future__ import annotations

from driver import AppProcess
from looking import ui_text
from phones import SyncPhone
from test_scotland_yard_ui import decode_qr


def test_mister_x_without_a_phone_is_named_and_his_code_is_one_tap_away(app: AppProcess) -> None:
    app.tap("start.new")
    app.tap("new.scotland_yard")
    app.tap("new.start")
    app.wait_screen("game")
    app.tap("sy.draw_start")
    state = app.wait(lambda s: "sy.x_no_phone" in s["tids"], what="no phone for Mister X")
    assert state["tids"]["sy.x_no_phone"]["text"] == ui_text("ui.sy.x_no_phone")
    assert "sy.waiting" not in state["tids"]
    app.screenshot("sy_x_without_phone")

    app.tap("sy.link_x")  # one tap: the Phones screen with his code on it
    state = app.wait(lambda s: s["screen"] == "seats" and "seats.qr" in s["tids"], what="his QR code")
    url = decode_qr(app.screenshot("sy_x_code_one_tap"))
    phone = SyncPhone(url)
    try:
        assert phone.connect()["seat"] == "mrx"
        app.tap("seats.back")
        state = app.wait(lambda s: s["screen"] == "game" and "sy.waiting" in s["tids"], what="waiting for his move")
        assert "sy.x_no_phone" not in state["tids"]
        app.screenshot("sy_x_with_phone")
    finally:
        phone.close()
    state = app.wait(lambda s: "sy.x_no_phone" in s["tids"], what="his phone gone again")
    assert "Traceback" not in app.log()
