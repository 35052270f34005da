"""Drivers that play random legal games, shared by the crash test and benchmarks.

A driver chooses the next (intent, actor) from the game's current state and a seeded
``random.Random``, so a run can be repeated exactly from (game seed, driver seed).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from toygame import Add, AddTwice, Draw

from companion.core import TABLE, Audience, Game, Intent, Undo
from companion.core.jsonvalue import JSONObject

Choice = tuple[Intent, Audience] | None


def toy_choose(game: Game[Any], rng: random.Random) -> Choice:
    state = game.state
    if not state.secrets:
        return Draw(), TABLE
    seat = state.seats[state.turn]
    roll = rng.random()
    if roll < 0.1 and game.can_undo(TABLE):
        return Undo(), TABLE
    if roll < 0.4:
        return AddTwice(seat, rng.randint(1, 3)), Audience.of_seat(seat)
    return Add(seat, rng.randint(1, 3)), Audience.of_seat(seat)


def _game_helpers(game: str, module: str) -> Any:
    """A game's random legal player lives with its tests (tests/games/<game>/)."""
    import importlib
    import sys
    from pathlib import Path

    folder = str(Path(__file__).resolve().parent / "games" / game)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module(module)


def mykerinos_choose(game: Game[Any], rng: random.Random) -> Choice:
    step: Choice = _game_helpers("mykerinos", "myk_helpers").random_step(game, rng)
    return step


def scotland_yard_choose(game: Game[Any], rng: random.Random) -> Choice:
    # Double moves often, so kills also land while a two-event action is being written.
    step: Choice = _game_helpers("scotland_yard", "sy_support").random_intent(game, rng, chase=0.3, double=0.5)
    return step


def victorian_masterminds_choose(game: Game[Any], rng: random.Random) -> Choice:
    step: Choice = _game_helpers("victorian_masterminds", "vm_helpers").random_intent(game.state, rng)
    return step


VM_CONFIG: JSONObject = {
    "players": [
        {"seat": "p1", "colour": "red", "machine": 1},
        {"seat": "p2", "colour": "blue", "machine": 2},
        {"seat": "p3", "colour": "green", "machine": 3},
    ],
    "secret_service_start": 4,
}

DRIVERS: dict[str, tuple[str, JSONObject, Callable[[Game[Any], random.Random], Choice]]] = {
    "victorian_masterminds": ("victorian_masterminds", VM_CONFIG, victorian_masterminds_choose),
    "scotland_yard": ("scotland_yard", {"detectives": ["Ann", "Bob"], "tracker": True}, scotland_yard_choose),
    "toy": ("toy", {"target": 10**9}, toy_choose),
    "mykerinos": ("mykerinos", {"seats": ["blue", "red"], "layout": "line4"}, mykerinos_choose),
}


def reference_run(
    rules_name: str,
    config: JSONObject,
    seed: int,
    driver_seed: int,
    past_seq: int,
    undo: float = 0.0,
    choose: Callable[[Game[Any], random.Random], Choice] | None = None,
) -> Game[Any]:
    """Play without any store, exactly as the table would, until the log is longer than
    ``past_seq`` (or the game ends), for comparison. ``undo``: how often the table takes back the
    last action instead (when it may); ``choose``: another player than the game's driver."""
    from companion.games import get_rules

    choose = choose or DRIVERS[rules_name][2]
    rules = get_rules(rules_name)
    game: Game[Any] = Game(rules, {**rules.new_game_config, **config}, seed)  # as Table.new_game sets it up
    rng = random.Random(driver_seed)
    while game.seq <= past_seq:
        if undo and rng.random() < undo and game.can_undo(TABLE):
            game.commit(game.decide(Undo(), TABLE, game.seq))
            continue
        if game.outcome() is not None:
            break
        choice = choose(game, rng)
        if choice is None:
            break
        game.commit(game.decide(choice[0], choice[1], game.seq))
    return game
