"""The one registry of games: every front end finds a game's parts here, by the game's name.

A game is one package (rules, views, scoring, facts, what its buttons and tags mean, its texts;
standard library only) plus at most one module per front end. Its entry names them:

- ``package``: the game's package. It defines ``RULES`` (:class:`~companion.core.rules.Rules`),
  has a ``summary`` module (or defines ``SUMMARY`` itself: the game's words about its views,
  :class:`~companion.core.summary.Summary`), and may define ``FACTS`` (the constants its screens
  need, JSON), ``PREFERENCES`` (the table's preferences for it, each pre-filling a setup option)
  and ``HARDWARE`` (what the box's buttons, tags and lights mean in it:
  :class:`~companion.core.hardware.HardwareRules`).
- ``touchscreen``: the module with its touchscreen screens (``""``: the generic screens, which
  show the public view as text).
- ``phone``: its phone-page module, ``"package:path/in/package.js"`` (``""``: the page shows the
  seat's view as text).

Registering is one :func:`register` call, the same for the three boxed games (below) and for
any other game (the test game in ``tests/toygame`` makes it when it is imported). Nothing here
imports a game or a front end: the strings are looked up when a part is first asked for.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from companion.core.errors import SetupError
from companion.core.jsonvalue import JSONObject
from companion.core.rules import Rules
from companion.core.summary import Summary

NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
PHONE = re.compile(rf"{MODULE.pattern}:[A-Za-z0-9_./-]+\.js")


@dataclass(frozen=True)
class GameEntry:
    name: str
    package: str
    touchscreen: str = ""
    phone: str = ""

    def __post_init__(self) -> None:
        if not NAME.fullmatch(self.name):
            raise ValueError(f"a game's name is lower-case letters, digits and _ (got {self.name!r})")
        if not MODULE.fullmatch(self.package):
            raise ValueError(f"{self.name}: package {self.package!r} is not a module name")
        if self.touchscreen and not MODULE.fullmatch(self.touchscreen):
            raise ValueError(f"{self.name}: touchscreen {self.touchscreen!r} is not a module name")
        if self.phone and (not PHONE.fullmatch(self.phone) or ".." in self.phone):
            raise ValueError(f"{self.name}: phone {self.phone!r} is not 'package:path/file.js'")


_ENTRIES: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> GameEntry:
    """Add a game; registering the same entry again changes nothing, another one of that name is refused."""
    known = _ENTRIES.get(entry.name)
    if known is not None and known != entry:
        raise ValueError(f"another game called {entry.name!r} is registered already")
    _ENTRIES[entry.name] = entry
    return entry


def entry(name: str) -> GameEntry:
    known = _ENTRIES.get(name)
    if known is None:
        raise SetupError("setup.unknown_game", f"unknown game {name!r}", game=name[:40])
    return known


def game_names() -> tuple[str, ...]:
    """The registered games, in the order they were registered."""
    return tuple(_ENTRIES)


def package(name: str) -> ModuleType:
    return importlib.import_module(entry(name).package)


def get_rules(name: str) -> Rules[Any]:
    rules: Rules[Any] = package(name).RULES
    return rules


def get_summary(name: str) -> Summary:
    """The game's :class:`~companion.core.summary.Summary`: ``SUMMARY`` of its ``summary`` module
    (or of the game's own package, for a game in one file)."""
    found = getattr(package(name), "SUMMARY", None)
    summary: Summary = found if found is not None else importlib.import_module(entry(name).package + ".summary").SUMMARY
    return summary


def facts(name: str) -> JSONObject:
    """The constants a game's screens need (``FACTS`` of its package; ``{}`` if it has none)."""
    found: JSONObject = getattr(package(name), "FACTS", {})
    return found


def preferences(name: str) -> tuple[JSONObject, ...]:
    """The table's preferences for a game (``PREFERENCES`` of its package): each a JSON object with
    ``key``, ``default``, ``choices`` (or ``low`` and ``high`` for a number) and the ``setup_key``
    whose default it sets (if any)."""
    found: tuple[JSONObject, ...] = getattr(package(name), "PREFERENCES", ())
    return found


def hardware_rules(name: str) -> Any:
    """What the box's inputs and lights mean in the game (``HARDWARE`` of its package), or None."""
    return getattr(package(name), "HARDWARE", None)


register(
    GameEntry(
        "scotland_yard",
        "companion.games.scotland_yard",
        touchscreen="ui.games.scotland_yard",
        phone="companion.net:static/games/scotland_yard.js",
    )
)
register(
    GameEntry(
        "victorian_masterminds",
        "companion.games.victorian_masterminds",
        touchscreen="ui.games.victorian_masterminds",
        phone="companion.net:static/games/victorian_masterminds.js",
    )
)
register(
    GameEntry(
        "mykerinos",
        "companion.games.mykerinos",
        touchscreen="ui.games.mykerinos",
        phone="companion.net:static/games/mykerinos.js",
    )
)
