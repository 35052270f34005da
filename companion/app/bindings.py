"""Bindings: which action a button or an enrolled piece is bound to, per game — data only.

Each game ships its bindings with its hardware rules (``HARDWARE.bindings`` in its package, see
:mod:`companion.core.hardware`); a table may lay its own ``bindings.json`` over them (in its data
directory), in this format::

    {"format": "companion.bindings", "version": 1,
     "games": {"<game>": {"buttons": {"<role>": {"press"|"hold": "<action>"}},
                          "pieces": {"<piece kind>": "<action>"},
                          "tracks": {"<bar graph track>": "<key of the table view>"}}}}

- ``buttons``: button role (``confirm``, ``undo``, ``next``, ``seat`` for every ``seat:<place>``
  button, or any other role) → gesture → action name;
- ``pieces``: the first part of an enrolled piece id (``building`` of ``building:paris:monument``)
  → action name;
- ``tracks``: LED bar graph track name → the key of the game's public table view it shows.

An action name is one of the actions every game has (``undo``; ``ui.confirm`` and ``ui.button``,
buttons whose meaning is the screen's; ``none``, which switches a button off) or one of the game's
own actions (``HARDWARE.actions``). This module names no game: it reads the registry.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.core.errors import CompanionError
from companion.core.events import Undo
from companion.core.hardware import Action, HardwareRules, Input, Notice, Result, Submit, UiButton
from companion.core.jsonvalue import JSON, JSONObject
from companion.games import game_names, hardware_rules

FORMAT = "companion.bindings"
VERSION = 1
GESTURES = ("press", "hold")


class BindingsError(CompanionError):
    default_code = "bindings.malformed"


# ---------------------------------------------------------------------------- every game's actions


def act_undo(inp: Input, args: Sequence[str]) -> Result:
    return Submit(Undo(), inp.actor)


def act_ui(inp: Input, args: Sequence[str]) -> Result:
    return UiButton(inp.role)


def act_none(inp: Input, args: Sequence[str]) -> Result:
    return Notice("input.unbound_button", {"button": inp.role}, "info")


COMMON: dict[str, Action] = {"undo": act_undo, "ui.confirm": act_ui, "ui.button": act_ui, "none": act_none}


def _no_seats(view: JSONObject) -> list[str]:
    return []


NO_HARDWARE = HardwareRules(bindings={}, actions={}, seats=_no_seats)


def hardware_of(game: str) -> HardwareRules:
    """The game's hardware rules; a game without any has no actions, seats or lights of its own."""
    found = hardware_rules(game)
    return found if isinstance(found, HardwareRules) else NO_HARDWARE


def action(game: str, name: str) -> Action:
    """The action ``name`` of ``game`` (a common one, or one of the game's own)."""
    found = COMMON.get(name) or hardware_of(game).actions.get(name)
    if found is None:
        raise BindingsError("bindings.malformed", f"{game}: unknown action {name!r}", where=game)
    return found


# ---------------------------------------------------------------------------- the data


@dataclass(frozen=True)
class GameBindings:
    buttons: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # role key -> gesture -> action
    pieces: Mapping[str, str] = field(default_factory=dict)  # piece kind -> action
    tracks: Mapping[str, str] = field(default_factory=dict)  # track -> view key

    def button(self, role: str) -> Mapping[str, str]:
        """The gestures bound for a role (``seat:p1`` uses the ``seat`` entry)."""
        key = role.partition(":")[0] if role.startswith("seat:") else role
        return self.buttons.get(key, {})

    def to_json(self) -> JSONObject:
        return {
            "buttons": {r: dict(gs) for r, gs in self.buttons.items()},
            "pieces": dict(self.pieces),
            "tracks": dict(self.tracks),
        }


@dataclass(frozen=True)
class Bindings:
    games: Mapping[str, GameBindings]

    def of(self, game: str) -> GameBindings:
        return self.games.get(game, GameBindings())

    def to_json(self) -> JSONObject:
        return {"format": FORMAT, "version": VERSION, "games": {g: b.to_json() for g, b in self.games.items()}}


def parse_game(game: str, entry: Any, source: str) -> GameBindings:
    """Strictly read one game's bindings (unknown keys and actions are errors)."""

    def bad(problem: str) -> BindingsError:
        return BindingsError("bindings.malformed", f"{source}: {problem}", where=source)

    def bound(name: Any, where: str) -> str:
        if not isinstance(name, str):
            raise bad(f"{where}: an action name must be text")
        if name not in COMMON and name not in hardware_of(game).actions:
            if any(name in hardware_of(other).actions for other in game_names()):
                raise bad(f"{where}: {name} is not an action of {game}")
            raise bad(f"{where}: unknown action {name!r}")
        return name

    if not isinstance(entry, dict) or not set(entry) <= {"buttons", "pieces", "tracks"}:
        raise bad(f"{game}: expected buttons, pieces, tracks")
    buttons: dict[str, dict[str, str]] = {}
    for role, gestures in _mapping(entry.get("buttons", {}), f"{game}.buttons", bad).items():
        gestures = _mapping(gestures, f"{game}.buttons.{role}", bad)
        if not set(gestures) <= set(GESTURES):
            raise bad(f"{game}.buttons.{role}: gestures are press and hold")
        buttons[role] = {g: bound(a, f"{game}.buttons.{role}.{g}") for g, a in gestures.items()}
    pieces = {
        kind: bound(a, f"{game}.pieces.{kind}")
        for kind, a in _mapping(entry.get("pieces", {}), f"{game}.pieces", bad).items()
    }
    tracks: dict[str, str] = {}
    for track, key in _mapping(entry.get("tracks", {}), f"{game}.tracks", bad).items():
        if not isinstance(key, str):
            raise bad(f"{game}.tracks.{track}: the view key must be text")
        tracks[track] = key
    return GameBindings(buttons, pieces, tracks)


def parse_bindings(data: Any, source: str = "bindings") -> dict[str, GameBindings]:
    """Strictly read a bindings file (unknown keys, games and actions are errors)."""

    def bad(problem: str) -> BindingsError:
        return BindingsError("bindings.malformed", f"{source}: {problem}", where=source)

    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise bad(f'not a bindings file (expected "format": "{FORMAT}", "version": {VERSION})')
    if set(data) != {"format", "version", "games"} or not isinstance(data["games"], dict):
        raise bad('expected exactly "format", "version" and "games"')
    games: dict[str, GameBindings] = {}
    for game, entry in data["games"].items():
        if game not in game_names():
            raise bad(f"unknown game {game!r}")
        games[game] = parse_game(game, entry, source)
    return games


def _mapping(value: Any, where: str, bad: Callable[[str], BindingsError]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise bad(f"{where} must be an object")
    return value


def shipped() -> dict[str, GameBindings]:
    """Every registered game's own bindings (from its hardware rules)."""
    return {game: parse_game(game, hardware_of(game).bindings, f"{game} (shipped)") for game in game_names()}


class _Registered(Mapping[str, GameBindings]):
    """Every registered game's bindings: its shipped ones, read when the game is first asked for (so
    opening the box loads no game), with the table's own laid over them."""

    def __init__(self, theirs: Mapping[str, GameBindings]) -> None:
        self._theirs = theirs
        self._made: dict[str, GameBindings] = {}

    def __getitem__(self, game: str) -> GameBindings:
        found = self._made.get(game)
        if found is None:
            if game not in game_names():
                raise KeyError(game)
            ours = parse_game(game, hardware_of(game).bindings, f"{game} (shipped)")
            theirs = self._theirs.get(game, GameBindings())
            found = self._made[game] = GameBindings(
                {**ours.buttons, **theirs.buttons}, {**ours.pieces, **theirs.pieces}, {**ours.tracks, **theirs.tracks}
            )
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(game_names())

    def __len__(self) -> int:
        return len(game_names())


def load_bindings(override: Path | str | None = None) -> Bindings:
    """The games' shipped bindings, with a table's own file (if it exists) laid over them.

    The override has the same format; per game, each button role, piece kind and track it names
    replaces the shipped one (``"none"`` switches a shipped button off). The override is checked
    now; a game's shipped bindings are read when that game is first asked for.
    """
    theirs: dict[str, GameBindings] = {}
    if override is not None and Path(override).is_file():
        try:
            data = json.loads(Path(override).read_text("utf-8"))
        except json.JSONDecodeError as exc:
            raise BindingsError("bindings.malformed", f"{override}: not JSON ({exc})", where=str(override)) from None
        theirs = parse_bindings(data, str(override))
    return Bindings(_Registered(theirs))


def track_values(bindings: GameBindings, view: JSONObject) -> dict[str, int]:
    """The bar graphs' values from the public table view."""
    out = {}
    for track, key in bindings.tracks.items():
        value: JSON = view.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            out[track] = value
    return out
