"""Every message code the core, the app and the phone server can produce has English and German
text (games check their own codes in their test folders)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.app.i18n import (
    TemplateError,
    catalogue,
    format_number,
    package_texts,
    plural_category,
    plural_rule,
    render,
    template_parts,
    template_selects,
    text,
)
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


TICKETS = "{n, plural, =0 {no ticket} one {# ticket} other {# tickets}} left"


def test_plural_forms_follow_each_languages_rule() -> None:
    assert [render(TICKETS, {"n": n}, "en") for n in (0, 1, 2)] == ["no ticket left", "1 ticket left", "2 tickets left"]
    # French counts 0 and 1 as singular, English and Spanish only 1; =0 beats the rule.
    assert [plural_category(n, "fr") for n in (0, 1, 2)] == ["one", "one", "other"]
    assert [plural_category(n, "en") for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural_category(n, "es") for n in (0, 1, 2, 1000000)] == ["other", "one", "other", "many"]
    french = "{n, plural, one {# point} other {# points}}"
    assert [render(french, {"n": n}, "fr") for n in (0, 1, 2)] == ["0 point", "1 point", "2 points"]
    assert render(french, {"n": 1000000}, "fr") == "1\u00a0000\u00a0000 points"  # no "many" form: other


def test_numbers_are_grouped_the_languages_way() -> None:
    assert [format_number(12345, lang) for lang in ("en", "de", "fr", "es")] == [
        "12,345",
        "12.345",
        "12\u00a0345",
        "12.345",
    ]
    assert format_number(1234, "es") == "1234"  # Spanish groups from five digits on
    assert format_number(-1000, "de") == "-1.000"
    assert render("{a} · {b} · {c}", {"a": 1500, "b": "1500", "c": ["x", "y"]}, "de") == "1.500 · 1500 · x, y"


def test_templates_keep_missing_parameters_braces_and_odd_values() -> None:
    assert render("{a} and {b}", {"a": 1}, "en") == "1 and {b}"
    assert render('Write {{"add": [1]}}.', {}, "en") == 'Write {"add": [1]}.'
    assert render("Mission: {r, plural, one {# point} other {# points}}", {"r": "?"}, "en") == "Mission: ? points"
    assert render(TICKETS, {}, "en") == "{n} left"
    assert template_parts("{a} {n, plural, one {# {b}} other {#}}") == ({"a", "b", "n"}, {"n"})
    for bad in (
        "{n, plural, one {x}}",
        "{n, plural, one {x} other {y}",
        "{n, select, a {x}}",
        "{n, chose, other {x}}",
        "x}",
        "{ }",
    ):
        with pytest.raises(TemplateError):
            render(bad, {"n": 1}, "en")
    # A malformed text is still shown (as written) rather than failing a screen.
    assert text("no.such.code", {}, "en") == "no.such.code"


def test_a_select_chooses_its_words_by_an_id() -> None:
    """French says "Aucune ligne de bus" but "Aucune liaison" for a ticket that is no line; the branch
    is chosen by the id, ``other`` for any other value, and a missing value keeps the braces."""
    line = (
        "{ticket, select, bus {Aucune ligne de bus} underground {Aucune ligne de métro} other {Aucune liaison}}"
        " ne va à {n}."
    )
    assert render(line, {"ticket": "bus", "n": 1200}, "fr") == "Aucune ligne de bus ne va à 1\u00a0200."
    assert render(line, {"ticket": "black", "n": 3}, "fr") == "Aucune liaison ne va à 3."
    assert render(line, {"n": 3}, "fr") == "{ticket} ne va à 3."
    assert template_parts(line) == ({"ticket", "n"}, set())
    assert template_selects(line) == {"ticket": {"bus", "underground"}}
    nested = "{n, plural, one {# {k, select, a {A#} other {O}}} other {# many}}"
    assert [render(nested, {"n": 1, "k": k}, "en") for k in ("a", "b")] == ["1 A1", "1 O"]
    assert render(nested, {"n": 2, "k": "a"}, "en") == "2 many"


def test_a_plural_rule_is_read_in_cldr_syntax() -> None:
    polish = plural_rule(
        "one: i = 1 and v = 0; few: v = 0 and i % 10 = 2..4 and i % 100 != 12..14;"
        " many: v = 0 and i != 1 and i % 10 = 0..1 or v = 0 and i % 10 = 5..9 or v = 0 and i % 100 = 12..14"
    )
    assert [polish(n) for n in (1, 2, 5, 12, 22, 25, 112)] == ["one", "few", "many", "many", "few", "many", "many"]
    for bad in ("single: n = 1", "one: n == 1", "one: x = 1", "one n = 1"):
        with pytest.raises(TemplateError):
            plural_rule(bad)
