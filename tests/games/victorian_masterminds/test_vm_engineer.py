"""Engineer powers that move agents: the rulebooks' one described machine power, the steam mole
(DE K.R.A.L.L.E., ES CLAWS, FR G.R.I.F.F.E.), taken from its own example."""

from __future__ import annotations

import pytest
from vm_helpers import Table, new_table, outcomes, seat, settle, turn

from companion.core import TABLE, CompanionError, Undo
from companion.games.victorian_masterminds.events import EngineerDone, PlaceUnder, StackFlipped
from companion.games.victorian_masterminds.model import Placement
from companion.games.victorian_masterminds.views import seat_view, table_view


def engineer_in_moscow(players: int = 3) -> Table:
    """Red (p1) resolves its Engineer in Moscow; Blue's (p2) agent lies alone in Paris."""
    t = new_table(players)
    turn(t, "moscow", "engineer")  # p1
    turn(t, "paris", "gunner")  # p2: alone in Paris
    if players == 3:
        turn(t, "moscow", "number_two")  # p3
        turn(t, "moscow", "number_two", end=False)  # p1: Moscow is full and turns over
    else:
        turn(t, "moscow", "number_two", end=False)  # p1 (2 players: Moscow full at 2)
    return t


def test_the_steam_mole_puts_the_next_agent_under_a_lone_agent() -> None:
    """DE p.11: "Rot aktiviert seinen Ingenieur in Moskau. Zuerst erhöht er seine Feuerkraft um 1
    und führt danach seine Maschinenfunktion aus. Durch seine Maschine (K.R.A.L.L.E., der
    Dampf-Maulwurf) kann er seinen nächsten Komplizen sofort unter einen beliebigen Komplizen
    platzieren, der alleine in einer Stadt ist." (FR: "placer son prochain Agent sous un autre
    Agent qui se trouve seul dans n'importe quelle ville")."""
    t = engineer_in_moscow()
    r = t.s.resolution
    assert r is not None and r.stage == "engineer" and t.s.player("p1").firepower == 2  # loot first
    legal = [a for a in t.game.snapshot(seat("p1"))["legal"]["actions"] if a["kind"] == "vm.place_under"]  # type: ignore[index,union-attr]
    top = t.s.player("p1").pile[0]
    assert legal == [
        {"kind": "vm.place_under", "seat": "p1", "cities": ["paris"], "agents": [top], "unidentified": False}
    ]
    t.do(PlaceUnder("p1", "paris"), seat("p1"))  # the phone: its next agent, the top of its pile
    assert t.s.stack("paris") == (Placement("p1", top, 1), Placement("p2", "gunner", 1))
    assert seat_view(t.s, "p1")["placed"] == [{"city": "paris", "position": 1, "height": 2, "agent": top}]
    assert table_view(t.s)["stacks"]["paris"] == 2  # type: ignore[index]
    line = table_view(t.s)["log"][-1]  # type: ignore[index]
    assert line == {"n": t.s.log_count, "what": "vm.log.placed_under", "seat": "p1", "city": "paris", "detail": ""}
    t.do(EngineerDone(), seat("p1"))
    settle(t)
    # the turn goes on as before: p1 placed in Moscow, p2 is next
    assert t.s.active_seat == "p2" and t.s.player("p1").pile_size == 2  # 5 - Moscow - Moscow - Paris
    # Paris fills and resolves: Red's agent, now at the bottom, goes first
    turn(t, "paris", "saboteur")
    settle(t)
    assert [o[0] for o in outcomes(t, "paris")] == ["p1", "p2", "p2"]


def test_the_steam_mole_is_refused_where_the_rulebook_does_not_allow_it() -> None:
    """DE p.11: "... unter einen beliebigen Komplizen platzieren, der alleine in einer Stadt ist."
    Not under a stack of two, not by another player, not twice, not outside the Engineer."""
    t = new_table(3)
    with pytest.raises(CompanionError) as info:
        t.do(PlaceUnder("p1", "paris"), seat("p1"))
    assert info.value.code == "vm.not_awaited"
    t = engineer_in_moscow()
    turn_refusals = [
        (PlaceUnder("p1", "london"), seat("p1"), "vm.not_a_lone_agent"),
        (PlaceUnder("p2", "paris"), seat("p2"), "vm.not_engineer_owner"),
        (PlaceUnder("p1", "paris"), seat("p2"), "vm.not_your_seat"),
    ]
    before = t.s
    for intent, actor, code in turn_refusals:
        with pytest.raises(CompanionError) as info:
            t.do(intent, actor)
        assert info.value.code == code
    assert t.s == before
    t.do(PlaceUnder("p1", "paris"))  # the table, for p1: unidentified
    assert t.s.stack("paris")[0] == Placement("p1", None, 1) and t.s.player("p1").pile_unknown == 1
    with pytest.raises(CompanionError) as info:
        t.do(PlaceUnder("p1", "paris", "saboteur"))
    assert info.value.code == "vm.already_placed_under"
    # it can be taken back by the table or its owner, like any placement that showed nothing
    assert t.game.can_undo(seat("p1")) and t.game.can_undo(TABLE) and not t.game.can_undo(seat("p2"))
    t.do(Undo(), seat("p1"))
    assert t.s.stack("paris") == (Placement("p2", "gunner", 1),)


def test_with_two_players_the_stack_made_under_a_lone_agent_resolves_after_this_one() -> None:
    """ES: "cuando se juega con Victorian Masterminds con 2 jugadores, las ciudades se resuelven
    después de que el segundo Agente se coloca en una Pila" — a stack of two made by the steam
    mole resolves right after the stack being resolved."""
    t = engineer_in_moscow(players=2)
    t.do(PlaceUnder("p1", "paris", "saboteur"))  # a tag scan at the table
    assert t.s.resolution is not None and t.s.resolution.city == "moscow"
    t.do(EngineerDone(), seat("p1"))
    flips = [e.city for e in t.events() if isinstance(e, StackFlipped)]
    assert flips == ["moscow", "paris"]
    assert outcomes(t, "paris")[0] == ("p1", "saboteur", "sabotage")
