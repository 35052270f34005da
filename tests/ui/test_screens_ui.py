"""The screens around the games on the real app: saved games (resume, delete with confirmation), the
end screens of finished games, busy boards from long games, settings (language) and diagnostics.

The saved games are played beforehand by random legal drivers through the real table and store."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from driver import AppProcess
from prepare import saved_game


def busy_vm(message: dict[str, Any]) -> bool:
    view = message["view"]
    taken = sum(len(p["buildings"]) for p in view["players"])
    return taken >= 4 and view["phase"] == "turn" and sum(view["stacks"].values()) >= 3


def busy_myk(message: dict[str, Any]) -> bool:
    view = message["view"]
    return view["season"] >= 3 and len(view["museum"]) >= 3 and view["phase"] == "excavation"


def test_saved_games_end_screens_settings(display: str, tmp_path: Path) -> None:
    app = AppProcess(display, tmp_path)
    four = {"seats": ["blue", "red", "green", "white"], "layout": "line4"}
    ids = {
        "vm_end": saved_game(app.data, "victorian_masterminds", "VM finished", seed=3),
        "myk_end": saved_game(app.data, "mykerinos", "Mykerinos finished", seed=4, config=four),
        "sy_end": saved_game(app.data, "scotland_yard", "SY finished", seed=5),
        "vm_busy": saved_game(app.data, "victorian_masterminds", "VM busy", seed=6, until=busy_vm),
        "myk_busy": saved_game(app.data, "mykerinos", "Mykerinos busy", seed=7, config=four, until=busy_myk),
    }
    app.start()
    try:
        # The newest game is the current one: the app opens on its table.
        state = app.wait_screen("game")
        assert "Season" in state["tids"]["game.status"]["text"]
        app.screenshot("myk_table_busy")

        def open_saved(key: str, screen: str) -> dict[str, Any]:
            app.tap("game.home" if app.state()["screen"] == "game" else "end.home")
            app.tap("start.saved")
            app.wait_screen("saved")
            app.tap(f"saved.open.{ids[key]}")
            return app.wait_screen(screen)

        state = open_saved("vm_busy", "game")
        assert int(state["tids"]["vm.level"]["text"]) >= 4
        app.screenshot("vm_table_busy")
        state = open_saved("vm_end", "end")
        assert re.search(r"\bwins?\b", state["tids"]["end.headline"]["text"])  # "Red wins!" or "Red & Green win!"
        app.screenshot("vm_end")
        app.tap("end.board")
        app.wait_screen("game")
        app.screenshot("vm_table_over")
        state = open_saved("myk_end", "end")
        assert re.search(r"\bwins?\b", state["tids"]["end.headline"]["text"])
        app.screenshot("myk_end")
        state = open_saved("sy_end", "end")
        assert state["tids"]["end.headline"]["text"]
        app.screenshot("sy_end_random")

        # Saved games: deleting asks first; "cancel" keeps the game.
        app.tap("end.home")
        app.tap("start.saved")
        app.wait_screen("saved")
        app.screenshot("saved")
        app.tap(f"saved.delete.{ids['myk_end']}")
        app.wait(lambda s: s["dialog"])
        app.screenshot("saved_delete_confirm")
        app.tap("confirm.no")
        state = app.wait(lambda s: not s["dialog"])
        assert f"saved.open.{ids['myk_end']}" in state["tids"]
        app.tap(f"saved.delete.{ids['myk_end']}")
        app.tap("confirm.yes")
        state = app.wait(lambda s: f"saved.open.{ids['myk_end']}" not in s["tids"] and not s["dialog"])
        assert f"saved.open.{ids['vm_end']}" in state["tids"]

        # Settings: the language changes every word on the screen (and is remembered).
        app.tap("saved.back")
        app.tap("start.settings")
        app.wait_screen("settings")
        app.screenshot("settings")
        app.tap("settings.lang.de")
        app.wait(lambda s: s["tids"]["settings.back"]["text"] == "‹ Zurück")
        app.screenshot("settings_de")
        app.tap("settings.back")
        state = app.wait_screen("start")
        assert state["tids"]["start.new"]["text"] == "Neues Spiel"
        app.screenshot("start_de")
        app.tap("start.diagnostics")
        app.wait_screen("diagnostics")
        app.screenshot("diagnostics_de")
        app.kill()
        app.start()
        state = app.wait_screen("start")
        assert state["tids"]["start.new"]["text"] == "Neues Spiel"
        app.tap("start.resume")
        app.wait(lambda s: s["screen"] in ("game", "end"))
        app.screenshot("resume_de")
    finally:
        app.stop()
