"""Resolving stacks: order, loot, the five abilities, the caps, unidentified agents."""

from __future__ import annotations

from dataclasses import replace

import pytest
from vm_helpers import adjust, new_table, outcomes, seat, turn

from companion.core import TABLE, Forbidden, IllegalMove
from companion.games.victorian_masterminds.events import (
    Adjust,
    AgentResolved,
    AnswerHenchman,
    ChooseBuilding,
    EngineerDone,
    ExtraTurn,
    LootTaken,
    RecordSegment,
    Reveal,
    SetMission,
    StackFlipped,
)
from companion.games.victorian_masterminds.views import table_view


def test_the_rulebook_rome_example_two_saboteurs() -> None:
    """DE p.10 / ES / FR: Red's Saboteur is first in Rome and blocks the next agent, itself a
    Saboteur, which still takes its codex; so the third agent uses its ability normally."""
    t = new_table(3)
    turn(t, "rome", "saboteur")  # p1 red
    turn(t, "rome", "saboteur")  # p2 blue
    turn(t, "rome", "number_two")  # p3 green: the stack is full and resolves
    assert outcomes(t) == [
        ("p1", "saboteur", "sabotage"),
        ("p2", "saboteur", "cancelled"),
        ("p3", "number_two", "double_loot"),
    ]
    codex = {p.seat: p.codex for p in t.s.players}
    assert codex == {"p1": (1,), "p2": (1,), "p3": (1, 1)}
    assert t.s.resolution is None and t.s.stack("rome") == ()
    assert [p.discard for p in t.s.players] == [("saboteur",), ("saboteur",), ("number_two",)]
    assert t.s.active_seat == "p1"  # play passes on after the resolution


def test_a_saboteur_cancels_the_next_agent_but_not_its_loot() -> None:
    t = new_table(3)
    turn(t, "rome", "saboteur")
    turn(t, "rome", "number_two")
    turn(t, "rome", "engineer")
    assert outcomes(t)[:2] == [("p1", "saboteur", "sabotage"), ("p2", "number_two", "cancelled")]
    assert t.s.player("p2").codex == (1,)  # loot once, no second loot
    # the third agent is not affected: its Engineer asks its owner
    assert t.s.resolution is not None and t.s.resolution.stage == "engineer"


def test_a_saboteur_over_its_own_colour_has_no_effect() -> None:
    t = new_table(2)
    # 2 players: a stack resolves at 2 agents. p1 places, p1 takes an extra turn and stacks again.
    adjust(t, "p1", "scientists", 1)
    turn(t, "moscow", "saboteur", end=False)
    t.do(ExtraTurn("p1"))
    adjust(t, "p1", "firepower", 10)  # firepower 1 + 1 (Moscow) + 10 >= level 4
    turn(t, "moscow", "gunner", end=False)
    assert outcomes(t) == [("p1", "saboteur", "own_colour")]
    assert t.s.resolution is not None and t.s.resolution.stage == "gunner"
    t.do(ChooseBuilding("monument"), seat("p1"))
    assert outcomes(t)[-1] == ("p1", "gunner", "captured")
    assert t.s.player("p1").chaos_tokens == 1 and t.s.player("p1").buildings == (("moscow", "monument"),)


def test_a_saboteur_last_in_the_stack_has_no_target() -> None:
    t = new_table(3)
    turn(t, "london", "number_two")
    turn(t, "london", "henchman")
    turn(t, "london", "saboteur")
    # the henchman asks about the mission; answer it, then the saboteur has nobody below it
    t.do(AnswerHenchman(False))
    assert outcomes(t) == [
        ("p1", "number_two", "double_loot"),
        ("p2", "henchman", "mission_not_met"),
        ("p3", "saboteur", "no_target"),
    ]
    assert t.s.player("p1").copper == 2 and t.s.player("p2").copper == 1 and t.s.player("p3").copper == 1


def test_two_gunners_in_one_stack_the_second_fails_because_the_level_rose() -> None:
    t = new_table(3, start=4)
    adjust(t, "p1", "firepower", 3)  # 4 = level: enough with ">="
    adjust(t, "p2", "firepower", 3)
    turn(t, "paris", "gunner")
    turn(t, "paris", "gunner")
    turn(t, "paris", "henchman")
    r = t.s.resolution
    assert r is not None and r.stage == "gunner" and r.index == 0
    with pytest.raises(Forbidden):
        t.do(ChooseBuilding("university"), seat("p2"))  # only p1 (or the table) chooses
    t.do(ChooseBuilding("university"), seat("p1"))
    assert t.s.level == 5
    # p2's firepower 4 < level 5 now: the second Gunner fails on its own
    assert outcomes(t)[:2] == [("p1", "gunner", "captured"), ("p2", "gunner", "too_weak")]
    assert t.s.player("p1").scientists == 2  # 1 + university (Paris loot found no free cell)
    loot = [e for e in t.events() if isinstance(e, LootTaken)]
    assert loot[0].gains[0].resource == "scientist" and loot[0].gains[0].amount == 1


def test_a_later_gunner_fails_when_the_city_is_empty() -> None:
    t = new_table(3, start=1)
    for who in ("p1", "p2", "p3"):
        adjust(t, who, "firepower", 20)
    turn(t, "washington", "gunner")
    turn(t, "washington", "gunner")
    turn(t, "washington", "gunner")
    for who, building in (("p1", "monument"), ("p2", "factory"), ("p3", "furnace")):
        t.do(ChooseBuilding(building), seat(who))  # type: ignore[arg-type]
    assert t.s.standing_in("washington") == ("university",) and t.s.level == 4
    t.place("p1", "washington", "gunner", recycle=True)  # from the discard, 1 scientist
    t.place("p2", "washington", "gunner", recycle=True)
    turn(t, "washington", "number_two")
    t.do(ChooseBuilding("university"), seat("p1"))
    assert outcomes(t)[-3:] == [
        ("p1", "gunner", "captured"),
        ("p2", "gunner", "no_building"),
        ("p3", "number_two", "double_loot"),
    ]
    assert t.s.standing_in("washington") == () and t.s.level == 5
    assert [len(p.buildings) for p in t.s.players] == [2, 1, 1]


def test_gunner_comparison_setting_greater() -> None:
    for rule, expected in ((">=", "gunner"), (">", None)):
        t = new_table(3, start=4, gunner_rule=rule)
        adjust(t, "p1", "firepower", 3)  # firepower 4 == level 4
        turn(t, "london", "gunner")
        turn(t, "london", "number_two")
        turn(t, "london", "number_two")
        if expected:
            assert t.s.resolution is not None and t.s.resolution.stage == "gunner"
        else:
            assert outcomes(t)[0] == ("p1", "gunner", "too_weak")


def test_a_gunner_may_decline_to_capture() -> None:
    t = new_table(3, start=4)
    adjust(t, "p1", "firepower", 5)
    turn(t, "washington", "gunner")
    turn(t, "washington", "number_two")
    turn(t, "washington", "number_two")
    actions = t.game.snapshot(seat("p1"))["legal"]["actions"]  # type: ignore[index]
    legal = [a for a in actions if a["kind"] == "vm.choose_building"]  # type: ignore[index,union-attr]
    options = ["factory", "furnace", "university", "monument", None]
    assert legal == [{"kind": "vm.choose_building", "buildings": options}]
    t.do(ChooseBuilding(None), seat("p1"))
    assert outcomes(t)[0] == ("p1", "gunner", "declined") and t.s.level == 4


def test_number_two_in_paris_with_one_free_cell() -> None:
    t = new_table(3)
    turn(t, "paris", "number_two")  # p1: 1 scientist, 2 cells -> one free
    turn(t, "paris", "saboteur")
    turn(t, "paris", "saboteur")
    p1 = t.s.player("p1")
    assert p1.scientists == 2
    resolved = [e for e in t.events() if isinstance(e, AgentResolved) and e.agent == "number_two"]
    assert resolved[0].gains[0].amount == 0 and resolved[0].gains[0].lost == 1
    # the other two also had one free cell each
    assert t.s.player("p2").scientists == 2 and t.s.player("p3").scientists == 2
    assert t.s.scientist_supply() == 12 - 6


def test_paris_gives_no_scientist_when_the_supply_is_empty() -> None:
    from vm_helpers import Table, config

    from companion.core import Game
    from companion.games.victorian_masterminds import RULES
    from companion.games.victorian_masterminds.events import Start

    cfg = config(4)
    for raw in cfg["players"][1:]:  # type: ignore[union-attr]
        raw["lab_cells"] = 4  # type: ignore[index]
    t = Table(Game(RULES, cfg, 3))
    t.do(Start())
    for who, n in (("p2", 3), ("p3", 3), ("p4", 2)):
        adjust(t, who, "scientists", n)
    adjust(t, "p1", "scientists", -1)
    assert t.s.scientist_supply() == 1 and t.s.player("p1").scientists == 0
    turn(t, "paris", "number_two")  # p1: two free cells, one scientist left in the box
    turn(t, "paris", "number_two")
    turn(t, "paris", "number_two")
    assert t.s.player("p1").scientists == 1
    first = next(e for e in t.events() if isinstance(e, LootTaken))
    assert first.gains[0].amount == 1
    resolved = [e for e in t.events() if isinstance(e, AgentResolved)]
    assert [(g.amount, g.lost) for e in resolved for g in e.gains] == [(0, 1), (0, 1), (0, 1)]
    assert t.s.scientist_supply() == 0


def test_codex_beyond_ten_is_lost() -> None:
    t = new_table(3)
    adjust(t, "p1", "codex", 9)
    turn(t, "rome", "number_two")
    turn(t, "rome", "saboteur")
    turn(t, "rome", "saboteur")
    assert len(t.s.player("p1").codex) == 10
    resolved = [e for e in t.events() if isinstance(e, AgentResolved) and e.seat == "p1"]
    assert resolved[0].gains[0].amount == 0 and resolved[0].gains[0].lost == 1
    with pytest.raises(IllegalMove) as info:
        adjust(t, "p1", "codex", 1)
    assert info.value.code == "vm.adjust_range"


def test_codex_tokens_are_worth_two_after_the_codex_segment() -> None:
    t = new_table(3)
    turn(t, "rome", "engineer")
    t.do(RecordSegment("p2", 3, "codex"), seat("p2"))
    turn(t, "rome", "number_two")
    turn(t, "rome", "saboteur")
    t.do(EngineerDone(), seat("p1"))
    assert t.s.player("p1").codex == (1,)
    assert t.s.player("p2").codex == (2, 2)  # Number Two: two tokens, each worth 2
    assert t.s.player("p3").codex == (1,)


def test_henchman_takes_the_mission_and_a_new_one_comes_after_the_whole_stack() -> None:
    t = new_table(3, missions={"washington": {"reward": 3, "label": "two buildings"}})
    turn(t, "washington", "henchman")
    turn(t, "washington", "henchman")
    turn(t, "washington", "number_two")
    with pytest.raises(Forbidden):
        t.do(AnswerHenchman(True), seat("p1"))  # the table confirms the prerequisite
    t.do(AnswerHenchman(True))
    # the second Henchman finds no mission: it is only replaced after the whole stack
    assert outcomes(t) == [
        ("p1", "henchman", "mission"),
        ("p2", "henchman", "no_mission"),
        ("p3", "number_two", "double_loot"),
    ]
    p1 = t.s.player("p1")
    assert [(m.reward, m.label) for m in p1.missions] == [(3, "two buildings")]
    assert t.s.mission("washington") is not None and t.s.mission("washington").reward is None  # type: ignore[union-attr]
    assert t.s.mission_deck == 18
    # the table enters the new card's reward when it is turned up
    t.do(SetMission("washington", 4, "a codex segment"))
    assert table_view(t.s)["cities"]["washington"]["mission"] == {"reward": 4, "label": "a codex segment"}  # type: ignore[index]


def test_henchman_reward_is_asked_when_not_entered() -> None:
    t = new_table(3)
    turn(t, "london", "henchman")
    turn(t, "london", "gunner")
    turn(t, "london", "gunner")
    with pytest.raises(IllegalMove) as info:
        t.do(AnswerHenchman(True))
    assert info.value.code == "vm.reward_required"
    with pytest.raises(IllegalMove) as info:
        t.do(AnswerHenchman(True, 5))
    assert info.value.code == "vm.reward_invalid"
    t.do(AnswerHenchman(True, 2))
    assert t.s.player("p1").missions[0].reward == 2


def test_no_new_mission_when_the_deck_is_exhausted() -> None:
    t = new_table(3)
    t.game.state = replace(t.s, mission_deck=0)  # as if all 19 advanced missions were drawn
    turn(t, "moscow", "henchman")
    turn(t, "moscow", "saboteur")
    turn(t, "moscow", "saboteur")
    t.do(AnswerHenchman(True, 4))
    assert t.s.mission("moscow") is None
    t.place("p1", "moscow", "henchman", recycle=True)
    turn(t, "moscow", "number_two")
    turn(t, "moscow", "number_two")
    assert outcomes(t, "moscow")[-3] == ("p1", "henchman", "no_mission")
    with pytest.raises(IllegalMove) as info:
        t.do(SetMission("moscow", 2))
    assert info.value.code == "vm.no_mission_slot"


def test_engineer_activation_is_recorded_and_its_owner_applies_the_effect() -> None:
    t = new_table(3)
    turn(t, "london", "engineer")
    turn(t, "london", "number_two")
    turn(t, "london", "number_two")
    r = t.s.resolution
    assert r is not None and r.stage == "engineer"
    assert table_view(t.s)["resolution"]["waiting"] == {"kind": "engineer", "seat": "p1", "by": ["table", "p1"]}  # type: ignore[index]
    # its owner adjusts its own counters while the Engineer waits, nobody else's
    t.do(Adjust("bolts", 2, "p1"), seat("p1"))
    with pytest.raises(Forbidden):
        t.do(Adjust("bolts", 2, "p2"), seat("p2"))
    with pytest.raises(Forbidden):
        t.do(Adjust("level", 1), seat("p1"))
    t.do(EngineerDone(), seat("p1"))
    assert t.s.player("p1").bolts == 2 and t.s.player("p1").copper == 1
    with pytest.raises(Forbidden):
        t.do(Adjust("bolts", 1, "p1"), seat("p1"))  # the Engineer is done


def test_unidentified_agents_are_revealed_at_resolution() -> None:
    t = new_table(3)
    turn(t, "rome")  # the table places an unidentified agent for p1
    turn(t, "rome")
    turn(t, "rome")
    r = t.s.resolution
    assert r is not None and r.index == 0 and r.current is not None and r.current.agent is None
    assert table_view(t.s)["resolution"]["waiting"]["kind"] == "reveal"  # type: ignore[index]
    p1_pile = t.s.player("p1").pile
    assert t.s.player("p1").pile_size == 4 and len(p1_pile) == 5
    # the table names what it sees; p1's phone could do it as well, p2's could not
    with pytest.raises(Forbidden):
        t.do(Reveal("gunner"), seat("p2"))
    t.do(Reveal("saboteur"))
    assert t.s.player("p1").pile_size == 4 and t.s.player("p1").pile_exact
    assert "saboteur" not in t.s.player("p1").pile
    t.do(Reveal("gunner"), seat("p2"))
    t.do(Reveal("engineer"))
    assert outcomes(t)[:2] == [("p1", "saboteur", "sabotage"), ("p2", "gunner", "cancelled")]
    kinds = t.kinds()
    assert kinds.count("vm.agent_revealed") == 3
    assert kinds.index("vm.stack_flipped") < kinds.index("vm.agent_revealed")


def test_a_reveal_of_an_agent_lying_face_up_is_refused() -> None:
    t = new_table(3)
    turn(t, "rome", "saboteur")
    turn(t, "rome", "saboteur")
    turn(t, "rome", "saboteur")
    turn(t, "rome")  # p1, unidentified
    turn(t, "rome", "gunner")
    turn(t, "rome", "gunner")
    before = (t.s, len(t.game.entries))
    with pytest.raises(IllegalMove) as info:
        t.do(Reveal("saboteur"))  # p1's saboteur lies face up in the discard
    assert info.value.code == "vm.agent_face_up" and info.value.params == {"agent": "saboteur"}
    assert (t.s, len(t.game.entries)) == before
    t.do(Reveal("henchman"), seat("p1"))
    assert t.s.resolution is not None and t.s.resolution.stage == "henchman"


def test_stacks_resolve_first_placed_first_and_are_flipped_at_the_threshold() -> None:
    t = new_table(4)
    turn(t, "moscow", "number_two")
    turn(t, "moscow", "number_two")
    assert t.s.stack("moscow") and not any(isinstance(e, StackFlipped) for e in t.events())
    turn(t, "moscow", "saboteur")
    assert [o[0] for o in outcomes(t)] == ["p1", "p2", "p3"]
    assert [p.firepower for p in t.s.players] == [3, 3, 2, 1]
    assert t.game.snapshot(TABLE)["view"]["resolution"] is None  # type: ignore[index]
