"""companion/core and companion/games import only the standard library (and each other)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = set(sys.stdlib_module_names) | {"__future__"}


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"), str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_core_and_games_import_only_the_standard_library() -> None:
    checked = 0
    problems = []
    layers = (("companion/core", ("companion.core",)), ("companion/games", ("companion.core", "companion.games")))
    for folder, own in layers:
        for path in sorted((ROOT / folder).rglob("*.py")):
            checked += 1
            for name in imports(path):
                if name.split(".")[0] in ALLOWED or name.startswith(own):
                    continue
                problems.append(f"{path.relative_to(ROOT)} imports {name}")
    assert checked >= 8
    assert problems == []


def test_nothing_imports_the_ui() -> None:
    problems = []
    for folder in ("companion", "hardware"):
        for path in (ROOT / folder).rglob("*.py"):
            problems += [f"{path.relative_to(ROOT)} imports {n}" for n in imports(path) if n.split(".")[0] == "ui"]
    assert problems == []
