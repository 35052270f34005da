"""The table plays detectives (option ``detectives_ai``): whole games through the real rules, the
refusals, undo, and that its detectives know only public facts."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core import TABLE, Audience, Forbidden, IllegalMove, SetupError, Undo
from companion.core.frozen import replace
from companion.games.scotland_yard import RULES, ai, ai_turn, detectives_ai
from companion.games.scotland_yard.model import MRX, REVEALS, YARD, Confirm, DrawStart, Move, SYState
from tests.games.scotland_yard.sy_support import new_game, play

X = Audience.of_seat(MRX)
Y = Audience.of_seat(YARD)


def table_move(state: SYState, seed: int) -> Move:
    turn = ai_turn.table_turn(state, seed, None)
    assert turn is not None and turn.seat == YARD
    intent = turn.decide()
    assert isinstance(intent, Move)
    return intent


@pytest.mark.parametrize("level", detectives_ai.LEVELS)
def test_a_whole_game_with_the_tables_detectives_through_the_real_rules(level: str) -> None:
    """Rulebook: "Eine Runde besteht daraus, dass zuerst Mister X seinen Zug durchführt und
    anschließend in beliebiger Reihenfolge alle Detektive und Bobbies." — Mister X (a player,
    here the normal AI on his phone) moves, then the table moves each of its detectives and
    bobbies once, each move an instruction confirmed before the next; the game ends by the rules."""
    game = new_game({"detectives": ["", "", ""], "detectives_ai": level}, seed=7)
    assert RULES.seats(game.state) == (MRX,)  # every detective seat is the table's: no phone link
    play(game, DrawStart(), TABLE)
    rounds_seen = 0
    while game.state.end is None:
        state = game.state
        if state.phase == "x":
            assert ai_turn.table_turn(state, game.seed, None) is None  # the table waits for him
            play(game, ai.choose(state, "normal", game.seed, None), X)
            continue
        rounds_seen = max(rounds_seen, state.round)
        move = table_move(state, game.seed)
        before = sum(state.moved)
        play(game, move, Y)
        if game.state.end is not None:
            break
        shown = RULES.view(game.state, TABLE)["instruction"]
        assert shown == {
            "figure": move.figure,
            "bobby": move.figure.startswith("B"),
            "ticket": move.ticket,
            "station": move.station,
        }
        assert ai_turn.table_turn(game.state, game.seed, None) is None  # no next move before the pawn
        assert "sy.confirm" in RULES.legal(game.state, X)["intents"]  # a lone Mister X may confirm
        play(game, Confirm(move.figure), TABLE)
        assert RULES.view(game.state, TABLE)["instruction"] is None
        assert sum(game.state.moved) in (before + 1, 0)  # one figure moved (or the round ended)
    assert game.state.end.reason in ("captured", "x_escaped", "x_trapped", "detectives_stuck")
    assert rounds_seen >= 2


def test_his_move_confirms_the_last_instruction_and_the_table_waits_for_mister_x_ai_too() -> None:
    game = new_game({"detectives": ["", ""], "detectives_ai": "easy", "table_detectives": ["d2"]}, seed=3)
    assert RULES.seats(game.state) == (MRX, "d1")
    play(game, DrawStart(), TABLE)
    play(game, ai.choose(game.state, "easy", 0, None), X)
    move = table_move(game.state, game.seed)
    assert move.figure == "D2"  # the table plays only d2's detective
    play(game, move, Y)
    assert game.state.instruction is not None
    # A human's move is "the next move": it confirms the table's.
    human: Any = RULES.legal(game.state, Audience.of_seat("d1"))["moves"]
    figure = sorted(human)[0]
    line = sorted(human[figure])[0]
    play(game, Move(figure, line, human[figure][line][0]), Audience.of_seat("d1"))
    assert game.state.instruction is None


def test_a_move_for_a_figure_the_table_plays_is_refused_and_changes_nothing() -> None:
    game = new_game({"detectives": ["", ""], "detectives_ai": "normal"}, seed=2)
    play(game, DrawStart(), TABLE)
    play(game, ai.choose(game.state, "easy", 0, None), X)
    state, seq = game.state, game.seq
    options: Any = RULES.legal(state, TABLE)
    assert "sy.move" not in options["intents"]  # the touchscreen offers none of the table's figures
    move = table_move(state, game.seed)
    for actor in (TABLE, Audience.of_seat("d1")):
        with pytest.raises(Forbidden) as refused:
            game.decide(move, actor, seq)
        assert refused.value.code in ("sy.table_plays", "sy.unknown_seat", "sy.not_your_figure")
    with pytest.raises(IllegalMove) as nothing:
        game.decide(Confirm(move.figure), TABLE, seq)
    assert nothing.value.code == "sy.nothing_to_confirm"
    play(game, move, Y)
    with pytest.raises(IllegalMove) as other:
        game.decide(Confirm("B1" if move.figure != "B1" else "D1"), TABLE, game.seq)
    assert other.value.code == "sy.confirm_other"
    with pytest.raises(IllegalMove) as again:
        game.decide(table_move(replace(game.state, instruction=None), game.seed), Y, game.seq)
    assert again.value.code == "sy.confirm_first"
    assert game.state.instruction is not None and game.seq == seq + 1


def test_undo_takes_back_the_confirmation_then_the_move_and_the_table_gives_the_same_instruction() -> None:
    game = new_game({"detectives": ["", ""], "detectives_ai": "hard"}, seed=5)
    play(game, DrawStart(), TABLE)
    play(game, ai.choose(game.state, "easy", 0, None), X)
    waiting = game.state
    move = table_move(waiting, game.seed)
    play(game, move, Y)
    play(game, Confirm(move.figure), TABLE)
    play(game, Undo(), TABLE)
    assert game.state.instruction is not None and game.state.instruction.figure == move.figure
    play(game, Undo(), TABLE)
    assert game.state == waiting
    assert table_move(game.state, game.seed) == move  # decided again from the same facts and seed


@pytest.mark.parametrize(
    ("config", "code"),
    [
        ({"detectives_ai": "sharp"}, "sy.setup.detectives_ai_level"),
        ({"table_detectives": ["d1"]}, "sy.setup.table_detectives"),
        ({"detectives_ai": "easy", "table_detectives": ["d9"]}, "sy.setup.table_detectives"),
        ({"detectives_ai": "easy", "table_detectives": []}, "sy.setup.table_detectives"),
        ({"detectives_ai": "easy", "mister_x_ai": "easy"}, "sy.setup.no_players"),
    ],
)
def test_bad_setups_are_refused(config: dict[str, Any], code: str) -> None:
    with pytest.raises(SetupError) as refused:
        RULES.setup(config)
    assert refused.value.code == code


def _midgame(seed: int, level: str, turns: int) -> SYState:
    """A game of the table's detectives against the easy Mister X, ``turns`` actions in, in the
    detectives' phase (or as far as it got)."""
    game = new_game({"detectives": ["", "", ""], "detectives_ai": level}, seed=seed)
    play(game, DrawStart(), TABLE)
    for _ in range(turns):
        state = game.state
        if state.end is not None:
            break
        if state.instruction is not None:
            play(game, Confirm(state.instruction.figure), TABLE)
        elif state.phase == "x":
            play(game, ai.choose(state, "easy", seed, None), X)
        else:
            play(game, table_move(state, seed), Y)
    return game.state


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    level=st.sampled_from(detectives_ai.LEVELS),
    turns=st.integers(2, 60),
    pick=st.randoms(use_true_random=False),
)
def test_the_tables_detectives_cannot_read_mister_x_from_anything_they_are_given(
    seed: int, level: str, turns: int, pick: random.Random
) -> None:
    """Two games differing only in his hidden station (another station of the tracker's set, where
    he may as well be) and the hidden stations of his log give the detectives' AI identical inputs
    and so identical moves."""
    state = _midgame(seed, level, turns)
    if state.phase != "detectives" or state.instruction is not None or state.end is not None:
        return
    elsewhere = sorted(state.candidates - {state.x_station})
    if not elsewhere:
        return
    route = tuple(f if f.field in REVEALS else replace(f, station=pick.randint(1, 199)) for f in state.route)
    twin = replace(state, x_station=pick.choice(elsewhere), route=route)
    assert twin != state
    assert detectives_ai.public_facts(twin) == detectives_ai.public_facts(state)
    assert table_move(twin, seed) == table_move(state, seed)
