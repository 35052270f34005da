"""The one registry of games: every front end finds a game's parts here, by the game's name.

A game is one package (rules, views, scoring, facts, what its buttons and tags mean, its texts;
standard library only) plus at most one module per front end. Its entry names them:

- ``package``: the game's package. It defines ``RULES``, an instance of its subclass of
  :class:`~companion.core.rules.Rules`: the rules, and the game's other parts on the same object
  (its summary, and optionally its facts, preferences, hardware and table turns, each with a
  default on the base class).
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
from companion.core.hardware import HardwareRules
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
    """The game's rules (``RULES`` of its package): a :class:`~companion.core.rules.Rules`, which
    also carries the game's other parts (facts, preferences, hardware, summary, table turns)."""
    rules = package(name).RULES
    if not isinstance(rules, Rules):
        raise TypeError(f"{name}: RULES must be a companion.core.rules.Rules, not {type(rules).__name__}")
    return rules


def get_summary(name: str) -> Summary:
    """The game's words about its views (:class:`~companion.core.summary.Summary`)."""
    return get_rules(name).summary()


def facts(name: str) -> JSONObject:
    """The constants a game's screens need (its rules' ``facts``; ``{}`` if it has none)."""
    return get_rules(name).facts


def preferences(name: str) -> tuple[JSONObject, ...]:
    """The table's preferences for a game (its rules' ``preferences``): each a JSON object with
    ``key``, ``default``, ``choices`` (or ``low`` and ``high`` for a number) and the ``setup_key``
    whose default it sets (if any)."""
    return get_rules(name).preferences


def hardware_rules(name: str) -> HardwareRules | None:
    """What the box's inputs and lights mean in the game (its rules' ``hardware``), or None."""
    return get_rules(name).hardware


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
