"""Whole games, start to end: start cards, captures, escapes, traps, reveals, ferries, supply, 2 players."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from sy_support import (
    D1,
    D2,
    MRX,
    SYGame,
    detectives_move,
    legal,
    move,
    new_game,
    placed,
    play,
    play_random,
    seat,
    view,
    x_double,
    x_move,
)

from companion.core import TABLE, Forbidden, Game, GameOver, IllegalMove, Outcome, Undo, UndoRefused
from companion.core.playthrough import steps
from companion.games.scotland_yard import RULES, moves, tracker
from companion.games.scotland_yard.board import D_CARDS, X_CARDS, base_board
from companion.games.scotland_yard.model import (
    DetectivesPlaced,
    DrawStart,
    EndGame,
    FigureMoved,
    GameEnded,
    Move,
    PlaceDetectives,
    PlaceX,
    RoundEnded,
    SetTracker,
    XMove,
    XMoved,
    XPlaced,
)

TAXI_FIRST = ("taxi", "bus", "underground")


def phase(game: SYGame) -> str:
    """The phase, as a plain string (so type checkers do not narrow it across moves)."""
    return game.state.phase


def last_action(game: SYGame) -> list[object]:
    return [e.event for e in game.last_action()]


def assert_over_and_frozen(game: SYGame) -> None:
    """Nothing is accepted after the end, and the end is never undone."""
    with pytest.raises(GameOver):
        game.decide(XMove("taxi", 1), MRX, game.seq)
    with pytest.raises(GameOver):
        game.decide(SetTracker(not game.state.tracker_on), TABLE, game.seq)
    for actor in (TABLE, MRX, D1):
        with pytest.raises(UndoRefused):
            game.decide(Undo(), actor, game.seq)
    assert legal(game.state, TABLE) == {"intents": []}
    assert legal(game.state, MRX) == {"intents": []}


def assert_route_shown_to_all(game: SYGame) -> None:
    route = [f.station for f in game.state.route]
    for audience in (TABLE, MRX, D1):
        shown = view(game, audience)
        assert [f["station"] for f in shown["log"]] == route
        assert shown["mrx"]["station"] == game.state.x_station


def assert_ended(game: SYGame, reason: str, winners: tuple[str, ...]) -> None:
    """The outcome; the route is shown to all; nothing is accepted or undone any more."""
    assert game.outcome() == Outcome(reason, winners)
    assert_route_shown_to_all(game)
    assert_over_and_frozen(game)


def x_random(game: SYGame, rng: random.Random) -> None:
    single = legal(game.state, MRX)["x"]["single"]
    ticket = rng.choice(sorted(single))
    x_move(game, ticket, rng.choice(single[ticket]))


# ------------------------------------------------------------------------------------------ start


def test_drawing_start_cards_is_public_for_detectives_and_private_for_mister_x() -> None:
    game = new_game(seed=11)
    play(game, DrawStart(), TABLE)
    placed_d, placed_x = last_action(game)
    assert isinstance(placed_d, DetectivesPlaced) and placed_d.drawn
    assert isinstance(placed_x, XPlaced) and placed_x.drawn
    stations = [s for _, s in placed_d.stations]
    assert [f for f, _ in placed_d.stations] == ["D1", "D2", "B1", "B2"]
    assert len(set(stations)) == 4 and set(stations) <= set(D_CARDS)
    assert placed_x.station in X_CARDS
    assert game.state.phase == "x" and game.state.x_station == placed_x.station
    table = view(game, TABLE)
    assert [f["station"] for f in table["figures"]] == stations
    assert table["mrx"] == {"placed": True, "station": None, "black": 5, "double": 2, "ai": None}
    assert view(game, MRX)["secret"]["station"] == placed_x.station
    assert "secret" not in view(game, D1)
    # Recorded, never drawn again: another seed folds the log to the same state.
    assert Game(RULES, {}, 999, game.entries).state == game.state
    # Start draws are never undone.
    for actor in (TABLE, MRX):
        with pytest.raises(UndoRefused):
            game.decide(Undo(), actor, game.seq)


def test_mister_x_may_draw_his_own_card_and_the_table_draws_the_rest() -> None:
    game = new_game(seed=5)
    play(game, DrawStart(), MRX)
    (only,) = last_action(game)
    assert isinstance(only, XPlaced) and only.drawn
    assert view(game, TABLE)["mrx"]["placed"] is True
    assert game.state.phase == "start"
    with pytest.raises(IllegalMove) as info:
        game.decide(DrawStart(), MRX, game.seq)
    assert info.value.code == "sy.already_placed"
    with pytest.raises(Forbidden) as forbidden:
        game.decide(DrawStart(), D1, game.seq)
    assert forbidden.value.code == "sy.table_only"
    play(game, DrawStart(), TABLE)
    (rest,) = last_action(game)
    assert isinstance(rest, DetectivesPlaced)
    assert phase(game) == "x" and game.state.x_station == only.station


def test_entering_physically_drawn_cards_and_undoing_an_entry() -> None:
    game = new_game()
    play(game, PlaceX(45), MRX)
    assert game.state.phase == "start"
    play(game, Undo(), MRX)  # his own manual entry
    assert game.state.x_station == 0
    play(game, PlaceDetectives((("B2", 13), ("D1", 26), ("D2", 29), ("B1", 34))), TABLE)
    assert game.state.positions == (26, 29, 34, 13)  # stored in figure order
    play(game, Undo(), TABLE)
    assert game.state.positions == (0, 0, 0, 0)
    play(game, PlaceDetectives((("D1", 26), ("D2", 29), ("B1", 34), ("B2", 13))), TABLE)
    play(game, PlaceX(45), MRX)
    assert phase(game) == "x" and game.state.x_station == 45
    assert view(game, TABLE)["turn"] == "mrx"


# --------------------------------------------------------------------------------------- captures


def test_capture_by_a_detective() -> None:
    game = placed({"D1": 34, "D2": 13, "B1": 26, "B2": 29}, 35)
    x_move(game, "taxi", 22)
    assert game.state.supply == (39, 33, 17)
    move(game, "D1", "taxi", 22, D1)
    moved, ended = last_action(game)
    assert moved == FigureMoved("D1", "taxi", 22)
    assert ended == GameEnded("captured", "D1", 22)
    table = view(game, TABLE)
    assert table["end"] == {"reason": "captured", "winner": "detectives", "figure": "D1", "station": 22}
    assert table["phase"] == "over" and table["turn"] is None
    assert game.state.supply == (40, 33, 17)  # D1's taxi ticket went into the supply
    assert game.state.purses[0] == (10, 8, 4)
    assert_ended(game, "sy.captured", ("d1", "d2"))


def test_capture_by_a_bobby_moved_from_a_detective_phone() -> None:
    game = placed({"D1": 13, "D2": 26, "B1": 34, "B2": 29}, 35)
    x_move(game, "taxi", 48)
    move(game, "D1", "taxi", 23)
    move(game, "D2", "taxi", 15, D2)
    supply = game.state.supply
    move(game, "B1", "taxi", 48, D2)
    assert last_action(game)[-1] == GameEnded("captured", "B1", 48)
    assert game.state.supply == supply  # bobbies need no tickets
    assert game.state.candidates == frozenset({48})
    assert_ended(game, "sy.captured", ("d1", "d2"))


# ------------------------------------------------------------------------------------------- ends


def test_mister_x_survives_round_22() -> None:
    game = new_game(seed=0)
    play(game, DrawStart(), TABLE)
    rng = random.Random(0)
    while game.outcome() is None:
        if game.state.phase == "x":
            x_random(game, rng)
        else:
            detectives_move(game, prefer=TAXI_FIRST)
    assert game.state.round == 22
    assert [f.round for f in game.state.route] == list(range(1, 23))
    last = last_action(game)
    assert isinstance(last[0], FigureMoved) and last[-1] == GameEnded("x_escaped")
    rounds_ended = [e.event for e in game.entries if isinstance(e.event, RoundEnded)]
    assert [e.round for e in rounds_ended] == list(range(1, 22))
    assert_ended(game, "sy.x_escaped", ("mrx",))


def test_mister_x_trapped_when_his_turn_starts() -> None:
    game = placed({"D1": 103, "D2": 117, "B1": 13, "B2": 26}, 104)
    x_move(game, "taxi", 86)
    move(game, "D1", "taxi", 102)
    move(game, "D2", "taxi", 108)
    move(game, "B1", "taxi", 4)
    move(game, "B2", "taxi", 27)
    assert last_action(game) == [FigureMoved("B2", "taxi", 27), RoundEnded(1, ())]
    x_move(game, "taxi", 104)  # 104 only has taxi lines to 86 and 116
    move(game, "D1", "bus", 86)
    move(game, "D2", "bus", 116)
    move(game, "B1", "taxi", 13)
    assert game.outcome() is None  # detected when his turn starts, after every figure moved
    move(game, "B2", "taxi", 26)
    assert last_action(game) == [FigureMoved("B2", "taxi", 26), RoundEnded(2, ()), GameEnded("x_trapped")]
    assert_ended(game, "sy.x_trapped", ("d1", "d2"))


def _stuck_game(config: dict[str, object]) -> SYGame:
    """Detectives spend taxi tickets first and end up with only bus/underground tickets on
    taxi-only stations (seed found by play; asserted below)."""
    game = new_game(config, seed=4)
    play(game, DrawStart(), TABLE)
    rng = random.Random(4)
    while game.outcome() is None and game.state.round < 12:
        if game.state.phase == "x":
            x_random(game, rng)
        else:
            detectives_move(game, prefer=TAXI_FIRST)
    assert game.state.phase == "x"
    x_random(game, rng)
    return game


def test_all_detectives_stuck_mister_x_wins_even_if_bobbies_could_move() -> None:
    game = _stuck_game({})
    moved_x, ended = last_action(game)  # the end comes in Mister X's action
    assert isinstance(moved_x, XMoved) and ended == GameEnded("detectives_stuck")
    assert game.state.purses[0][0] == 0 and game.state.purses[1][0] == 0
    assert not moves.can_move(game.state, 0) and not moves.can_move(game.state, 1)
    assert moves.can_move(game.state, 2) or moves.can_move(game.state, 3)  # the literal rule
    assert_ended(game, "sy.detectives_stuck", ("mrx",))


def test_bobbies_keep_the_game_alive_when_the_table_chose_so() -> None:
    game = _stuck_game({"bobbies_keep_game_alive": True})
    assert game.outcome() is None and game.state.phase == "detectives"
    options = legal(game.state, TABLE)["moves"]
    assert sorted(options) == ["B1", "B2"]
    table = view(game, TABLE)
    assert [f["can_move"] for f in table["figures"]] == [False, False, True, True]
    detectives_move(game)
    ended = last_action(game)[-1]
    assert isinstance(ended, RoundEnded) and ended.skipped == ("D1", "D2")
    assert phase(game) == "x" and game.state.round == 13


def test_table_may_end_the_game() -> None:
    game = placed({"D1": 34, "D2": 13, "B1": 26, "B2": 29}, 35)
    with pytest.raises(Forbidden):
        game.decide(EndGame(), MRX, game.seq)
    play(game, EndGame(), TABLE)
    assert game.outcome() == Outcome("sy.ended_by_table", ())
    assert view(game, D1)["mrx"]["station"] == 35
    assert_over_and_frozen(game)


# ---------------------------------------------------------------------------- reveals and tickets


def test_double_move_whose_first_step_is_a_reveal_field() -> None:
    game = placed({"D1": 13, "D2": 26, "B1": 29, "B2": 53}, 35, {"tracker": True})
    path = {35, 36, 37, 50, 49}
    x_move(game, "taxi", 36)
    detectives_move(game, avoid=path)
    x_move(game, "taxi", 37)
    detectives_move(game, avoid=path)
    assert view(game, MRX)["secret"]["next_is_reveal"] is True
    occupied = set(game.state.positions)
    x_double(game, "taxi", 50, "black", 49)
    first, second = last_action(game)
    assert first == XMoved(3, "taxi", 50, 1) and second == XMoved(4, "black", 49, 2)
    assert game.state.x_double == 1 and game.state.x_black == 4
    assert game.state.round == 3 and game.state.phase == "detectives"
    # After the action: field 3 shows 50, field 4 is hidden, and he is no longer on the board.
    table = view(game, TABLE)
    log = table["log"]
    assert [(f["field"], f["ticket"], f["double"], f["station"]) for f in log] == [
        (1, "taxi", False, None),
        (2, "taxi", False, None),
        (3, "taxi", True, 50),
        (4, "black", True, None),
    ]
    assert table["mrx"]["station"] is None
    assert table["next_field"] == 5
    # Between the two steps (as a playthrough shows it) he stood shown on 50.
    middle: Any = next(views for entry, views in steps(game) if entry is not None and entry.seq == game.seq - 1)
    assert middle["table"]["view"]["mrx"]["station"] == 50
    assert middle["d1"]["view"]["mrx"]["station"] == 50
    # The tracker restarts from the revealed station and takes the second (black) step.
    expected = tracker.after_x_move(base_board(), {50}, "black", occupied)
    assert game.state.candidates == expected == frozenset({37, 38, 49} - occupied)
    assert table["tracker"] == {"on": True, "candidates": sorted(expected)}
    # A reveal already shown is never taken back.
    for actor in (MRX, TABLE):
        with pytest.raises(UndoRefused):
            game.decide(Undo(), actor, game.seq)


def test_black_ticket_over_a_ferry() -> None:
    game = placed({"D1": 13, "D2": 26, "B1": 29, "B2": 34}, 127, {"tracker": True})
    x_move(game, "taxi", 115)
    detectives_move(game)
    for ticket in ("taxi", "bus", "underground"):
        with pytest.raises(IllegalMove) as info:
            game.decide(XMove(ticket, 157), MRX, game.seq)
        assert info.value.code in ("sy.not_connected", "sy.supply_empty")
    assert 157 in legal(game.state, MRX)["x"]["single"]["black"]
    before, supply = game.state.candidates, game.state.supply
    x_move(game, "black", 157)
    assert game.state.x_black == 4 and game.state.supply == supply  # his own ticket, not the supply's
    log = view(game, TABLE)["log"]
    assert log[-1] == {"field": 2, "round": 2, "ticket": "black", "double": False, "reveal": False, "station": None}
    # The tracker follows black tickets over any line, the ferry included.
    assert 115 in before and {108, 157} <= game.state.candidates
    # Nothing but Mister X's black ticket uses a ferry: a detective on a pier gets no ferry move.
    on_pier = dataclasses.replace(game.state, positions=(115, 26, 29, 34))
    options = legal(on_pier, TABLE)["moves"]["D1"]
    assert options == {"taxi": [102, 114, 126, 127]}
    with pytest.raises(IllegalMove) as black:
        RULES.decide(on_pier, Move("D1", "black", 157), TABLE, random.Random(0))
    assert black.value.code == "sy.black_x_only"


def test_the_supply_running_dry() -> None:
    """Six players: the supply starts with 7 taxi, 9 bus, 5 underground tickets. Mister X rides
    the underground five times while the detectives never do; then he cannot pay for it."""
    config = {"detectives": ["a", "b", "c", "d", "e"]}
    game = placed({"D1": 26, "D2": 29, "D3": 50, "D4": 53, "D5": 174}, 71, config)
    assert game.state.supply == (7, 9, 5)
    path = {71, 89, 67, 13, 46, 1, 74, 79}
    hops = [("taxi", 89), ("underground", 67), ("underground", 13), ("underground", 46), ("underground", 1)]
    hops += [("underground", 46)]
    for ticket, station in hops:
        x_move(game, ticket, station)
        detectives_move(game, avoid=path, prefer=("taxi", "bus"))
    assert game.state.supply[2] == 0 and game.state.x_station == 46
    single = legal(game.state, MRX)["x"]["single"]
    assert "underground" not in single and 74 in single["black"]
    before = (game.state, list(game.entries))
    with pytest.raises(IllegalMove) as info:
        game.decide(XMove("underground", 74), MRX, game.seq)
    assert info.value.code == "sy.supply_empty" and info.value.params == {"ticket": "underground", "step": 0}
    assert (game.state, game.entries) == before
    x_move(game, "black", 74)  # a black ticket still rides the underground
    assert game.state.x_station == 74
    # Detective tickets go into the supply: an underground ride refills it.
    state = game.state
    d1_on_79 = dataclasses.replace(state, positions=(79, *state.positions[1:]))
    (event, *_rest) = RULES.decide(d1_on_79, Move("D1", "underground", 111), TABLE, random.Random(0))
    assert RULES.apply(d1_on_79, event).supply[2] == 1


def test_two_player_game() -> None:
    game = placed({"D1": 13, "D2": 26, "B1": 29, "B2": 34}, 35, {"detectives": ["Solo"]})
    solo = seat("d1")
    assert game.rules.seats(game.state) == ("mrx", "d1")
    x_move(game, "taxi", 36)
    assert sorted(legal(game.state, solo)["moves"]) == ["B1", "B2", "D1", "D2"]
    move(game, "D2", "taxi", 27, solo)  # any order
    move(game, "B2", "taxi", 10, solo)
    move(game, "D1", "underground", 67, solo)
    assert game.state.purses == ((21, 16, 7),)  # one pooled purse for both detectives
    assert view(game, solo)["seats"][1]["tickets"] == {"taxi": 21, "bus": 16, "underground": 7}
    move(game, "B1", "taxi", 16, solo)
    assert game.state.round == 2
    x_move(game, "taxi", 37)
    move(game, "D1", "taxi", 66, solo)  # 67 -> 66 is a taxi line
    move(game, "D2", "taxi", 40, solo)
    move(game, "B1", "taxi", 28, solo)
    move(game, "B2", "taxi", 21, solo)
    assert game.state.purses == ((19, 16, 7),)
    rng = random.Random(2)
    play_random(game, rng, chase=1.0, double=0.0)
    outcome = game.outcome()
    assert outcome is not None and outcome.winners in (("d1",), ("mrx",))
