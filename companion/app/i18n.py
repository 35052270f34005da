"""The one translation table: message codes → words in the table's language.

Texts come from ``companion/app/messages/<lang>.json`` (core and app codes) and each game's
``messages/<lang>.json``; front ends (``ui``, ``companion.net``, ``hardware``) keep theirs the same
way. The languages are the catalogues present in ``companion/app/messages/``: adding a language is
adding files, never editing a list. A code without a text falls back to its parent code
(``sy.no_ticket`` → ``sy``), then English, then the code itself, so a screen always shows something
readable.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
from collections.abc import Mapping

from companion.core.errors import CompanionError
from companion.core.jsonvalue import JSON
from companion.games import GAMES

_PACKAGES = ("companion.app", *GAMES.values())


def _languages() -> tuple[str, ...]:
    """English first (the fallback), then every other catalogue of the app, by code."""
    folder = importlib.resources.files("companion.app").joinpath("messages")
    found = sorted(entry.name.removesuffix(".json") for entry in folder.iterdir() if entry.name.endswith(".json"))
    return ("en", *(lang for lang in found if lang != "en"))


LANGUAGES = _languages()


def read_catalogue(package: str, lang: str) -> dict[str, str]:
    """One package's texts in one language (empty when the package has none in it)."""
    try:
        raw = importlib.resources.files(package).joinpath("messages", f"{lang}.json").read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError, TypeError, NotADirectoryError):
        return {}
    texts = json.loads(raw)
    if not isinstance(texts, dict):
        raise ValueError(f"{package}/messages/{lang}.json is not an object")
    return {str(k): str(v) for k, v in texts.items()}


def package_texts(package: str) -> dict[str, dict[str, str]]:
    """One package's texts, by language (for tests and tools that check a catalogue)."""
    return {lang: read_catalogue(package, lang) for lang in LANGUAGES}


@functools.cache
def catalogue(extra: tuple[str, ...] = ()) -> dict[str, dict[str, str]]:
    """Every text by language; ``extra`` names front-end packages with their own catalogues."""
    merged: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
    for package in (*_PACKAGES, *extra):
        for lang in LANGUAGES:
            merged[lang].update(read_catalogue(package, lang))
    return merged


def text(code: str, params: Mapping[str, JSON] | None = None, lang: str = "en", extra: tuple[str, ...] = ()) -> str:
    """The words for ``code``; ``extra`` adds front-end packages' texts (e.g. ``("ui",)``)."""
    table = catalogue(extra)
    for language in (lang, "en"):
        texts = table.get(language, {})
        probe = code
        while probe:
            if probe in texts:
                try:
                    return texts[probe].format(**(params or {}))
                except (KeyError, IndexError, ValueError):
                    return texts[probe]
            probe = probe.rpartition(".")[0]
    return code


def language_name(lang: str) -> str:
    """A language's own name for a language picker ("Deutsch", "Français"), from its catalogue."""
    return read_catalogue("companion.app", lang).get("language.name", lang)


def error_text(error: CompanionError, lang: str = "en", extra: tuple[str, ...] = ()) -> str:
    return text(error.code, error.params, lang, extra)
