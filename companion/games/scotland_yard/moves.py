"""Which moves are legal: for each figure, and for Mister X (single, black and double moves)."""

from __future__ import annotations

from collections.abc import Collection

from companion.games.scotland_yard.board import Board
from companion.games.scotland_yard.model import NORMAL, SYState, Tickets

Options = dict[str, tuple[int, ...]]  # ticket (or line) -> destinations


def figure_options(state: SYState, index: int) -> Options:
    """Lines figure ``index`` can take now and where to (free stations only; no ferry)."""
    board, here, occupied = state.board, state.positions[index], state.positions
    purse = state.purse_of[index]
    out: Options = {}
    for k, line in enumerate(NORMAL):
        if purse >= 0 and state.purses[purse][k] == 0:
            continue
        free = tuple(n for n in board.neighbours(line, here) if n not in occupied)
        if free:
            out[line] = free
    return out


def can_move(state: SYState, index: int) -> bool:
    board, here, occupied = state.board, state.positions[index], state.positions
    purse = state.purse_of[index]
    for k, line in enumerate(NORMAL):
        if purse >= 0 and state.purses[purse][k] == 0:
            continue
        if any(n not in occupied for n in board.neighbours(line, here)):
            return True
    return False


def to_move(state: SYState) -> list[int]:
    """Figures that have not moved in this detective phase and can move now."""
    return [i for i in range(len(state.figures)) if not state.moved[i] and can_move(state, i)]


def phase_done(state: SYState) -> bool:
    """Every figure has moved or cannot move: the detective phase (and the round) is over."""
    return not any(not state.moved[i] and can_move(state, i) for i in range(len(state.figures)))


def detectives_stuck(state: SYState) -> bool:
    """No detective can move (with ``bobbies_keep_game_alive``: no detective and no bobby)."""
    return not any(
        can_move(state, i) for i in range(len(state.figures)) if state.bobbies_keep_game_alive or not state.is_bobby(i)
    )


def x_options(board: Board, here: int, occupied: Collection[int], supply: Tickets, black: int) -> Options:
    """Mister X's single moves: normal tickets while the supply has them, black if he has one."""
    out: Options = {}
    for k, line in enumerate(NORMAL):
        if supply[k] > 0:
            free = tuple(n for n in board.neighbours(line, here) if n not in occupied)
            if free:
                out[line] = free
    if black > 0:
        free = tuple(n for n in board.neighbours("black", here) if n not in occupied)
        if free:
            out["black"] = free
    return out


def x_singles(state: SYState) -> Options:
    return x_options(state.board, state.x_station, state.positions, state.supply, state.x_black)


def pay(supply: Tickets, black: int, ticket: str) -> tuple[Tickets, int]:
    """Supply and black tickets after Mister X pays ``ticket``."""
    if ticket == "black":
        return supply, black - 1
    return add(supply, NORMAL.index(ticket), -1), black


def add(tickets: Tickets, k: int, amount: int) -> Tickets:
    """``tickets`` with ``amount`` added to type ``k`` (0 taxi, 1 bus, 2 underground)."""
    out = list(tickets)
    out[k] += amount
    return (out[0], out[1], out[2])


def x_doubles(state: SYState) -> list[tuple[str, int, Options]]:
    """Double moves as (first ticket, first station, second options); empty if none is allowed."""
    if state.x_double <= 0:
        return []
    out = []
    for ticket, stations in x_singles(state).items():
        supply, black = pay(state.supply, state.x_black, ticket)
        for first in stations:
            then = x_options(state.board, first, state.positions, supply, black)
            if then:
                out.append((ticket, first, then))
    return out
