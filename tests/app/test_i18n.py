"""Every message code the core, the app and the phone server can produce has English and German
text (games check their own codes in their test folders)."""

from __future__ import annotations

import ast
from pathlib import Path

from companion.app.i18n import catalogue, package_texts, text
from companion.core import CompanionError, IllegalMove

ROOT = Path(__file__).resolve().parents[2]
ERROR_NAMES = {
    "CompanionError",
    "MalformedInput",
    "Forbidden",
    "IllegalMove",
    "StaleIntent",
    "GameOver",
    "UndoRefused",
    "SetupError",
    "StoreError",
    "ConfigError",
    "NoGame",
    "OtherGame",
    "AppRunning",
}
HELPERS = {"_refusal", "_text"}  # companion/net/server.py helpers that take a code


def codes_in(folder: str) -> set[str]:
    found: set[str] = set()
    for path in (ROOT / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                args = [a for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                if name in ERROR_NAMES and node.args and args and args[0] is node.args[0]:
                    found.add(args[0].value)
                if name in HELPERS:
                    found.update(a.value for a in args)
            elif (
                isinstance(node, ast.Assign)
                and any(getattr(t, "id", "") == "default_code" for t in node.targets)
                and isinstance(node.value, ast.Constant)
            ):
                found.add(node.value.value)
    return found


def test_every_app_code_has_english_and_german_text() -> None:
    codes = codes_in("companion/core") | codes_in("companion/app") | codes_in("companion/net")
    assert {"stale", "malformed.field", "link.invalid", "flood", "store.no_game"} <= codes
    texts = package_texts("companion.app")
    missing = [(lang, c) for lang in ("en", "de") for c in sorted(codes) if c not in texts[lang]]
    assert missing == []


def test_page_labels_exist_in_both_languages() -> None:
    page = package_texts("companion.net")
    assert set(page["en"]) == set(page["de"])
    assert set(catalogue(("companion.net",))["de"]) >= set(page["de"])


def test_text_falls_back_to_parent_code_then_english_then_the_code() -> None:
    assert text("malformed.field", {"field": "seq", "expected": "integer"}, "de").endswith("(seq: erwartet integer).")
    assert text("malformed.whatever", {}, "de") == catalogue()["de"]["malformed"]
    assert text("no.such.code", {}, "de") == "no.such.code"
    assert text("stale", {}, "xx") == catalogue()["en"]["stale"]  # a language without catalogues
    assert isinstance(IllegalMove("x"), CompanionError)
