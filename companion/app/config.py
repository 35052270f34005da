"""The one configuration file (TOML) and the data directory.

Lookup order for the file: ``--config``, ``$COMPANION_CONFIG``, ``~/.config/companion/companion.toml``,
``/etc/companion/companion.toml``; with none, the documented defaults below apply (simulated
hardware, English, port 8080). ``deploy/companion.example.toml`` shows every key.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.app.i18n import LANGUAGES
from companion.core.errors import CompanionError
from companion.files import STORE_FILE

DEFAULT_PORT = 8080


class ConfigError(CompanionError):
    default_code = "config"


SPEECH_VOICES = ("auto", "espeak", "record")


@dataclass(frozen=True)
class SpeechConfig:
    """``[speech]``: where the table's voice goes (whether it speaks, and how loud, are the table's
    settings on the touchscreen and the host page)."""

    voice: str = "auto"  # auto: espeak-ng where installed; espeak; record: the stand-in sink (tests)
    device: str = ""  # the ALSA device ("" the system's default; `aplay -L` lists them)
    record: str = ""  # voice = "record": the file each utterance is appended to (one JSON line)
    speed: int = 150  # words per minute (espeak-ng's -s)


@dataclass(frozen=True)
class Config:
    path: Path | None = None
    language: str = "en"
    data_dir: Path = field(default_factory=lambda: default_data_dir())
    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    public_address: str = ""  # the address phones use; detected when empty
    hotspot_ssid: str = ""
    hotspot_password: str = ""
    hardware: Mapping[str, Any] = field(default_factory=dict)
    ai_cpu_budget: float = 0.5  # CPU seconds a player the table plays (Mister X) may think per move
    ai_thinking: float = 1.5  # seconds before that player's move appears (it "thinks")
    # Set only for the commands that can do without the file (status, doctor, hotspot status) when
    # it exists but this user may not read it (it holds the hotspot password): why, in words.
    unreadable: str = ""

    speech: SpeechConfig = field(default_factory=SpeechConfig)

    @property
    def store_path(self) -> Path:
        return self.data_dir / STORE_FILE

    @property
    def tags_path(self) -> Path:
        return self.data_dir / "tags.json"


def default_data_dir() -> Path:
    env = os.environ.get("COMPANION_DATA_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_DATA_HOME")
    return Path(xdg) / "companion" if xdg else Path.home() / ".local" / "share" / "companion"


def find_config(explicit: str | Path | None = None) -> Path | None:
    if explicit:
        return Path(explicit)
    env = os.environ.get("COMPANION_CONFIG")
    if env:
        return Path(env)
    for candidate in (Path.home() / ".config" / "companion" / "companion.toml", Path("/etc/companion/companion.toml")):
        if candidate.is_file():
            return candidate
    return None


def _section(data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, Mapping):
        raise ConfigError("config.section", f"[{name}] must be a table", section=name)
    return value


def _get(section: Mapping[str, Any], name: str, key: str, kind: type, default: Any) -> Any:
    value = section.get(key, default)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ConfigError("config.value", f"[{name}] {key} must be a {kind.__name__}", key=f"{name}.{key}")
    return value


def _seconds(table: Mapping[str, Any], key: str, default: float, least: float) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not least <= value <= 60:
        raise ConfigError("config.value", f"[table] {key} must be {least} to 60 seconds", key=f"table.{key}")
    return float(value)


KEYS = {  # every key of the sections read here ([hardware] is checked by hardware.config)
    "table": {"language", "data_dir", "ai_cpu_budget", "ai_thinking"},
    "server": {"host", "port", "public_address"},
    "hotspot": {"ssid", "password"},
    "speech": {"voice", "device", "record", "speed"},
}


def parse_config(data: Mapping[str, Any], path: Path | None = None) -> Config:
    known = {*KEYS, "hardware"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError("config.unknown_section", f"unknown section [{unknown[0]}]", section=unknown[0])
    table, server, hotspot, speech = (_section(data, n) for n in ("table", "server", "hotspot", "speech"))
    for name, section in (("table", table), ("server", server), ("hotspot", hotspot), ("speech", speech)):
        for key in sorted(set(section) - KEYS[name]):
            raise ConfigError("config.unknown_key", f"unknown key {key} in [{name}]", key=f"{name}.{key}")
    language = _get(table, "table", "language", str, "en")
    if language not in LANGUAGES:
        raise ConfigError("config.language", f"language must be one of {', '.join(LANGUAGES)}", key="table.language")
    data_dir_raw = _get(table, "table", "data_dir", str, "")
    budget = _seconds(table, "ai_cpu_budget", 0.5, 0.05)
    thinking = _seconds(table, "ai_thinking", 1.5, 0.0)
    port = _get(server, "server", "port", int, DEFAULT_PORT)
    if not 0 <= port <= 65535:
        raise ConfigError("config.value", "[server] port must be 0..65535", key="server.port")
    voice = _get(speech, "speech", "voice", str, "auto")
    if voice not in SPEECH_VOICES:
        raise ConfigError(
            "config.value", f"[speech] voice must be one of {', '.join(SPEECH_VOICES)}", key="speech.voice"
        )
    speed = _get(speech, "speech", "speed", int, 150)
    if not 80 <= speed <= 300:
        raise ConfigError("config.value", "[speech] speed must be 80..300 words per minute", key="speech.speed")
    return Config(
        path=path,
        language=language,
        data_dir=Path(data_dir_raw).expanduser() if data_dir_raw else default_data_dir(),
        host=_get(server, "server", "host", str, "0.0.0.0"),
        port=port,
        public_address=_get(server, "server", "public_address", str, ""),
        hotspot_ssid=_get(hotspot, "hotspot", "ssid", str, ""),
        hotspot_password=_get(hotspot, "hotspot", "password", str, ""),
        hardware=_section(data, "hardware"),
        ai_cpu_budget=budget,
        ai_thinking=thinking,
        speech=SpeechConfig(
            voice=voice,
            device=_get(speech, "speech", "device", str, ""),
            record=_get(speech, "speech", "record", str, ""),
            speed=speed,
        ),
    )


def load_config(explicit: str | Path | None = None) -> Config:
    path = find_config(explicit)
    if path is None:
        return Config()
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError("config.missing", f"no configuration file at {path}", path=str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("config.syntax", f"{path}: {exc}", path=str(path)) from None
    return parse_config(data, path)
