"""Turns: placing (phone, tag, unidentified), recycle, extra turn, capture, the forced
resolution, reshuffles, refusals that change nothing, undo policy and corrections."""

from __future__ import annotations

from typing import Any

import pytest
from vm_helpers import adjust, finish_turn, new_table, outcomes, seat, settle, turn, turn_top

from companion.core import DEBUG, TABLE, CompanionError, Forbidden, IllegalMove, Undo, UndoRefused
from companion.core.events import Intent
from companion.games.victorian_masterminds.events import (
    Adjust,
    AgentPlaced,
    AnswerHenchman,
    Capture,
    ChooseBuilding,
    EndTurn,
    ExtraTurn,
    ForceResolve,
    PileShuffled,
    Place,
    RecordSegment,
    RemoveSegment,
    Reveal,
    SetMission,
    StackFlipped,
    Start,
)
from companion.games.victorian_masterminds.views import seat_view, table_view


def refused(t: Any, intent: Intent, actor: Any, code: str) -> CompanionError:
    """The intent is refused with ``code`` and neither the state nor the log changes."""
    before = (t.s, list(t.game.entries))
    with pytest.raises(CompanionError) as info:
        t.do(intent, actor)
    assert info.value.code == code
    assert (t.s, list(t.game.entries)) == before
    return info.value


# -- placing -----------------------------------------------------------------------------


def test_the_phone_places_the_top_agent_of_the_recorded_pile() -> None:
    t = new_table(3, seed=5)
    top = t.s.player("p1").pile[0]
    assert seat_view(t.s, "p1")["pile"] == {"size": 5, "exact": True, "top": top, "agents": None}
    second = t.s.player("p1").pile[1]
    refused(t, Place("p1", "paris", second), seat("p1"), "vm.not_top_agent")
    t.do(Place("p1", "paris"), seat("p1"))
    placed = t.events()[-2]
    assert isinstance(placed, AgentPlaced) and placed.agent == top
    assert seat_view(t.s, "p1")["placed"] == [{"city": "paris", "position": 1, "height": 1, "agent": top}]
    assert seat_view(t.s, "p1")["pile"]["top"] == second  # type: ignore[index]
    assert table_view(t.s)["stacks"]["paris"] == 1  # type: ignore[index]


def test_a_tag_scan_by_the_table_is_secret_on_the_touchscreen() -> None:
    t = new_table(3)
    turn(t, "london", "engineer")
    assert "engineer" not in str(t.game.snapshot(TABLE))
    assert seat_view(t.s, "p2")["placed"] == [] and seat_view(t.s, "p3")["placed"] == []
    assert seat_view(t.s, "p1")["placed"] == [{"city": "london", "position": 1, "height": 1, "agent": "engineer"}]


def test_five_codex_free_the_choice_of_agent_and_show_the_whole_pile() -> None:
    t = new_table(3, seed=2)
    adjust(t, "p1", "codex", 4)
    pile = t.s.player("p1").pile
    refused(t, Place("p1", "london", pile[3]), seat("p1"), "vm.not_top_agent")
    assert seat_view(t.s, "p1")["pile"]["agents"] is None  # type: ignore[index]
    # the fifth codex comes from Rome's loot
    t.do(Place("p1", "rome", pile[0]), seat("p1"))
    turn(t, "rome", next(a for a in t.s.player("p2").pile if a not in ("henchman", "gunner", "engineer")))
    turn(t, "rome", next(a for a in t.s.player("p3").pile if a not in ("henchman", "gunner", "engineer")))
    assert len(t.s.player("p1").codex) == 5 and t.s.player("p1").codex_power
    settle(t)  # whatever p1's first agent asks (a Henchman's mission, ...), then the turn ends
    assert t.s.active_seat == "p1"
    rest = t.s.player("p1").pile
    assert seat_view(t.s, "p1")["pile"]["agents"] == list(rest)  # type: ignore[index]
    legal = t.game.snapshot(seat("p1"))["legal"]["actions"][0]  # type: ignore[index]
    assert legal["kind"] == "vm.place" and sorted(legal["agents"]) == sorted(rest)
    t.do(Place("p1", "london", rest[-1]), seat("p1"))  # the bottom agent: allowed now
    # the power stays even when codex tokens are corrected away
    adjust(t, "p1", "codex", -5)
    assert t.s.player("p1").codex_power


def test_recycle_places_from_the_discard_for_one_scientist() -> None:
    t = new_table(3)
    turn(t, "moscow", "gunner")
    turn(t, "moscow", "number_two")
    turn(t, "moscow", "number_two")
    assert t.s.player("p1").discard == ("gunner",)
    refused(t, Place("p1", "paris", "engineer", recycle=True), seat("p1"), "vm.not_in_discard")
    t.do(Place("p1", "paris", "gunner", recycle=True), seat("p1"))
    p1 = t.s.player("p1")
    assert p1.scientists == 0 and p1.discard == () and p1.pile_size == 4
    assert t.s.stack("paris")[0].recycled and t.s.stack("paris")[0].agent == "gunner"
    assert table_view(t.s)["log"][-1]["what"] == "vm.log.recycled"  # type: ignore[index]
    # p2 has a Number Two in the discard but no scientist after... it has one: spend it
    t.do(Place("p2", "paris", "number_two", recycle=True), seat("p2"))
    t.do(Place("p3", "london", "number_two", recycle=True), seat("p3"))
    # p1 again: no scientist left, nothing in the discard
    refused(t, Place("p1", "paris", "gunner", recycle=True), seat("p1"), "vm.not_enough_scientists")


def test_extra_turn_costs_two_scientists_and_allows_no_scientist_actions() -> None:
    t = new_table(3)
    adjust(t, "p1", "scientists", 1)
    turn(t, "london", "saboteur", end=False)
    assert t.s.turn_phase == "after" and t.s.active_seat == "p1"  # waits: an extra turn is possible
    t.do(ExtraTurn("p1"), seat("p1"))
    assert t.s.extra_turn and t.s.player("p1").scientists == 0 and t.s.turn_phase == "place"
    refused(t, ExtraTurn("p1"), seat("p1"), "vm.scientists_in_extra_turn")
    refused(t, Place("p1", "london", "saboteur", recycle=True), seat("p1"), "vm.scientists_in_extra_turn")
    t.do(Place("p1", "rome"), seat("p1"))
    # after the extra placement the turn ends on its own
    assert t.s.active_seat == "p2" and not t.s.extra_turn


def test_extra_turn_inside_an_extra_turn_is_refused_even_with_scientists() -> None:
    t = new_table(3)
    adjust(t, "p1", "scientists", 1)
    t.do(RecordSegment("p1", 0, "lab_cell"))
    t.do(RecordSegment("p1", 0, "lab_cell"))
    adjust(t, "p1", "scientists", 2)  # 4 scientists
    turn(t, "london", "saboteur", end=False)
    t.do(ExtraTurn("p1"), seat("p1"))
    refused(t, ExtraTurn("p1"), seat("p1"), "vm.scientists_in_extra_turn")
    refused(t, Capture("p1", "paris", "monument"), seat("p1"), "vm.scientists_in_extra_turn")
    turn(t, "washington", "gunner", end=False)
    assert t.s.active_seat == "p2" and t.s.player("p1").scientists == 2


def test_capture_takes_any_building_with_three_scientists_and_the_city_loot_setting() -> None:
    for city_loot in (False, True):
        t = new_table(3, start=4, capture_city_loot=city_loot)
        t.do(RecordSegment("p1", 1, "lab_cell"), seat("p1"))
        adjust(t, "p1", "scientists", 1)
        refused(t, Capture("p1", "rome", "university"), seat("p1"), "vm.not_enough_scientists")
        adjust(t, "p1", "scientists", 1)
        refused(t, Capture("p1", "rome", "university"), seat("p1"), "vm.not_placed_yet")
        turn(t, "london", "saboteur", end=False)
        t.do(Capture("p1", "rome", "university"), seat("p1"))
        p1 = t.s.player("p1")
        assert p1.buildings == (("rome", "university"),)
        assert p1.scientists == 1  # 3 - 3 + the university's scientist
        assert p1.codex == ((1,) if city_loot else ())  # the German text: also Rome's loot
        assert t.s.level == 5 and "university" not in t.s.standing_in("rome")
        assert t.s.active_seat == "p2"  # nothing left to spend: the turn ended


def test_several_scientist_actions_in_one_turn_each_paid() -> None:
    t = new_table(3, start=4)
    t.do(RecordSegment("p1", 1, "lab_cell"), seat("p1"))
    t.do(RecordSegment("p1", 1, "lab_cell"), seat("p1"))
    adjust(t, "p1", "scientists", 3)  # 4
    turn(t, "moscow", "saboteur", end=False)
    t.do(Capture("p1", "paris", "university"), seat("p1"))  # 4 - 3 + 1 = 2
    assert t.s.active_seat == "p1" and t.s.turn_phase == "after"
    t.do(ExtraTurn("p1"), seat("p1"))  # 2 - 2 = 0
    t.do(Place("p1", "rome"), seat("p1"))
    assert t.s.active_seat == "p2"
    assert t.s.player("p1").scientists == 0 and t.s.level == 5
    spent = [e.purpose for e in t.events() if type(e).__name__ == "ScientistsSpent"]
    assert spent == ["capture", "extra_turn"]


def test_capture_of_a_building_already_taken_is_refused() -> None:
    t = new_table(3, start=1)
    adjust(t, "p1", "firepower", 5)
    turn(t, "paris", "gunner")
    turn(t, "paris", "saboteur")
    turn(t, "paris", "saboteur")
    t.do(ChooseBuilding("monument"), seat("p1"))
    finish_turn(t)
    assert t.s.active_seat == "p1"
    t.do(RecordSegment("p1", 1, "lab_cell"))
    adjust(t, "p1", "scientists", 1)  # 2 + Paris 1 -> 3
    turn(t, "london", "engineer", end=False)
    refused(t, Capture("p1", "paris", "monument"), seat("p1"), "vm.building_taken")
    t.do(Capture("p1", "paris", "factory"), seat("p1"))
    assert t.s.player("p1").bolts == 1 and t.s.level == 3


def test_the_forced_resolution_when_no_agent_can_be_placed() -> None:
    t = new_table(3, seed=4)
    others = iter(["washington"] * 3 + ["rome"] * 3 + ["washington"] * 3 + ["rome"])
    for city in ["london", "london", "moscow", "moscow", "paris"]:
        turn(t, city)  # p1: unidentified agents from the physical pile
        if city != "paris":
            turn_top(t, next(others))
            turn_top(t, next(others))
    # p1 has placed all 5 agents and none came back: no pile, no discard
    p1 = t.s.player("p1")
    assert p1.pile_size == 0 and p1.discard == () and p1.pile_unknown == 5
    turn_top(t, next(others))
    turn_top(t, next(others))
    assert t.s.active_seat == "p1"
    refused(t, Place("p1", "rome"), TABLE, "vm.pile_empty")
    legal = t.game.snapshot(seat("p1"))["legal"]["actions"][0]  # type: ignore[index]
    assert legal == {"kind": "vm.force_resolve", "seat": "p1", "cities": ["london", "moscow", "paris"]}
    # the touchscreen is offered every 1-2 stack (it does not know whose agents are where)
    table_legal = t.game.snapshot(TABLE)["legal"]["actions"][0]  # type: ignore[index]
    assert table_legal["cities"] == ["london", "moscow", "paris", "rome"]
    refused(t, ForceResolve("p1", "rome"), TABLE, "vm.stack_not_eligible")
    refused(t, ForceResolve("p1", "washington"), TABLE, "vm.stack_not_eligible")
    refused(t, ForceResolve("p2", "london"), seat("p2"), "vm.not_your_turn")
    t.do(ForceResolve("p1", "moscow"), seat("p1"))
    flip = [e for e in t.events() if isinstance(e, StackFlipped)][-1]
    assert flip.city == "moscow" and flip.reason == "forced"
    t.do(Reveal("number_two"))
    t.do(Reveal("saboteur"))
    assert outcomes(t, "moscow") == [("p1", "number_two", "double_loot"), ("p1", "saboteur", "no_target")]
    # the agents went to the discard and were shuffled into a new pile at once
    p1 = t.s.player("p1")
    assert p1.pile_size == 2 and p1.discard == () and p1.pile_gen == 2 and sorted(p1.pile) == ["number_two", "saboteur"]
    assert isinstance(t.events()[-2], PileShuffled)
    assert t.s.active_seat == "p2"  # the forced resolution was p1's turn
    refused(t, ForceResolve("p2", "london"), seat("p2"), "vm.no_force_needed")
    # the older unidentified agents can only be what p1 has not revealed yet
    turn_top(t, "london")
    assert outcomes(t, "london")[0][0] == "p1"
    assert {o[1] for o in outcomes(t) if o[0] == "p1"} <= {"number_two", "saboteur", "henchman", "gunner", "engineer"}


def test_an_empty_pile_is_refilled_when_agents_come_back_to_the_discard() -> None:
    t = new_table(3, seed=4)
    others = iter(["washington"] * 3 + ["rome"] * 3 + ["washington"] * 2)
    for city in ["london", "london", "moscow", "moscow", "paris"]:
        turn(t, city)
        if city != "paris":
            turn_top(t, next(others))
            turn_top(t, next(others))
    assert t.s.player("p1").pile_size == 0 and t.s.player("p1").discard == ()
    turn_top(t, "paris")
    start = len(t.game.entries)
    turn_top(t, "paris")  # p3 fills Paris: p1's agent resolves there and comes back
    kinds = [e.event.kind for e in t.game.entries[start:]]
    assert kinds.index("vm.stack_resolved") < kinds.index("vm.pile_shuffled")
    shuffle = next(e.event for e in t.game.entries[start:] if isinstance(e.event, PileShuffled))
    assert shuffle.seat == "p1" and shuffle.reason == "reshuffle" and len(shuffle.order) == 1
    p1 = t.s.player("p1")
    assert p1.pile == shuffle.order and p1.pile_gen == 2 and p1.pile_size == 1 and p1.discard == ()
    assert t.s.active_seat == "p1"  # p1 can place again: no forced resolution
    assert t.game.snapshot(seat("p1"))["legal"]["actions"][0]["kind"] == "vm.place"  # type: ignore[index]


def test_placing_ones_last_agent_as_the_stack_filler_shuffles_after_its_resolution() -> None:
    t = new_table(3, seed=11)
    for mine, second, third in (
        ("london", "rome", "rome"),
        ("moscow", "rome", "washington"),
        ("paris", "washington", "washington"),
        ("rome", "rome", "paris"),
    ):
        turn_top(t, mine)
        turn_top(t, second)
        turn_top(t, third)
    assert t.s.player("p1").pile_size == 1 and t.s.active_seat == "p1"
    assert len(t.s.stack("paris")) == 2  # p1's and p3's
    start = len(t.game.entries)
    turn_top(t, "paris")  # p1's last agent fills Paris, which holds p1's earlier agent
    kinds = [e.event.kind for e in t.game.entries[start:]]
    assert kinds[:2] == ["vm.agent_placed", "vm.stack_flipped"]
    assert kinds.index("vm.stack_resolved") < kinds.index("vm.pile_shuffled")
    shuffle = next(e.event for e in t.game.entries[start:] if isinstance(e.event, PileShuffled))
    assert len(shuffle.order) == 2  # both p1 agents from Paris are in the new pile


def test_illegal_intents_are_refused_with_specific_codes_and_change_nothing() -> None:
    t = new_table(3)
    refused(t, Start(), TABLE, "vm.already_started")
    refused(t, Place("p1", "paris"), seat("p2"), "vm.not_your_seat")  # placing for another player
    refused(t, Place("p2", "paris"), seat("p2"), "vm.not_your_turn")  # acting out of turn
    refused(t, Place("p2", "paris"), TABLE, "vm.not_your_turn")
    refused(t, EndTurn("p1"), seat("p1"), "vm.not_placed_yet")
    refused(t, Place("p1", "paris", "gunner", recycle=True), seat("p1"), "vm.not_in_discard")
    # spending scientists one does not have
    err = refused(t, ExtraTurn("p1"), seat("p1"), "vm.not_enough_scientists")
    assert err.params == {"need": 2, "have": 1}
    refused(t, Capture("p1", "rome", "factory"), seat("p1"), "vm.not_enough_scientists")
    adjust(t, "p1", "scientists", -1)
    refused(t, Place("p1", "paris", "gunner", recycle=True), seat("p1"), "vm.not_enough_scientists")
    refused(t, Place("zz", "paris"), TABLE, "vm.unknown_seat")
    refused(t, RecordSegment("p1", 2), seat("p2"), "vm.not_your_seat")
    refused(t, RecordSegment("p1", 99), seat("p1"), "vm.segment_chaos")
    refused(t, Adjust("level", 1), seat("p2"), "vm.table_only")
    refused(t, Adjust("firepower", 1, "p2"), seat("p2"), "vm.adjust_not_allowed")
    refused(t, Adjust("level", 20), TABLE, "vm.adjust_range")
    refused(t, Adjust("codex", 1, "p2", 3), TABLE, "vm.bad_value")
    refused(t, SetMission("rome", 2), seat("p1"), "vm.table_only")
    refused(t, SetMission("rome", 7), TABLE, "vm.reward_invalid")
    refused(t, SetMission("rome", 2, "x" * 41), TABLE, "vm.label_too_long")
    refused(t, RemoveSegment("p1", 0), TABLE, "vm.no_segment")
    refused(t, AnswerHenchman(True), TABLE, "vm.not_awaited")
    refused(t, Reveal("gunner"), TABLE, "vm.not_awaited")
    refused(t, ChooseBuilding("factory"), TABLE, "vm.not_awaited")
    turn(t, "paris", end=False)
    refused(t, Place("p2", "paris", "gunner", recycle=True), seat("p2"), "vm.not_in_discard")
    refused(t, Place("p1", "rome"), seat("p1"), "vm.not_your_turn")
    with pytest.raises(Forbidden):
        t.game.decide(Place("p2", "rome"), DEBUG, t.game.seq)


def test_a_phone_must_name_the_agent_when_its_pile_is_not_exact() -> None:
    t = new_table(3)
    turn(t, "paris")  # unidentified for p1
    turn(t, "london")
    turn(t, "london")
    refused(t, Place("p1", "rome"), seat("p1"), "vm.name_the_agent")
    assert seat_view(t.s, "p1")["pile"]["top"] is None  # type: ignore[index]
    pile = t.s.player("p1").pile
    t.do(Place("p1", "rome", pile[2]), seat("p1"))  # the phone names what the player holds
    assert t.s.player("p1").pile_size == 3


def test_nothing_before_the_start() -> None:
    t = new_table(3, started=False)
    refused(t, Place("p1", "paris"), TABLE, "vm.not_started")
    refused(t, Start(), seat("p1"), "vm.table_only")
    assert t.game.snapshot(TABLE)["legal"] == {"actions": [{"kind": "vm.start"}]}
    assert t.game.snapshot(seat("p1"))["legal"] == {"actions": []}


# -- undo --------------------------------------------------------------------------------


def test_a_placement_may_be_undone_by_its_owner_or_the_table_until_revealed() -> None:
    t = new_table(3)
    t.do(Place("p1", "paris"), seat("p1"))
    assert t.game.can_undo(seat("p1")) and t.game.can_undo(TABLE) and not t.game.can_undo(seat("p2"))
    before_pile = t.s.player("p1").pile
    t.do(Undo(), seat("p1"))
    assert t.s.active_seat == "p1" and t.s.stack("paris") == ()
    assert t.s.player("p1").pile_size == 5 and len(before_pile) == 4
    turn(t, "paris")
    turn(t, "paris")
    turn(t, "paris", "saboteur")  # flips the stack: the action reveals, so it is never undone
    for actor in (TABLE, seat("p3")):
        with pytest.raises(UndoRefused):
            t.do(Undo(), actor)


def test_the_start_and_its_shuffles_are_never_undone() -> None:
    t = new_table(3)
    with pytest.raises(UndoRefused):
        t.do(Undo())


def test_corrections_are_table_only_public_and_undoable_by_the_table() -> None:
    t = new_table(3, start=4)
    adjust(t, None, "level", 2)
    adjust(t, "p2", "chaos_tokens", 1)
    log = table_view(t.s)["log"]
    assert log[-2:] == [  # type: ignore[index]
        {"n": 2, "what": "vm.log.corrected", "seat": "", "city": "", "detail": "level+2"},
        {"n": 3, "what": "vm.log.corrected", "seat": "p2", "city": "", "detail": "chaos_tokens+1"},
    ]
    assert not t.game.can_undo(seat("p2"))
    t.do(Undo())
    assert t.s.player("p2").chaos_tokens == 0 and t.s.level == 6
    for counter in ("firepower", "codex", "scientists", "bolts", "copper"):
        adjust(t, "p3", counter, 1)
    p3 = t.s.player("p3")
    assert (p3.firepower, len(p3.codex), p3.scientists, p3.bolts, p3.copper) == (2, 1, 2, 1, 1)
    with pytest.raises(IllegalMove) as info:
        adjust(t, "p3", "scientists", 1)  # 2 lab cells
    assert info.value.code == "vm.adjust_range"


def test_segments_are_recorded_with_chaos_points_and_unlocks() -> None:
    t = new_table(3)
    adjust(t, "p1", "bolts", 3)
    adjust(t, "p1", "copper", 2)
    t.do(RecordSegment("p1", 2, "lab_cell", bolts=2, copper=1, label="harpoon"), seat("p1"))
    p1 = t.s.player("p1")
    assert (p1.bolts, p1.copper, p1.lab_cells) == (1, 1, 3)
    with pytest.raises(IllegalMove) as info:
        t.do(RecordSegment("p1", 2, bolts=2), seat("p1"))
    assert info.value.code == "vm.segment_parts"
    t.do(RecordSegment("p1", 1, "codex"))
    with pytest.raises(IllegalMove) as info:
        t.do(RecordSegment("p1", 1, "codex"))
    assert info.value.code == "vm.codex_unlocked_already"
    t.do(RecordSegment("p1", 1, "lab_cell"))
    with pytest.raises(IllegalMove) as info:
        t.do(RecordSegment("p1", 1, "lab_cell"))
    assert info.value.code == "vm.lab_cells_max"
    # a recorded segment may be undone by the table or its owner, not by another seat
    assert t.game.can_undo(seat("p1")) and not t.game.can_undo(seat("p2"))
    t.do(Undo(), seat("p1"))
    t.do(Undo())
    assert [(g.chaos, g.unlock) for g in t.s.player("p1").segments] == [(2, "lab_cell")]
    assert t.s.player("p1").codex_value == 1
    assert table_view(t.s)["players"][0]["score"]["segments"] == 2  # type: ignore[index]
