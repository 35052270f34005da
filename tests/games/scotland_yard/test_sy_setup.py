"""Setup config: players, seats, figures and bobbies per player count, tickets, supply, options."""

from __future__ import annotations

from typing import Any

import pytest
from sy_support import MRX, legal, new_game, view

from companion.core import TABLE, Audience, Forbidden, SetupError
from companion.games.scotland_yard import RULES
from companion.games.scotland_yard.board import D_CARDS, X_CARDS


@pytest.mark.parametrize(
    ("detectives", "figures", "purses", "supply"),
    [
        (1, ("D1", "D2", "B1", "B2"), ((22, 16, 8),), (40, 33, 17)),
        (2, ("D1", "D2", "B1", "B2"), ((11, 8, 4),) * 2, (40, 33, 17)),
        (3, ("D1", "D2", "D3", "B1"), ((11, 8, 4),) * 3, (29, 25, 13)),
        (4, ("D1", "D2", "D3", "D4"), ((11, 8, 4),) * 4, (18, 17, 9)),
        (5, ("D1", "D2", "D3", "D4", "D5"), ((11, 8, 4),) * 5, (7, 9, 5)),
    ],
)
def test_figures_tickets_and_supply_per_player_count(
    detectives: int, figures: tuple[str, ...], purses: tuple[tuple[int, int, int], ...], supply: tuple[int, int, int]
) -> None:
    state = RULES.setup({"mister_x": "Xaver", "detectives": [f"P{k}" for k in range(detectives)]})
    assert RULES.seats(state) == ("mrx", *(f"d{k}" for k in range(1, detectives + 1)))
    assert state.names == ("Xaver", *(f"P{k}" for k in range(detectives)))
    assert state.figures == figures
    assert state.purses == purses
    assert state.supply == supply
    # Box totals: supply + every detective's tickets = 62 / 49 / 25.
    assert tuple(supply[k] + sum(p[k] for p in purses) for k in range(3)) == (62, 49, 25)
    assert (state.x_black, state.x_double, state.phase, state.round) == (5, 2, "start", 1)


def test_figure_control_in_the_two_player_game() -> None:
    state = RULES.setup({"detectives": ["Solo"]})
    solo: Any = RULES.view(state, Audience.of_seat("d1"))
    assert solo["controls"] == ["D1", "D2", "B1", "B2"]
    assert [f["seat"] for f in solo["figures"]] == ["d1", "d1", None, None]


def test_figure_control_with_several_detective_seats() -> None:
    state = RULES.setup({"detectives": ["a", "b", "c"]})
    assert RULES.view(state, Audience.of_seat("d2"))["controls"] == ["D2", "B1"]
    seats: Any = RULES.view(state, TABLE)["seats"]
    assert seats[0] == {"seat": "mrx", "name": "", "role": "mrx"}
    assert seats[3]["figures"] == ["D3", "B1"]


def test_defaults() -> None:
    game = new_game()
    assert game.rules.seats(game.state) == ("mrx", "d1", "d2")
    table = view(game, TABLE)
    assert table["options"] == {"tracker": False, "bobbies_keep_game_alive": False}
    assert table["tracker"] == {"on": False}
    on = RULES.setup({"tracker": True, "bobbies_keep_game_alive": True})
    assert on.tracker_on and on.bobbies_keep_game_alive


def test_legal_at_the_start_and_unknown_seats() -> None:
    state = RULES.setup({})
    for audience in (Audience.of_seat("d3"), Audience.of_seat("x")):
        with pytest.raises(Forbidden) as info:
            RULES.view(state, audience)
        assert info.value.code == "sy.unknown_seat"
        with pytest.raises(Forbidden):
            legal(state, audience)
    assert legal(state, MRX) == {"intents": ["sy.draw_start", "sy.place_x"], "x_cards": list(X_CARDS)}
    assert legal(state, Audience.of_seat("d1")) == {"intents": []}
    assert legal(state, TABLE) == {
        "intents": ["sy.draw_start", "sy.place_detectives", "sy.set_tracker", "sy.end_game"],
        "figures": ["D1", "D2", "B1", "B2"],
        "d_cards": list(D_CARDS),
    }


@pytest.mark.parametrize(
    ("config", "code", "params"),
    [
        ({"players": 3}, "sy.setup.unknown_option", {"option": "players"}),
        ({"detectives": []}, "sy.setup.players", {}),
        ({"detectives": ["a"] * 6}, "sy.setup.players", {}),
        ({"detectives": "abc"}, "sy.setup.players", {}),
        ({"detectives": ["a", 2]}, "sy.setup.name", {"seat": "d2"}),
        ({"mister_x": None}, "sy.setup.name", {"seat": "mrx"}),
        ({"mister_x": "x" * 41}, "sy.setup.name", {"seat": "mrx"}),
        ({"tracker": "yes"}, "sy.setup.option", {"option": "tracker"}),
        ({"bobbies_keep_game_alive": 1}, "sy.setup.option", {"option": "bobbies_keep_game_alive"}),
    ],
)
def test_bad_setups_are_refused(config: Any, code: str, params: dict[str, object]) -> None:
    with pytest.raises(SetupError) as info:
        RULES.setup(config)
    assert info.value.code == code
    assert info.value.params == params
