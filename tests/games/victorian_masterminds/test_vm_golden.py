"""A golden playthrough: every screen's view after every event of one seeded 3-player game.

The game uses all three ways of entering agents (a phone, a tag scan by the table, and an
unidentified agent revealed on the touchscreen), a Gunner's capture that lifts the Secret
Service to 12, the final round and the final resolution. Read it to check that no agent in a
face-down stack and no pile order shows on the ``table`` line or another seat's line (only the
owner's line and ``debug`` events show them). Regenerate with ``UPDATE_GOLDEN=1`` after an
intended change and read the diff before committing.
"""

from __future__ import annotations

import os
from pathlib import Path

from vm_helpers import Table, adjust, new_table, seat

from companion.core import Undo
from companion.core.events import Undone
from companion.core.jsonvalue import dumps
from companion.core.playthrough import render, steps
from companion.games.victorian_masterminds.engine import reveal_candidates
from companion.games.victorian_masterminds.events import (
    AgentPlaced,
    AgentReidentified,
    AnswerHenchman,
    ChooseBuilding,
    ChooseOrder,
    EndTurn,
    EngineerDone,
    Place,
    PlaceUnder,
    RecordSegment,
    Reidentify,
    Reveal,
    StackFlipped,
    TakeLoot,
)

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "victorian_masterminds.txt"
SEED = 6


def answer_all(t: Table) -> None:
    """Answer the resolution's questions: the Gunner's owner takes the monument, the table
    reveals and confirms missions, an Engineer's owner says done."""
    while t.s.resolution is not None or (not t.s.final and not t.s.ended and t.s.turn_phase == "after"):
        r = t.s.resolution
        if r is None:
            t.do(EndTurn(t.s.active_seat))  # the table closes a turn that could still spend scientists
            continue
        current = r.current
        assert current is not None
        if current.agent is None:
            t.do(Reveal(reveal_candidates(t.s, current)[-1]))
        elif r.stage == "gunner":
            t.do(ChooseBuilding("monument"), seat(current.seat))
        elif r.stage == "henchman":
            t.do(AnswerHenchman(True, 3))
        elif r.stage == "order":
            t.do(ChooseOrder("loot"), seat(current.seat))
        elif r.stage == "take_loot":
            t.do(TakeLoot(), seat(current.seat))
        else:
            t.do(EngineerDone(), seat(current.seat))


def golden_game() -> Table:
    t = new_table(3, seed=SEED, start=11)
    adjust(t, "p2", "firepower", 10)
    t.do(Place("p1", "paris"), seat("p1"))  # p1's phone: the top of its recorded pile
    answer_all(t)
    t.place("p2", "paris", "gunner")  # a tag scan on the table's reader
    answer_all(t)
    t.place("p3", "paris")  # neither: an unidentified agent, revealed when flipped
    answer_all(t)
    t.do(Place("p1", "london"), seat("p1"))
    answer_all(t)
    t.do(Place("p2", "rome"), seat("p2"))
    answer_all(t)
    t.place("p3", "london")
    answer_all(t)
    return t


def test_the_golden_game_covers_what_a_reader_should_check() -> None:
    t = golden_game()
    out = t.game.outcome()
    assert out is not None and t.s.ended
    kinds = t.kinds()
    assert "vm.agent_revealed" in kinds and "vm.building_captured" in kinds and "vm.corrected" in kinds
    assert [e.city for e in t.events() if isinstance(e, StackFlipped)] == ["paris", "london", "rome"]
    assert t.s.level == 12
    # until Paris is flipped, neither the touchscreen nor p1's phone names p2's Gunner (p3 holds its own)
    for entry, views in steps(t.game):
        if entry is not None and isinstance(entry.event, StackFlipped):
            break
        for label in ("table", "p1"):
            assert '"gunner"' not in dumps(views[label]["view"]), (entry, label)


def test_golden_playthrough() -> None:
    text = render(golden_game().game)
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text, "utf-8")
    assert len(text) < 800_000  # seat views carry the public tallies and the last stack too
    assert GOLDEN.read_text("utf-8") == text


# -- the second golden: table entries against the books, the steam mole, the order, undo ----------

ENTRIES_GOLDEN = GOLDEN.with_name("victorian_masterminds_table_entries.txt")


def entries_game() -> Table:
    """Two players (seed 3: p1's pile starts Number Two, Engineer, Gunner; p2's, without the Engineer
    and the Gunner the table scans, is Saboteur, Henchman, Number Two). Both have phones."""
    t = new_table(2, seed=3, start=4)
    t.do(Place("p1", "paris"), seat("p1"))  # p1's phone: its top, a Number Two, face down in Paris
    t.place("p2", "moscow", "engineer")  # tag scans at the table
    t.place("p1", "london", "number_two")  # a misread tag: the books hold p1's Number Two in Paris, so
    #                                         London's agent stays unnamed (no swap), named when turned over
    t.place("p2", "moscow", "gunner")  # Moscow (2 players: 2 agents) turns over: p2's Engineer
    t.do(PlaceUnder("p2", "london"), seat("p2"))  # the steam mole: p2's top goes under London's lone agent
    t.do(EngineerDone(), seat("p2"))  # Moscow done; London now holds two and turns over
    t.do(Reveal("saboteur"))  # a wrong tap for p1's unnamed disc ...
    t.do(Undo())  # ... taken back at the touchscreen
    t.do(Reveal("henchman"))  # what the disc shows
    adjust(t, "p1", "firepower", 4)
    t.do(Place("p1", "paris"), seat("p1"))  # Paris turns over: p1's Number Two, then its Engineer
    t.do(EngineerDone(), seat("p1"))
    t.do(EndTurn("p1"), seat("p1"))
    t.do(Place("p2", "rome", books=True))  # the touchscreen places for p2, whose phone keeps its pile:
    #                                        its top (the Henchman); only p2's phone is told which
    t.do(Place("p1", "rome"), seat("p1"))  # Rome turns over: p2's disc is its Number Two, not the Henchman
    t.do(Reidentify(0, "number_two"))  # named again at the table: the discs lie face up
    t.do(Undo())  # a correction is undone like any action: the books' Henchman again ...
    t.do(Reidentify(0, "number_two"))  # ... and named again
    t.do(ChooseOrder("ability"), seat("p1"))  # p1's Gunner may capture a part first
    t.do(ChooseBuilding("university"), seat("p1"))  # a wrong tap on p1's phone ...
    t.do(Undo(), seat("p1"))  # ... taken back from p1's phone
    t.do(ChooseBuilding("furnace"), seat("p1"))  # the Secret Service rises: its screens say why
    t.do(RecordSegment("p1", 2, "codex", copper=2), seat("p1"))  # the furnace completed the codex segment
    t.do(TakeLoot(), seat("p1"))  # Rome's codex token: worth 2
    return t


def test_the_entries_game_covers_what_a_reader_should_check() -> None:
    t = entries_game()
    kinds = t.kinds()
    wanted = ("vm.order_chosen", "vm.agent_revealed", "core.undone", "vm.segment_recorded", "vm.agent_reidentified")
    for kind in wanted:
        assert kind in kinds, kind
    assert [e.under for e in t.events() if isinstance(e, AgentPlaced)].count(True) == 1
    assert [e.by_table for e in t.events() if isinstance(e, AgentPlaced)].count(True) == 1
    assert [e.city for e in t.events() if isinstance(e, StackFlipped)] == ["moscow", "london", "paris", "rome"]
    assert t.s.player("p1").codex == (2,)
    assert t.s.level_change is not None and t.s.level_change.why == "gunner"
    # the face-up disc named again by the table, undone (the books' name back), named again (item 1)
    named = [e for e in t.game.entries if isinstance(e.event, AgentReidentified)]
    undone = {e.event.target for e in t.game.entries if isinstance(e.event, Undone)}
    assert [(e.event.was, e.event.agent, e.action in undone) for e in named] == [
        ("henchman", "number_two", True),
        ("henchman", "number_two", False),
    ]
    # the touchscreen's placement for p2 (whose phone keeps its pile) is told to p2's phone and
    # to no other screen, in every step of the game (item 2)
    told_to = {label for _entry, views in steps(t.game) for label, v in views.items() if v["view"].get("told")}
    assert told_to == {"p2"}, told_to
    for entry, views in steps(t.game):
        if entry is not None and isinstance(entry.event, AgentPlaced) and entry.event.by_table:
            assert views["p2"]["view"]["told"] == {"city": "rome", "agent": "henchman"}
            assert views["p1"]["view"]["told"] is None and "told" not in views["table"]["view"]
    # the table's line never names an agent lying face down: before each flip, the views of the
    # table and of the other seat do not change when the owner's face-down agents are dealt anew
    for entry, views in steps(t.game):
        if entry is not None and isinstance(entry.event, StackFlipped):
            continue
        assert "salt" not in dumps(views["table"]["view"])


def test_entries_golden_playthrough() -> None:
    text = render(entries_game().game)
    if os.environ.get("UPDATE_GOLDEN"):
        ENTRIES_GOLDEN.write_text(text, "utf-8")
    assert ENTRIES_GOLDEN.read_text("utf-8") == text
