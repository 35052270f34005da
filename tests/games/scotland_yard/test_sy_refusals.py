"""Illegal intents are refused with the right error and change neither the state nor the log."""

from __future__ import annotations

import dataclasses

import pytest
from sy_support import D1, D2, MRX, SYGame, legal, move, new_game, placed, play, x_double, x_move

from companion.core import (
    TABLE,
    Audience,
    CompanionError,
    Forbidden,
    GameOver,
    IllegalMove,
    Intent,
    MalformedInput,
    StaleIntent,
    intent_codec,
)
from companion.games.scotland_yard import RULES
from companion.games.scotland_yard.model import (
    DrawStart,
    EndGame,
    Move,
    PlaceDetectives,
    PlaceX,
    SetTracker,
    Step,
    XDouble,
    XMove,
)

START = {"D1": 50, "D2": 26, "B1": 29, "B2": 34}


def refused(game: SYGame, intent: Intent, actor: Audience, error: type[CompanionError], code: str) -> CompanionError:
    """Assert ``intent`` is refused with ``code``, and that nothing changed."""
    state, entries = game.state, list(game.entries)
    with pytest.raises(error) as info:
        game.decide(intent, actor, game.seq)
    assert info.value.code == code, info.value
    assert game.state is state and game.entries == entries
    return info.value


def detective_phase() -> SYGame:
    """Round 1, after Mister X's move 35 -> 36 (taxi)."""
    game = placed(START, 35)
    x_move(game, "taxi", 36)
    return game


def test_wrong_transport() -> None:
    game = detective_phase()
    err = refused(game, Move("D1", "bus", 37), TABLE, IllegalMove, "sy.not_connected")  # 50-37 is taxi only
    assert err.params == {"ticket": "bus", "station": 37}
    refused(game, Move("D2", "taxi", 29), D2, IllegalMove, "sy.not_connected")  # not a neighbour at all
    refused(game, Move("D2", "taxi", 200), D2, IllegalMove, "sy.unknown_station")


def test_station_occupied() -> None:
    game = detective_phase()
    move(game, "D2", "taxi", 15)
    err = refused(game, Move("B1", "bus", 15), TABLE, IllegalMove, "sy.occupied")  # 29-15 by bus
    assert err.params == {"station": 15}
    move(game, "D1", "taxi", 37)
    move(game, "B1", "taxi", 16)
    move(game, "B2", "taxi", 48)
    assert game.state.phase == "x"
    err = refused(game, XMove("taxi", 37), MRX, IllegalMove, "sy.occupied")  # D1 stands there
    assert err.params == {"station": 37, "step": 0}
    err = refused(game, XDouble(Step("taxi", 35), Step("taxi", 48)), MRX, IllegalMove, "sy.occupied")
    assert err.params == {"station": 48, "step": 2}
    ok = XDouble(Step("taxi", 35), Step("taxi", 22))
    assert RULES.decide(game.state, ok, MRX, game.rng())


def test_no_ticket_left() -> None:
    """D1 rides the underground four times between 13 and 46; the fifth ride is refused."""
    game = placed({"D1": 13, "D2": 26, "B1": 29, "B2": 34}, 35)
    for rnd in range(4):
        x_move(game, "taxi", 36 if rnd % 2 == 0 else 35)
        move(game, "D1", "underground", 46 if rnd % 2 == 0 else 13, D1)
        move(game, "D2", "taxi", 27 if rnd % 2 == 0 else 26, D2)
        move(game, "B1", "taxi", 16 if rnd % 2 == 0 else 29)
        move(game, "B2", "taxi", 10 if rnd % 2 == 0 else 34)
    assert game.state.purses[0] == (11, 8, 0) and game.state.round == 5
    x_move(game, "taxi", 36)
    err = refused(game, Move("D1", "underground", 46), D1, IllegalMove, "sy.no_ticket")
    assert err.params == {"figure": "D1", "ticket": "underground"}
    assert "underground" not in legal(game.state, D1)["moves"]["D1"]


def test_second_double_move_in_a_round() -> None:
    game = placed(START, 35)
    x_double(game, "taxi", 36, "taxi", 37)
    refused(game, XDouble(Step("taxi", 36), Step("taxi", 35)), MRX, IllegalMove, "sy.one_double_per_round")
    refused(game, XMove("taxi", 36), MRX, IllegalMove, "sy.not_x_turn")


def test_no_double_or_black_ticket_left() -> None:
    game = placed(START, 35)
    game.state = dataclasses.replace(game.state, x_double=0, x_black=0)
    refused(game, XDouble(Step("taxi", 36), Step("taxi", 37)), MRX, IllegalMove, "sy.no_double")
    err = refused(game, XMove("black", 36), MRX, IllegalMove, "sy.no_ticket")
    assert err.params == {"ticket": "black", "step": 0}
    assert legal(game.state, MRX) == {
        "intents": ["sy.x_move"],
        "x": {"single": {"taxi": [22, 36, 48, 65]}, "double": []},
    }


def test_second_step_of_a_double_move_is_checked_after_the_first() -> None:
    game = placed(START, 35)
    err = refused(game, XDouble(Step("taxi", 36), Step("bus", 37)), MRX, IllegalMove, "sy.not_connected")
    assert err.params == {"ticket": "bus", "station": 37, "step": 2}
    refused(game, XDouble(Step("taxi", 36), Step("taxi", 36)), MRX, IllegalMove, "sy.not_connected")  # must move


def test_detective_acting_as_mister_x_and_mister_x_from_the_table() -> None:
    game = placed(START, 35)
    for actor in (D1, D2, TABLE):
        refused(game, XMove("taxi", 36), actor, Forbidden, "sy.x_own_phone")
        refused(game, XDouble(Step("taxi", 36), Step("taxi", 37)), actor, Forbidden, "sy.x_own_phone")
    refused(game, PlaceX(45), TABLE, Forbidden, "sy.x_own_phone")


def test_who_moves_which_figure() -> None:
    game = detective_phase()
    refused(game, Move("D1", "taxi", 37), MRX, Forbidden, "sy.not_your_figure")
    refused(game, Move("B1", "taxi", 16), MRX, Forbidden, "sy.not_your_figure")
    refused(game, Move("D2", "taxi", 27), D1, Forbidden, "sy.not_your_figure")
    refused(game, Move("D9", "taxi", 27), D1, IllegalMove, "sy.unknown_figure")
    refused(game, Move("D1", "black", 37), D1, IllegalMove, "sy.black_x_only")
    move(game, "B1", "taxi", 16, D1)  # any detective seat moves the bobbies
    refused(game, Move("B1", "taxi", 29), D2, IllegalMove, "sy.already_moved")
    refused(game, SetTracker(True), D1, Forbidden, "sy.table_only")
    refused(game, SetTracker(False), TABLE, IllegalMove, "sy.tracker_unchanged")
    refused(game, EndGame(), D2, Forbidden, "sy.table_only")


def test_out_of_turn() -> None:
    game = new_game()
    refused(game, XMove("taxi", 36), MRX, IllegalMove, "sy.not_started")
    refused(game, Move("D1", "taxi", 37), TABLE, IllegalMove, "sy.not_started")
    game = placed(START, 35)
    refused(game, Move("D1", "taxi", 37), TABLE, IllegalMove, "sy.not_detective_turn")
    refused(game, DrawStart(), TABLE, IllegalMove, "sy.already_started")
    refused(game, PlaceX(45), MRX, IllegalMove, "sy.already_started")
    refused(game, PlaceDetectives(tuple(START.items())), TABLE, IllegalMove, "sy.already_started")
    game = detective_phase()
    refused(game, XMove("taxi", 35), MRX, IllegalMove, "sy.not_x_turn")


def test_bad_start_entries() -> None:
    game = new_game()
    refused(game, PlaceDetectives((("D1", 13), ("D2", 26), ("B1", 29))), TABLE, IllegalMove, "sy.placement.figures")
    refused(
        game,
        PlaceDetectives((("D1", 13), ("D1", 26), ("B1", 29), ("B2", 34))),
        TABLE,
        IllegalMove,
        "sy.placement.figures",
    )
    refused(
        game,
        PlaceDetectives((("D1", 13), ("D2", 13), ("B1", 29), ("B2", 34))),
        TABLE,
        IllegalMove,
        "sy.placement.same_station",
    )
    err = refused(
        game, PlaceDetectives((("D1", 13), ("D2", 35), ("B1", 29), ("B2", 34))), TABLE, IllegalMove, "sy.not_d_card"
    )
    assert err.params == {"station": 35}
    refused(game, PlaceDetectives(tuple(START.items())), D1, Forbidden, "sy.table_only")
    err = refused(game, PlaceX(13), MRX, IllegalMove, "sy.not_x_card")
    assert err.params == {"station": 13}
    play(game, PlaceX(45), MRX)
    refused(game, PlaceX(51), MRX, IllegalMove, "sy.already_placed")
    play(game, PlaceDetectives(tuple(START.items())), TABLE)
    assert game.state.phase == "x"


def test_stale_sequence_number() -> None:
    game = detective_phase()
    state, entries = game.state, list(game.entries)
    with pytest.raises(StaleIntent) as info:
        game.decide(Move("D1", "taxi", 37), D1, game.seq - 1)
    assert info.value.code == "stale"
    assert game.state is state and game.entries == entries


def test_moves_after_the_end() -> None:
    game = placed({"D1": 34, "D2": 13, "B1": 26, "B2": 29}, 35)
    x_move(game, "taxi", 22)
    move(game, "D1", "taxi", 22)
    assert game.outcome() is not None
    for intent, actor in [
        (Move("D2", "taxi", 23), TABLE),
        (XMove("taxi", 23), MRX),
        (SetTracker(True), TABLE),
        (EndGame(), TABLE),
        (DrawStart(), TABLE),
    ]:
        refused(game, intent, actor, GameOver, "game_over")


def test_malformed_intents_are_refused_by_the_codec() -> None:
    codec = intent_codec(RULES)
    for raw in [
        {"kind": "sy.x_move", "ticket": "ferry", "station": 157},
        {"kind": "sy.x_move", "ticket": "taxi", "station": "157"},
        {"kind": "sy.x_move", "ticket": "taxi"},
        {"kind": "sy.move", "figure": "D1", "ticket": "taxi", "station": 1, "x": 1},
        {"kind": "sy.x_double", "first": {"ticket": "taxi", "station": 1}},
        {"kind": "sy.teleport"},
    ]:
        with pytest.raises(MalformedInput):
            codec.decode(raw)
