"""Nothing piles up in the touchscreen's process over ten games: the real app (the test game,
``tests/toygame``, set up and played through the screens), asked after each game for what lives
after a collection of everything (``{"cmd": "memory"}``, ui/control.py). No timing."""

from __future__ import annotations

from pathlib import Path

from driver import AppProcess


def test_ten_games_in_one_process_leave_no_widgets_textures_or_listeners_behind(display: str, tmp_path: Path) -> None:
    app = AppProcess(display, tmp_path, plugins=("toygame",))
    app.start()
    try:
        seen = []
        for _ in range(10):
            app.tap("start.new")
            app.wait_screen("new")
            app.tap("new.toy")
            app.tap("new.start")
            app.wait_screen("game")
            for tid in ("toy.draw", "toy.add.1", "toy.add.2"):
                seq = app.state()["seq"]
                app.tap(tid)
                app.wait_seq(seq + 1)
            app.tap("game.home")
            app.wait_screen("start")
            seen.append(app.call({"cmd": "memory"}))
            assert seen[-1]["ok"], seen[-1]
        first, last = seen[1], seen[-1]  # the first game loads the screens' code and fills caches
        assert last["widgets"] <= first["widgets"] + 20, [s["widgets"] for s in seen]
        assert last["textures"] <= first["textures"] + 20, [s["textures"] for s in seen]
        assert last["subscriptions"] == first["subscriptions"]
        assert last["clock_events"] <= first["clock_events"] + 2, [s["clock_events"] for s in seen]
        assert last["fds"] <= first["fds"], [s["fds"] for s in seen]
        assert last["objects"] < first["objects"] * 1.1, [s["objects"] for s in seen]
    finally:
        app.stop()
