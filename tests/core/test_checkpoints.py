"""Checkpoints are a cache of the fold: a game opened from its rows and any set of checkpoints —
all, some, none, damaged, of another version — is the game folded from its whole log."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from toygame import RULES, Add, AddTwice, Draw

from companion.core import TABLE, Audience, Game, IllegalMove, Undo, UndoRefused, event_codec, fold
from companion.core.checkpoint import encode_state, rules_version, state_reader
from companion.core.game import CHECKPOINT, Undone
from companion.core.jsonvalue import dumps, loads

CONFIG = {"target": 10**6}
CODEC = event_codec(RULES)


def played(script: list[tuple[str, int]], seed: int = 2) -> Game[Any]:
    game: Game[Any] = Game(RULES, CONFIG, seed)
    game.commit(game.decide(Draw(), TABLE, game.seq))
    for op, amount in script:
        seat = game.state.seats[game.state.turn]
        intent = {"add": Add(seat, amount), "twice": AddTwice(seat, amount)}.get(op, Undo())
        try:
            game.commit(game.decide(intent, TABLE, game.seq))
        except (UndoRefused, IllegalMove):
            continue
    return game


def rows_of(game: Game[Any]) -> list[tuple[int, int, str]]:
    return [(e.seq, e.action, dumps(CODEC.encode(e.event))) for e in game.entries]


def read(text: str) -> Any:
    return CODEC.decode(loads(text))


def marker(text: str) -> int | None:
    event = read(text)
    return event.target if isinstance(event, Undone) else None


def opened(game: Game[Any], checkpoints: dict[int, str]) -> Game[Any]:
    return Game.from_rows(RULES, CONFIG, game.seed, rows_of(game), read, marker, checkpoints)


def assert_same_game(a: Game[Any], b: Game[Any]) -> None:
    assert a.state == b.state and a.seq == b.seq and a.last_action() == b.last_action()
    assert a.state_before_last() == b.state_before_last()
    assert [a.can_undo(x) for x in (TABLE, Audience.of_seat("a"))] == [
        b.can_undo(x) for x in (TABLE, Audience.of_seat("a"))
    ]


scripts = st.lists(
    st.tuples(st.sampled_from(["add", "add", "add", "twice", "undo"]), st.integers(1, 3)),
    min_size=CHECKPOINT,
    max_size=6 * CHECKPOINT,
)


@settings(max_examples=50, deadline=None)
@given(scripts, st.randoms(use_true_random=False))
def test_any_checkpoints_open_the_same_game_and_undo_the_same_way(
    script: list[tuple[str, int]], rnd: random.Random
) -> None:
    game = played(script)
    written = {action: encode_state(state, game.start) for action, state in game.checkpoints()}
    assert len(written) == (len(game._live) - 1) // CHECKPOINT  # every 16th action that counts, but the first
    some = {a: t for a, t in written.items() if rnd.random() < 0.5}
    damaged = {a: (t if rnd.random() < 0.5 else '{"total": "many"}') for a, t in written.items()}
    for checkpoints in (written, some, {}, damaged):
        reopened = opened(game, checkpoints)
        assert_same_game(reopened, game)
        # Undo all the way down, through checkpoints read lazily, as the live game would.
        while reopened.can_undo(TABLE):
            events = reopened.decide(Undo(), TABLE, reopened.seq)
            expected = fold(RULES, reopened.start, [*reopened.entries, *reopened.entries_for(events)])
            reopened.commit(events)
            assert reopened.state == expected


def test_a_checkpoint_is_due_every_sixteenth_action_that_counts() -> None:
    game = played([("add", 1)] * (2 * CHECKPOINT))
    first = game.seq
    due = []
    for _ in range(CHECKPOINT):
        seat = game.state.seats[game.state.turn]
        events = game.decide(Add(seat, 1), TABLE, game.seq)
        found = game.checkpoint_due(events)
        if found is not None:
            due.append(found)
        game.commit(events)
    assert due == [c for c in game.checkpoints() if c[0] > first]
    assert len(due) == 1
    assert game.checkpoint_due(game.decide(Undo(), TABLE, game.seq)) is None


def test_states_of_every_game_round_trip() -> None:
    from drivers import DRIVERS, reference_run

    for name in ("scotland_yard", "victorian_masterminds", "mykerinos", "toy"):
        rules_name, config, _ = DRIVERS[name]
        game = reference_run(rules_name, config, seed=31, driver_seed=32, past_seq=300)
        reader = state_reader(game.start)
        for _, state in game.checkpoints():
            text = encode_state(state, game.start)
            assert reader(text) == state
        assert reader(encode_state(game.state, game.start)) == game.state
        assert len(rules_version(game.rules)) == 16


@pytest.mark.parametrize("text", ["[]", '{"nope": 1}', '{"total": true}', "not json"])
def test_a_state_that_is_not_one_is_refused(text: str) -> None:
    from companion.core import MalformedInput

    with pytest.raises((MalformedInput, ValueError)):
        state_reader(RULES.setup(CONFIG))(text)
