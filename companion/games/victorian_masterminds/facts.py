"""The constants Victorian Masterminds' screens need (the touchscreen and the phone read them from
here, through the registry; they never copy them)."""

from __future__ import annotations

from companion.core.jsonvalue import JSONObject
from companion.games.victorian_masterminds.model import (
    AGENTS,
    BUILDINGS,
    CITIES,
    COUNTERS,
    LAB_CELLS_MAX,
    LEVEL_MAX,
    UNLOCKS,
)
from companion.games.victorian_masterminds.setup import DEFAULT_COLOURS, MACHINES

FACTS: JSONObject = {
    "cities": list(CITIES),  # board order
    "agents": list(AGENTS),
    "buildings": list(BUILDINGS),
    "colours": list(DEFAULT_COLOURS),  # the players' colours offered at setup
    "machines": list(MACHINES),  # the machine sheets
    "lab_cells": list(range(1, LAB_CELLS_MAX + 1)),  # a player's starting lab cells (2 unless a variant)
    "player_counters": [c for c in COUNTERS if c != "level"],  # a player's own counters (level is the table's)
    "unlocks": list(UNLOCKS),  # what a machine segment may unlock (vm.record_segment's ``unlock``)
    # what a player's public tally lists (keys of a player in the view), in the order screens show them
    "tally": ["buildings", "codex", "scientists", "missions", "segments", "chaos_tokens"],
}


def _start_level(players: int) -> JSONObject:
    return {"key": f"vm.start_level.{players}", "low": 0, "high": LEVEL_MAX - 1, "default": None, "players": players}


# The table's preferences for this game: each pre-fills a setup option of a new game (the Secret
# Service start level is remembered per player count: the rulebook gives none for every count).
PREFERENCES: tuple[JSONObject, ...] = (
    {"key": "vm.gunner_rule", "choices": [">=", ">"], "default": ">=", "setup_key": "gunner_rule"},
    {"key": "vm.capture_city_loot", "choices": [False, True], "default": False, "setup_key": "capture_city_loot"},
    *(_start_level(n) for n in (2, 3, 4)),  # the player counts setup allows
)
