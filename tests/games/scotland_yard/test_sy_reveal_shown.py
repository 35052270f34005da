"""Where Mister X was last shown stays on every screen until his next reveal, and each reveal is
announced the same way however it came (a single move, or either step of a double move); once the
game is over, the tracker has nothing left to guess.

Rulebook (Scotland Yard Master, basic game): "In den Runden 3, 8, 13, 18 und 24 muss sich Mister X
zeigen" — Mister X shows himself after his 3rd, 8th, 13th, 18th and 24th move; with a double move
whose first step is such a field, he is shown there and disappears again with the second step."""

from __future__ import annotations

from sy_support import D1, MRX, detectives_move, placed, play, view, x_double, x_move

from companion.core import TABLE
from companion.games.scotland_yard.model import EndGame

PATH = {35, 36, 37, 50, 49, 66}


def to_field_three() -> object:
    game = placed({"D1": 13, "D2": 26, "B1": 29, "B2": 53}, 35, {"tracker": True})
    x_move(game, "taxi", 36)
    detectives_move(game, avoid=PATH)
    x_move(game, "taxi", 37)
    detectives_move(game, avoid=PATH)
    return game


def test_a_reveal_inside_a_double_move_is_announced_and_stays_until_the_next_reveal() -> None:
    game = to_field_three()
    assert all(view(game, a)["last_reveal"] is None for a in (TABLE, D1, MRX))  # not shown yet
    x_double(game, "taxi", 50, "black", 49)  # field 3 (a reveal) on 50, then field 4 hidden
    for audience in (TABLE, D1, MRX):
        shown = view(game, audience)["last_reveal"]
        assert shown == {"field": 3, "round": 3, "station": 50, "now": True, "here": False}, audience
    assert view(game, TABLE)["mrx"]["station"] is None  # he moved on with the second step
    detectives_move(game, avoid=PATH)
    x_move(game, "taxi", 66)  # field 5: he moves again, nowhere shown
    for audience in (TABLE, D1):
        assert view(game, audience)["last_reveal"] == {
            "field": 3,
            "round": 3,
            "station": 50,
            "now": False,  # no longer news ...
            "here": False,
        }  # ... but still where he was last seen


def test_a_reveal_by_a_single_move_is_announced_the_same_way() -> None:
    game = to_field_three()
    x_move(game, "taxi", 50)  # field 3, a single move
    shown = view(game, D1)["last_reveal"]
    assert shown == {"field": 3, "round": 3, "station": 50, "now": True, "here": True}
    assert view(game, D1)["mrx"]["station"] == 50
    detectives_move(game, avoid=PATH)
    x_move(game, "taxi", 49)
    assert view(game, D1)["last_reveal"] == {"field": 3, "round": 3, "station": 50, "now": False, "here": False}
    assert view(game, D1)["mrx"]["station"] is None


def test_the_end_shows_his_route_and_no_possible_stations() -> None:
    """Once the game is over every screen sees his whole route: the tracker's guesses ("78 possible
    stations") are not listed any more."""
    game = to_field_three()
    assert view(game, D1)["tracker"]["candidates"]
    play(game, EndGame(), TABLE)
    for audience in (TABLE, D1, MRX):
        assert view(game, audience)["tracker"] == {"on": True}, audience
