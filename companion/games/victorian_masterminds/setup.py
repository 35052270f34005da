"""The setup config (JSON) → the state before the first event.

```json
{"players": [{"seat": "p1", "colour": "red", "machine": 1, "machine_name": "Beluga", "name": "Ann"}, ...],
 "secret_service_start": 4,
 "gunner_rule": ">=", "capture_city_loot": false, "first_player": "p1",
 "missions": {"london": {"reward": 2, "label": "1 building"}}}
```

``secret_service_start`` is required: the numbers printed on the dial are not known to us, so
the table enters the start level for its player count (the app remembers it as a preference).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from companion.core.errors import SetupError
from companion.core.jsonvalue import JSON, JSONObject
from companion.core.summary import tidy_name
from companion.games.victorian_masterminds.model import (
    BUILDINGS,
    CITIES,
    LAB_CELLS_MAX,
    LABEL_MAX,
    LEVEL_MAX,
    MISSION_REWARDS,
    GunnerRule,
    Mission,
    Player,
    Settings,
    VMState,
)

OPTIONS = ("players", "secret_service_start", "gunner_rule", "capture_city_loot", "first_player", "missions")
PLAYER_OPTIONS = ("seat", "colour", "machine", "machine_name", "lab_cells", "name")
DEFAULT_COLOURS = ("red", "blue", "green", "yellow")
SEAT_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,19}")
RESERVED_SEATS = ("table", "debug")
MACHINES = range(1, 7)


def _int(value: JSON) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _unknown(data: Mapping[str, JSON], allowed: tuple[str, ...]) -> None:
    for key in data:
        if key not in allowed:
            raise SetupError("vm.setup.unknown_option", f"unknown option {key!r}", option=key[:40])


def _player(i: int, raw: JSON) -> Player:
    if not isinstance(raw, dict):
        raise SetupError("vm.setup.players", "each player is an object", index=i)
    _unknown(raw, PLAYER_OPTIONS)
    seat = raw.get("seat", f"p{i + 1}")
    if not isinstance(seat, str) or not SEAT_ID.fullmatch(seat) or seat in RESERVED_SEATS:
        raise SetupError("vm.setup.seat", "a seat id is 1-20 lowercase letters, digits, - or _", index=i)
    colour = raw.get("colour", DEFAULT_COLOURS[i])
    if not isinstance(colour, str) or not 0 < len(colour) <= LABEL_MAX:
        raise SetupError("vm.setup.colour", "a colour is a short text", seat=seat)
    machine = _int(raw.get("machine"))
    if machine is None or machine not in MACHINES:
        raise SetupError("vm.setup.machine", "each player needs a machine sheet 1-6", seat=seat)
    name = raw.get("machine_name", "")
    if not isinstance(name, str) or len(name) > LABEL_MAX:
        raise SetupError("vm.setup.machine", "a machine name is a short text", seat=seat)
    cells = _int(raw.get("lab_cells", 2))
    if cells is None or not 1 <= cells <= LAB_CELLS_MAX:
        raise SetupError("vm.setup.lab_cells", "unlocked lab cells at the start: 1-4 (most sheets: 2)", seat=seat)
    person = raw.get("name", "")
    if not isinstance(person, str) or len(person) > LABEL_MAX:
        raise SetupError("vm.setup.name", "a player's name is a short text", seat=seat)
    return Player(
        seat=seat, colour=colour, machine=machine, machine_name=name, base_cells=cells, name=tidy_name(person)
    )


def _missions(raw: JSON) -> tuple[Mission, ...]:
    if not isinstance(raw, dict):
        raise SetupError("vm.setup.missions", "missions: an object city -> {reward, label}")
    out = []
    for city in raw:
        if city not in CITIES:
            raise SetupError("vm.setup.missions", "missions: unknown city", city=city[:20])
    for city in CITIES:
        entry = raw.get(city, {})
        if not isinstance(entry, dict) or set(entry) - {"reward", "label"}:
            raise SetupError("vm.setup.missions", "a mission is {reward, label}", city=city)
        reward = entry.get("reward")
        label = entry.get("label", "")
        if (reward is not None and _int(reward) not in MISSION_REWARDS) or not isinstance(label, str):
            raise SetupError("vm.setup.missions", "a mission's reward is 2, 3 or 4", city=city)
        if len(label) > LABEL_MAX:
            raise SetupError("vm.setup.missions", "a mission's label is a short text", city=city)
        out.append(Mission(_int(reward), label))
    return tuple(out)


def setup(config: JSONObject) -> VMState:
    if not isinstance(config, dict):
        raise SetupError("vm.setup.players", "the setup is an object")
    _unknown(config, OPTIONS)
    raw_players = config.get("players")
    if not isinstance(raw_players, list) or not 2 <= len(raw_players) <= 4:
        raise SetupError("vm.setup.players", "2 to 4 players")
    players = tuple(_player(i, raw) for i, raw in enumerate(raw_players))
    for field in ("seat", "colour", "machine"):
        values = [getattr(p, field) for p in players]
        if len(set(values)) != len(values):
            raise SetupError(f"vm.setup.{field}", f"each player needs a different {field}")

    if "secret_service_start" not in config:
        raise SetupError("vm.setup.start_level", "enter the Secret Service start level for this player count")
    start = _int(config["secret_service_start"])
    if start is None or not 0 <= start < LEVEL_MAX:
        raise SetupError("vm.setup.start_level", "the start level is a number from 0 to 11", max=LEVEL_MAX - 1)

    rule = config.get("gunner_rule", ">=")
    if rule not in (">=", ">"):
        raise SetupError("vm.setup.gunner_rule", "the Gunner comparison is '>=' or '>'")
    gunner_rule: GunnerRule = ">=" if rule == ">=" else ">"
    city_loot = config.get("capture_city_loot", False)
    if not isinstance(city_loot, bool):
        raise SetupError("vm.setup.capture_city_loot", "capture_city_loot is true or false")

    seats = [p.seat for p in players]
    first = config.get("first_player", seats[0])
    if first not in seats or not isinstance(first, str):
        raise SetupError("vm.setup.first_player", "the first player is one of the seats")

    missions = _missions(config.get("missions", {}))
    return VMState(
        settings=Settings(start, gunner_rule, city_loot, first),
        players=players,
        level=start,
        standing=tuple(BUILDINGS for _ in CITIES),
        missions=missions,
        active=seats.index(first),
    )
