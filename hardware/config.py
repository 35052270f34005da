"""The ``[hardware]`` section of the configuration file, checked strictly.

Every key is documented in ``deploy/companion.example.toml`` (a test parses that file with
this parser and checks that it mentions every key below). Unknown keys are errors, so a typo
never silently turns a button off.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.core.errors import CompanionError

Mode = Literal["auto", "real", "simulated"]
MODES: tuple[Mode, ...] = ("auto", "real", "simulated")
READER_TYPES = ("rdm6300", "id12la", "id20la", "pn532")
DEFAULT_BAUD = {"rdm6300": 9600, "id12la": 9600, "id20la": 9600, "pn532": 115200}
PIN_FACTORIES = ("mock", "lgpio", "rpigpio", "pigpio", "native")
SIMULATED_PORT = "simulated"

TOP_KEYS = frozenset(
    {"mode", "pin_factory", "bounce_ms", "hold_ms", "buttons", "seat_lights", "buzzer", "tracks", "readers", "seats"}
)
BUTTON_KEYS = frozenset({"name", "pin", "role", "hold_ms"})
BUZZER_KEYS = frozenset({"pin", "active_high"})
TRACK_KEYS = frozenset({"track", "pins", "maximum"})
READER_KEYS = frozenset(
    {"name", "type", "port", "baudrate", "seat", "gone_after_ms", "poll_ms", "gone_after_polls", "timeout_ms"}
)
ASCII_ONLY = frozenset({"gone_after_ms"})
PN532_ONLY = frozenset({"poll_ms", "gone_after_polls", "timeout_ms"})

ROLE = re.compile(r"^[a-z][a-z0-9_]*(:[A-Za-z0-9_-]+)?$")  # confirm, undo, next, seat:d1, ...
NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_:.-]{0,39}$")
MAX_PIN = 27  # BCM numbers of the 40-pin header's GPIOs


class HardwareConfigError(CompanionError):
    default_code = "hardware.config"

    def __init__(self, key: str, problem: str) -> None:
        super().__init__("hardware.config", f"[hardware] {key}: {problem}", key=key, problem=problem)


@dataclass(frozen=True)
class ButtonConfig:
    name: str
    pin: int
    role: str
    hold_ms: int | None = None


@dataclass(frozen=True)
class BuzzerConfig:
    pin: int
    active_high: bool = True


@dataclass(frozen=True)
class TrackConfig:
    track: str
    pins: tuple[int, ...]
    maximum: int


@dataclass(frozen=True)
class ReaderConfig:
    name: str
    type: str
    port: str
    baudrate: int
    gone_after_ms: int = 500
    poll_ms: int = 50
    gone_after_polls: int = 2
    timeout_ms: int = 250
    seat: str = ""  # the place at the table this reader belongs to ("" = the table's own reader)

    @property
    def simulated_port(self) -> bool:
        return self.port == SIMULATED_PORT


@dataclass(frozen=True)
class HardwareConfig:
    mode: Mode = "auto"
    pin_factory: str = ""
    bounce_ms: int = 20
    hold_ms: int = 1000
    buttons: tuple[ButtonConfig, ...] = ()
    seat_lights: tuple[tuple[str, int], ...] = ()
    buzzer: BuzzerConfig | None = None
    tracks: tuple[TrackConfig, ...] = ()
    readers: tuple[ReaderConfig, ...] = field(default=())
    # per game: place at the table (p1, p2, ... as used by readers, seat buttons and seat lights)
    # -> that game's seat id, for games whose seat ids are not the place names (e.g. Mykerinos colours)
    seats: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()

    @property
    def uses_gpio(self) -> bool:
        return bool(self.buttons or self.seat_lights or self.buzzer or self.tracks)

    @property
    def has_parts(self) -> bool:
        """Does the box have anything at all: a part on GPIO pins or a tag reader?"""
        return self.uses_gpio or bool(self.readers)

    def seat_map(self, game: str) -> dict[str, str]:
        """place -> seat id for ``game`` (places not listed keep their own name as the seat id)."""
        return dict(dict(self.seats).get(game, ()))


def _keys(table: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise HardwareConfigError(f"{where}.{unknown[0]}", f"unknown key (known: {', '.join(sorted(allowed))})")


def _table(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise HardwareConfigError(where, "must be a table")
    return value


def _tables(value: Any, where: str) -> list[Mapping[str, Any]]:
    if not isinstance(value, list):
        raise HardwareConfigError(where, f"must be an array of tables ([[hardware.{where}]])")
    return [_table(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _int(table: Mapping[str, Any], key: str, where: str, default: int | None, lo: int, hi: int) -> int:
    value = table.get(key, default)
    if value is None:
        raise HardwareConfigError(f"{where}.{key}", "is required")
    if not isinstance(value, int) or isinstance(value, bool):
        raise HardwareConfigError(f"{where}.{key}", "must be a whole number")
    if not lo <= value <= hi:
        raise HardwareConfigError(f"{where}.{key}", f"must be between {lo} and {hi}")
    return value


def _str(table: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = table.get(key, default)
    if value is None:
        raise HardwareConfigError(f"{where}.{key}", "is required")
    if not isinstance(value, str):
        raise HardwareConfigError(f"{where}.{key}", "must be a string")
    return value


def _name(table: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = _str(table, key, where, default)
    if not NAME.match(value):
        raise HardwareConfigError(f"{where}.{key}", "letters, digits and _ : . - only (up to 40)")
    return value


def _pin(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_PIN:
        raise HardwareConfigError(where, f"must be a BCM GPIO number 0..{MAX_PIN}")
    return value


def _seats(value: Any) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Places -> seat ids per game. Which games exist is not the hardware's business: the router
    (``hardware/router.py``) refuses a game that is not registered."""
    out = []
    for game, mapping in _table(value, "seats").items():
        key = f"seats.{game}"
        if not NAME.match(game):
            raise HardwareConfigError(key, "not a game name")
        pairs = []
        for place, seat in _table(mapping, key).items():
            if not NAME.match(place):
                raise HardwareConfigError(f"{key}.{place}", "not a place name (e.g. p1)")
            seat = _name({place: seat}, place, key)
            pairs.append((place, seat))
        seat_ids = [s for _, s in pairs]
        if len(set(seat_ids)) != len(seat_ids):
            raise HardwareConfigError(key, "two places are mapped to the same seat")
        out.append((game, tuple(pairs)))
    return tuple(out)


def parse_hardware(section: Mapping[str, Any] | None) -> HardwareConfig:
    """Check the ``[hardware]`` table and turn it into a :class:`HardwareConfig`."""
    section = _table(section if section is not None else {}, "hardware")
    _keys(section, TOP_KEYS, "hardware")
    mode_text = _str(section, "mode", "hardware", "auto")
    mode = next((m for m in MODES if m == mode_text), None)
    if mode is None:
        raise HardwareConfigError("mode", f"must be one of {', '.join(MODES)}")
    pin_factory = _str(section, "pin_factory", "hardware", "")
    if pin_factory and pin_factory not in PIN_FACTORIES:
        raise HardwareConfigError("pin_factory", f"must be empty or one of {', '.join(PIN_FACTORIES)}")
    bounce_ms = _int(section, "bounce_ms", "hardware", 20, 0, 200)
    hold_ms = _int(section, "hold_ms", "hardware", 1000, 0, 10000)

    pins: dict[int, str] = {}

    def claim(pin: int, key: str, what: str) -> int:
        if pin in pins:
            raise HardwareConfigError(key, f"GPIO{pin} is already used by {pins[pin]}")
        pins[pin] = what
        return pin

    buttons = []
    for i, b in enumerate(_tables(section.get("buttons", []), "buttons")):
        where = f"buttons[{i}]"
        _keys(b, BUTTON_KEYS, where)
        role = _str(b, "role", where)
        if not ROLE.match(role):
            raise HardwareConfigError(f"{where}.role", "must look like confirm, undo, next or seat:<id>")
        name = _name(b, "name", where, role)
        hold = _int(b, "hold_ms", where, None, 0, 10000) if "hold_ms" in b else None
        pin = claim(_pin(b.get("pin"), f"{where}.pin"), f"{where}.pin", f"button {name}")
        buttons.append(ButtonConfig(name, pin, role, hold))
    names = [b.name for b in buttons]
    if len(set(names)) != len(names):
        raise HardwareConfigError("buttons", "two buttons have the same name (name defaults to the role)")

    lights = []
    for seat, value in _table(section.get("seat_lights", {}), "seat_lights").items():
        key = f"seat_lights.{seat}"
        if not NAME.match(seat):
            raise HardwareConfigError(key, "not a seat id")
        lights.append((seat, claim(_pin(value, key), key, f"the light of seat {seat}")))

    buzzer = None
    if "buzzer" in section:
        bz = _table(section["buzzer"], "buzzer")
        _keys(bz, BUZZER_KEYS, "buzzer")
        active_high = bz.get("active_high", True)
        if not isinstance(active_high, bool):
            raise HardwareConfigError("buzzer.active_high", "must be true or false")
        buzzer = BuzzerConfig(claim(_pin(bz.get("pin"), "buzzer.pin"), "buzzer.pin", "the buzzer"), active_high)

    tracks = []
    for i, t in enumerate(_tables(section.get("tracks", []), "tracks")):
        where = f"tracks[{i}]"
        _keys(t, TRACK_KEYS, where)
        track = _name(t, "track", where)
        raw_pins = t.get("pins")
        if not isinstance(raw_pins, list) or not 1 <= len(raw_pins) <= 20:
            raise HardwareConfigError(f"{where}.pins", "must be a list of 1..20 BCM GPIO numbers")
        track_pins = tuple(claim(_pin(p, f"{where}.pins"), f"{where}.pins", f"track {track}") for p in raw_pins)
        tracks.append(TrackConfig(track, track_pins, _int(t, "maximum", where, None, 1, 1000)))
    if len({t.track for t in tracks}) != len(tracks):
        raise HardwareConfigError("tracks", "two bar graphs show the same track")

    readers = []
    for i, r in enumerate(_tables(section.get("readers", []), "readers")):
        where = f"readers[{i}]"
        _keys(r, READER_KEYS, where)
        name = _name(r, "name", where)
        kind = _str(r, "type", where)
        if kind not in READER_TYPES:
            raise HardwareConfigError(f"{where}.type", f"must be one of {', '.join(READER_TYPES)}")
        wrong = sorted(set(r) & (PN532_ONLY if kind != "pn532" else ASCII_ONLY))
        if wrong:
            raise HardwareConfigError(f"{where}.{wrong[0]}", f"does not apply to a {kind} reader")
        port = _str(r, "port", where)
        if not port:
            raise HardwareConfigError(f"{where}.port", "must name a device, a pyserial URL or 'simulated'")
        seat = _name(r, "seat", where) if "seat" in r else ""
        readers.append(
            ReaderConfig(
                name=name,
                seat=seat,
                type=kind,
                port=port,
                baudrate=_int(r, "baudrate", where, DEFAULT_BAUD[kind], 1200, 1_000_000),
                gone_after_ms=_int(r, "gone_after_ms", where, 500, 50, 10000),
                poll_ms=_int(r, "poll_ms", where, 50, 10, 5000),
                gone_after_polls=_int(r, "gone_after_polls", where, 2, 1, 50),
                timeout_ms=_int(r, "timeout_ms", where, 250, 20, 10000),
            )
        )
    if len({r.name for r in readers}) != len(readers):
        raise HardwareConfigError("readers", "two readers have the same name")
    real_ports = [r.port for r in readers if not r.simulated_port]
    if len(set(real_ports)) != len(real_ports):
        raise HardwareConfigError("readers", "two readers use the same port")

    seats = _seats(section.get("seats", {}))

    return HardwareConfig(
        mode=mode,
        seats=seats,
        pin_factory=pin_factory,
        bounce_ms=bounce_ms,
        hold_ms=hold_ms,
        buttons=tuple(buttons),
        seat_lights=tuple(lights),
        buzzer=buzzer,
        tracks=tuple(tracks),
        readers=tuple(readers),
    )


ALL_KEYS = TOP_KEYS | BUTTON_KEYS | BUZZER_KEYS | TRACK_KEYS | READER_KEYS
