"""The count behind docs/adding-a-game.md: a game needs its package plus at most three registrations
elsewhere — one registry entry, one touchscreen module, one phone module — counted per game, for any
number of games.

Measured on the code: the only files outside a game's package that name it (its name, or a code
with its prefix such as ``"sy.move"``) are those three. The test game in ``tests/toygame`` is the
proof for a fourth game: it is registered with the same ``register()`` call, and no file of the
product (companion/, hardware/, ui/) names it at all.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import toygame

from companion.games import GameEntry, entry, game_names, get_rules

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("companion", "hardware", "ui")


def prefix(game: str) -> str:
    """The prefix of the game's codes and kinds (``sy`` of ``sy.move``)."""
    kinds = {k.partition(".")[0] for k in get_rules(game).intents.kinds}
    assert len(kinds) == 1, kinds
    return kinds.pop()


def python_literals(path: Path) -> set[str]:
    """Every string literal that is not a docstring (f-string parts included)."""
    tree = ast.parse(path.read_text("utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    }


def names_the_game(path: Path, game: str, code: str) -> bool:
    if path.suffix == ".py":
        return any(s == game or s.startswith(f"{code}.") for s in python_literals(path))
    text = re.sub(r"/\*.*?\*/", "", path.read_text("utf-8"), flags=re.S)  # not in comments
    return re.search(rf"""["'`]({game}["'`]|{code}\.)""", text) is not None


def product_files() -> list[Path]:
    return sorted(p for place in PRODUCT for p in (ROOT / place).rglob("*") if p.suffix in (".py", ".js"))


def module_files(module: str) -> set[Path]:
    """A touchscreen module's files: one file, or every file of a package split by panel."""
    path = ROOT / module.replace(".", "/")
    return set(path.rglob("*.py")) if path.is_dir() else {path.with_suffix(".py")}


def phone_file(spec: str) -> Path:
    package, _, path = spec.partition(":")
    return ROOT / package.replace(".", "/") / path


def product_games() -> list[str]:
    """Every registered game of the product (the test game lives in tests/)."""
    return [g for g in game_names() if entry(g).package.startswith("companion.games.")]


def registrations(game: str) -> set[Path]:
    """The files outside a game's package that may name it: its registry entry, and its
    touchscreen and phone modules where it has them (the recipe's in-between step leaves them
    empty: then the generic screens show it, and only the registry names it)."""
    return set().union(*registration_units(game))


def registration_units(game: str) -> list[set[Path]]:
    """The registrations as units: the registry entry, the touchscreen module (a file or a package),
    the phone module."""
    registered = entry(game)
    units = [{ROOT / "companion" / "games" / "__init__.py"}]
    if registered.touchscreen:
        units.append(module_files(registered.touchscreen))
    if registered.phone:
        units.append({phone_file(registered.phone)})
    return units


def test_a_boxed_game_is_named_only_by_its_registrations() -> None:
    """Counted per game: however many games there are, each is named outside its package by at
    most three registrations — its registry entry, its touchscreen module (one file, or a package
    of panels), its phone module."""
    for game in product_games():
        code, own = prefix(game), ROOT / "companion" / "games" / game
        outside = {p for p in product_files() if own not in p.parents and names_the_game(p, game, code)}
        named = {p.relative_to(ROOT) for p in outside}
        # every file naming it is a registration (not every file of a touchscreen package names it)
        assert named <= {p.relative_to(ROOT) for p in registrations(game)}, game
        assert Path("companion/games/__init__.py") in named, game
        assert len(registration_units(game)) <= 3
    assert {"scotland_yard", "victorian_masterminds", "mykerinos"} <= set(product_games())


def test_the_test_game_is_registered_like_a_boxed_one_and_the_product_never_names_it() -> None:
    package = Path(toygame.__file__).resolve().parent
    registered = entry("toy")
    assert registered == GameEntry("toy", "toygame", touchscreen="toygame.screen", phone="toygame:phone.js")
    assert "toy" in game_names() and get_rules("toy") is toygame.RULES
    # Its parts live in its package: rules, facts and hardware rules, touchscreen and phone modules, texts.
    assert (package / "screen.py").is_file() and (package / "phone.js").is_file()
    assert (package / "messages" / "en.json").is_file() and toygame.FACTS and toygame.HARDWARE.actions
    # One register() call, the same as the boxed games' in companion/games/__init__.py.
    calls = [n for n in ast.walk(ast.parse((package / "__init__.py").read_text("utf-8"))) if isinstance(n, ast.Call)]
    assert [getattr(c.func, "id", "") for c in calls].count("register") == 1
    boxed = ast.parse((ROOT / "companion" / "games" / "__init__.py").read_text("utf-8"))
    boxed_calls = sum(1 for n in ast.walk(boxed) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "register")
    assert boxed_calls == len(product_games())  # one call a game, however many there are
    assert [p.relative_to(ROOT) for p in product_files() if names_the_game(p, "toy", "toy")] == []


def test_the_count_sees_a_name_where_there_is_one(tmp_path: Path) -> None:
    """The measure itself can fail: a screen that sends a game's intent, or names it, is found."""
    screen = tmp_path / "screen.py"
    screen.write_text('"""About sy.move in a docstring."""\nINTENT = {"kind": "sy.move"}\n')
    page = tmp_path / "page.js"
    page.write_text('/* "sy.move" in a comment */\nconst ok = 1;\n')
    assert names_the_game(screen, "scotland_yard", "sy") and not names_the_game(page, "scotland_yard", "sy")
    page.write_text('send({ kind: "sy.move" });\n')
    assert names_the_game(page, "scotland_yard", "sy")
