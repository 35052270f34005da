"""A fourth game on the real touchscreen: the test game (``tests/toygame``), registered with the
same ``register()`` call as the boxed games, is offered on the new-game screen, set up with its own
form and played on its own table screen (``tests/toygame/screen.py``), whose buttons come from the
game's facts — with no line of ``ui/`` naming it."""

from __future__ import annotations

from pathlib import Path

from driver import AppProcess


def test_the_test_game_is_found_through_the_registry_and_played_on_its_own_screen(display: str, tmp_path: Path) -> None:
    app = AppProcess(display, tmp_path, plugins=("toygame",))
    app.start()
    try:
        app.tap("start.new")
        state = app.wait_screen("new")
        assert {"new.toy", "new.scotland_yard", "new.mykerinos"} <= set(state["tids"])
        assert any("Add 1 to 3" in t for t in state["texts"])  # game.toy.about, from the game's own texts
        app.screenshot("toy_new_game")
        app.tap("new.toy")
        app.tap("new.start")
        app.wait_screen("game")
        app.tap("toy.draw")
        state = app.wait(lambda s: "toy.add.2" in s["tids"], what="the amounts from the facts")
        assert sorted(t for t in state["tids"] if t.startswith("toy.add.")) == ["toy.add.1", "toy.add.2", "toy.add.3"]
        app.tap("toy.add.2")
        state = app.wait(lambda s: s["tids"]["toy.total"]["text"] == "2", what="the total")
        assert any("b adds next" in t for t in state["texts"])
        app.screenshot("toy_table")
    finally:
        app.stop()
