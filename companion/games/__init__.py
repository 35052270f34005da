"""The games: rules, views and scoring, one package each (standard library only).

``get_rules(name)`` is the one registry; front ends never import a game directly.
"""

from __future__ import annotations

import importlib
from typing import Any

from companion.core.errors import SetupError
from companion.core.rules import Rules

# name -> module that defines ``RULES``
GAMES: dict[str, str] = {
    "scotland_yard": "companion.games.scotland_yard",
    "victorian_masterminds": "companion.games.victorian_masterminds",
    "mykerinos": "companion.games.mykerinos",
}


def get_rules(name: str) -> Rules[Any]:
    module_name = GAMES.get(name)
    if module_name is None:
        raise SetupError("setup.unknown_game", f"unknown game {name!r}", game=name[:40])
    rules: Rules[Any] = importlib.import_module(module_name).RULES
    return rules


def game_names() -> tuple[str, ...]:
    return tuple(GAMES)
