"""A golden playthrough: every screen's view after every event of one seeded game.

Read it to check that nothing secret leaks (only the ``mrx`` lines and ``debug`` events show
Mister X's hidden stations). Regenerate with ``UPDATE_GOLDEN=1`` after an intended change.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from sy_support import SYGame, new_game, play_random

from companion.core.playthrough import render
from companion.games.scotland_yard.model import REVEALS

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "scotland_yard.txt"
SETUP = {"mister_x": "Xenia", "detectives": ["Ben", "Cleo"], "tracker": True}
SEED = 12


def golden_game() -> SYGame:
    """Start cards drawn by the companion, then legal moves: detectives chase, Mister X runs."""
    game = new_game(SETUP, SEED)
    play_random(game, random.Random(SEED), chase=0.8, double=0.3)
    return game


def test_the_golden_game_covers_what_a_reader_should_check() -> None:
    game = golden_game()
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "sy.captured"
    assert any(f.field in REVEALS for f in game.state.route)
    assert any(f.step for f in game.state.route)  # a double move


def test_golden_playthrough() -> None:
    text = render(golden_game())
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text, "utf-8")
    assert len(text) < 300_000
    assert GOLDEN.read_text("utf-8") == text
