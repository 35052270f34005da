"""Switching the table's language (issue 12, item 4): from Settings after a game was set up and
played (its setup form was the one that broke: "SetupForm already has a parent"), both ways, every
screen follows at once, nothing says "Something went wrong", and an open phone follows without a
reload (it is told the new language on its web socket)."""

from __future__ import annotations

from driver import AppProcess
from phones import SyncPhone
from test_scotland_yard_ui import decode_qr

from companion.app.i18n import text


def no_error(app: AppProcess) -> None:
    state = app.state()
    for lang in ("en", "de"):
        assert state["toast"] != text("ui.error.unexpected", None, lang, ("ui",)), state["toast"]
    assert "Traceback" not in app.log()


def test_switching_language_after_a_game_was_set_up_works_both_ways_and_phones_follow(app: AppProcess) -> None:
    app.tap("start.new")
    app.tap("new.scotland_yard")
    app.tap("setup.sy.detectives.2")
    app.tap("new.start")
    app.wait_screen("game")
    app.tap("sy.draw_start")
    app.tap("game.seats")
    app.wait_screen("seats")
    app.tap("seats.show.mrx")
    app.wait(lambda s: "seats.qr" in s["tids"], what="the QR code")
    phone = SyncPhone(decode_qr(app.screenshot("language_qr")))
    try:
        assert phone.connect()["lang"] == "en"
        app.wait(lambda s: "seats.qr" not in s["tids"], what="the code hidden once claimed")
        app.tap("seats.back")
        app.wait_screen("game")
        app.tap("game.home")
        app.wait_screen("start")
        for lang, back in (("de", "‹ Zurück"), ("en", "‹ Back"), ("de", "‹ Zurück")):
            app.tap("start.settings")
            app.wait_screen("settings")
            app.tap(f"settings.lang.{lang}")
            state = app.wait(lambda s, b=back: s["tids"]["settings.back"]["text"] == b, what=f"Settings in {lang}")
            assert state["screen"] == "settings"
            no_error(app)
            told = phone.until_type("lang")
            assert told == {"type": "lang", "lang": lang, "own_lang": False}
            app.screenshot(f"settings_{lang}")
            app.tap("settings.back")
            state = app.wait_screen("start")
            assert state["tids"]["start.new"]["text"] == text("ui.start.new", None, lang, ("ui",))
        # Every screen speaks German now: the game, its phones screen, the new-game form.
        app.tap("start.resume")
        state = app.wait_screen("game")
        assert state["tids"]["game.seats"]["text"] == text("ui.phones", None, "de", ("ui",))
        app.screenshot("game_de")
        app.tap("game.home")
        app.tap("start.new")
        app.tap("new.victorian_masterminds")
        state = app.wait(lambda s: "new.start" in s["tids"])
        assert state["tids"]["new.start"]["text"] == text("ui.new.start", None, "de", ("ui",))
        no_error(app)
    finally:
        phone.close()
