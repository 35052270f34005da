"""The language chosen in the touchscreen's Settings reaches a linked phone at once (the real app,
its phone server and a real web socket phone), and a phone's own choice for its seat is kept when
the table's language changes again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from driver import AppProcess
from phones import SyncPhone
from prepare import saved_game
from test_scotland_yard_ui import decode_qr


def test_settings_language_reaches_the_phones_at_once(display: str, tmp_path: Path) -> None:
    app = AppProcess(display, tmp_path)
    game_id = saved_game(app.data, "scotland_yard", "Friday night", seed=2, until=lambda m: True)
    app.start()
    phone = None
    try:
        app.wait(lambda s: s["screen"] in ("start", "game"))
        if app.state()["screen"] == "start":
            app.tap("start.saved")
            app.tap(f"saved.open.{game_id}")
        app.wait_screen("game")
        app.tap("game.seats")
        app.wait_screen("seats")
        app.tap("seats.show.mrx")
        app.wait(lambda s: "seats.qr" in s["tids"], what="the QR code")
        phone = SyncPhone(decode_qr(app.screenshot("language_qr")))
        welcome = phone.connect()
        assert welcome["type"] == "welcome" and welcome["lang"] == "en" and welcome["own_lang"] is False

        def told() -> dict[str, Any]:
            assert phone is not None
            message: dict[str, Any] = phone._run(phone.phone.until("lang", timeout=10.0), 15.0)
            return message

        def drained() -> list[str]:
            """The types of every message that arrives within a second."""

            async def go() -> list[str]:
                assert phone is not None
                kinds = []
                while True:
                    try:
                        kinds.append(str((await phone.phone.recv(timeout=1.0))["type"]))
                    except TimeoutError:
                        return kinds

            assert phone is not None
            found: list[str] = phone._run(go(), 30.0)
            return found

        app.tap("seats.back")
        app.tap("game.home")
        app.tap("start.settings")
        app.wait_screen("settings")
        app.tap("settings.lang.fr")
        assert told() == {"type": "lang", "lang": "fr", "own_lang": False}
        app.wait(lambda s: s["tids"]["settings.back"]["text"] == "‹ Retour", what="French on the touchscreen")

        phone._run(phone.phone.send({"type": "lang", "lang": "es"}))  # the phone's own choice
        assert told() == {"type": "lang", "lang": "es", "own_lang": True}
        app.tap("settings.lang.de")
        app.wait(lambda s: s["tids"]["settings.back"]["text"] == "‹ Zurück", what="German on the touchscreen")
        assert "lang" not in drained()  # the phone keeps Spanish
        phone._run(phone.phone.send({"type": "lang", "lang": None}))  # follows the table again: German
        assert told() == {"type": "lang", "lang": "de", "own_lang": False}
    finally:
        if phone is not None:
            phone.close()
        app.stop()
