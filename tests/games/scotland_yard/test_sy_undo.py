"""Who may undo what ("Who may do what" in the spec)."""

from __future__ import annotations

import pytest
from sy_support import D1, D2, MRX, SYGame, move, placed, play, view, x_move

from companion.core import TABLE, Audience, Undo, UndoRefused
from companion.games.scotland_yard.model import SetTracker

START = {"D1": 13, "D2": 26, "B1": 29, "B2": 34}


def refuse_undo(game: SYGame, *actors: Audience) -> None:
    for actor in actors:
        state, entries = game.state, list(game.entries)
        with pytest.raises(UndoRefused) as info:
            game.decide(Undo(), actor, game.seq)
        assert info.value.code == "undo.not_allowed"
        assert game.state is state and game.entries == entries
        assert not game.can_undo(actor)


def test_mister_x_undoes_his_own_move_from_his_phone_only() -> None:
    game = placed(START, 35)
    before = game.state
    x_move(game, "taxi", 36)
    refuse_undo(game, TABLE, D1, D2)
    assert game.snapshot(MRX)["can_undo"] is True
    assert game.snapshot(TABLE)["can_undo"] is False
    play(game, Undo(), MRX)
    assert game.state == before
    x_move(game, "taxi", 48)
    assert game.state.x_station == 48


def test_mister_x_cannot_undo_once_a_detective_has_moved() -> None:
    game = placed(START, 35)
    x_move(game, "taxi", 36)
    after_x = game.state
    move(game, "D1", "taxi", 23, D1)
    refuse_undo(game, MRX, D1, D2)  # detectives' phones do not undo either
    play(game, Undo(), TABLE)
    assert game.state == after_x


def test_table_undoes_the_detective_phase_move_by_move_including_the_round_end() -> None:
    game = placed(START, 35)
    x_move(game, "taxi", 36)
    states = [game.state]
    for figure, station in (("D1", 23), ("D2", 27), ("B1", 16), ("B2", 10)):
        move(game, figure, "taxi", station)
        states.append(game.state)
    assert game.state.round == 2 and game.state.phase == "x"
    for expected in reversed(states[:-1]):
        play(game, Undo(), TABLE)
        assert game.state == expected
    assert (game.state.phase, game.state.round) == ("detectives", 1)
    refuse_undo(game, TABLE)  # now the last action is Mister X's own move


def test_a_reveal_is_never_taken_back() -> None:
    game = placed(START, 35)
    for station, moves in ((36, (23, 27, 16, 10)), (37, (22, 26, 29, 34))):
        x_move(game, "taxi", station)
        for figure, to in zip(("D1", "D2", "B1", "B2"), moves, strict=True):
            move(game, figure, "taxi", to)
    x_move(game, "taxi", 50)  # field 3
    assert view(game, D1)["mrx"]["station"] == 50
    refuse_undo(game, MRX, TABLE)


def test_table_options_are_undone_by_the_table() -> None:
    game = placed(START, 35)
    play(game, SetTracker(True), TABLE)
    assert game.state.tracker_on
    refuse_undo(game, MRX, D1)
    play(game, Undo(), TABLE)
    assert not game.state.tracker_on
