"""The table's preferences (kept in the store with the games): their keys, the values each may
take, and which setup option each one pre-fills when a game is set up. Shared by the touchscreen's
settings and the host page, so both offer and check the same choices. The table's own are the
language and its speech (on or off, and the volume); each game's come from its package
(``PREFERENCES``, found through the registry).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from companion.app.i18n import LANGUAGES
from companion.app.store import GameHeader, Store
from companion.core.errors import CompanionError
from companion.core.jsonvalue import JSON, JSONObject
from companion.games import game_names, get_summary
from companion.games import preferences as game_preferences

PREF_LANGUAGE = "language"
PREF_SPEECH = "speech"  # the table speaks (companion/app/speech.py): off by default
PREF_SPEECH_VOLUME = "speech_volume"  # its volume, 0..100 %
SPEECH_VOLUME = 80


class SettingError(CompanionError):
    default_code = "setting"


@dataclass(frozen=True)
class Setting:
    """A preference a person may change: its key, the values it takes, and its default."""

    key: str
    choices: tuple[JSON, ...] | None  # None: an integer from ``low`` to ``high``
    default: JSON
    low: int = 0
    high: int = 0
    game: str = ""  # the game whose setup it pre-fills ("" for the whole table)
    setup_key: str = ""  # ... and which setup key


def game_setting(game: str, entry: JSONObject) -> Setting:
    """One of a game's ``PREFERENCES`` as a :class:`Setting`."""
    choices = entry.get("choices")
    low, high = entry.get("low", 0), entry.get("high", 0)
    return Setting(
        key=str(entry["key"]),
        choices=tuple(choices) if isinstance(choices, list) else None,
        default=entry.get("default"),
        low=low if isinstance(low, int) else 0,
        high=high if isinstance(high, int) else 0,
        game=game,
        setup_key=str(entry.get("setup_key", "")),
    )


def table_settings() -> tuple[Setting, ...]:
    """The whole table's: the language, speech on or off, and its volume."""
    return (
        Setting(PREF_LANGUAGE, tuple(LANGUAGES), None),
        Setting(PREF_SPEECH, (False, True), False),
        Setting(PREF_SPEECH_VOLUME, None, SPEECH_VOLUME, low=0, high=100),
    )


def table_entries() -> list[JSONObject]:
    """The table's own settings but the language, as the host page draws a game's preferences
    (``key``, ``default``, ``choices`` or ``low``/``high``, ``game`` "")."""
    entries: list[JSONObject] = []
    for s in table_settings():
        if s.key != PREF_LANGUAGE:
            shape: JSONObject = (
                {"choices": list(s.choices)} if s.choices is not None else {"low": s.low, "high": s.high}
            )
            entries.append({"key": s.key, "default": s.default, **shape, "game": ""})
    return entries


def settings() -> tuple[Setting, ...]:
    """The table's own settings, then every registered game's preferences."""
    games = (game_setting(game, entry) for game in game_names() for entry in game_preferences(game))
    return (*table_settings(), *games)


def check(key: object, value: JSON) -> tuple[str, JSON]:
    """A setting someone asked for, if it is one and the value is one it takes."""
    setting = next((s for s in settings() if s.key == key), None) if isinstance(key, str) else None
    if setting is None:
        raise SettingError("setting.unknown", "no such setting", key=str(key)[:40])
    if setting.choices is not None:
        if not any(value == c and type(value) is type(c) for c in setting.choices):
            raise SettingError("setting.value", "not a value this setting takes", key=setting.key)
    elif isinstance(value, bool) or not isinstance(value, int) or not setting.low <= value <= setting.high:
        raise SettingError("setting.value", "not a value this setting takes", key=setting.key)
    return setting.key, value


def setup_defaults(rules: str, prefs: Mapping[str, JSON], last: Mapping[str, JSON] | None = None) -> JSONObject:
    """What a new game's setup starts from: who played the last game of this box (``last``: that
    game's setup; its keys the game's summary marks ``remembered`` — names, colours), and what the
    table's preferences pre-fill (e.g. the tracker)."""
    out: JSONObject = {}
    if last:
        for key in get_summary(rules).setup_keys:
            if key.remembered and key.key in last:
                out[key.key] = last[key.key]
    out.update(
        {
            s.setup_key: prefs.get(s.key, s.default)
            for s in settings()
            if s.game == rules and s.setup_key and prefs.get(s.key, s.default) is not None
        }
    )
    return out


def last_setups(headers: Iterable[GameHeader]) -> dict[str, JSONObject]:
    """The setup of the latest game of each box among ``headers`` (the store's games)."""
    out: dict[str, tuple[int, JSONObject]] = {}
    for h in headers:
        if h.rules not in out or h.id > out[h.rules][0]:
            out[h.rules] = (h.id, h.config)
    return {rules: config for rules, (_, config) in out.items()}


class Preferences:
    """The preferences of one store, in memory, with listeners (for ``companion serve``; the
    touchscreen keeps its own copy in its controller and hands the host page its methods)."""

    def __init__(self, store: Store, language: str = "en") -> None:
        self.store = store
        self.fallback_language = language
        self.values: dict[str, JSON] = {}
        self.changed: list[Callable[[str], None]] = []

    async def load(self) -> None:
        self.values = await asyncio.to_thread(self.store.preferences)

    def get(self, key: str, default: JSON = None) -> JSON:
        return self.values.get(key, default)

    @property
    def language(self) -> str:
        chosen = self.values.get(PREF_LANGUAGE)
        return chosen if isinstance(chosen, str) and chosen in LANGUAGES else self.fallback_language

    async def set(self, key: str, value: JSON) -> None:
        await asyncio.to_thread(self.store.set_preference, key, value)
        self.values[key] = value
        for callback in list(self.changed):
            callback(key)
