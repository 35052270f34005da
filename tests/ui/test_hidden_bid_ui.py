"""The fourth game, built by docs/adding-a-game.md alone, on the real touchscreen and on phones."""

from __future__ import annotations

from pathlib import Path

from driver import AppProcess


def test_the_fourth_game_is_set_up_and_played(display: str, tmp_path: Path) -> None:
    app = AppProcess(display, tmp_path)
    app.start()
    try:
        app.tap("start.new")
        state = app.wait_screen("new")
        assert "new.hidden_bid" in state["tids"]
        app.tap("new.hidden_bid")
        app.screenshot("hb_setup")
        app.tap("new.start")
        app.wait_screen("game")
        app.tap("hb.draw")
        state = app.wait(lambda s: "hb.prize" in s["tids"], what="the first prize")
        assert any("Waiting for: Ann, Bob" in t for t in state["texts"]), state["texts"]
        app.screenshot("hb_table")
    finally:
        app.stop()
