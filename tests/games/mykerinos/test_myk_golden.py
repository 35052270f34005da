"""The golden playthrough: every screen's view after every event of one seeded two-player game.

Regenerate after an intended change with ``UPDATE_GOLDEN=1`` and read the diff before committing.
"""

from __future__ import annotations

import os
from pathlib import Path

from myk_helpers import random_game

from companion.core.playthrough import render

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "mykerinos.txt"
CONFIG = {"seats": ["blue", "red"], "layout": "line4", "last_zone": "confirm"}  # as every new game


def test_golden_playthrough() -> None:
    game = random_game(CONFIG, seed=5, driver_seed=5, draws=True)
    assert game.outcome() is not None
    text = render(game)
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text, "utf-8")
    expected = GOLDEN.read_text("utf-8")
    assert len(expected) < 400_000
    assert text == expected
    # what the golden game shows: both draws, the neutral, the museum, an undo and a correction
    for kind in (
        "myk.start_player_drawn",
        "myk.patrons_drawn",
        "myk.neutral_parcel",
        "myk.museum_placed",
        "myk.exhibition_scored",
        "core.undone",
    ):
        assert f'"kind":"{kind}"' in expected, kind
