"""Each game's touchscreen parts, found through the one registry of games (``companion.games``).

A game's touchscreen module (its registry entry's ``touchscreen``) offers ``SetupForm`` (the
new-game form) and ``TableView`` (the table screen, the end-of-game summary and the words for the
header); see :mod:`ui.games.base`. A game without one gets :mod:`ui.games.generic`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from companion.games import entry, game_names

GENERIC = "ui.games.generic"


def game_ui(rules: str) -> ModuleType:
    module = entry(rules).touchscreen if rules in game_names() else ""
    return importlib.import_module(module or GENERIC)


def playable() -> tuple[str, ...]:
    """The games the new-game screen offers: every registered game."""
    return game_names()
