"""The Mister X AI: legal, deterministic, careful at reveals, answering even without budget.

Its strength is measured by ``benchmarks/bench_ai.py`` (``make bench-ai``), never here: these tests
check what must hold in every position, over games played by the random legal player.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sy_support import MRX, new_game, play, random_intent

from companion.core import TABLE, Forbidden, SetupError
from companion.games.scotland_yard import RULES, ai, ai_turn, moves
from companion.games.scotland_yard.ai_maps import maps
from companion.games.scotland_yard.model import REVEALS, PlaceDetectives, SYState, XDouble, XMove

CONFIGS: list[dict[str, Any]] = [
    {},
    {"detectives": ["solo"]},
    {"detectives": ["a", "b", "c"], "tracker": True},
    {"detectives": ["a", "b", "c", "d", "e"]},
]


def x_turns(seed: int, config: dict[str, Any], turns: int) -> list[SYState]:
    """States where Mister X is to move, from a random legal game (chasing detectives)."""
    game = new_game(config, seed)
    rng = random.Random(seed)
    out = []
    while game.outcome() is None and len(out) < turns:
        if game.state.phase == "x":
            out.append(game.state)
        intent, actor = random_intent(game, rng, chase=0.5, double=0.2)
        play(game, intent, actor)
    return out


def lands_on(choice: ai.Choice) -> list[tuple[int, int]]:
    """(field offset, station) of every step the choice writes."""
    if isinstance(choice, XMove):
        return [(0, choice.station)]
    return [(0, choice.first.station), (1, choice.second.station)]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(CONFIGS), st.sampled_from(ai.LEVELS))
def test_every_choice_is_a_legal_intent_and_repeats_exactly(seed: int, config: dict[str, Any], level: str) -> None:
    for state in x_turns(seed, config, turns=4):
        choice = ai.choose(state, level, seed, cpu_budget=None)
        assert isinstance(choice, XMove | XDouble)
        # The rules accept it from Mister X's seat: the AI only ever picks a legal move.
        assert RULES.decide(state, choice, MRX, random.Random(0))
        assert ai.choose(state, level, seed, cpu_budget=None) == choice


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(CONFIGS))
def test_at_a_reveal_he_never_shows_himself_within_a_detectives_reach_if_he_can_avoid_it(
    seed: int, config: dict[str, Any]
) -> None:
    """Rulebook tip: "Mister X sollte beim Auftauchen darauf achten, dass keiner ihn im nächsten Zug
    erreichen kann." (When he shows himself, nobody should be able to reach him in the next move.)"""
    for state in x_turns(seed, config, turns=22):
        field = len(state.route) + 1
        if field not in REVEALS and field + 1 not in REVEALS:
            continue
        m = maps(state.board)
        zone = ai.danger_zone(m, state.positions, ai.masks_of(state))
        for level in ("normal", "hard"):
            choice = ai.choose(state, level, seed, cpu_budget=None)
            shown = [s for k, s in lands_on(choice) if field + k in REVEALS]
            if not shown or (isinstance(choice, XDouble) and field in REVEALS):
                continue  # no reveal, or he is shown on a double move's first step and leaves at once
            safe = [s for dests in moves.x_singles(state).values() for s in dests if s not in zone]
            if safe:
                assert shown[0] not in zone, (level, field, choice, state.positions)


def test_a_zero_budget_still_gives_a_legal_move() -> None:
    state = x_turns(3, {}, turns=2)[-1]
    for level in ai.LEVELS:
        choice = ai.choose(state, level, 1, cpu_budget=0.0)
        assert RULES.decide(state, choice, MRX, random.Random(0))


def test_it_is_not_his_turn() -> None:
    game = new_game({}, 1)
    play(game, *random_intent(game, random.Random(1)))
    play(game, *random_intent(game, random.Random(1)))
    assert game.state.phase == "detectives"
    with pytest.raises(ValueError):
        ai.choose(game.state, "normal")


# -------------------------------------------------------------------- Mister X played by the table


@pytest.mark.parametrize("bad", ["expert", "", 3, True, ["hard"], {"level": "hard"}])
def test_a_level_other_than_easy_normal_hard_is_refused(bad: Any) -> None:
    with pytest.raises(SetupError) as refused:
        RULES.setup({"mister_x_ai": bad})
    assert refused.value.code == "sy.setup.ai_level"


def test_played_by_the_table_he_has_no_seat_and_nobody_sees_his_view() -> None:
    human = RULES.setup({"detectives": ["a", "b"]})
    table = RULES.setup({"detectives": ["a", "b"], "mister_x_ai": "normal"})
    assert RULES.seats(human) == ("mrx", "d1", "d2")
    assert RULES.seats(table) == ("d1", "d2")
    with pytest.raises(Forbidden):
        RULES.view(table, MRX)
    with pytest.raises(Forbidden):
        RULES.legal(table, MRX)
    public: Any = RULES.view(table, TABLE)
    assert public["mrx"]["ai"] == "normal" and RULES.view(human, TABLE)["mrx"]["ai"] is None  # type: ignore[index]


def test_the_table_draws_his_card_after_the_detectives_and_then_moves_him() -> None:
    """Rulebook: the detectives draw D cards, "Nun zieht Mister X verdeckt eine Startkarte mit einem X"."""
    config = {"detectives": ["a", "b"], "mister_x_ai": "easy"}
    assert ai_turn.table_turn(RULES.setup({"detectives": ["a", "b"]}), 1, None) is None  # a player is Mister X
    game = new_game(config, 3)
    assert ai_turn.table_turn(game.state, 1, None) is None  # the D cards first
    play(game, PlaceDetectives((("D1", 13), ("D2", 26), ("B1", 29), ("B2", 34))), TABLE)
    turn = ai_turn.table_turn(game.state, game.seed, None)
    assert turn is not None and turn.seat == "mrx"
    play(game, turn.decide(), MRX)  # his X card, drawn secretly
    assert game.state.x_station and game.state.phase == "x"
    turn = ai_turn.table_turn(game.state, game.seed, None)
    assert turn is not None
    move = turn.decide()
    assert move == ai.choose(game.state, "easy", game.seed, cpu_budget=None)
    play(game, move, MRX)
    assert game.state.phase == "detectives" and ai_turn.table_turn(game.state, game.seed, None) is None
