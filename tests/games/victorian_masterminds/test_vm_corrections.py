"""What the table sees is right: an agent of a stack being turned over can be named again (its disc
lies face up), a table entry the hidden books disagree with swaps nothing, a placement the table
makes for a seat whose phone keeps its pile is that phone's own top agent (and the phone is told),
and every change of the Secret Service level says why."""

from __future__ import annotations

import pytest
from test_vm_secrets import check_books
from vm_helpers import adjust, new_table, outcomes, seat, settle, turn

from companion.core import TABLE, Forbidden, IllegalMove, Undo
from companion.games.victorian_masterminds import RULES
from companion.games.victorian_masterminds.events import (
    Capture,
    ChooseBuilding,
    Place,
    RecordSegment,
    Reidentify,
    Reveal,
)
from companion.games.victorian_masterminds.views import seat_view, table_view

# -- 1. naming an agent of a turned-over stack again ----------------------------------------------


def test_the_table_names_a_face_up_agent_again_and_it_resolves_as_what_it_is() -> None:
    """DE p.8: "Dann nimmt der aktive Spieler den kompletten Komplizenstapel und dreht ihn um." The
    discs lie face up: a tag misread as an Engineer is named again as the Henchman it is, before it
    acts; it then resolves as a Henchman, the public log says so, and the table may take it back."""
    t = new_table(3, missions={"washington": {"reward": 3}})
    turn(t, "washington", "engineer")  # p1: a tag scan that read the wrong disc
    turn(t, "washington", "number_two")
    turn(t, "washington", "number_two", end=False)  # turned over: p1's agent first
    r = t.s.resolution
    assert r is not None and r.current is not None and r.current.agent == "engineer"
    offered = [a for a in RULES.legal(t.s, TABLE)["actions"] if a["kind"] == "vm.reidentify"]  # type: ignore[index]
    assert offered == [
        {
            "kind": "vm.reidentify",
            "agents": [
                {"index": 0, "seat": "p1", "agent": "engineer"},
                {"index": 1, "seat": "p2", "agent": "number_two"},
                {"index": 2, "seat": "p3", "agent": "number_two"},
            ],
            "names": ["number_two", "henchman", "saboteur", "gunner", "engineer"],
        }
    ]
    assert not any(a["kind"] == "vm.reidentify" for a in RULES.legal(t.s, seat("p1"))["actions"])  # type: ignore[index]
    with pytest.raises(Forbidden):
        t.do(Reidentify(0, "henchman"), seat("p1"))  # the table names what it sees, not a seat
    t.do(Reidentify(0, "henchman"))
    r = t.s.resolution
    assert r is not None and r.current is not None and r.current.agent == "henchman" and r.stage == "henchman"
    assert table_view(t.s)["log"][-1] == {  # type: ignore[index]
        "n": t.s.log_count,
        "what": "vm.log.reidentified",
        "seat": "p1",
        "city": "washington",
        "detail": "engineer:henchman",
    }
    check_books(t.s)
    assert "engineer" in t.s.player("p1").pile  # the books put the Engineer back in p1's hand
    assert t.game.can_undo(TABLE) and not t.game.can_undo(seat("p1"))
    t.do(Undo())
    assert t.s.resolution is not None and t.s.resolution.agents[0].agent == "engineer"
    t.do(Reidentify(0, "henchman"))
    settle(t)
    assert outcomes(t)[0] == ("p1", "henchman", "mission_not_met")


def test_a_later_agent_of_the_stack_is_named_again_before_its_turn() -> None:
    t = new_table(3)
    turn(t, "moscow", "engineer")  # p1's Engineer waits for its owner
    turn(t, "moscow", "gunner")  # p2's disc is really its Saboteur
    turn(t, "moscow", "henchman", end=False)
    r = t.s.resolution
    assert r is not None and r.index == 0
    t.do(Reidentify(1, "saboteur"))
    settle(t)
    done = [o[1:] for o in outcomes(t)]
    assert done == [("engineer", "engineer"), ("saboteur", "sabotage"), ("henchman", "cancelled")]
    check_books(t.s)


def test_naming_again_is_refused_where_it_cannot_be_right() -> None:
    t = new_table(3)
    turn(t, "rome", "saboteur")
    turn(t, "rome", "saboteur")
    turn(t, "rome", "gunner")  # resolves: p1's Saboteur is face up in its discard
    turn(t, "london", "engineer")  # p1
    turn(t, "london")  # p2, unidentified
    turn(t, "london", "number_two", end=False)  # p3: turned over
    codes = {}
    for index, agent in ((0, "saboteur"), (0, "engineer"), (1, "gunner"), (3, "gunner"), (-1, "gunner")):
        with pytest.raises(IllegalMove) as info:
            t.do(Reidentify(index, agent))  # type: ignore[arg-type]
        codes[(index, agent)] = info.value.code
    assert codes == {
        (0, "saboteur"): "vm.agent_face_up",  # p1's Saboteur lies in its discard
        (0, "engineer"): "vm.reidentify_same",
        (1, "gunner"): "vm.reidentify_unknown",  # unidentified: it is named when its turn comes
        (3, "gunner"): "vm.reidentify_index",
        (-1, "gunner"): "vm.reidentify_index",
    }


# -- 1. a table entry the books disagree with ---------------------------------------------------


def test_a_misread_tag_swaps_nothing_and_the_true_disc_is_named_when_turned_over() -> None:
    """The issue's table: a tag read as p1's Gunner while the books hold p1's Gunner face down in
    Paris. Before, the Paris agent silently became unnamed, this one resolved as a Gunner, and the
    true Gunner was refused when Paris was turned over (it lay face up in p1's discard). Now this one
    is placed unnamed and named when turned over; Paris keeps its Gunner."""
    t = new_table(3)
    turn(t, "paris", "gunner")  # p1: the books' Gunner
    turn(t, "moscow")
    turn(t, "moscow")
    turn(t, "london", "gunner")  # p1 again: the reader reads "Gunner" on what is really the Henchman
    assert t.s.stack("paris")[0].agent == "gunner" and t.s.stack("london")[0].agent is None
    check_books(t.s)
    turn(t, "london")
    turn(t, "london", end=False)  # London turned over: the table names what it sees
    t.do(Reveal("henchman"))
    settle(t)
    turn(t, "paris")
    turn(t, "paris", end=False)  # Paris turned over: its Gunner is p1's true Gunner, not refused
    r = t.s.resolution
    assert r is not None and r.city == "paris" and r.agents[0].agent == "gunner"
    settle(t)
    assert ("p1", "gunner") in [o[:2] for o in outcomes(t, "paris")]
    check_books(t.s)


# -- 2. the table places for a seat whose phone keeps its pile ------------------------------------


def test_the_table_places_the_top_agent_for_a_phone_seat_and_its_phone_is_told() -> None:
    """DE p.7: "Nimm den obersten Komplizen von deinem Vorrat". A player whose phone keeps the pile
    cannot have the touchscreen place any other agent unseen: the table's placement for that seat
    is its top agent (a scanned other name does not change it), and that phone alone is told which
    agent; no other screen learns it."""
    t = new_table(3)
    top = t.s.player("p1").pile[0]
    other = next(a for a in t.s.player("p1").pile if a != top)
    t.do(Place("p1", "london", other, books=True))  # the tag the player scanned is not the top one
    assert t.s.stack("london")[0].agent == top
    assert seat_view(t.s, "p1")["told"] == {"city": "london", "agent": top}
    for audience in (TABLE, seat("p2")):
        view = RULES.view(t.s, audience)
        assert "told" not in view or view["told"] is None
        assert top not in str(view.get("placed", "")) and f'"{top}"' not in str(view.get("players"))
    check_books(t.s)
    # the seat's next own placement clears what it was told
    turn(t, "rome")
    turn(t, "rome")
    t.do(Place("p1", "paris"), seat("p1"))
    assert seat_view(t.s, "p1")["told"] is None


def test_a_phone_seat_whose_pile_is_unsure_places_on_its_phone() -> None:
    """After an agent was placed unidentified (before its phone came), the books do not know the
    pile's top: the table cannot place for that seat by the books; its phone names the agent."""
    t = new_table(3)
    turn(t, "london")  # p1, unidentified
    turn(t, "rome")
    turn(t, "rome")
    with pytest.raises(IllegalMove) as info:
        t.do(Place("p1", "paris", books=True))
    assert info.value.code == "vm.place_on_phone" and info.value.params == {"seat": "p1"}
    t.do(Place("p1", "paris", t.s.player("p1").pile[1]), seat("p1"))  # the phone names it


# -- 4. why the level changed --------------------------------------------------------------------


def test_every_change_of_the_level_says_why_on_every_screen() -> None:
    """DE p.9 (Draufgängerin) and p.11 (Angriff): each capture raises the Secret Service by 1; the
    table corrects it too. Each screen shows the last change, from what to what, and why."""
    t = new_table(3, start=2)
    assert table_view(t.s)["level_change"] is None
    adjust(t, "p1", "firepower", 3)
    turn(t, "paris", "gunner")
    turn(t, "paris", "number_two")
    turn(t, "paris", "number_two", end=False)
    t.do(ChooseBuilding("factory"), seat("p1"))
    gunner = {"from": 2, "to": 3, "why": "gunner", "seat": "p1", "city": "paris", "building": "factory"}
    for audience in (TABLE, seat("p1"), seat("p2")):
        assert RULES.view(t.s, audience)["level_change"] == gunner
    settle(t)
    who = t.s.active_seat
    t.do(RecordSegment(who, 1, "lab_cell"))  # a third lab cell ...
    if t.s.player(who).scientists < 3:
        adjust(t, who, "scientists", 3 - t.s.player(who).scientists)  # ... for 3 scientists
    t.do(Place(who, "london"), seat(who))
    t.do(Capture(who, "rome", "monument"), seat(who))
    assert table_view(t.s)["level_change"] == {
        "from": 3,
        "to": 4,
        "why": "capture",
        "seat": who,
        "city": "rome",
        "building": "monument",
    }
    adjust(t, None, "level", -1)
    assert table_view(t.s)["level_change"] == {
        "from": 4,
        "to": 3,
        "why": "correction",
        "seat": "",
        "city": "",
        "building": "",
    }
    t.do(Undo())
    assert table_view(t.s)["level_change"]["why"] == "capture"  # type: ignore[index]
