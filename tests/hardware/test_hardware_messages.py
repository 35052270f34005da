"""Every message code the hardware package raises has an English and a German text."""

from __future__ import annotations

import re
from pathlib import Path

from companion.app.i18n import package_texts

ROOT = Path(__file__).resolve().parents[2]


def test_every_code_has_english_and_german_texts() -> None:
    texts = package_texts("hardware")
    source = "\n".join(p.read_text("utf-8") for p in sorted((ROOT / "hardware").glob("*.py")))
    codes = set(re.findall(r'"(hardware\.[a-z_]+(?:\.[a-z_]+)*)"', source))
    assert {"hardware.config", "hardware.tags.conflict", "hardware.tags.malformed"} <= codes
    for lang in ("en", "de"):
        assert codes - set(texts[lang]) == set(), lang
    assert set(texts["en"]) == set(texts["de"])
    for code, text in texts["en"].items():
        assert set(re.findall(r"{(\w+)}", text)) == set(re.findall(r"{(\w+)}", texts["de"][code])), code
