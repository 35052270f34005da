"""The seats the table plays: when the table has to act for Mister X or for its detectives, and how.

:func:`table_turn` tells the app's table player (``companion.app.autoplay``) that the table must
act now:

- as ``mrx`` (option ``mister_x_ai``): draw his secret start card once the detectives stand on
  theirs, or choose his move with the AI (:mod:`companion.games.scotland_yard.ai`);
- as ``yard`` (option ``detectives_ai``): move one of its detectives or bobbies with the
  detectives' AI (:mod:`companion.games.scotland_yard.detectives_ai`). Its move is an instruction
  the players carry out on the board; the table waits until the pawn is confirmed (a tap, or
  anyone's next move) before it makes another move, for either side.

The player runs ``decide`` off the event loop and submits its intent through the same ``decide``
and the same store as a phone's; the rules check it like any other. Every decision is a function
of the state and the game's seed, so a restart (the log replayed) decides the same move again.
"""

from __future__ import annotations

from companion.core.events import Intent
from companion.core.rules import TableTurn
from companion.games.scotland_yard import ai, detectives_ai
from companion.games.scotland_yard.model import MRX, YARD, DrawStart, SYState


def table_turn(state: SYState, seed: int, cpu_budget: float | None) -> TableTurn | None:
    """What the table plays now (``None``: nothing). ``seed`` makes the AI's choice repeatable."""
    if state.end is not None or state.instruction is not None:
        return None  # the table's last move waits for its pawn
    if state.x_ai is not None:
        if state.phase == "start" and not state.x_station and state.positions[0]:
            return TableTurn(MRX, DrawStart)  # he draws his X card after the detectives' D cards
        if state.phase == "x":
            level = state.x_ai

            def choose() -> Intent:
                return ai.choose(state, level, seed, cpu_budget)

            return TableTurn(MRX, choose)
    if state.d_ai is not None and state.phase == "detectives" and detectives_ai.table_figures_to_move(state):
        d_level = state.d_ai

        def move() -> Intent:
            return detectives_ai.choose(state, d_level, seed)

        return TableTurn(YARD, move)
    return None
