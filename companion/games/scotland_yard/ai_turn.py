"""Mister X played by the table: when the table has to act for him, and how.

:func:`table_turn` tells the app's table player (``companion.app.autoplay``) that the table must
act as the seat ``mrx`` now: draw his secret start card once the detectives stand on theirs, or
choose his move with the AI (:mod:`companion.games.scotland_yard.ai`). The player runs ``decide``
off the event loop and submits its intent as Mister X, through the same ``decide`` and the same
store as a phone's; the rules check it like any other.
"""

from __future__ import annotations

from companion.core.events import Intent
from companion.core.rules import TableTurn
from companion.games.scotland_yard import ai
from companion.games.scotland_yard.model import MRX, DrawStart, SYState


def table_turn(state: SYState, seed: int, cpu_budget: float | None) -> TableTurn | None:
    """What the table plays now (``None``: nothing). ``seed`` makes the AI's choice repeatable."""
    if state.x_ai is None or state.end is not None:
        return None
    if state.phase == "start" and not state.x_station and state.positions[0]:
        return TableTurn(MRX, DrawStart)  # he draws his X card after the detectives' D cards
    if state.phase == "x":
        level = state.x_ai

        def choose() -> Intent:
            return ai.choose(state, level, seed, cpu_budget)

        return TableTurn(MRX, choose)
    return None
