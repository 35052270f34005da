"""No game constant is copied outside ``companion/games``: the front ends read a game's facts
(``FACTS`` of its package, through the registry) instead of keeping their own lists."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest

from companion.games import facts, game_names

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE = ("companion/app", "companion/core", "companion/net", "companion/cli.py", "hardware", "ui")
# Names the front ends used to give their copies (ui/games/*.py, ui/theme.py and phone.js before the facts).
COPY_NAMES = re.compile(
    r"^\s*(const\s+)?(VM_|MYK_)?(TICKETS|LINES|LOG_FIELDS|CITIES|AGENTS|BUILDINGS|PATRONS|COLOURS|COUNTERS|UNLOCKS)\s*=",
    re.M,
)
BOXED = ("scotland_yard", "victorian_masterminds", "mykerinos")


def sources() -> list[Path]:
    found: list[Path] = []
    for place in OUTSIDE:
        path = ROOT / place
        found += [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.suffix in (".py", ".js"))
    return found


def known_lists() -> dict[str, list[str]]:
    """Every list of names in the boxed games' facts: ``game.key`` -> the names."""
    out: dict[str, list[str]] = {}
    for game in BOXED:
        for key, value in facts(game).items():
            if isinstance(value, list) and len(value) >= 2 and all(isinstance(v, str) for v in value):
                out[f"{game}.{key}"] = [str(v) for v in value]
    return out


def test_the_boxed_games_publish_the_constants_their_screens_need() -> None:
    lists = known_lists()
    assert lists["scotland_yard.tickets"] == ["taxi", "bus", "underground", "black"]
    assert lists["victorian_masterminds.cities"] == ["london", "moscow", "washington", "paris", "rome"]
    assert lists["mykerinos.patrons"][0] == "lady_violet" and len(lists) >= 9
    assert facts("scotland_yard")["log_fields"] == 24
    assert set(game_names()) >= set(BOXED)


def test_no_list_of_a_game_constant_is_written_outside_the_games() -> None:
    """Two names of one fact list written one after the other (``"london", "moscow"``) is a copy."""
    pairs = {(a, b): name for name, values in known_lists().items() for a, b in pairwise(values)}
    copies = []
    files = sources()
    assert any(p.name == "phone.js" for p in files)
    assert ROOT / "ui" / "games" / "scotland_yard" / "mister_x.py" in files  # a package's modules are scanned too
    for path in files:
        text = path.read_text("utf-8")
        for (a, b), name in pairs.items():
            if re.search(rf"""["']{a}["']\s*,\s*["']{b}["']""", text):
                copies.append(f"{path.relative_to(ROOT)}: {name} ({a}, {b})")
        copies += [f"{path.relative_to(ROOT)}: {m.group(0).strip()}" for m in COPY_NAMES.finditer(text)]
    assert copies == []


@pytest.mark.parametrize(
    "module", ["ui/games/scotland_yard/mister_x.py", "companion/net/static/games/scotland_yard.js"]
)
def test_the_length_of_the_travel_log_is_read_not_written(module: str) -> None:
    text = (ROOT / module).read_text("utf-8")
    assert not re.search(r"(<=?\s*|range\(1,\s*)2[45]\b", text)
    assert "log_fields" in text


def test_the_scan_finds_a_copy_when_there_is_one() -> None:
    """The check itself can fail: the old phone page's city list is caught."""
    copy = 'const VM_CITIES = ["london", "moscow", "washington", "paris", "rome"];'
    pairs = [(a, b) for values in known_lists().values() for a, b in pairwise(values)]
    assert any(re.search(rf"""["']{a}["']\s*,\s*["']{b}["']""", copy) for a, b in pairs)
    assert COPY_NAMES.search(copy)
