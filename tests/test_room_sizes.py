"""The touchscreen's code stays in rooms a maintainer can read (issue 44): no module of ``ui/`` over
600 lines, none of the widget kit's (``ui/widgets/``) over 400, each of those opening with a
docstring that says what it holds and what it imports, and no function over 50 lines unless it is a
table of data (its body, after a docstring, one ``return`` of a literal).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UI = ROOT / "ui"


def table_of_data(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = list(node.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    return (
        len(body) == 1
        and isinstance(body[0], ast.Return)
        and isinstance(body[0].value, (ast.Dict, ast.List, ast.Tuple, ast.Set))
    )


def long_functions(source: str, limit: int = 50) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not table_of_data(node):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > limit:
                found.append(f"{node.name} (line {node.lineno}: {length} lines)")
    return found


def test_no_ui_module_or_function_is_too_long() -> None:
    problems = []
    paths = sorted(UI.rglob("*.py"))
    assert len(paths) > 50
    for path in paths:
        source = path.read_text("utf-8")
        name = path.relative_to(ROOT)
        lines = len(source.splitlines())
        if lines > 600:
            problems.append(f"{name}: {lines} lines")
        problems += [f"{name}: {f}" for f in long_functions(source)]
    assert problems == []


def test_the_widget_kit_is_in_small_rooms_that_say_what_they_hold() -> None:
    rooms = sorted((UI / "widgets").glob("*.py"))
    assert len(rooms) >= 6
    for path in rooms:
        source = path.read_text("utf-8")
        assert len(source.splitlines()) <= 400, path
        doc = ast.get_docstring(ast.parse(source)) or ""
        assert len(doc) > 100, f"{path.name}: no docstring that says what it holds"
        if path.name != "__init__.py":
            assert "Imports" in doc, f"{path.name}: its docstring does not say what it may import"
        for node in ast.walk(ast.parse(source)):  # Kivy, the theme, ui.parts and the kit: never a screen
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ui"):
                assert node.module in ("ui", "ui.theme", "ui.parts") or node.module.startswith("ui.widgets"), (
                    f"{path.name} imports {node.module}"
                )
                if node.module == "ui":
                    assert [a.name for a in node.names] == ["theme"], path.name


def test_the_checks_see_a_long_function_and_let_a_table_of_data_be() -> None:
    long = "def f():\n" + "    x = 1\n" * 60
    table = 'def g():\n    """Words."""\n    return {\n' + '        "a": 1,\n' * 60 + "    }\n"
    assert long_functions(long) == ["f (line 1: 61 lines)"]
    assert long_functions(table) == []
