"""The owner of an agent chooses the order of its loot and its ability — asked only when the two
orders can end differently (DE p.8, ES, FR)."""

from __future__ import annotations

import pytest
from vm_helpers import Table, adjust, new_table, outcomes, seat, turn

from companion.core import TABLE, CompanionError
from companion.games.victorian_masterminds.events import (
    ChoiceRequired,
    ChooseBuilding,
    ChooseOrder,
    EngineerDone,
    LootTaken,
    RecordSegment,
    TakeLoot,
)
from companion.games.victorian_masterminds.views import table_view


def kinds_of(t: Table, actor: str = "p1") -> list[str]:
    actions = t.game.snapshot(seat(actor))["legal"]["actions"]  # type: ignore[index]
    return [a["kind"] for a in actions if a["kind"] not in ("vm.record_segment", "vm.adjust")]  # type: ignore[index]


def asked(t: Table) -> list[str]:
    return [e.choice for e in t.events() if isinstance(e, ChoiceRequired)]


def gunner_first_in(city: str, start: int = 4, firepower: int = 4) -> Table:
    """p1's Gunner is the first agent of a full stack in ``city`` (3 players)."""
    t = new_table(3, start=start)
    adjust(t, "p1", "firepower", firepower - 1)
    turn(t, city, "gunner")
    turn(t, city, "number_two")
    turn(t, city, "number_two", end=False)
    return t


def test_a_gunner_in_rome_captures_first_and_its_codex_token_is_worth_two() -> None:
    """DE p.8: "Dabei kann der jeweilige Besitzer des Komplizen entscheiden, in welcher Reihenfolge
    die Schritte abgehandelt werden" (ES: "en el orden que elija el propietario del Agente").
    The Gunner takes the furnace, whose copper plate completes the codex segment; the Rome codex
    token taken after that is worth 2 ("Sobald du den abgebildeten Codex-Abschnitt
    fertiggestellt hast, legst du alle folgenden Codex-Marker mit der 2 nach oben")."""
    t = gunner_first_in("rome")
    adjust(t, "p1", "copper", 2)
    r = t.s.resolution
    assert r is not None and r.stage == "order" and not r.looted
    assert kinds_of(t) == ["vm.choose_order"]
    assert table_view(t.s)["resolution"]["waiting"] == {"kind": "order", "seat": "p1", "by": ["table", "p1"]}  # type: ignore[index]
    t.do(ChooseOrder("ability"), seat("p1"))
    t.do(ChooseBuilding("furnace"), seat("p1"))
    r = t.s.resolution
    assert r is not None and r.stage == "take_loot" and t.s.player("p1").copper == 3 and t.s.player("p1").codex == ()
    t.do(RecordSegment("p1", 2, "codex", copper=3), seat("p1"))  # the furnace's copper completed it
    t.do(TakeLoot(), seat("p1"))
    p1 = t.s.player("p1")
    assert p1.codex == (2,) and p1.buildings == (("rome", "furnace"),) and t.s.level == 5
    assert outcomes(t)[0] == ("p1", "gunner", "captured")
    step = table_view(t.s)["last_stack"]["agents"][0]  # type: ignore[index]
    assert step["ability_first"] and step["building"] == "furnace" and step["loot"][0]["value"] == 2  # type: ignore[index]


def test_the_same_gunner_taking_its_loot_first_gets_a_codex_token_worth_one() -> None:
    """DE p.8: "1) Der Besitzer des Komplizen erhält die angegebene Ausbeute der Stadt. 2) Der
    Besitzer des Komplizen versucht, dessen Fähigkeit auszuführen." — in that order, the codex
    token comes before the segment and keeps its 1."""
    t = gunner_first_in("rome")
    t.do(ChooseOrder("loot"), seat("p1"))
    assert t.s.player("p1").codex == (1,)
    r = t.s.resolution
    assert r is not None and r.stage == "gunner"
    t.do(ChooseBuilding("furnace"), seat("p1"))
    assert outcomes(t)[0] == ("p1", "gunner", "captured") and t.s.player("p1").codex == (1,)


def test_ordinary_turns_get_no_extra_question() -> None:
    """DE p.8: "Von oben nach unten handelt ihr nun für jeden Komplizen folgende Schritte ab" —
    where both orders end alike, nobody is asked: loot first, as printed."""
    cases = [
        ("washington", 4, 4),  # the loot is a bolt: its worth cannot change
        ("moscow", 4, 3),  # firepower first lets the Gunner capture; it may still take nothing
        ("rome", 6, 4),  # too weak either way
        ("paris", 4, 4),  # a free lab cell: the scientist fits either way
    ]
    for city, start, firepower in cases:
        t = gunner_first_in(city, start, firepower)
        assert "order" not in asked(t), city
        assert isinstance(next(e for e in t.events() if isinstance(e, LootTaken)), LootTaken)
    # the codex segment already built: a Rome codex token is worth 2 either way
    t = new_table(3, start=4)
    adjust(t, "p1", "firepower", 3)
    t.do(RecordSegment("p1", 1, "codex"))
    turn(t, "rome", "gunner")
    turn(t, "rome", "number_two")
    turn(t, "rome", "number_two", end=False)
    assert "order" not in asked(t) and t.s.player("p1").codex == (2,)
    # three Gunners in Rome: the first two may capture a part and are asked; the third finds only
    # the university and the monument left and is not
    t = new_table(3, start=2)
    for who in ("p1", "p2", "p3"):
        adjust(t, who, "firepower", 3)
    turn(t, "rome", "gunner")
    turn(t, "rome", "gunner")
    turn(t, "rome", "gunner", end=False)
    for who, building in (("p1", "furnace"), ("p2", "factory")):
        assert t.s.resolution is not None and t.s.resolution.stage == "order"
        t.do(ChooseOrder("loot"), seat(who))
        t.do(ChooseBuilding(building), seat(who))
    assert asked(t) == ["order", "gunner", "order", "gunner", "gunner"]
    assert t.s.standing_in("rome") == ("university", "monument")


def test_a_gunner_in_paris_with_a_full_lab_may_unlock_a_cell_before_its_scientist() -> None:
    """DE p.9 (Paris): "Hast du keine freien, verfügbaren Felder ..., erhältst du keinen." With the
    ability first, the factory's bolt completes a segment that unlocks a lab cell, and Paris's
    scientist then fits."""
    t = new_table(3, start=4)
    adjust(t, "p1", "firepower", 3)
    adjust(t, "p1", "scientists", 1)  # 2 of 2 cells taken
    turn(t, "paris", "gunner", end=False)
    from vm_helpers import finish_turn

    finish_turn(t)
    turn(t, "paris", "saboteur")
    turn(t, "paris", "saboteur", end=False)
    r = t.s.resolution
    assert r is not None and r.stage == "order"
    t.do(ChooseOrder("ability"))  # the table may answer for the owner
    t.do(ChooseBuilding("factory"), seat("p1"))
    t.do(RecordSegment("p1", 0, "lab_cell", bolts=1))
    t.do(TakeLoot())
    assert t.s.player("p1").scientists == 3 and t.s.player("p1").lab_cells == 3


def test_an_engineer_in_rome_takes_its_loot_during_its_power_when_it_suits_the_owner() -> None:
    """DE p.8: "Dabei kann der jeweilige Besitzer des Komplizen entscheiden, in welcher Reihenfolge
    die Schritte abgehandelt werden" — the Engineer already asks its owner to apply the power, so
    the loot waits there (no extra question): take it now, or it is taken when the power is done,
    after any segment the power completed."""
    t = new_table(3)
    turn(t, "rome", "engineer")
    turn(t, "rome", "number_two")
    turn(t, "rome", "number_two", end=False)
    r = t.s.resolution
    assert r is not None and r.stage == "engineer" and not r.looted and asked(t) == ["engineer"]
    assert kinds_of(t) == ["vm.engineer_done", "vm.take_loot"]
    t.do(RecordSegment("p1", 3, "codex"), seat("p1"))  # the machine power completed it
    t.do(EngineerDone(), seat("p1"))
    assert t.s.player("p1").codex == (2,)
    # the other way round: the loot taken at once keeps its 1
    t = new_table(3)
    turn(t, "rome", "engineer")
    turn(t, "rome", "number_two")
    turn(t, "rome", "number_two", end=False)
    t.do(TakeLoot(), seat("p1"))
    r = t.s.resolution
    assert r is not None and r.stage == "engineer" and r.looted and t.s.player("p1").codex == (1,)
    assert "vm.take_loot" not in kinds_of(t)
    with pytest.raises(CompanionError) as info:
        t.do(TakeLoot(), seat("p1"))
    assert info.value.code == "vm.not_awaited"
    t.do(RecordSegment("p1", 3, "codex"), seat("p1"))
    t.do(EngineerDone(), seat("p1"))
    assert t.s.player("p1").codex == (1,)


def test_only_the_owner_or_the_table_chooses_the_order() -> None:
    """DE p.8: "Dabei kann der jeweilige Besitzer des Komplizen entscheiden" — the owner (the
    table may tap for them); another seat is refused and nothing changes."""
    t = gunner_first_in("rome")
    before = t.s
    for intent, actor, code in (
        (ChooseOrder("ability"), seat("p2"), "vm.not_your_seat"),
        (TakeLoot(), seat("p1"), "vm.not_awaited"),
        (ChooseBuilding("furnace"), seat("p1"), "vm.not_awaited"),
    ):
        with pytest.raises(CompanionError) as info:
            t.do(intent, actor)
        assert info.value.code == code
    assert t.s == before
    t.do(ChooseOrder("ability"), TABLE)
    assert t.s.resolution is not None and t.s.resolution.stage == "gunner"
