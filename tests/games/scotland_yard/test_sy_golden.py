"""A golden playthrough: every screen's view after every event of one seeded game.

Read it to check that nothing secret leaks (only the ``mrx`` lines and ``debug`` events show
Mister X's hidden stations). Regenerate with ``UPDATE_GOLDEN=1`` after an intended change.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from sy_support import SYGame, new_game, play_random

from companion.core.playthrough import render, steps
from companion.games.scotland_yard.model import REVEALS, XMoved

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
    # Mister X shows himself on the second step of his double move (field 3); that reveal stays on
    # every detective's screen and the table's until the next one (issue 30, item 6)
    (shown,) = [f for f in game.state.route if f.field in REVEALS]
    assert shown.step == 2
    seen = 0
    for entry, views in steps(game):
        if entry is not None and isinstance(entry.event, XMoved) and entry.event.field == shown.field:
            seen = entry.seq
        if seen:
            for label in ("table", "d1", "d2"):
                last = views[label]["view"]["last_reveal"]
                assert (last["field"], last["station"]) == (3, shown.station), (entry, label)
    assert seen


def test_golden_playthrough() -> None:
    text = render(golden_game())
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text, "utf-8")
    assert len(text) < 300_000
    assert GOLDEN.read_text("utf-8") == text
