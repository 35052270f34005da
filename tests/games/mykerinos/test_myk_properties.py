"""Property tests over random legal games (bounded): replay, accounting, scores, exact JSON."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from myk_helpers import RULES, check, do, new_game, random_step

from companion.core import Entry, Game, Undone, decode, encode, event_codec, fold, intent_codec
from companion.core.jsonvalue import dumps, loads
from companion.games.mykerinos.events import ExhibitionScored, ParcelTaken, ScoreCorrected
from companion.games.mykerinos.state import MykState

CONFIGS: list[dict[str, Any]] = [
    {"seats": ["blue", "red"]},
    {"seats": ["white", "green"], "neutral": "red", "layout": "ring5"},
    {"seats": ["blue", "red", "green"]},
    {"seats": ["green", "white", "red"], "layout": "ring5"},
    {"seats": ["blue", "red", "green", "white"]},
    {"seats": ["red", "blue", "white", "green"], "layout": "ring5"},
]

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)


def live_entries(game: Game[Any]) -> list[Entry]:
    undone = {e.event.target for e in game.entries if isinstance(e.event, Undone)}
    return [e for e in game.entries if e.action not in undone and not isinstance(e.event, Undone)]


@SETTINGS
@given(st.sampled_from(CONFIGS), st.integers(0, 2**16), st.booleans())
def test_random_games(config: dict[str, Any], seed: int, corrections: bool) -> None:
    game = new_game(config, seed)
    rng = random.Random(seed)
    events_codec, intents_codec = event_codec(RULES), intent_codec(RULES)
    for n in range(3000):
        step = random_step(game, rng, corrections)
        if step is None:
            break
        intent, actor = step
        # intents from a phone or a file round-trip exactly
        assert intents_codec.decode(loads(dumps(intents_codec.encode(intent)))) == intent
        do(game, intent, actor)  # checks 25 per colour and more at every step
        for entry in game.entries[-3:]:
            assert events_codec.decode(loads(dumps(events_codec.encode(entry.event)))) == entry.event
        if n % 17 == 0:
            assert fold(RULES, game.start, game.entries) == game.state
    assert game.outcome() is not None
    state: MykState = game.state

    # fold(log) = live state; a different seed replays to the same state (draws are in the log)
    assert Game(RULES, config, seed + 1, game.entries).state == state
    # the invariants hold after every single event too (screens are shown mid-action in playthroughs)
    replay = game.start
    for entry in live_entries(game):
        replay = RULES.apply(replay, entry.event)
        check(replay)
    assert replay == state
    # the state itself round-trips exactly through JSON
    assert decode(MykState, loads(dumps(encode(state)))) == state

    # scores = parcel points + exhibition (+ the table's score corrections)
    expected = dict.fromkeys(state.seats, 0)
    for entry in live_entries(game):
        ev = entry.event
        if isinstance(ev, ParcelTaken):
            expected[ev.seat] += ev.points
        elif isinstance(ev, ScoreCorrected):
            expected[ev.seat] += ev.delta
        elif isinstance(ev, ExhibitionScored):
            for line in ev.lines:
                expected[line.seat] += line.total
                assert line.total == sum(line.wings) + line.sets
    assert dict(zip(state.seats, state.score, strict=True)) == expected
    outcome = game.outcome()
    assert outcome is not None
    best = max((state.score[i], state.supply[i]) for i in range(len(state.seats)))
    assert outcome.winners == tuple(s for i, s in enumerate(state.seats) if (state.score[i], state.supply[i]) == best)


@settings(max_examples=15, deadline=None, derandomize=True)
@given(st.sampled_from(CONFIGS), st.integers(0, 2**16))
def test_views_and_legal_are_json_for_every_audience_at_every_step(config: dict[str, Any], seed: int) -> None:
    from companion.core import TABLE, Audience

    game = new_game(config, seed)
    rng = random.Random(seed)
    audiences = [TABLE, *(Audience.of_seat(s) for s in game.state.seats)]
    while (step := random_step(game, rng, corrections=False)) is not None:
        do(game, *step)
        for audience in audiences:
            snap = game.snapshot(audience)
            assert loads(dumps(snap)) == snap
            view = snap["view"]
            assert isinstance(view, dict)
            total = sum(p["projection"] for p in view["players"].values())  # type: ignore[union-attr,index]
            assert total >= sum(view["players"][s]["score"] for s in game.state.seats)  # type: ignore[index]
            if audience.kind == "seat":
                # a seat is offered only its own actions, and its view says so
                legal = snap["legal"]
                assert isinstance(legal, list)
                assert all(o["seat"] == audience.seat for o in legal)  # type: ignore[index,call-overload]
                assert view["to_act"] == bool(legal)
