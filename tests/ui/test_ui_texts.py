"""Every word the touchscreen shows comes from ``ui/messages/`` or, for a game's screens, from the
game's own texts (its ``ui.<prefix>.*`` codes) in English and German: each ``ui.*`` code the screens
use has both, none is left unused, and the two languages list the same codes. (No window needed: the
sources are read as text.)"""

from __future__ import annotations

import re
from pathlib import Path

from companion.app.i18n import LANGUAGES, catalogue, package_texts, text
from companion.games import entry, game_names

ROOT = Path(__file__).resolve().parents[2]


def touchscreen_texts() -> dict[str, dict[str, str]]:
    """The ``ui.*`` texts by language: the touchscreen's own and every game's."""
    merged: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
    for package in ("ui", *(entry(game).package for game in game_names())):
        for lang, texts in package_texts(package).items():
            merged[lang].update({code: words for code, words in texts.items() if code.startswith("ui.")})
    return merged


TEXTS = touchscreen_texts()
# "ui.x.y" literals, and the fixed part of f-strings such as f"ui.sy.short.{ticket}"
CODE = re.compile(r"""["'](ui\.[a-z0-9_.]+?)(\.?\{[^}]*\})?["']""")


PREFERENCES = {"ui.screen", "ui.large_text"}  # ui/controller.py's PREF_* keys that look like codes


def used_codes() -> tuple[set[str], set[str]]:
    exact: set[str] = set()
    prefixes: set[str] = set()
    for path in (ROOT / "ui").rglob("*.py"):
        for match in CODE.finditer(path.read_text("utf-8")):
            code, templated = match.group(1), match.group(2)
            module = ROOT.joinpath(*code.split(".")).with_suffix(".py")
            if code.startswith("ui.games") or module.is_file() or code in PREFERENCES:
                continue  # module names and the touchscreen's preferences, not texts
            (prefixes if templated else exact).add(code)
    return exact, prefixes


def test_english_and_german_list_the_same_codes() -> None:
    assert set(TEXTS["en"]) == set(TEXTS["de"])
    assert all(TEXTS["de"][code].strip() for code in TEXTS["de"])


def test_every_code_the_screens_use_has_a_text() -> None:
    exact, prefixes = used_codes()
    assert len(exact) > 150
    missing = sorted(c for c in exact if c not in TEXTS["en"])
    assert missing == []
    for prefix in prefixes:  # e.g. ui.sy.short.{ticket}: at least one text under it
        assert any(code.startswith(prefix.rstrip(".") + ".") for code in TEXTS["en"]), prefix
    unused = [c for c in TEXTS["en"] if c not in exact and not any(c.startswith(p + ".") for p in prefixes)]
    assert unused == []


def test_texts_reach_the_screens_through_i18n() -> None:
    assert text("ui.start.new", {}, "de", ("ui",)) == "Neues Spiel"
    assert text("ui.sy.status.round", {"round": 3, "rounds": 22, "who": "x"}, "en", ("ui",)) == "Round 3/22 · x"
    assert "ui.start.new" not in catalogue()["en"]  # only front ends that ask get the ui texts
