"""Undo during and after a stack's resolution: a wrong tap is taken back, under the same rules of
who may undo what — the table, or the seat whose own steps they were; never the placement that
turned a stack over, never a re-roll of a shuffle."""

from __future__ import annotations

import pytest
from vm_helpers import adjust, new_table, outcomes, seat, settle, turn

from companion.app.readable import phrase
from companion.core import TABLE, UndoRefused
from companion.core import Undo as UndoIntent
from companion.games.victorian_masterminds import RULES
from companion.games.victorian_masterminds.events import (
    Adjust,
    AnswerHenchman,
    ChooseBuilding,
    ChooseOrder,
    EngineerDone,
    PileShuffled,
    Reveal,
)


def test_a_wrongly_tapped_reveal_is_taken_back_on_the_touchscreen() -> None:
    """DE p.8: "Dann nimmt der aktive Spieler den kompletten Komplizenstapel und dreht ihn um." The
    stack lies face up: taking back a wrong answer hides nothing, so the table may undo it and
    name the agent again."""
    t = new_table(3)
    turn(t, "paris")  # p1, unidentified
    turn(t, "paris", "saboteur")
    turn(t, "paris", "saboteur")
    t.do(Reveal("number_two"))  # the disc was a Henchman; the tap was wrong
    assert outcomes(t)[0] == ("p1", "number_two", "double_loot")
    # the answer moved on to p2's and p3's agents by itself: the table or p1 (whose agent it named)
    # may take it back, p2 not
    assert t.game.can_undo(TABLE) and t.game.can_undo(seat("p1")) and not t.game.can_undo(seat("p2"))
    t.do(UndoIntent())
    r = t.s.resolution
    assert r is not None and r.index == 0 and r.current is not None and r.current.agent is None
    assert t.s.player("p1").scientists == 1  # Paris's scientist is given back
    t.do(Reveal("henchman"))
    assert t.s.resolution is not None and t.s.resolution.stage == "henchman"


def test_a_seat_takes_back_its_own_answer_even_once_the_stack_moved_on() -> None:
    """DE p.8: "Von oben nach unten handelt ihr nun für jeden Komplizen folgende Schritte ab" —
    each agent's steps are its owner's: a Gunner's owner takes back its choice from its phone even
    when the other agents of the stack resolved by themselves in the same action (nobody else
    answered anything); another seat may not; the table may take back any step."""
    t = new_table(3, start=4)
    adjust(t, "p1", "firepower", 3)
    turn(t, "washington", "gunner")
    turn(t, "washington", "number_two")
    turn(t, "washington", "number_two", end=False)
    t.do(ChooseBuilding("monument"), seat("p1"))  # p2's and p3's agents resolve in the same action
    assert t.s.resolution is None and t.s.level == 5
    assert t.game.can_undo(seat("p1")) and not t.game.can_undo(seat("p2")) and t.game.can_undo(TABLE)
    t.do(UndoIntent(), seat("p1"))  # from p1's phone
    assert t.s.level == 4 and t.s.player("p1").buildings == () and t.s.resolution is not None
    t.do(ChooseBuilding("factory"), seat("p1"))
    assert t.s.player("p1").buildings == (("washington", "factory"),)
    # steps that touch nobody else's agent: the Gunner's owner takes them back too
    t = new_table(3, start=4)
    adjust(t, "p1", "firepower", 3)
    turn(t, "rome", "gunner")
    turn(t, "rome", "number_two")
    turn(t, "rome", "number_two", end=False)
    t.do(ChooseOrder("ability"), seat("p1"))
    assert t.game.can_undo(seat("p1")) and not t.game.can_undo(seat("p2"))
    t.do(ChooseBuilding("furnace"), seat("p1"))  # the loot waits: nothing else moved
    assert t.game.can_undo(seat("p1")) and not t.game.can_undo(seat("p2"))
    t.do(UndoIntent(), seat("p1"))
    t.do(ChooseBuilding("factory"), seat("p1"))
    assert t.s.player("p1").buildings == (("rome", "factory"),)


def test_an_engineers_owner_takes_back_its_power_and_its_counters_from_its_phone() -> None:
    """DE p.9 (Ingenieur): "Aktiviere die Maschinenfähigkeit deines Spielerbogens" — the power's
    effect is entered by its owner with the ordinary counters; the owner takes back a counter it
    changed, and the Done that resolved the rest of the stack, from its phone. Another seat may not
    take back the owner's counter; the table's own corrections stay the table's."""
    t = new_table(3, start=4)
    turn(t, "paris", "engineer")
    turn(t, "paris", "number_two")
    turn(t, "paris", "number_two", end=False)
    r = t.s.resolution
    assert r is not None and r.stage in ("engineer", "order")
    if r.stage == "order":
        t.do(ChooseOrder("loot"), seat("p1"))
    adjust_as = Adjust("bolts", 2, "p1")
    t.do(adjust_as, seat("p1"))  # the machine power gives two bolts, entered by the owner
    assert t.s.player("p1").bolts == 2
    assert t.game.can_undo(seat("p1")) and not t.game.can_undo(seat("p2"))
    t.do(UndoIntent(), seat("p1"))
    assert t.s.player("p1").bolts == 0
    t.do(adjust_as, seat("p1"))
    t.do(EngineerDone(), seat("p1"))  # p2's and p3's Number Twos resolve in the same action
    assert t.s.resolution is None
    assert t.game.can_undo(seat("p1")) and not t.game.can_undo(seat("p2"))
    t.do(UndoIntent(), seat("p1"))
    r = t.s.resolution
    assert r is not None and r.stage == "engineer" and t.s.player("p1").bolts == 2
    adjust(t, "p2", "firepower", 1)  # the table's own correction
    assert not t.game.can_undo(seat("p2")) and not t.game.can_undo(seat("p1"))


def test_a_henchmans_answer_is_taken_back_by_the_table_only() -> None:
    """DE p.10: "Wenn du die Voraussetzung der Auftragskarte erfüllst (s. u.), nimm dir die
    Karte." — the table confirms the prerequisite, so only the table takes that answer back."""
    t = new_table(3, missions={"rome": {"reward": 3}})
    turn(t, "rome", "henchman")
    turn(t, "rome", "number_two")
    turn(t, "rome", "number_two")
    t.do(AnswerHenchman(True))
    assert t.s.player("p1").missions and not t.game.can_undo(seat("p1"))
    t.do(UndoIntent())
    assert t.s.player("p1").missions == () and t.s.mission("rome") is not None
    t.do(AnswerHenchman(False))
    assert t.s.last_stack is not None and t.s.last_stack.steps[0].outcome == "mission_not_met"


def test_the_placement_that_turned_a_stack_over_stays() -> None:
    """DE p.7: "Komplizen in einem Komplizenstapel dürfen nicht angeschaut werden, bevor dieser
    abgehandelt wird." Taking back the placement after the stack was shown would be taking back a
    move after seeing hidden agents: never."""
    t = new_table(3)
    turn(t, "moscow", "number_two")
    turn(t, "moscow", "number_two")
    turn(t, "moscow", "gunner", end=False)  # flips and resolves in one action (nothing to ask)
    for actor in (TABLE, seat("p3")):
        with pytest.raises(UndoRefused):
            t.do(UndoIntent(), actor)


def test_a_reshuffle_undone_and_done_again_gives_the_same_pile() -> None:
    """DE p.10: "Sobald ein Spieler den letzten Komplizen seines Vorrats in einer Stadt platziert
    hat, mischt er alle Komplizen in seinem Ablagebereich zu einem neuen Komplizenvorrat." Undo
    may take back the placement that led to the shuffle, but not re-roll it: the order derives
    from the game's salt, the seat and the pile's number."""
    t = new_table(2, start=4)
    for city, agent in (
        ("london", "number_two"),
        ("moscow", "henchman"),
        ("paris", "saboteur"),
        ("washington", "gunner"),
    ):
        turn(t, city, agent)
        turn(t, city, agent)
        settle(t)
    assert t.s.active_seat == "p1"
    turn(t, "rome", "engineer", end=False)  # p1's last agent, alone in Rome: shuffled at once
    assert [e.event.reason for e in t.game.last_action() if isinstance(e.event, PileShuffled)] == ["reshuffle"]
    first = t.s.player("p1").pile
    assert t.s.player("p1").pile_gen == 2 and len(first) == 4
    assert t.game.can_undo(seat("p1")) and not t.game.can_undo(seat("p2"))
    t.do(UndoIntent(), seat("p1"))
    assert t.s.player("p1").pile_gen == 1 and t.s.player("p1").pile_size == 1
    turn(t, "rome", "engineer", end=False)
    assert t.s.player("p1").pile == first


def test_the_final_resolution_and_the_end_may_be_taken_back_by_the_table() -> None:
    """DE p.15: "Nun werden alle auf dem Spielplan übrigen Komplizen in folgender Reihenfolge
    abgehandelt: LONDON ► MOSKAU ► PARIS ► ROM ► WASHINGTON" — every stack turns over whatever
    anyone answers, so an answer that moved on to the next stack, or ended the game, may be taken
    back at the table."""
    t = new_table(3, start=11)
    adjust(t, None, "level", 1)  # 12: the final round starts during p1's turn
    turn(t, "london", "henchman")  # p1: the turn that triggered it
    turn(t, "paris", "engineer")  # p2
    turn(t, "rome")  # p3, unidentified
    turn(t, "moscow", "saboteur")  # p1's last turn: the final resolution starts, London first
    assert t.s.final and t.s.resolution is not None and t.s.resolution.city == "london"
    assert not t.game.can_undo(TABLE)  # the action that began the final resolution stays
    t.do(AnswerHenchman(False))  # London done; Moscow resolves by itself; Paris turns over
    assert t.s.resolution is not None and t.s.resolution.city == "paris"
    assert t.game.can_undo(TABLE) and not t.game.can_undo(seat("p1"))
    t.do(UndoIntent())
    assert t.s.resolution is not None and t.s.resolution.city == "london"
    t.do(AnswerHenchman(False))
    t.do(EngineerDone(), seat("p2"))
    t.do(Reveal("gunner"))  # Rome, the last stack: the game ends
    assert t.game.outcome() is not None
    t.do(UndoIntent())  # the disc was a Saboteur
    assert t.game.outcome() is None and t.s.resolution is not None and t.s.resolution.city == "rome"
    t.do(Reveal("saboteur"))
    assert t.game.outcome() is not None


def test_the_action_an_undo_takes_back_names_the_player_by_colour() -> None:
    """The undo button and "what happened meanwhile" name the last action in the table's words: the
    player by colour ("Red placed …"), never by the seat's internal name ("p1 placed …")."""
    t = new_table(3)
    t.place("p1", "paris")
    line = RULES.describe_action(t.game.state_before_last(), tuple(e.event for e in t.game.last_action()), TABLE)
    assert phrase(line.code, line.params, "en") == "Red placed an agent in Paris."
    assert phrase(line.code, line.params, "de") == "Rot hat einen Komplizen in Paris platziert."
