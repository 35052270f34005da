"""The direction of dependence, checked on every import (at the top, inside functions and for type
checking only):

    ui, companion.net, hardware (its router)  ->  companion.app  ->  companion.games  ->  companion.core

- companion/core and companion/games import only the standard library (and what is below them);
- a game's package imports only itself and the core; front ends reach a game only through the
  registry (``companion.games``), never a game's own modules;
- the front ends do not import each other, and nothing imports the ui;
- the hardware drivers (every module of ``hardware/`` but the router and the command line) import no
  app and no game code;
- the entry points (``companion run`` in ui/app.py, ``companion serve`` in companion/net/serve.py,
  ``companion doctor``/``enroll`` in hardware/cli.py, and the ``companion`` command itself) compose
  the parts and may import any of them;
- ``companion.files`` (private folders, files replaced whole) imports only the standard library and
  may be used by every part that writes a file;
- no module imports itself through others (no circle).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = set(sys.stdlib_module_names) | {"__future__"}
PACKAGES = ("companion", "hardware", "ui")


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
    problems += [f"companion/files.py imports {n}" for n in imports(ROOT / "companion/files.py") if n not in ALLOWED]
    assert problems == []


def test_nothing_imports_the_ui() -> None:
    problems = []
    for folder in ("companion", "hardware"):
        for path in (ROOT / folder).rglob("*.py"):
            problems += [f"{path.relative_to(ROOT)} imports {n}" for n in imports(path) if n.split(".")[0] == "ui"]
    assert problems == []


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def first_party_graph() -> dict[str, set[str]]:
    """module -> the first-party modules it imports (``from a.b import c`` counts a.b.c if that is a module)."""
    paths = {module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1], base]).strip(".")
                targets |= {f"{base}.{a.name}" if f"{base}.{a.name}" in paths else base for a in node.names}
        graph[name] = {t for t in targets if t in paths and t != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


ENTRY_POINTS = {"companion.cli", "ui.app", "companion.net.serve", "hardware.cli"}
HARDWARE_LINKS = {"hardware.router"}  # the hardware side's one link to the app
MAY_IMPORT = {
    "core": {"core"},
    "registry": {"core"},
    "game": {"core"},  # and its own package, checked apart
    "files": set(),  # the standard library only
    "app": {"core", "registry", "app", "files"},
    "net": {"core", "registry", "app", "net", "files"},
    "hardware": {"core", "registry", "app", "hardware", "driver", "files"},
    "driver": {"core", "driver", "files"},
    "ui": {"core", "registry", "app", "ui", "files"},
    "appliance": {"core", "appliance", "files"},  # what runs around the app on a Pi; used by the entry points
}


def within(module: str, package: str) -> bool:
    """``module`` is ``package`` or one of its modules (``companion.appliance`` is not within
    ``companion.app``)."""
    return module == package or module.startswith(package + ".")


def layer(module: str) -> str:
    if module in ENTRY_POINTS:
        return "entry"
    if within(module, "companion.core"):
        return "core"
    if module == "companion.files":
        return "files"
    if module == "companion.games":
        return "registry"
    if within(module, "companion.games"):
        return "game"
    if within(module, "companion.app"):
        return "app"
    if within(module, "companion.net"):
        return "net"
    if within(module, "companion.appliance"):
        return "appliance"
    if module in HARDWARE_LINKS:
        return "hardware"
    if within(module, "hardware"):
        return "driver"
    if within(module, "ui"):
        return "ui"
    return "top"  # companion/__init__.py


def test_every_arrow_points_down() -> None:
    graph = first_party_graph()
    problems = []
    for module, targets in sorted(graph.items()):
        here = layer(module)
        for target in sorted(targets):
            there = layer(target)
            if here == "entry" or there == "top":
                continue
            if here == "game" and there == "game":
                if target.split(".")[:3] != module.split(".")[:3]:
                    problems.append(f"{module} -> {target}: a game imports another game")
                continue
            if there not in MAY_IMPORT.get(here, set()):
                problems.append(f"{module} ({here}) -> {target} ({there})")
    assert problems == []
    # The check sees the arrows it is about.
    assert "companion.core.errors" in graph["hardware.config"] and "companion.app.table" in graph["hardware.router"]
    assert layer("hardware.buttons") == "driver" and layer("companion.games.mykerinos.rules") == "game"


def test_the_arrow_check_refuses_arrows_that_point_up() -> None:
    assert "app" not in MAY_IMPORT["driver"] and "game" not in MAY_IMPORT["ui"] and "net" not in MAY_IMPORT["ui"]
    assert "app" not in MAY_IMPORT["registry"] and "hardware" not in MAY_IMPORT["net"]
    assert layer("hardware.config") == "driver" and layer("ui.app") == "entry"
    # A package is matched by its name, not by the start of its name.
    assert layer("companion.appliance.status") == "appliance" and layer("companion.app.table") == "app"
    assert all(layer(m) != "top" for m in first_party_graph() if m != "companion"), "every module has a layer"


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_through_others() -> None:
    graph = first_party_graph()
    assert len(graph) > 60 and "ui.shell" in graph["ui.app"], "the graph sees the lazy imports too"
    assert circles(graph) == []


def test_no_benchmark_imports_itself_through_others() -> None:
    """The benchmarks are scripts importing each other by file name (``import pi_timing``): their
    arrows, lazy ones included, make no circle either (``bench_ai`` and ``pi_timing`` once did)."""
    folder = ROOT / "benchmarks"
    names = {p.stem for p in folder.glob("*.py")}
    graph = {p.stem: {n.split(".")[0] for n in imports(p)} & names - {p.stem} for p in folder.glob("*.py")}
    assert "pi_timing" in graph["bench_ai"] and "sy_games" in graph["pi_timing"], "it sees the lazy imports"
    assert circles(graph) == []


def named_layers(text: str) -> dict[str, list[str]]:
    """docs/architecture.md's "Every module's layer" table: module path -> the layers naming it. In
    a row's modules, a folder (``ui/games/``) is followed by the names of its modules; a path with a
    folder in it stands alone."""
    section = text.split("### Every module's layer", 1)[1].split("\n#", 1)[0]
    named: dict[str, list[str]] = {}
    for row in section.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        folder = ""
        for item in re.findall(r"`([^`]+)`", cells[2]):
            if item.endswith("/"):
                folder = item
            else:
                named.setdefault(item if "/" in item else folder + item, []).append(cells[0].strip("`"))
    return named


def test_the_architecture_page_names_every_module_in_its_layer() -> None:
    named = named_layers((ROOT / "docs" / "architecture.md").read_text("utf-8"))
    problems = []
    modules = sorted(p.relative_to(ROOT).as_posix() for package in PACKAGES for p in (ROOT / package).rglob("*.py"))
    for path in modules:
        module = module_name(ROOT / path)
        layers = named.pop(path, [])
        if layers != [layer(module)]:
            problems.append(f"{path}: named in {layers or 'no layer'}, is in {layer(module)}")
    problems += [f"{path}: named, but there is no such module" for path in named]
    assert problems == []
    assert "companion/files.py" in modules and len(modules) > 150


def test_the_layer_table_is_read_as_written() -> None:
    text = (
        "### Every module's layer\n\n| `app` | what | `companion/app/` `a.py` `b.py`; `x/y.py` |\n"
        "\n## Next\n| `ui` | | `q.py` |"
    )
    assert named_layers(text) == {"companion/app/a.py": ["app"], "companion/app/b.py": ["app"], "x/y.py": ["app"]}
