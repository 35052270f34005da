"""Every error code raised in the package, and every outcome reason, has an English and a German text."""

from __future__ import annotations

import ast
import typing
from pathlib import Path

from companion.app.i18n import package_texts, template_parts
from companion.games.scotland_yard import model

PACKAGE = Path(model.__file__).resolve().parent
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


def raised_codes() -> set[str]:
    codes = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ERRORS:
                first = node.args[0] if node.args else None
                assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                    f"{path.name}:{node.lineno}: error codes are literal strings"
                )
                codes.add(first.value)
    return codes


def texts() -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = package_texts("companion.games.scotland_yard")
    return data


def fields(text: str) -> set[str]:
    """The parameters a text uses (plural forms included: the catalogue's template syntax)."""
    return template_parts(text)[0]


def test_every_raised_code_has_english_and_german_text() -> None:
    codes = raised_codes()
    assert len(codes) >= 35
    assert all(code.startswith("sy.") for code in codes)
    messages = texts()
    for lang in ("en", "de"):
        missing = sorted(codes - set(messages[lang]))
        assert missing == [], f"{lang}: {missing}"


def test_every_outcome_reason_has_texts() -> None:
    reasons = typing.get_args(model.EndReason)
    for lang in ("en", "de"):
        assert {f"sy.{r}" for r in reasons} <= set(texts()[lang])


def test_english_and_german_use_the_same_placeholders() -> None:
    messages = texts()
    assert set(messages["en"]) == set(messages["de"])
    for code, text in messages["en"].items():
        assert fields(text) == fields(messages["de"][code]), code
