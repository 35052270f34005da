"""Properties over random legal games (every choice is taken from ``legal``)."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from spoken import actions as action_spans
from spoken import numbers, spoken
from sy_support import MRX, SYGame, legal, new_game, play, random_intent, seat

from companion.core import (
    TABLE,
    Audience,
    Entry,
    Event,
    IllegalMove,
    Intent,
    KindCodec,
    Undo,
    UndoRefused,
    event_codec,
    fold,
    intent_codec,
)
from companion.core.playthrough import steps
from companion.games.scotland_yard import RULES, tracker
from companion.games.scotland_yard.board import D_CARDS, X_CARDS
from companion.games.scotland_yard.model import (
    REVEALS,
    DetectivesPlaced,
    FigureMoved,
    GameEnded,
    PlaceDetectives,
    PlaceX,
    SetTracker,
    SYState,
    XMoved,
    XPlaced,
)

CONFIGS: list[dict[str, Any]] = [
    {},
    {"detectives": ["solo"]},
    {"detectives": ["a", "b", "c"], "tracker": True},
    {"detectives": ["a", "b", "c", "d", "e"], "bobbies_keep_game_alive": True},
    {"detectives": ["a", "b", "c", "d"], "board": {"add": [[13, 14, "taxi"]]}},
]
games = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from(CONFIGS))


def start(game: SYGame, rng: random.Random) -> None:
    """Half the games draw the start cards, half enter them as if drawn by hand."""
    if rng.random() < 0.5:
        intent, actor = random_intent(game, rng)
        play(game, intent, actor)
        return
    stations = rng.sample(D_CARDS, len(game.state.figures))
    play(game, PlaceX(rng.choice(X_CARDS)), MRX)
    play(game, PlaceDetectives(tuple(zip(game.state.figures, stations, strict=True))), TABLE)


def random_game(seed: int, config: dict[str, Any], actions: int = 400) -> SYGame:
    rng = random.Random(seed)
    game = new_game(config, seed)
    start(game, rng)
    chase, double = rng.choice([0.0, 0.05, 0.2, 0.6]), rng.random() * 0.4
    for _ in range(actions):
        if game.outcome() is not None:
            break
        intent, actor = random_intent(game, rng, chase=chase, double=double)
        play(game, intent, actor)
    return game


def round_trip(codec: KindCodec[Any], value: Event | Intent) -> None:
    data = json.loads(json.dumps(codec.encode(value)))
    assert codec.decode(data) == value
    assert codec.encode(codec.decode(data)) == data


@settings(max_examples=30, deadline=None)
@given(games)
def test_fold_equals_live_state_and_json_round_trips(game_args: tuple[int, dict[str, Any]]) -> None:
    seed, config = game_args
    rng = random.Random(seed)
    game = new_game(config, seed)
    events, intents = event_codec(RULES), intent_codec(RULES)
    start(game, rng)
    for entry in game.entries:
        round_trip(events, entry.event)
    for _ in range(400):
        if game.outcome() is not None:
            break
        roll = rng.random()
        intent: Intent
        if roll < 0.05:
            intent, actor = SetTracker(not game.state.tracker_on), TABLE
        elif roll < 0.12:
            intent, actor = Undo(), rng.choice([TABLE, MRX])
        else:
            intent, actor = random_intent(game, rng, chase=0.3)
        round_trip(intents, intent)
        try:
            new = game.decide(intent, actor, game.seq)
        except UndoRefused:
            continue
        for event in new:
            round_trip(events, event)
        if not isinstance(intent, Undo):
            stepwise = game.state
            for k, event in enumerate(new):
                stepwise = RULES.apply(stepwise, event)
                # The state after every single event (also inside an action) is a fold of the log.
                partial = [*game.entries, *game.entries_for(new)][: game.seq + k + 1]
                assert fold(RULES, game.start, partial) == stepwise
        game.commit(new)
        assert fold(RULES, game.start, game.entries) == game.state
    assert game.outcome() is not None


def expected_undoer(events: list[Event]) -> Audience | None:
    """The spec's undo policy, stated independently of the event classes."""
    if any(isinstance(e, GameEnded) for e in events):
        return None
    if any(isinstance(e, (DetectivesPlaced, XPlaced)) and e.drawn for e in events):
        return None
    if any(isinstance(e, XMoved) and e.field in REVEALS for e in events):
        return None
    if any(isinstance(e, (XMoved, XPlaced)) for e in events):
        return MRX
    return TABLE


@settings(max_examples=30, deadline=None)
@given(games, st.integers(1, 120))
def test_undo_back_to_the_start_reproduces_every_earlier_state(
    game_args: tuple[int, dict[str, Any]], length: int
) -> None:
    seed, config = game_args
    game = random_game(seed, config, actions=length)
    # The state before each action, from the log itself.
    before: dict[int, SYState] = {}
    for entry in game.entries:
        if entry.seq == entry.action:
            before[entry.action] = fold(RULES, game.start, [e for e in game.entries if e.seq < entry.seq])
    while last := game.last_action():
        undoer = expected_undoer([e.event for e in last])
        others = [a for a in (TABLE, MRX, seat("d1")) if a != undoer]
        for actor in others:
            try:
                game.decide(Undo(), actor, game.seq)
            except UndoRefused:
                continue
            raise AssertionError(f"{actor} may not undo {last}")
        if undoer is None:
            return  # never undone: a start draw, a reveal or the end
        play(game, Undo(), undoer)
        assert game.state == before[last[0].action]
    assert game.state == game.start


# --------------------------------------------------------------------------------------- secrecy


def captures(entry: Entry | None, state: SYState) -> bool:
    """The event just applied put a figure on Mister X's station (its action ends the game)."""
    return entry is not None and isinstance(entry.event, FigureMoved) and entry.event.station == state.x_station


def walk(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every (path, value) under a key named like a place: station(s), route, candidates."""
    if isinstance(value, dict):
        for key, sub in value.items():
            if key in ("station", "stations", "route", "x_station"):
                yield (*path, key), sub
            yield from walk(sub, (*path, key))
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield from walk(sub, (*path, i))


def masked(state: SYState) -> SYState:
    """The same state with every secret replaced: hidden stations scrambled."""
    route = tuple(f if f.field in REVEALS else dataclasses.replace(f, station=1000 + f.station) for f in state.route)
    return dataclasses.replace(state, x_station=state.x_station and 2000 + state.x_station, route=route)


def assert_no_leak(snap: dict[str, Any], state: SYState, audience: Audience, capturing: bool) -> None:
    """``capturing``: the last event put a figure on his station (its action ends the game)."""
    view = snap["view"]
    over = state.phase == "over"
    x = state.x_station
    assert "secret" not in view and "x" not in snap["legal"]
    for path, value in walk(view):
        assert path[-1] == "station", path  # no route, no other place names
        if value == x and x and not over:
            revealed_now = path == ("mrx", "station") and state.shown == x
            revealed_log = path[0] == "log" and state.route[path[1]].field in REVEALS
            captor = path[0] == "figures" and capturing
            reveals = [f for f in state.route if f.field in REVEALS]
            last_reveal = path == ("last_reveal", "station") and bool(reveals) and reveals[-1].station == x
            assert revealed_now or revealed_log or captor or last_reveal, f"{audience.label()} sees Mister X at {path}"
    for entry, field in zip(view["log"], state.route, strict=True):
        shown = over or field.field in REVEALS
        assert entry["station"] == (field.station if shown else None)
    assert view["mrx"]["station"] == ((x or None) if over else (state.shown or None))
    if not over:
        # Non-interference: with every secret replaced, this audience sees exactly the same.
        other = masked(state)
        assert RULES.view(other, audience) == view
        assert legal(other, audience) == snap["legal"]


@settings(max_examples=12, deadline=None)
@given(games)
def test_no_view_but_mister_x_and_debug_contains_his_station(game_args: tuple[int, dict[str, Any]]) -> None:
    seed, config = game_args
    game = random_game(seed, config)
    state = game.start
    states = {0: state}
    views: Any
    for entry, views in steps(game):
        if entry is not None:
            state = RULES.apply(state, entry.event)
            states[entry.seq] = state
        capturing = captures(entry, state)
        if capturing:
            assert entry is not None
            assert isinstance(game.entries[entry.seq].event, GameEnded)  # the same action announces it
        for label, snap in views.items():
            if label != "mrx":
                assert_no_leak(snap, state, Audience.parse(label), capturing)
        if state.x_station:
            assert views["mrx"]["view"]["secret"]["station"] == state.x_station
        debug: Any = RULES.view(state, Audience.debug())
        assert debug["secret"]["station"] == (state.x_station or None)
    # The table's speaker, heard by every audience: never his station while it is hidden, and the
    # same words with every secret replaced.
    said = 0
    for before, after, _undo in action_spans(game):
        words = spoken(RULES, states[before], states[after])
        said += len(words)
        end = states[after]
        if end.phase != "over":
            assert spoken(RULES, masked(states[before]), masked(end)) == words
            if end.x_station and end.shown != end.x_station:
                assert end.x_station not in numbers(words), words
    assert said > 0 or game.outcome() is None


@settings(max_examples=12, deadline=None)
@given(games)
def test_tracker_holds_his_true_station_and_follows_from_the_table_view_alone(
    game_args: tuple[int, dict[str, Any]],
) -> None:
    seed, config = game_args
    game = random_game(seed, {**config, "tracker": True})
    state = game.start
    record: list[tracker.Seen] = []
    seen_fields = 0
    where: dict[str, int | None] = {}
    views: Any
    for entry, views in steps(game):
        if entry is not None:
            state = RULES.apply(state, entry.event)
        table = views["table"]["view"]
        # Public facts only, read off what the touchscreen shows.
        for figure in table["figures"]:
            if figure["station"] != where.get(figure["figure"]):
                where[figure["figure"]] = figure["station"]
                record.append(tracker.Seen(figure=figure["figure"], station=figure["station"]))
        for field in table["log"][seen_fields:]:
            if field["reveal"]:
                record.append(tracker.Seen(station=field["station"]))
            else:
                record.append(tracker.Seen(ticket=field["ticket"]))
        seen_fields = len(table["log"])
        if table["end"] is not None and table["end"]["reason"] == "captured":
            record.append(tracker.Seen(station=table["end"]["station"]))
        if state.phase == "over":  # the end shows no possible stations (issue 30, item 9)
            assert "candidates" not in table["tracker"]
            continue
        candidates = table["tracker"]["candidates"]
        assert candidates == sorted(tracker.replay(state.board, record))
        assert candidates == sorted(state.candidates)
        capturing = captures(entry, state)
        if state.x_station and not capturing:  # a capture is announced by the next event of its action
            assert state.x_station in candidates


def test_illegal_destinations_from_legal_are_never_offered() -> None:
    """Every option ``legal`` lists is accepted, and a few that it does not list are refused."""
    game = random_game(7, {}, actions=30)
    rng = random.Random(3)
    for _ in range(40):
        if game.outcome() is not None:
            break
        intent, actor = random_intent(game, rng)
        assert game.decide(intent, actor, game.seq)
        if hasattr(intent, "station") and hasattr(intent, "ticket"):
            wrong = dataclasses.replace(intent, station=intent.station % 199 + 1)  # type: ignore[type-var]
            try:
                game.decide(wrong, actor, game.seq)
            except IllegalMove as err:
                assert err.code in ("sy.not_connected", "sy.occupied")
        play(game, intent, actor)
