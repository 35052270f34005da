"""Game logs to measure with: random legal games played by the tests' drivers (``tests/drivers.py``),
so every event in them is one the rules really produce."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import common  # noqa: F401  (puts the repository and tests/ on the path)
import conftest  # noqa: F401  (registers the toy game)
from drivers import DRIVERS

from companion.core import TABLE, Audience, Game, Intent, Undo, UndoRefused
from companion.games import get_rules


@dataclass
class Played:
    """A game and the actions that made it: (seq before the action, intent, actor)."""

    game: Game[Any]
    actions: list[tuple[int, Intent, Audience]] = field(default_factory=list)


def play(name: str, events: int, seed: int, undo: float = 0.0, keep_going: bool = False) -> Played:
    """Play ``name`` with its driver until the log holds ``events`` events or the game ends.

    ``undo``: how often the table takes back the last action instead of playing on.
    ``keep_going``: an action that would end the game is taken back (or another one is chosen)
    instead, so the log can grow past a real game's length — the log a long evening of
    corrections leaves.
    """
    rules_name, config, choose = DRIVERS[name]
    game: Game[Any] = Game(get_rules(rules_name), config, seed)
    played = Played(game)
    rng = random.Random(seed)
    stuck = 0
    while game.seq < events and game.outcome() is None:
        if rng.random() < undo or stuck > 5:
            try:
                undone = game.decide(Undo(), TABLE, game.seq)
            except UndoRefused:
                pass
            else:
                played.actions.append((game.seq, Undo(), TABLE))
                game.commit(undone)
                stuck = 0
                continue
        choice = choose(game, rng)
        if choice is None:
            break
        intent, actor = choice
        caused = game.decide(intent, actor, game.seq)
        state = game.after(caused)
        if keep_going and game.rules.outcome(state) is not None:
            stuck += 1
            if stuck > 500:
                break
            continue
        played.actions.append((game.seq, intent, actor))
        game.commit(caused, state)
    return played


def long_game(name: str, events: int, seed: int = 1) -> Played:
    """A game whose log holds ``events`` events, with a table that undoes one action in ten."""
    return play(name, events, seed, undo=0.1, keep_going=True)


def full_game(name: str, events: int, first_seed: int = 1) -> Played:
    """The first game (by seed) whose natural course reaches ``events`` events, cut there."""
    best: Played | None = None
    for seed in range(first_seed, first_seed + 40):
        played = play(name, events, seed, undo=0.03)
        if played.game.seq >= events:
            return played
        if best is None or played.game.seq > best.game.seq:
            best = played
    assert best is not None
    return best
