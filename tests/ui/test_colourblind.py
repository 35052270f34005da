"""Colour-blind players tell every player apart (issue 29, "Readable for everyone": "Player colours
paired with a letter or symbol on every screen and phone, so red/green and blue/purple players are
told apart by colour-blind players; check screenshots of each table screen through a colour-blindness
simulation (deuteranopia, protanopia) — every player distinguishable").

The simulation: Machado et al. 2009, severity 1.0, in linear RGB (``tests/ui/colourblind.py``).

The threshold, :data:`APART`: two player colours are told apart by colour alone when their CIE 1976
ΔE*ab is at least 20 as the simulated eye sees them. A ΔE*ab of about 2.3 is one just-noticeable
difference for large patches side by side (Sharma, Digital Color Imaging Handbook, 2003); a player's
colour on this table is a small chip (14 to 76 px) seen from across the table and often alone, to be
named rather than compared, so about ten of those steps are asked for. Every pair closer than that
must be told apart by its shape (``ui/theme.py: PLAYER_MARK``), and the screens must draw the shapes.

The screenshots of each table screen, as drawn and through both simulations, are written to
``artifacts/screenshots/colourblind/``; with ``COMPANION_DOCS_SCREENSHOTS=1`` they are copied to
``docs/screenshots/colourblind/`` (committed, and looked at).
"""

from __future__ import annotations

import itertools
import os
import shutil
from pathlib import Path
from typing import Any

from colourblind import SIMULATIONS, delta_e, simulate, simulate_image
from driver import ROOT, SCREENSHOTS, AppProcess
from PIL import Image
from prepare import saved_game
from test_screens_ui import busy_myk, busy_vm
from test_texts_fit import busy_sy, game_at

from companion.core.jsonvalue import JSONObject
from ui import theme

APART = 20.0  # ΔE*ab: told apart by colour alone (see the module's docstring)
DOCS = ROOT / "docs" / "screenshots" / "colourblind"
SHOTS = SCREENSHOTS / "colourblind"

# The table's games as the screenshots show them: every box colour of Victorian Masterminds (two of
# the players named at setup) and all four of Mykerinos (one named).
VM: JSONObject = {
    "players": [
        {"seat": "p1", "colour": "red", "machine": 1, "name": "Ann"},
        {"seat": "p2", "colour": "blue", "machine": 2},
        {"seat": "p3", "colour": "green", "machine": 3, "name": "Bob"},
        {"seat": "p4", "colour": "yellow", "machine": 4},
    ],
    "secret_service_start": 4,
}
MYK: JSONObject = {"seats": ["blue", "red", "green", "white"], "layout": "line4", "names": {"red": "Cleo"}}


def rgb(colour: theme.RGBA) -> tuple[float, float, float]:
    return colour[0], colour[1], colour[2]


def too_close() -> dict[str, list[tuple[str, str, float]]]:
    """Per simulation, the pairs of player colours (``theme.PLAYER``) closer than :data:`APART`."""
    close: dict[str, list[tuple[str, str, float]]] = {}
    for kind in SIMULATIONS:
        for a, b in itertools.combinations(theme.PLAYER, 2):
            d = delta_e(simulate(rgb(theme.PLAYER[a]), kind), simulate(rgb(theme.PLAYER[b]), kind))
            if d < APART:
                close.setdefault(kind, []).append((a, b, round(d, 1)))
    return close


def test_every_pair_of_player_colours_is_told_apart_by_colour_or_by_shape() -> None:
    """Every pair of player colours is either far enough apart through both simulations or carries
    two different shapes. The simulation itself is checked to do what it should: red and green, far
    apart to the normal eye, come close for a deuteranope; blue and purple for both."""
    close = too_close()
    names = {kind: {(a, b) for a, b, _ in pairs} for kind, pairs in close.items()}
    assert delta_e(rgb(theme.PLAYER["red"]), rgb(theme.PLAYER["green"])) > 3 * APART
    assert ("red", "green") in names["deuteranopia"]
    assert ("blue", "purple") in names["deuteranopia"] and ("blue", "purple") in names["protanopia"]
    for kind, pairs in close.items():
        for a, b, d in pairs:
            ma, mb = theme.player_mark(a), theme.player_mark(b)
            assert ma and mb and ma != mb, f"{a}, {b}: ΔE*ab {d} through {kind}, and not told apart by shape"


def seated_marks_drawn(state: dict[str, Any], colours: list[str]) -> list[str]:
    """The seated colours whose shape no text on screen shows in front of a player's name."""
    texts = state["texts"]
    return [c for c in colours if not any(f"{theme.player_mark(c)}\u00a0" in t for t in texts)]


def drawn(path: Path, colour: str) -> int:
    """How many pixels of the screenshot have exactly the player colour (its chips)."""
    want = tuple(round(c * 255) for c in rgb(theme.PLAYER[colour]))
    raw = Image.open(path).convert("RGB").tobytes()
    return sum(1 for pixel in zip(raw[0::3], raw[1::3], raw[2::3], strict=True) if pixel == want)


def test_each_table_screen_through_both_simulations(display: str, tmp_path: Path) -> None:
    """Each table screen (800×480, the real app) as drawn and as a protanope and a deuteranope see it;
    on each, every seated player's colour is drawn (the chips: the colour the pair test measures is
    the colour on screen) and every seated player's shape is shown in front of its name."""
    data = tmp_path / "games"
    ids = {
        "scotland_yard": game_at(data, "scotland_yard", "Scotland Yard", busy_sy),
        "victorian_masterminds": game_at(data, "victorian_masterminds", "Victorian Masterminds", busy_vm, VM),
        "mykerinos": game_at(data, "mykerinos", "Mykerinos", busy_myk, MYK),
        "mykerinos-end": saved_game(data, "mykerinos", "Mykerinos, fin", seed=4, config=MYK),
    }
    seated: dict[str, list[str]] = {
        "scotland_yard": [],
        "victorian_masterminds": ["red", "blue", "green", "yellow"],
        "mykerinos": ["blue", "red", "green", "white"],
        "mykerinos-end": ["blue", "red", "green", "white"],
    }
    app = AppProcess(display, tmp_path)
    shutil.copytree(data, app.data, dirs_exist_ok=True)
    missing: dict[str, Any] = {}
    app.start()
    try:
        for key, game_id in ids.items():
            state = app.wait(lambda s: not s["dialog"])
            if state["screen"] != "start":
                app.tap({"game": "game.home", "end": "end.home"}[state["screen"]])
                app.wait_screen("start")
            app.tap("start.saved")
            app.wait_screen("saved")
            app.tap(f"saved.open.{game_id}")
            state = app.wait_screen("end" if key.endswith("-end") else "game")
            app.call({"cmd": "frames", "count": 3})
            state = app.state()
            path = app.screenshot(f"colourblind-{key}")
            SHOTS.mkdir(parents=True, exist_ok=True)
            shots = {"": SHOTS / f"{key}.png"}
            shutil.copyfile(path, shots[""])
            for kind in SIMULATIONS:
                shots[kind] = SHOTS / f"{key}-{kind}.png"
                simulate_image(path, shots[kind], kind)
            if os.environ.get("COMPANION_DOCS_SCREENSHOTS"):
                DOCS.mkdir(parents=True, exist_ok=True)
                for shot in shots.values():
                    shutil.copyfile(shot, DOCS / shot.name)
            if no_shape := seated_marks_drawn(state, seated[key]):
                missing[f"{key}: no shape"] = no_shape
            if not_drawn := [c for c in seated[key] if drawn(path, c) < 40]:
                missing[f"{key}: colour not drawn"] = not_drawn
    finally:
        app.stop()
    assert missing == {}, missing
