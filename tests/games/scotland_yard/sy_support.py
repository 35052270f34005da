"""Helpers for the Scotland Yard tests: actors, playing intents, and a player driven by ``legal``."""

from __future__ import annotations

import functools
import random
from collections import deque
from collections.abc import Collection, Sequence
from typing import Any

from companion.core import TABLE, Audience, Game, Intent
from companion.games.scotland_yard import RULES
from companion.games.scotland_yard.board import base_board
from companion.games.scotland_yard.model import (
    Confirm,
    DrawStart,
    Move,
    PlaceDetectives,
    PlaceX,
    Step,
    SYState,
    XDouble,
    XMove,
)

MRX = Audience.of_seat("mrx")
D1 = Audience.of_seat("d1")
D2 = Audience.of_seat("d2")

SYGame = Game[SYState]


def seat(name: str) -> Audience:
    return Audience.of_seat(name)


def new_game(config: Any = None, seed: int = 1) -> SYGame:
    return Game(RULES, {} if config is None else config, seed)


def play(game: SYGame, intent: Intent, actor: Audience) -> None:
    game.commit(game.decide(intent, actor, game.seq))


def placed(stations: dict[str, int], x: int, config: Any = None) -> SYGame:
    """A game whose start stations were entered by hand (the table's D cards, Mister X's X card)."""
    game = new_game(config)
    play(game, PlaceDetectives(tuple(stations.items())), TABLE)
    play(game, PlaceX(x), MRX)
    return game


def x_move(game: SYGame, ticket: str, station: int) -> None:
    play(game, XMove(ticket, station), MRX)  # type: ignore[arg-type]


def x_double(game: SYGame, t1: str, s1: int, t2: str, s2: int) -> None:
    play(game, XDouble(Step(t1, s1), Step(t2, s2)), MRX)  # type: ignore[arg-type]


def move(game: SYGame, figure: str, ticket: str, station: int, actor: Audience = TABLE) -> None:
    play(game, Move(figure, ticket, station), actor)  # type: ignore[arg-type]


def snapshot_state(game: SYGame) -> tuple[SYState, list[Any]]:
    return game.state, list(game.entries)


@functools.cache
def distances() -> dict[int, dict[int, int]]:
    """Shortest number of steps between stations over taxi, bus and underground."""
    board = base_board()
    out: dict[int, dict[int, int]] = {}
    for source in board.stations:
        seen = {source: 0}
        todo = deque([source])
        while todo:
            here = todo.popleft()
            for line in ("taxi", "bus", "underground"):
                for n in board.neighbours(line, here):
                    if n not in seen:
                        seen[n] = seen[here] + 1
                        todo.append(n)
        out[source] = seen
    return out


def random_intent(
    game: SYGame, rng: random.Random, chase: float = 0.5, double: float = 0.15
) -> tuple[Intent, Audience]:
    """A legal intent chosen from ``legal`` (never from the rules' internals).

    Detectives move towards Mister X's true station with probability ``chase`` (the test
    peeks at the state for that, so that games also end by capture)."""
    state = game.state
    if state.phase == "start":
        return DrawStart(), TABLE
    if state.phase == "x":
        x = legal(state, MRX)["x"]
        if x["double"] and rng.random() < double:
            d = rng.choice(x["double"])
            t2 = rng.choice(sorted(d["then"]))
            return XDouble(Step(d["ticket"], d["station"]), Step(t2, rng.choice(d["then"][t2]))), MRX
        ticket = rng.choice(sorted(x["single"]))
        return XMove(ticket, rng.choice(x["single"][ticket])), MRX
    waiting = state.instruction  # the table's detectives' last move, its pawn not yet confirmed
    if waiting is not None and (rng.random() < 0.5 or not legal(state, TABLE).get("moves")):
        return Confirm(waiting.figure), TABLE  # else a player's move confirms it
    actor = rng.choice([TABLE, *(seat(s) for s in state.seats[1:] if s not in state.table_seats())])
    options = legal(state, actor).get("moves") or legal(state, TABLE)["moves"]
    if "moves" not in legal(state, actor):
        actor = TABLE
    figure = rng.choice(sorted(options))
    choices = [(line, s) for line in sorted(options[figure]) for s in options[figure][line]]
    if rng.random() < chase:
        far = distances()[state.x_station]
        line, station = min(choices, key=lambda c: (far.get(c[1], 99), c))
    else:
        line, station = rng.choice(choices)
    return Move(figure, line, station), actor


def play_random(game: SYGame, rng: random.Random, actions: int = 1000, **kw: float) -> None:
    for _ in range(actions):
        if game.outcome() is not None:
            return
        intent, actor = random_intent(game, rng, **kw)
        play(game, intent, actor)


def detectives_move(
    game: SYGame, avoid: Collection[int] = (), prefer: Sequence[str] | None = None, actor: Audience = TABLE
) -> None:
    """Move every figure once, in figure order, deterministically and never onto Mister X (or
    ``avoid``) unless nothing else is left. ``prefer``: lines in order of preference; default: the
    line the figure's seat holds most tickets of."""
    while game.state.phase == "detectives":
        state = game.state
        options = legal(state, actor)["moves"]
        figure = next(f for f in state.figures if f in options)
        i = state.figures.index(figure)
        lines = options[figure]
        if prefer is not None:
            order = [line for line in prefer if line in lines]
        else:
            purse = state.purses[state.purse_of[i]] if state.purse_of[i] >= 0 else (0, 0, 0)
            order = sorted(lines, key=lambda line: (-purse[("taxi", "bus", "underground").index(line)], line))
        choices = [(line, s) for line in order for s in lines[line]]
        safe = [c for c in choices if c[1] != state.x_station and c[1] not in avoid]
        line, station = (safe or choices)[0]
        move(game, figure, line, station, actor)


def view(game: SYGame, audience: Audience) -> Any:
    """The view part of a snapshot, untyped for convenient indexing in assertions."""
    return game.snapshot(audience)["view"]


def legal(state: SYState, actor: Audience) -> Any:
    return RULES.legal(state, actor)
