"""Checkpoints are a cache of the fold: a game opened from its rows and any set of checkpoints —
all, some, none, damaged, of another game, action or version of the code — is the game folded from
its whole log, and undoes, and plays on, the same way."""

from __future__ import annotations

import random
from typing import Any

import pytest
from drivers import DRIVERS, _game_helpers, reference_run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toygame import RULES, Add, scripted

from companion.app.savedgame import EventReader
from companion.core import TABLE, Game, MalformedInput, Undo, Undone, event_codec, fold
from companion.core.checkpoint import SEAL, encode_state, rules_version, seal, state_reader, unseal
from companion.core.game import CHECKPOINT
from companion.core.jsonvalue import dumps, loads
from companion.core.playthrough import audiences

CONFIG = {"target": 10**6}
CODEC = event_codec(RULES)


def played(script: list[tuple[str, int]], seed: int = 2) -> Game[Any]:
    return scripted(script, seed, CONFIG)


def rows_of(game: Game[Any]) -> list[tuple[int, int, str]]:
    codec = event_codec(game.rules)
    return [(e.seq, e.action, dumps(codec.encode(e.event))) for e in game.entries]


def opened(game: Game[Any], checkpoints: dict[int, str]) -> Game[Any]:
    """``game`` as the store opens it: from its rows as JSON text, with these checkpoint texts."""
    read = EventReader(game.rules)
    rows = rows_of(game)
    return Game.from_rows(game.rules, game.config, game.seed, rows, read, markers_of(rows, read), checkpoints)


def markers_of(rows: list[tuple[int, int, str]], read: EventReader) -> dict[int, int]:
    """Every undo marker's target, by its seq, as the store finds them."""
    return {seq: target for seq, _, body in rows if (target := read.undo_target(body)) is not None}


def written(game: Game[Any]) -> dict[int, str]:
    return {action: game.sealed(action, state) for action, state in game.checkpoints()}


def assert_same_game(a: Game[Any], b: Game[Any], views: bool = False) -> None:
    assert a.state == b.state and a.seq == b.seq and a.last_action() == b.last_action()
    assert a.state_before_last() == b.state_before_last()
    for audience in audiences(b):
        assert a.can_undo(audience) == b.can_undo(audience)
        if views:  # everything a screen gets (also what a set's iteration order could change)
            assert dumps(a.snapshot(audience)) == dumps(b.snapshot(audience))


def undo_all_the_way(game: Game[Any], views_every: int = 0) -> int:
    """Undo down to the start, through checkpoints read lazily, comparing with the whole fold."""
    steps = 0
    while game.can_undo(TABLE):
        events = game.decide(Undo(), TABLE, game.seq)
        entries = [*game.entries, *game.entries_for(events)]
        game.commit(events)
        steps += 1
        if views_every and steps % views_every == 0:
            assert_same_game(game, Game(game.rules, game.config, game.seed, entries), views=True)
        else:
            assert game.state == fold(game.rules, game.start, entries)
    return steps


def spoilt(game: Game[Any], texts: dict[int, str], rnd: random.Random) -> dict[int, str]:
    """Each checkpoint kept, or spoilt in one of the ways a file could hold one that is not this
    game's: garbage, another state, one digit changed, moved to another action, another game's,
    another version's."""
    other = Game(game.rules, game.config, game.seed + 1)
    out = {}
    actions = sorted(texts)
    for action, text in texts.items():
        how = rnd.randrange(7)
        body = text[SEAL:]
        if how == 1:
            text = "not a checkpoint"
        elif how == 2:
            text = text[:SEAL] + encode_state(game.start, game.start)
        elif how == 3 and any(c.isdigit() for c in body):
            i = rnd.choice([i for i, c in enumerate(body) if c.isdigit()])
            text = text[:SEAL] + body[:i] + str((int(body[i]) + 1) % 10) + body[i + 1 :]
        elif how == 4 and len(actions) > 1:
            text = texts[rnd.choice([a for a in actions if a != action])]
        elif how == 5:
            text = seal(other.fold_key, action, game.start, game.start)
        elif how == 6:
            text = seal("an older version", action, game.state, game.start)
        out[action] = text
    return out


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
    texts = written(game)
    assert len(texts) == (len(game._live) - 1) // CHECKPOINT  # every 16th action that counts, but the first
    some = {a: t for a, t in texts.items() if rnd.random() < 0.5}
    damaged = spoilt(game, texts, rnd)
    for checkpoints in (texts, some, {}, damaged):
        reopened = opened(game, checkpoints)
        assert_same_game(reopened, game)
        undo_all_the_way(reopened)
        assert reopened.refused_checkpoints == {a for a, t in checkpoints.items() if t != texts[a]}


# -- the three games: random playthroughs with undos, and the golden ones --------------------------


def driver(name: str) -> Any:
    """``name``'s random legal player from its tests; Scotland Yard's detectives never chase, so
    the games run long (a capture ends most chased games within 20 actions)."""
    if name == "scotland_yard":
        sy = _game_helpers(name, "sy_support")
        return lambda game, rng: sy.random_intent(game, rng, chase=0.0, double=0.3)
    return DRIVERS[name][2]


def golden(name: str) -> Game[Any]:
    """The game of ``name``'s golden playthrough (tests/golden/), built as its test builds it."""
    if name == "scotland_yard":
        return _game_helpers(name, "test_sy_golden").golden_game()  # type: ignore[no-any-return]
    if name == "victorian_masterminds":
        return _game_helpers(name, "test_vm_golden").golden_game().game  # type: ignore[no-any-return]
    myk = _game_helpers(name, "test_myk_golden")
    return _game_helpers(name, "myk_helpers").random_game(myk.CONFIG, seed=5, driver_seed=5, draws=True)  # type: ignore[no-any-return]


GAMES = ["scotland_yard", "victorian_masterminds", "mykerinos"]


def check_reopened(name: str, game: Game[Any], rnd: random.Random) -> None:
    texts = written(game)
    some = {a: t for a, t in texts.items() if rnd.random() < 0.5}
    choose = driver(name)
    damaged = spoilt(game, texts, rnd)
    for checkpoints in (texts, some, damaged):
        reopened = opened(game, checkpoints)
        assert_same_game(reopened, game, views=True)
        assert reopened.refused_checkpoints <= {a for a, t in checkpoints.items() if t != texts[a]}
        # Undo part of the way, then play on: as the game folded from its whole log would.
        live = Game(game.rules, game.config, game.seed, list(game.entries))
        for _ in range(rnd.randrange(2 * CHECKPOINT)):
            if not live.can_undo(TABLE):
                break
            for g in (live, reopened):
                g.commit(g.decide(Undo(), TABLE, g.seq))
        assert_same_game(reopened, live, views=True)
        seed = rnd.randrange(2**20)
        for g in (live, reopened):
            rng = random.Random(seed)
            for _ in range(CHECKPOINT + 3):
                choice = choose(g, rng) if g.outcome() is None else None
                if choice is None:
                    break
                g.commit(g.decide(choice[0], choice[1], g.seq))
        assert_same_game(reopened, live, views=True)
        assert written(reopened).keys() <= written(live).keys()
        undo_all_the_way(reopened, views_every=7)


@pytest.mark.parametrize("name", GAMES)
def test_the_golden_playthroughs_open_the_same_from_checkpoints(name: str) -> None:
    game = golden(name)
    texts = written(game)
    assert texts or len(game._live) <= CHECKPOINT
    check_reopened(name, game, random.Random(name))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**20), driver_seed=st.integers(0, 2**20), rnd=st.randoms(use_true_random=False))
def test_random_playthroughs_with_undos_open_the_same_from_checkpoints(
    name: str, seed: int, driver_seed: int, rnd: random.Random
) -> None:
    rules_name, config, _ = DRIVERS[name]
    game = reference_run(rules_name, config, seed, driver_seed, past_seq=250, undo=0.12, choose=driver(name))
    check_reopened(name, game, rnd)


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
    for name in (*GAMES, "toy"):
        rules_name, config, _ = DRIVERS[name]
        game = reference_run(rules_name, config, seed=31, driver_seed=32, past_seq=300)
        reader = state_reader(game.start)
        for action, state in game.checkpoints():
            assert reader(encode_state(state, game.start)) == state
            assert unseal(game.fold_key, action, game.sealed(action, state), reader) == state
        assert reader(encode_state(game.state, game.start)) == game.state
        assert len(rules_version(game.rules)) == 16


def test_a_seal_is_for_one_game_one_action_and_one_text() -> None:
    game = played([("add", 1)] * (3 * CHECKPOINT))
    (action, state), (later, _) = game.checkpoints()[:2]
    text = game.sealed(action, state)
    reader = state_reader(game.start)
    assert unseal(game.fold_key, action, text, reader) == state
    other = played([("add", 1)] * (3 * CHECKPOINT), seed=3)
    for key, at, changed in (
        (other.fold_key, action, text),  # another game (another seed)
        (game.fold_key, later, text),  # another action
        (game.fold_key, action, text.replace('"total":', '"total": ')),  # the same state, other text
        (game.fold_key, action, text[:SEAL]),
    ):
        with pytest.raises(MalformedInput):
            unseal(key, at, changed, reader)
    assert other.fold_key != game.fold_key
    assert Game(RULES, {"target": 10**6 - 1}, game.seed).fold_key != game.fold_key  # another setup


@pytest.mark.parametrize("text", ["[]", '{"nope": 1}', '{"total": true}', "not json"])
def test_a_state_that_is_not_one_is_refused(text: str) -> None:
    with pytest.raises((MalformedInput, ValueError)):
        state_reader(RULES.setup(CONFIG))(text)


def test_an_undo_marker_written_another_way_is_still_found() -> None:
    """Escaped JSON for the marker's kind: the reader decodes it rather than miss a marker."""
    game = played([("add", 1), ("add", 2), ("undo", 0), ("add", 3)])
    rows = rows_of(game)
    (i,) = [n for n, row in enumerate(rows) if '"core.undone"' in row[2]]
    target = loads(rows[i][2])["target"]  # type: ignore[index,call-overload]
    rows[i] = (rows[i][0], rows[i][1], f'{{"kind":"core\\u002eundone","target":{target}}}')
    read = EventReader(RULES)
    assert read.undo_target(rows[i][2]) == target
    again = Game.from_rows(RULES, CONFIG, game.seed, rows, read, markers_of(rows, read), {})
    assert again.state == game.state and isinstance(again.entries[i].event, Undone)
    # A reader that missed it: the log is folded as written, to the same game.
    missed = Game.from_rows(RULES, CONFIG, game.seed, rows, read, {}, {})
    assert missed.state == game.state and missed.last_action() == game.last_action()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-1, 9), max_size=9))
def test_opening_refuses_exactly_the_logs_that_are_not_numbered_as_a_table_numbers_them(actions: list[int]) -> None:
    """The numbering is checked a column at a time; it refuses what the event-by-event rule refuses."""
    from companion.core.game import _check_numbering

    rows = [(seq, action, "stored") for seq, action in enumerate(actions, start=1)]
    try:
        _check_numbering([(seq, action) for seq, action, _ in rows])
    except MalformedInput:
        numbered = False
    else:
        numbered = True

    def undecodable(stored: str) -> Any:
        raise MalformedInput("test.not_read", "not decoded")

    try:
        Game.from_rows(RULES, CONFIG, 1, rows, undecodable, {}, {})
    except MalformedInput as refused:
        assert (refused.code != "import.bad_sequence") == numbered
    else:
        assert numbered
