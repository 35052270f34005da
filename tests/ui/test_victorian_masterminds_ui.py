"""Victorian Masterminds on the real touchscreen app: setup with the Secret Service start level
entered once and remembered, agents placed at the table without phones (unidentified), and a
whole stack resolution step by step — reveal, loot, the Gunner's real choice, the level rising."""

from __future__ import annotations

from driver import AppProcess

from companion.app.i18n import text

# a player by its colour, with the colour's shape in front (colour-blind players tell them apart)
RED, BLUE = "\u25b2\u00a0Red", "\u25cf\u00a0Blue"
AGENTS = ("number_two", "henchman", "saboteur", "gunner", "engineer")
REVEAL_PLACES: dict[str, set[tuple[int, ...]]] = {}
UNAVAILABLE: list[str] = []  # agents seen in their place but unavailable (lying face up)
SHOT: list[object] = []  # that reveal's screenshot, once


def note_reveal_places(app: AppProcess, state: dict[str, object]) -> None:
    """Every reveal offers every agent of the box in the same place, for every player, an agent
    lying face up already unavailable in its place (issue 42: a tap by place picked a wrong one)."""
    tids = state["tids"]
    assert isinstance(tids, dict)
    for agent in AGENTS:
        REVEAL_PLACES.setdefault(agent, set()).add(tuple(tids[f"vm.reveal.{agent}"]["box"]))
        assert len(REVEAL_PLACES[agent]) == 1, (agent, REVEAL_PLACES[agent])
        if tids[f"vm.reveal.{agent}"]["disabled"]:
            UNAVAILABLE.append(agent)
    if UNAVAILABLE and not SHOT:
        SHOT.append(app.screenshot("vm_table_reveal_places"))  # the first with one unavailable


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
    note_reveal_places(app, state)
    assert state["tids"]["vm.question"]["text"].startswith(RED)
    app.screenshot("vm_table_reveal")

    # Turn Red's agent over: a Gunner. London's loot, then the only real choice: which building.
    app.tap("vm.reveal.gunner")
    state = app.wait(lambda s: "vm.building.factory" in s["tids"], what="the Gunner's choice")
    assert "vm.building.none" in state["tids"]
    app.screenshot("vm_table_gunner")
    app.tap("vm.building.factory")
    state = app.wait(lambda s: "vm.reveal.number_two" in s["tids"], what="Blue's reveal")
    note_reveal_places(app, state)
    assert state["tids"]["vm.level"]["text"] == "2"  # the Secret Service level rose
    app.tap("vm.reveal.number_two")
    state = app.wait(
        lambda s: "vm.place.london" in s["tids"] and s["tids"]["vm.stack.london"]["text"] == "0",
        what="the stack resolved",
    )
    # the whole resolution stays in view until something else happens; the scores are a tap away
    assert state["tids"]["vm.stack.title"]["text"] == "The stack in London was resolved"
    assert state["tids"]["vm.step.0.ability"]["text"] == "captures the Factory (+1 bolt)"
    assert state["tids"]["vm.step.0.loot"]["text"] == "+1 copper"
    app.screenshot("vm_table_after_resolution")
    app.tap("vm.stack.scores")
    state = app.wait(lambda s: "vm.tally.p1.buildings" in s["tids"], what="the scores")
    assert state["tids"]["vm.tally.p1.buildings"]["text"] == "1"
    assert state["tids"]["vm.tally.p1.score"]["text"] == "2"  # 2 per building
    assert state["tids"]["vm.level"]["text"] == "2"

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

    # A Henchman whose mission card was never entered: "met" asks for the reward printed on the card
    # (in a dialog: beside the stack's row, the question and the answers, the panel has no room left).
    app.tap("vm.start")
    app.tap("vm.place.paris")
    app.tap("vm.place.paris")
    app.tap("vm.reveal.henchman")
    state = app.wait(lambda s: "vm.henchman.yes" in s["tids"], what="the mission's question")
    assert "vm.henchman.yes.3" not in state["tids"] and "vm.henchman.no" in state["tids"]
    assert app.clipped() == []  # the city row stays below the header
    app.screenshot("vm_table_henchman")
    app.tap("vm.henchman.yes")
    state = app.wait(lambda s: s["dialog"] and "vm.henchman.yes.3" in s["tids"], what="the reward")
    assert text("ui.vm.met_reward_note", None, "en", ("ui",)) in state["texts"]
    app.screenshot("vm_table_henchman_reward")
    app.tap("vm.henchman.yes.3")
    state = app.wait(lambda s: not s["dialog"] and "vm.reveal.gunner" in s["tids"], what="Blue's reveal")
    note_reveal_places(app, state)
    assert state["tids"]["vm.step.0.ability"]["text"] == "mission completed: 3 points"


def test_victorian_masterminds_order_steam_mole_undo_and_the_whole_stack(app: AppProcess) -> None:
    """The start level asked in view before Start; a Gunner in Rome asked loot or ability first; an
    Engineer's steam mole placing under a lone agent; the whole stack shown step by step and after it
    was resolved; a wrongly tapped reveal taken back with Undo."""
    app.tap("start.new")
    app.tap("new.victorian_masterminds")
    app.tap("setup.vm.players.2")
    state = app.wait(lambda s: "setup.vm.level.value" in s["tids"])
    level = state["tids"]["setup.vm.level.value"]
    assert level["text"] == "?" and not level.get("scrolled_away")  # not a value yet, and in view
    assert not state["tids"]["new.start"].get("scrolled_away")
    app.screenshot("vm_setup_level_unknown")
    app.tap("setup.vm.level.minus")  # − enters 0, then + makes it 1
    app.wait(lambda s: s["tids"]["setup.vm.level.value"]["text"] == "0")
    app.tap("setup.vm.level.plus")
    app.wait(lambda s: s["tids"]["setup.vm.level.value"]["text"] == "1")
    app.tap("new.start")
    app.wait_screen("game")
    app.tap("vm.start")
    state = app.wait(lambda s: "vm.place.london" in s["tids"], what="the first placement")

    # Red leaves an agent alone in London; Blue and Red fill Rome (2 players: 2 agents)
    app.tap("vm.place.london")
    state = app.wait_seq(state["seq"] + 1)
    app.tap("vm.place.rome")
    state = app.wait_seq(state["seq"] + 1)
    app.tap("vm.place.rome")
    state = app.wait(lambda s: "vm.reveal.gunner" in s["tids"], what="Blue's reveal")
    note_reveal_places(app, state)
    assert state["tids"]["vm.stack.title"]["text"].startswith("The stack in Rome")  # the whole stack below
    app.tap("vm.reveal.gunner")  # Blue's Gunner: its furnace's copper could complete the codex segment
    state = app.wait(lambda s: "vm.order.ability" in s["tids"], what="the order question")
    assert "vm.order.loot" in state["tids"] and state["tids"]["vm.question"]["text"].startswith(BLUE)
    app.screenshot("vm_table_order")
    app.tap("vm.order.ability")
    app.wait(lambda s: "vm.building.furnace" in s["tids"], what="the Gunner's choice")
    app.tap("vm.building.furnace")
    state = app.wait(lambda s: "vm.take_loot" in s["tids"], what="the loot waiting")
    assert "captures the Furnace" in state["tids"]["vm.step.0.ability"]["text"]
    assert state["tids"]["vm.step.0.loot"]["text"] == ""  # not taken yet
    app.screenshot("vm_table_take_loot")
    app.tap("vm.take_loot")
    state = app.wait(lambda s: "vm.reveal.engineer" in s["tids"], what="Red's reveal")
    note_reveal_places(app, state)
    assert state["tids"]["vm.step.0.loot"]["text"] == "+1 codex token"

    # Red's Engineer: the power comes before Rome's codex (the machine might complete its codex
    # segment); the steam mole puts Red's next agent under London's lone agent
    app.tap("vm.reveal.engineer")
    state = app.wait(lambda s: "vm.under" in s["tids"], what="the Engineer's stage")
    assert {"vm.take_loot", "vm.engineer_done", "vm.engineer.adjust"} <= set(state["tids"])
    app.screenshot("vm_table_engineer")
    app.tap("vm.under")
    app.wait(lambda s: "vm.under.london" in s["tids"], what="the steam mole's cities")
    app.screenshot("vm_table_under")
    app.tap("vm.under.london")
    state = app.wait(lambda s: s["tids"]["vm.stack.london"]["text"] == "2", what="two agents in London")
    app.tap("vm.engineer_done")
    # Rome is done; London now holds two and turns over at once: Red's agent from under goes first
    state = app.wait(
        lambda s: "vm.reveal.saboteur" in s["tids"] and s["tids"]["vm.stack.title"]["text"].endswith("first"),
        what="London's reveal",
    )
    assert "London" in state["tids"]["vm.stack.title"]["text"]
    app.tap("vm.reveal.saboteur")
    state = app.wait(lambda s: "vm.reveal.number_two" in s["tids"], what="the second reveal")
    note_reveal_places(app, state)
    app.tap("vm.reveal.henchman")  # a wrong tap: the disc shows a Number Two
    state = app.wait(lambda s: "vm.henchman.no" in s["tids"] or "vm.stack.scores" in s["tids"], what="after it")
    assert "game.undo" in state["tids"]  # a step of a resolution can be taken back at the table
    app.tap("game.undo")
    app.tap("confirm.yes")
    state = app.wait(lambda s: "vm.reveal.number_two" in s["tids"], what="the reveal asked again")
    note_reveal_places(app, state)
    app.tap("vm.reveal.number_two")
    state = app.wait(lambda s: "vm.place.london" in s["tids"] or "vm.end_turn" in s["tids"], what="the next turn")
    assert state["tids"]["vm.stack.title"]["text"] == "The stack in London was resolved"
    assert "loot twice" in state["tids"]["vm.step.1.ability"]["text"]
    app.screenshot("vm_table_last_stack")
    app.tap("vm.stack.scores")
    state = app.wait(lambda s: "vm.tally.p1.score" in s["tids"], what="the scores again")
