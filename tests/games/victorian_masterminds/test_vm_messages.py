"""Every message code raised in the Victorian Masterminds package has an English and a German
text, and the texts' placeholders are the params the code is raised with."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import companion.games.victorian_masterminds as package
from companion.app.i18n import package_texts

PACKAGE = Path(package.__file__).resolve().parent
MESSAGES = package_texts("companion.games.victorian_masterminds")
ERRORS = {
    "CompanionError",
    "MalformedInput",
    "Forbidden",
    "IllegalMove",
    "StaleIntent",
    "GameOver",
    "UndoRefused",
    "SetupError",
}


def raised_codes() -> dict[str, set[str]]:
    """code -> the params it is raised with, from every ``SomeError("code", ..., k=v)`` call."""
    codes: dict[str, set[str]] = {}
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ERRORS):
                continue
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                names = [first.value]
            elif isinstance(first, ast.JoinedStr):  # f"vm.setup.{field}"
                names = [c for c in MESSAGES["en"] if c.startswith("vm.setup.")]
            else:
                raise AssertionError(f"{path.name}:{node.lineno}: the code must be a literal")
            for name in names:
                codes.setdefault(name, set()).update(k.arg for k in node.keywords if k.arg)
    return codes


def test_every_raised_code_has_english_and_german_texts() -> None:
    codes = raised_codes()
    assert len(codes) > 40
    missing = [(lang, c) for c in codes for lang in ("en", "de") if c not in MESSAGES[lang]]
    assert missing == []


def test_placeholders_are_params_the_code_is_raised_with() -> None:
    for code, params in raised_codes().items():
        for lang in ("en", "de"):
            used = set(re.findall(r"{(\w+)}", MESSAGES[lang][code]))
            assert used <= params, (lang, code, used - params)


def test_both_languages_have_the_same_keys_and_the_labels_front_ends_need() -> None:
    assert set(MESSAGES["en"]) == set(MESSAGES["de"])
    for key in ("vm.city.rome", "vm.agent.gunner", "vm.building.monument", "vm.waiting.reveal", "vm.log.corrected"):
        assert key in MESSAGES["en"]
    from companion.games.victorian_masterminds import engine

    log_codes = set(re.findall(r'"(vm\.log\.\w+)"', Path(engine.__file__).read_text("utf-8")))
    assert log_codes and log_codes <= set(MESSAGES["en"])


def test_the_app_translation_table_finds_the_texts() -> None:
    from companion.app.i18n import text

    assert text("vm.not_enough_scientists", {"need": 2, "have": 1}, "de") == (
        "Dafür braucht es 2 Wissenschaftler; vorhanden ist nur 1."
    )
    assert (
        text("vm.not_enough_scientists", {"need": 3, "have": 2}, "en") == "That needs 3 scientists; there are only 2."
    )
    assert text("vm.not_your_turn", {"active": "p2"}, "en") == "It is p2's turn."
