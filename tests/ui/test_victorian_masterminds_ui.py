"""Victorian Masterminds on the real touchscreen app: setup with the Secret Service start level
entered once and remembered, agents placed at the table without phones (unidentified), and a
whole stack resolution step by step — reveal, loot, the Gunner's real choice, the level rising."""

from __future__ import annotations

from driver import AppProcess


def test_victorian_masterminds_stack_resolution(app: AppProcess) -> None:
    app.tap("start.new")
    app.tap("new.victorian_masterminds")
    app.tap("setup.vm.players.2")
    app.tap("new.start")  # the start level was never entered: refused in words, nothing created
    refused = app.wait(lambda s: s["toast"] != "")
    assert "start level" in refused["toast"] and refused["screen"] == "new"
    app.tap("setup.vm.level.plus")
    app.wait(lambda s: s["tids"]["setup.vm.level.value"]["text"] == "1")
    app.screenshot("vm_setup")
    app.tap("new.start")
    app.wait_screen("game")
    app.screenshot("vm_table_setup")
    app.tap("vm.start")
    state = app.wait(lambda s: "vm.place.london" in s["tids"], what="the first placement")
    assert state["tids"]["vm.level"]["text"] == "1"
    app.screenshot("vm_table_turn")

    # Red places in London (the touchscreen records only the city), then Blue: the stack is full.
    app.tap("vm.place.london")
    state = app.wait_seq(state["seq"] + 1)
    assert state["tids"]["vm.stack.london"]["text"] == "1"
    assert "game.undo" in state["tids"]  # a placement that revealed nothing can be taken back
    app.tap("vm.place.london")
    state = app.wait(lambda s: "vm.reveal.gunner" in s["tids"], what="the first reveal")
    assert state["tids"]["vm.question"]["text"].startswith("Red")
    app.screenshot("vm_table_reveal")

    # Turn Red's agent over: a Gunner. London's loot, then the only real choice: which building.
    app.tap("vm.reveal.gunner")
    state = app.wait(lambda s: "vm.building.factory" in s["tids"], what="the Gunner's choice")
    assert "vm.building.none" in state["tids"]
    app.screenshot("vm_table_gunner")
    app.tap("vm.building.factory")
    state = app.wait(lambda s: "vm.reveal.number_two" in s["tids"], what="Blue's reveal")
    assert state["tids"]["vm.level"]["text"] == "2"  # the Secret Service level rose
    app.tap("vm.reveal.number_two")
    state = app.wait(
        lambda s: "vm.place.london" in s["tids"] and s["tids"]["vm.stack.london"]["text"] == "0",
        what="the stack resolved",
    )
    assert state["tids"]["vm.tally.p1.buildings"]["text"] == "1"
    assert state["tids"]["vm.tally.p1.score"]["text"] == "2"  # 2 per building
    assert state["tids"]["vm.level"]["text"] == "2"
    app.screenshot("vm_table_after_resolution")

    # The log tells what happened, in words.
    app.tap("game.options")
    app.tap("vm.options.log")
    log = app.wait(lambda s: s["dialog"] and any("Gunner" in t for t in s["texts"]))
    assert any("captures the Factory of London" in t for t in log["texts"]), log["texts"]
    app.screenshot("vm_log")
    app.tap("confirm.no")

    # The start level is remembered for the next two-player game.
    app.tap("game.home")
    app.tap("start.new")
    app.tap("new.victorian_masterminds")
    app.tap("setup.vm.players.2")
    app.wait(lambda s: s["tids"].get("setup.vm.level.value", {}).get("text") == "1")
    app.tap("new.start")  # no need to enter it again
    app.wait_screen("game")
    assert app.state()["toast"] == ""
