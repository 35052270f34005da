"""Each game's touchscreen parts, found by the game's registered name.

A module here offers ``SetupForm`` (the new-game form) and ``TableView`` (the table screen, the
end-of-game summary and the words for the header); see :mod:`ui.games.base`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

GAME_MODULES: dict[str, str] = {
    "scotland_yard": "ui.games.scotland_yard",
    "victorian_masterminds": "ui.games.victorian_masterminds",
    "mykerinos": "ui.games.mykerinos",
}
GAME_NAMES: tuple[str, ...] = tuple(GAME_MODULES)


def game_ui(rules: str) -> ModuleType:
    return importlib.import_module(GAME_MODULES.get(rules, "ui.games.generic"))
