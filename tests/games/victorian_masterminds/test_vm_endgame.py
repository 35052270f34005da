"""The end: triggers, the final round, the final resolution order, scoring and ties; and full
scripted 2-, 3- and 4-player games to the final score."""

from __future__ import annotations

from typing import Any

from vm_helpers import adjust, finish_turn, new_table, outcomes, seat, settle, turn, turn_top

from companion.core import TABLE
from companion.games.victorian_masterminds.engine import apply_event, score_of
from companion.games.victorian_masterminds.events import (
    Adjust,
    AnswerHenchman,
    Capture,
    ChooseBuilding,
    EndTurn,
    EngineerDone,
    ExtraTurn,
    FinalResolutionStarted,
    Place,
    RecordSegment,
    Reveal,
    StackFlipped,
    TurnEnded,
)
from companion.games.victorian_masterminds.views import table_view


def breakdown(t: Any) -> dict[str, dict[str, int]]:
    out = {}
    for p in t.s.players:
        sc = score_of(p)
        out[p.seat] = {
            "segments": sc.segments,
            "buildings": sc.buildings,
            "missions": sc.missions,
            "chaos_tokens": sc.chaos_tokens,
            "codex": sc.codex,
            "total": sc.total,
        }
    return out


def turns_after_trigger(t: Any) -> list[str]:
    """Seats whose turns ended after the final round was triggered (the trigger turn first)."""
    events = t.events()
    trigger = None
    state = t.game.start
    for i, ev in enumerate(events):
        state = apply_event(state, ev)
        if state.triggered and trigger is None:
            trigger = i
    assert trigger is not None
    ends = []
    for ev in events[trigger:]:
        if isinstance(ev, FinalResolutionStarted):
            break
        if isinstance(ev, TurnEnded):
            ends.append(ev.seat)
    return ends


def test_level_12_triggers_the_final_round_the_current_turn_finishes_then_everyone_plays_once() -> None:
    t = new_table(3, start=11)
    turn_top(t, "london")  # p1
    t.do(RecordSegment("p2", 1, "lab_cell"))
    adjust(t, "p2", "scientists", 2)
    t.place("p2", "moscow", t.s.player("p2").pile[0])
    assert t.s.turn_phase == "after" and t.s.active_seat == "p2"
    t.do(Capture("p2", "rome", "monument"), seat("p2"))  # level 12: the final round begins
    assert t.s.triggered and t.s.level == 12
    assert t.s.final_turns_left == 3  # p2's turn ended on its own (no scientist left)
    assert table_view(t.s)["final_round"] == {"triggered": True, "turns_left": 3}
    seen = []
    while not t.s.final and not t.s.ended:
        seen.append((t.s.active_seat, t.s.final_turns_left))
        turn_top(t, "paris")
    assert seen == [("p3", 3), ("p1", 2), ("p2", 1)]
    assert turns_after_trigger(t) == ["p2", "p3", "p1", "p2"]
    settle(t)
    assert t.s.ended and t.game.outcome() is not None


def test_the_trigger_during_another_players_resolution_ends_that_turn_first() -> None:
    t = new_table(3, start=11)
    adjust(t, "p1", "firepower", 10)
    turn(t, "washington", "gunner")  # p1
    turn(t, "washington", "number_two")  # p2
    turn(t, "washington", "engineer")  # p3 fills: p1's Gunner captures during p3's turn
    t.do(ChooseBuilding("factory"), seat("p1"))
    assert t.s.triggered and t.s.final_turns_left is None  # p3's turn is not over yet
    t.do(EngineerDone(), seat("p3"))
    assert t.s.final_turns_left == 3 and t.s.active_seat == "p1"
    for _ in range(3):
        turn_top(t, "london")
    settle(t)
    assert turns_after_trigger(t) == ["p3", "p1", "p2", "p3"]
    assert t.s.ended


def test_the_eighth_segment_triggers_the_final_round() -> None:
    t = new_table(2, start=4)
    for chaos in range(7):
        t.do(RecordSegment("p2", chaos % 3))
    assert not t.s.triggered
    turn_top(t, "london")  # p1
    assert t.s.active_seat == "p2"
    t.do(RecordSegment("p2", 2), seat("p2"))  # during p2's own turn
    assert t.s.triggered and t.s.final_turns_left is None
    turn_top(t, "moscow")  # p2 finishes its turn
    assert t.s.final_turns_left == 2
    turn_top(t, "paris")  # p1
    turn_top(t, "rome")  # p2
    settle(t)
    assert turns_after_trigger(t) == ["p2", "p1", "p2"]
    assert t.s.ended
    assert table_view(t.s)["log"][-1]["what"] == "vm.log.ended"  # type: ignore[index]


def test_the_final_resolution_goes_london_moscow_paris_rome_washington() -> None:
    t = new_table(3, start=11)
    for city in ("london", "washington", "rome"):
        turn_top(t, city)
    adjust(t, None, "level", 1)  # a correction to 12 during p1's turn triggers as well
    assert t.s.triggered
    for city in ("paris", "moscow", "london", "washington"):
        turn_top(t, city)
    assert t.s.final or t.s.ended
    settle(t)
    flips = [e for e in t.events() if isinstance(e, StackFlipped) and e.reason == "final"]
    assert [f.city for f in flips] == ["london", "moscow", "paris", "rome", "washington"]
    assert all(t.s.stack(c) == () for c in ("london", "moscow", "paris", "rome", "washington"))
    assert t.kinds()[-1] == "vm.game_ended"


def _tie_game(p2_segments: int) -> Any:
    """2 players on 4 points each; p1 with one segment, p2 with ``p2_segments``."""
    t = new_table(2, start=4)
    t.do(RecordSegment("p1", 4))
    adjust(t, "p2", "chaos_tokens", 2)
    for _ in range(p2_segments):
        t.do(RecordSegment("p2", 0))
    adjust(t, None, "level", 8)  # 12: final round
    # only London (copper scores nothing) and harmless agents until the end
    for who in ("p1", "p2", "p1"):
        pile = t.s.player(who).pile
        agent = next(a for a in pile if a in ("saboteur", "number_two", "engineer", "henchman"))
        t.place(who, "london", agent)
        settle(t)
    settle(t)
    assert t.s.ended
    return t


def test_a_tie_goes_to_more_segments() -> None:
    t = _tie_game(p2_segments=0)
    assert {k: v["total"] for k, v in breakdown(t).items()} == {"p1": 4, "p2": 4}
    out = t.game.outcome()
    assert out is not None and out.winners == ("p1",)
    assert table_view(t.s)["result"] == {"places": {"p1": 1, "p2": 2}, "winners": ["p1"]}


def test_a_tie_with_equal_segments_is_shared() -> None:
    t = _tie_game(p2_segments=1)
    out = t.game.outcome()
    assert out is not None and out.winners == ("p1", "p2")
    assert out.to_json()["scores"] == {"p1": 4, "p2": 4}
    assert table_view(t.s)["result"] == {"places": {"p1": 1, "p2": 1}, "winners": ["p1", "p2"]}


# -- full games --------------------------------------------------------------------------


def test_full_three_player_game() -> None:
    t = new_table(
        3, seed=1, start=10, missions={"washington": {"reward": 3, "label": "a building"}, "moscow": {"reward": 2}}
    )
    # Rome: the rulebook's two saboteurs
    turn(t, "rome", "saboteur")
    turn(t, "rome", "saboteur")
    turn(t, "rome", "number_two")
    assert outcomes(t)[-3:] == [
        ("p1", "saboteur", "sabotage"),
        ("p2", "saboteur", "cancelled"),
        ("p3", "number_two", "double_loot"),
    ]
    adjust(t, "p2", "firepower", 9)
    adjust(t, "p3", "firepower", 9)
    # Paris: Number Two with one free cell; two gunners, the second fails (level rose)
    turn(t, "paris", "number_two")
    turn(t, "paris", "gunner")
    turn(t, "paris", "gunner")
    t.do(ChooseBuilding("monument"), seat("p2"))
    assert outcomes(t)[-3:] == [
        ("p1", "number_two", "double_loot"),
        ("p2", "gunner", "captured"),
        ("p3", "gunner", "too_weak"),
    ]
    assert [p.scientists for p in t.s.players] == [2, 2, 2] and t.s.level == 11
    t.do(EndTurn("p3"), seat("p3"))
    # Washington: a Henchman takes the mission; an Engineer; a Henchman finds none
    turn(t, "washington", "henchman")
    turn(t, "washington", "engineer")
    turn(t, "washington", "henchman")
    t.do(AnswerHenchman(True))
    t.do(Adjust("copper", 1, "p2"), seat("p2"))  # p2 applies its machine power
    t.do(EngineerDone(), seat("p2"))
    assert outcomes(t, "washington")[-1] == ("p3", "henchman", "no_mission")
    t.do(EndTurn("p3"), seat("p3"))
    # p1: an extra turn; its last agent empties the pile and the discard is shuffled
    turn(t, "london", "engineer", end=False)
    t.do(ExtraTurn("p1"), seat("p1"))
    turn(t, "london", "gunner")
    assert t.s.player("p1").pile_size == 3 and t.s.active_seat == "p2"
    turn(t, "london", "number_two", end=False)
    t.do(EngineerDone(), seat("p1"))
    assert outcomes(t, "london") == [
        ("p1", "engineer", "engineer"),
        ("p1", "gunner", "too_weak"),
        ("p2", "number_two", "double_loot"),
    ]
    t.do(EndTurn("p2"), seat("p2"))
    # p3 builds a segment, then captures: level 12 triggers the final round
    t.do(RecordSegment("p3", 2, "lab_cell", bolts=1), seat("p3"))
    adjust(t, "p3", "scientists", 1)
    turn(t, "moscow", "saboteur", end=False)
    t.do(Capture("p3", "paris", "factory"), seat("p3"))
    assert t.s.triggered and t.s.final_turns_left == 3 and t.s.active_seat == "p1"
    t.do(Place("p1", "washington"), seat("p1"))  # the phone: its recorded top agent
    turn(t, "moscow", "henchman")  # p2's last agent: shuffle at once (no resolution)
    turn(t, "london", "engineer")  # p3's last turn
    assert t.s.final
    # final resolution: London, Moscow, Washington
    t.do(EngineerDone())
    assert outcomes(t, "moscow")[-2:] == [("p3", "saboteur", "sabotage"), ("p2", "henchman", "cancelled")]
    settle(t)
    flips = [e.city for e in t.events() if isinstance(e, StackFlipped) and e.reason == "final"]
    assert flips == ["london", "moscow", "washington"]
    assert turns_after_trigger(t) == ["p3", "p1", "p2", "p3"]
    assert breakdown(t) == {
        "p1": {"segments": 0, "buildings": 0, "missions": 3, "chaos_tokens": 0, "codex": 1, "total": 4},
        "p2": {"segments": 0, "buildings": 2, "missions": 0, "chaos_tokens": 2, "codex": 1, "total": 5},
        "p3": {"segments": 2, "buildings": 2, "missions": 0, "chaos_tokens": 0, "codex": 2, "total": 6},
    }
    out = t.game.outcome()
    assert out is not None and out.winners == ("p3",) and dict(out.scores) == {"p1": 4, "p2": 5, "p3": 6}
    assert t.s.level == 12 and sum(len(p.buildings) for p in t.s.players) == 2


def test_full_two_player_game() -> None:
    t = new_table(2, seed=3, start=6, missions={"rome": {"reward": 2}})
    turn(t, "rome", "saboteur")  # p1
    turn(t, "rome", "number_two")  # p2: a stack of 2 resolves
    assert outcomes(t) == [("p1", "saboteur", "sabotage"), ("p2", "number_two", "cancelled")]
    t.do(Place("p1", "rome", "saboteur", recycle=True), seat("p1"))  # recycle: 1 scientist
    turn(t, "rome", "saboteur")
    turn(t, "rome", "number_two")
    turn(t, "rome", "henchman")
    t.do(AnswerHenchman(True))  # p2's henchman takes Rome's mission (2)
    turn(t, "rome", "henchman")
    turn(t, "rome", "gunner")
    t.do(AnswerHenchman(True, 3, "new card"))  # p1's takes the new one (3)
    assert len(t.s.player("p1").codex) == 5 and t.s.player("p1").codex_power
    # codex power: the phone may place any agent of the pile
    assert sorted(t.s.player("p1").pile) == ["engineer", "gunner"]
    t.do(Place("p1", "moscow", "engineer"), seat("p1"))
    turn(t, "moscow", "engineer")  # p2's last agent
    t.do(EngineerDone(), seat("p1"))
    t.do(EngineerDone(), seat("p2"))
    assert t.s.player("p2").pile_size == 5  # shuffled after the resolution it triggered
    turn(t, "paris", "gunner")  # p1's last agent: the discard is shuffled at once
    turn(t, "paris", "saboteur")  # Paris gave p2 a second scientist: turn() ends the turn
    # codex beyond 10
    adjust(t, "p1", "codex", 4)
    t.do(Place("p1", "rome", "number_two"), seat("p1"))
    turn(t, "rome", "engineer")
    t.do(EngineerDone(), seat("p2"))
    t.do(EndTurn("p2"), seat("p2"))
    assert len(t.s.player("p1").codex) == 10
    # p2's machine: seven segments, the eighth during p1's turn
    for chaos in (1, 1, 1, 1, 1, 1, 0):
        t.do(RecordSegment("p2", chaos), seat("p2"))
    t.do(RecordSegment("p2", 0), seat("p2"))
    assert t.s.triggered and t.s.final_turns_left is None and t.s.active_seat == "p1"
    t.do(Place("p1", "london", "saboteur"), seat("p1"))
    assert t.s.triggered and t.s.final_turns_left == 2 and t.s.active_seat == "p2"
    turn(t, "london", "henchman")
    assert outcomes(t, "london") == [("p1", "saboteur", "sabotage"), ("p2", "henchman", "cancelled")]
    t.do(Place("p1", "washington", "engineer"), seat("p1"))
    t.do(EngineerDone())
    assert turns_after_trigger(t) == ["p1", "p2", "p1"]
    assert breakdown(t) == {
        "p1": {"segments": 0, "buildings": 0, "missions": 3, "chaos_tokens": 0, "codex": 10, "total": 13},
        "p2": {"segments": 6, "buildings": 0, "missions": 2, "chaos_tokens": 0, "codex": 5, "total": 13},
    }
    out = t.game.outcome()
    assert out is not None and out.winners == ("p2",)  # the tie goes to more segments (8 to 0)


def test_full_four_player_game_with_unidentified_agents_and_a_shared_win() -> None:
    t = new_table(4, seed=8, start=11, missions={"london": {"reward": 4}})
    turn(t, "paris")  # p1, unidentified
    turn(t, "paris")  # p2
    turn(t, "paris")  # p3: flip; the table reveals each agent in turn
    shown = table_view(t.s)["resolution"]["agents"]  # type: ignore[index]
    assert [{k: a[k] for k in ("seat", "agent", "cancelled", "done", "outcome")} for a in shown] == [  # type: ignore[union-attr]
        {"seat": s, "agent": None, "cancelled": False, "done": False, "outcome": None} for s in ("p1", "p2", "p3")
    ]
    t.do(Reveal("gunner"))
    t.do(Reveal("saboteur"), seat("p2"))
    t.do(Reveal("number_two"))
    assert outcomes(t) == [
        ("p1", "gunner", "too_weak"),
        ("p2", "saboteur", "sabotage"),
        ("p3", "number_two", "cancelled"),
    ]
    finish_turn(t)
    adjust(t, "p4", "firepower", 10)
    turn(t, "london", "gunner")  # p4, a tag scan
    turn(t, "london")  # p1, unidentified
    turn(t, "london", "engineer", end=False)  # p2 fills London
    t.do(ChooseBuilding("monument"), seat("p4"))  # level 12 during p2's turn
    t.do(Reveal("henchman"))
    t.do(AnswerHenchman(True))
    t.do(EngineerDone(), seat("p2"))
    finish_turn(t)
    assert t.s.triggered and t.s.final_turns_left == 4
    turn(t, "moscow")  # p3, unidentified
    turn(t, "moscow", "number_two")  # p4
    turn(t, "london", "saboteur")  # p1
    turn(t, "washington", "number_two")  # p2
    assert t.s.final
    t.do(Reveal("henchman"), seat("p3"))  # Moscow: p3's agent
    t.do(AnswerHenchman(False))
    settle(t)
    assert [e.city for e in t.events() if isinstance(e, StackFlipped) and e.reason == "final"] == [
        "london",
        "moscow",
        "washington",
    ]
    assert turns_after_trigger(t) == ["p2", "p3", "p4", "p1", "p2"]
    assert breakdown(t) == {
        "p1": {"segments": 0, "buildings": 0, "missions": 4, "chaos_tokens": 0, "codex": 0, "total": 4},
        "p2": {"segments": 0, "buildings": 0, "missions": 0, "chaos_tokens": 0, "codex": 0, "total": 0},
        "p3": {"segments": 0, "buildings": 0, "missions": 0, "chaos_tokens": 0, "codex": 0, "total": 0},
        "p4": {"segments": 0, "buildings": 2, "missions": 0, "chaos_tokens": 2, "codex": 0, "total": 4},
    }
    out = t.game.outcome()
    assert out is not None and out.winners == ("p1", "p4")
    assert table_view(t.s)["result"]["places"] == {"p1": 1, "p2": 3, "p3": 3, "p4": 1}  # type: ignore[index]
    assert t.game.snapshot(TABLE)["legal"] == {"actions": []}
