"""The one translation table: message codes → words in the table's language.

Texts come from ``companion/app/messages.json`` (core and app codes) and each game's
``messages.json``. A code without a text falls back to its parent code (``sy.no_ticket`` →
``sy``), then English, then the code itself, so a screen always shows something readable.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
from collections.abc import Mapping

from companion.core.errors import CompanionError
from companion.core.jsonvalue import JSON
from companion.games import GAMES

LANGUAGES = ("en", "de")
_PACKAGES = ("companion.app", *GAMES.values())


@functools.cache
def catalogue(extra: tuple[str, ...] = ()) -> dict[str, dict[str, str]]:
    """Every text by language; ``extra`` names front-end packages with their own messages.json."""
    merged: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
    for package in (*_PACKAGES, *extra):
        try:
            text = importlib.resources.files(package).joinpath("messages.json").read_text("utf-8")
        except (FileNotFoundError, ModuleNotFoundError, TypeError):  # a game without texts yet
            continue
        for lang, texts in json.loads(text).items():
            merged.setdefault(lang, {}).update(texts)
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


def error_text(error: CompanionError, lang: str = "en", extra: tuple[str, ...] = ()) -> str:
    return text(error.code, error.params, lang, extra)
