"""Replay, undo markers, undo policy, stale intents and the end of a game, on the toy game."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from toygame import RULES, Add, AddTwice, Draw

from companion.core import (
    DEBUG,
    TABLE,
    Audience,
    Forbidden,
    Game,
    GameOver,
    IllegalMove,
    StaleIntent,
    Undo,
    Undone,
    UndoRefused,
    event_codec,
    fold,
)

A, B = Audience.of_seat("a"), Audience.of_seat("b")


def started() -> Game:  # type: ignore[type-arg]
    game = Game(RULES, {}, seed=7)
    game.commit(game.decide(Draw(), TABLE, game.seq))
    return game


def play(game: Game, intent, actor: Audience) -> None:  # type: ignore[type-arg,no-untyped-def]
    game.commit(game.decide(intent, actor, game.seq))


def test_draws_are_recorded_and_replay_never_draws_again() -> None:
    game = started()
    secrets = game.state.secrets
    assert len(secrets) == 2
    # A different seed folds the same log to the same state: the draw is in the log.
    assert Game(RULES, {}, seed=999, entries=game.entries).state == game.state
    assert Game(RULES, {}, seed=7).rng().random() != Game(RULES, {}, seed=8).rng().random()


def test_stale_intent_is_refused_and_changes_nothing() -> None:
    game = started()
    before = (game.state, list(game.entries))
    with pytest.raises(StaleIntent) as info:
        game.decide(Add("a", 1), A, game.seq - 1)
    assert info.value.code == "stale"
    assert (game.state, game.entries) == before


def test_debug_never_acts() -> None:
    with pytest.raises(Forbidden):
        started().decide(Add("a", 1), DEBUG, 1)


def test_undo_appends_a_marker_and_folds_without_the_action() -> None:
    game = started()
    play(game, Add("a", 3), A)
    play(game, Undo(), A)
    assert isinstance(game.entries[-1].event, Undone)
    assert game.entries[-1].event.target == 2
    assert game.state.total == 0 and game.state.turn == 0
    assert len(game.entries) == 3  # nothing deleted
    assert fold(RULES, RULES.setup({}), game.entries) == game.state


def test_undo_policy_is_per_kind_and_per_owner() -> None:
    game = started()
    play(game, Add("a", 2), A)
    with pytest.raises(UndoRefused) as info:
        game.decide(Undo(), B, game.seq)  # not b's move
    assert info.value.code == "undo.not_allowed"
    assert game.can_undo(TABLE) and game.can_undo(A) and not game.can_undo(B)
    play(game, Undo(), TABLE)
    # The draw is declared NEVER: nothing more can be undone by anyone.
    for actor in (TABLE, A, B):
        with pytest.raises(UndoRefused):
            game.decide(Undo(), actor, game.seq)


def test_nothing_to_undo_at_the_start() -> None:
    with pytest.raises(UndoRefused) as info:
        Game(RULES, {}, 1).decide(Undo(), TABLE, 0)
    assert info.value.code == "undo.nothing"


def test_an_action_of_two_events_is_undone_as_one() -> None:
    game = started()
    play(game, AddTwice("a", 2), A)
    assert [e.action for e in game.entries[1:]] == [2, 2]
    assert game.state.total == 4
    play(game, Undo(), A)
    assert game.state.total == 0


def test_moves_after_the_end_are_refused() -> None:
    game = started()
    for seat in "ababa":
        play(game, Add(seat, 3), Audience.of_seat(seat) if seat == "a" else B)
        if game.outcome():
            break
    assert game.outcome() is not None
    with pytest.raises(GameOver):
        game.decide(Add(game.state.seats[game.state.turn], 1), TABLE, game.seq)


def test_rule_errors_come_from_the_game() -> None:
    game = started()
    with pytest.raises(IllegalMove) as info:
        game.decide(Add("a", 9), A, game.seq)
    assert info.value.params == {"amount": 9}
    with pytest.raises(Forbidden):
        game.decide(Add("a", 1), B, game.seq)


moves = st.lists(st.tuples(st.sampled_from(["add", "twice", "undo_table", "undo_owner"]), st.integers(1, 3)))


@settings(max_examples=60, deadline=None)
@given(moves)
def test_fold_equals_live_state_and_undo_reproduces_earlier_states(script: list[tuple[str, int]]) -> None:
    game = started()
    history = {game.seq: game.state}
    codec = event_codec(RULES)
    for op, amount in script:
        if game.outcome():
            break
        seat = game.state.seats[game.state.turn]
        actor = Audience.of_seat(seat)
        intent = {"add": Add(seat, amount), "twice": AddTwice(seat, amount)}.get(op, Undo())
        who = TABLE if op == "undo_table" else actor
        try:
            events = game.decide(intent, who, game.seq)
        except (UndoRefused, IllegalMove):
            continue
        before = game.state
        game.commit(events)
        if isinstance(intent, Undo):
            # The state after an undo is one we have been in before.
            assert game.state in history.values() or game.state == RULES.setup({})
        else:
            assert game.state != before
        history[game.seq] = game.state
        assert fold(RULES, RULES.setup({}), game.entries) == game.state
        for entry in game.entries:
            assert codec.decode(codec.encode(entry.event)) == entry.event
