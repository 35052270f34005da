"""The games: rules, views and scoring, one package each (standard library only).

``get_rules(name)`` is the one registry; front ends never import a game directly. Each package
also has a ``summary`` module (``get_summary(name)``): the game's words about its views.
"""

from __future__ import annotations

import importlib
from typing import Any

from companion.core.errors import SetupError
from companion.core.rules import Rules
from companion.core.summary import Summary

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


def get_summary(name: str) -> Summary:
    """The game's :class:`~companion.core.summary.Summary`: ``SUMMARY`` of its ``summary`` module
    (or of the game's own module, for a game in one file)."""
    get_rules(name)  # the same refusal for an unknown name
    module = importlib.import_module(GAMES[name])
    summary: Summary = getattr(module, "SUMMARY", None) or importlib.import_module(GAMES[name] + ".summary").SUMMARY
    return summary


def game_names() -> tuple[str, ...]:
    return tuple(GAMES)
