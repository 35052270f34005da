"""No text is longer than its place on the 800×480 touchscreen, in any language: the real app runs in
each language over the same saved games, and on every screen (start, new game and each game's setup,
saved games, settings, diagnostics, the play history, each game's table in a busy state and while the
Gunner chooses a building, the phones screen, the end screens, a dialog) every text is measured against
its label (``ui/control.py: overflow``: lines cut off, a word wider than its box or broken inside, a
one-line text shortened with an ellipsis). Every screen is also
saved as a screenshot (``artifacts/screenshots/ui-fit-<lang>-<screen>.png``) to look at.

With ``COMPANION_DOCS_SCREENSHOTS=1`` the French and Spanish start and table screens are copied to
``docs/screenshots/`` (the README's and docs/translations.md's pictures)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from driver import ROOT, AppProcess
from PIL import Image
from prepare import saved_game
from test_screens_ui import busy_myk, busy_vm

from companion.app.i18n import LANGUAGES
from companion.app.savedgame import load_game
from companion.app.store import Store
from companion.core.audience import TABLE
from companion.core.jsonvalue import JSON, JSONObject
from ui.controller import PREF_LARGE_TEXT

DOCS = ROOT / "docs" / "screenshots"
RAW = re.compile(  # a message code ("ui.sy.moved") or an unfilled parameter ("{station}")
    r"\b(ui|sy|vm|myk|phone|hardware|input|language)\.[a-z0-9_]+(\.[a-z0-9_]+)*\b|\{[a-z_]+(, *plural[^}]*)?\}"
)
DOC_SHOTS = {  # screen -> file name in docs/screenshots (prefixed with the language)
    "start": "start",
    "table-scotland_yard": "table-scotland-yard",
    "table-victorian_masterminds": "table-victorian-masterminds",
    "table-mykerinos": "table-mykerinos",
}


def busy_sy(message: dict[str, Any]) -> bool:
    view = message["view"]
    return bool(view["round"] >= 4 and view["turn"] == "detectives" and view["mrx"]["station"])


def table_thinking_sy(message: dict[str, Any]) -> bool:
    """Mister X played by the table, his turn (the app's table player thinks: the config gives it time)."""
    view = message["view"]
    return bool(view["round"] >= 4 and view["turn"] == "mrx")


def table_instruction_sy(message: dict[str, Any]) -> bool:
    """The table plays detectives: one of its moves waits for its pawn (the instruction and Done)."""
    view = message["view"]
    return bool(view["round"] >= 3 and view["instruction"])


def second_season(message: dict[str, Any]) -> bool:
    view = message["view"]
    return bool(view["season"] >= 2 and view["phase"] == "excavation")


def counting(message: dict[str, Any]) -> bool:
    """Mykerinos' survey, a zone's archaeologists to count (where the zone is, the +/- counters and
    the button under them)."""
    survey = message["view"]["survey"]
    return bool(survey and survey["waiting"]["for"] == "counts" and message["view"]["season"] >= 2)


def choosing(message: dict[str, Any]) -> bool:
    """Mykerinos' survey, a ranked player to choose a parcel or a museum room."""
    survey = message["view"]["survey"]
    return bool(survey and survey["waiting"]["for"] == "choose" and len(survey["ranking"]) >= 2)


def gunner_choosing(message: dict[str, Any]) -> bool:
    """Victorian Masterminds while the Gunner chooses a building: one button per standing building and
    one for none, side by side (the French "Haut-fourneau" is the longest word of a narrow button)."""
    resolution = message["view"].get("resolution") or {}
    return bool((resolution.get("waiting") or {}).get("kind") == "gunner")


def stack_with_losses(message: dict[str, Any]) -> bool:
    """Victorian Masterminds right after a stack was turned over whose loot was partly lost (the
    longest texts of the stack panel: "+0 Wissenschaftler (1 verfallen)")."""
    view = message["view"]
    last, lines = view.get("last_stack"), view.get("log") or []
    stack_line = bool(lines) and lines[-1].get("what") in ("vm.log.agent", "vm.log.captured", "vm.log.mission")
    if not last or view["phase"] == "ended" or view.get("resolution") is not None or not stack_line:
        return False
    return any(g.get("lost") for a in last["agents"] for g in a.get("loot") or [])


def game_at(data: Path, rules: str, title: str, until: Any, config: JSONObject | None = None) -> int:
    """A saved game that reached ``until`` and is still being played (a random game may end first:
    each seed is another random game: one that ends first is deleted and the next seed played)."""
    for seed in range(1, 40):
        game_id = saved_game(data, rules, title, seed=seed, config=config, until=until)
        store = Store(data / "companion.sqlite3")
        try:
            game = load_game(store, game_id).game
            if game.outcome() is None and until(game.snapshot(TABLE)):
                return game_id
            store.delete(game_id)
        finally:
            store.close()
    raise AssertionError(f"no random {rules} game reached {until.__name__}")


@pytest.fixture(scope="module")
def saved_games(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    """The same saved games for every language: busy tables of the three boxes and finished ones."""
    data = tmp_path_factory.mktemp("fit") / "data"
    four = {"seats": ["blue", "red", "green", "white"], "layout": "line4"}
    two = {"seats": ["green", "white"], "neutral": "red", "layout": "ring5"}
    ids = {
        "sy_end": saved_game(data, "scotland_yard", "Scotland Yard, fini", seed=5),
        "vm_end": saved_game(data, "victorian_masterminds", "Victorian Masterminds", seed=3),
        "myk_end": saved_game(data, "mykerinos", "Mykerinos, fin", seed=4, config=four),
        "myk_two": game_at(data, "mykerinos", "Mykerinos à deux", second_season, two),
        "vm": game_at(data, "victorian_masterminds", "Victorian Masterminds", busy_vm),
        "vm_losses": game_at(data, "victorian_masterminds", "Victorian Masterminds, pertes", stack_with_losses),
        "vm_gunner": game_at(data, "victorian_masterminds", "Victorian Masterminds, Artilleuse", gunner_choosing),
        "myk": game_at(data, "mykerinos", "Mykerinos", busy_myk, four),
        "myk_count": game_at(data, "mykerinos", "Mykerinos, relevé", counting, four),
        "myk_choose": game_at(data, "mykerinos", "Mykerinos, choix", choosing, four),
        "sy": game_at(data, "scotland_yard", "Scotland Yard", busy_sy),
        "sy_start": saved_game(data, "scotland_yard", "Scotland Yard, départ", until=lambda message: True),
        "sy_table_x": game_at(
            data,
            "scotland_yard",
            "Scotland Yard, la table joue",
            table_thinking_sy,
            {"detectives": ["Ann", "Bob"], "tracker": True, "mister_x_ai": "normal"},
        ),
        "sy_yard": game_at(
            data,
            "scotland_yard",
            "Scotland Yard, les détectives de la table",
            table_instruction_sy,
            {"detectives": ["Ann", "", ""], "tracker": True, "detectives_ai": "normal", "mister_x": "Xavier"},
        ),
    }
    return data, ids


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_fits_its_place_on_every_screen(
    display: str, tmp_path: Path, saved_games: tuple[Path, dict[str, int]], lang: str, large: bool
) -> None:
    """The same in the large-text mode (Settings → Large text, remembered): every text larger where
    its place has room, every screen still fitting."""
    data, ids = saved_games
    # Mister X played by the table thinks long enough to be looked at.
    app = AppProcess(display, tmp_path, language=lang, extra_config="ai_thinking = 60\n")
    shutil.copytree(data, app.data)
    if large:
        with Store(app.data / "companion.sqlite3") as store:
            store.set_preference(PREF_LARGE_TEXT, True)
    size = "-large" if large else ""
    clipped: dict[str, list[dict[str, Any]]] = {}

    def check(screen: str) -> None:
        app.call({"cmd": "frames", "count": 3})
        path = app.screenshot(f"fit-{lang}{size}-{screen}")
        # A file path (the data directory on diagnostics) is the system's, not a text; it wraps anywhere.
        found = [c for c in app.clipped() if not c["text"].startswith("/")]
        # No message code and no unfilled {parameter} anywhere on screen.
        found += [{"text": t, "why": "a code or an unfilled parameter"} for t in app.state()["texts"] if RAW.search(t)]
        if found:
            clipped[screen] = found
        docs = os.environ.get("COMPANION_DOCS_SCREENSHOTS") and not large
        if docs and lang in ("fr", "es") and screen in DOC_SHOTS:
            shutil.copyfile(path, DOCS / f"{lang}-{DOC_SHOTS[screen]}.png")

    def home() -> None:
        for _ in range(3):  # a setup form goes back to the choice of box first
            state = app.wait(lambda s: not s["dialog"])
            if state["screen"] == "start":
                return
            screen = state["screen"]
            tids = state["tids"]
            app.tap({"game": "game.home", "end": "end.home"}.get(screen, f"{screen}.back"))
            app.wait(lambda s, before=tids: s["tids"] != before)
        app.wait_screen("start")

    def open_saved(key: str, screen: str) -> None:
        home()
        app.tap("start.saved")
        app.wait_screen("saved")
        app.tap(f"saved.open.{ids[key]}")
        app.wait_screen(screen)

    app.start()
    try:
        open_saved("sy", "game")
        check("table-scotland_yard")
        app.tap("game.seats")
        app.wait_screen("seats")
        check("seats")
        app.tap("seats.back")
        app.wait_screen("game")
        home()
        check("start")
        for page in ("saved", "settings", "diagnostics", "history"):
            app.tap(f"start.{page}")
            app.wait_screen(page)
            check(page)
            home()
        app.tap("start.new")
        app.wait_screen("new")
        check("new")
        for rules in ("scotland_yard", "victorian_masterminds", "mykerinos"):
            app.tap(f"new.{rules}")
            app.wait(lambda s: "new.start" in s["tids"])
            check(f"setup-{rules}")
            if rules == "scotland_yard":  # the table's detectives, Mister X played by the table: other notes
                notes = app.state()["tids"]["setup.sy.phones"]["text"]
                app.tap("setup.sy.detectives_ai.normal")
                app.tap("setup.sy.detectives.3")
                app.wait(lambda s: "setup.sy.people.2" in s["tids"])
                check("setup-scotland_yard-table-detectives")
                app.tap("setup.sy.mister_x.hard")
                app.wait(lambda s, notes=notes: s["tids"]["setup.sy.phones"]["text"] != notes)
                check("setup-scotland_yard-table-x")
            app.tap("new.back")
            app.wait(lambda s, rules=rules: f"new.{rules}" in s["tids"])
        for key, screen, name in [
            ("sy_start", "game", "table-scotland_yard-start"),
            ("sy_table_x", "game", "table-scotland_yard-table-x"),
            ("sy_yard", "game", "table-scotland_yard-table-detectives"),
            ("vm", "game", "table-victorian_masterminds"),
            ("vm_losses", "game", "table-victorian_masterminds-losses"),
            ("vm_gunner", "game", "table-victorian_masterminds-gunner"),
            ("myk", "game", "table-mykerinos"),
            ("myk_two", "game", "table-mykerinos-two"),
            ("myk_count", "game", "table-mykerinos-count"),
            ("myk_choose", "game", "table-mykerinos-choose"),
            ("sy_end", "end", "end-scotland_yard"),
            ("vm_end", "end", "end-victorian_masterminds"),
            ("myk_end", "end", "end-mykerinos"),
        ]:
            open_saved(key, screen)
            check(name)
            if key == "sy_start":  # the start cards' last row, scrolled into view by a tap on its last card
                cards = [t for t in app.state()["tids"] if t.startswith("sy.place.card.")]
                last = max(cards, key=lambda t: int(t.rsplit(".", 1)[1]))
                app.tap(last)
                shown = app.state()["tids"][last]  # the tap drew the panel again: it stays where it was scrolled
                assert not shown.get("partly") and not shown.get("scrolled_away"), shown
                check(f"{name}-cards")
        app.tap("end.home")
        app.wait_screen("start")
        app.tap("start.saved")
        app.wait_screen("saved")
        app.tap(f"saved.delete.{ids['sy_end']}")
        app.wait(lambda s: s["dialog"])
        check("dialog-delete")
        app.tap("confirm.no")
    finally:
        app.stop()
    assert clipped == {}, f"texts that do not fit in {lang}{size}: {clipped}"


def test_large_text_switched_while_a_game_is_open_draws_what_a_start_in_it_draws(
    display: str, tmp_path: Path, saved_games: tuple[Path, dict[str, int]]
) -> None:
    """Settings → Large text while a game is open: back at the table, every part of its screen is
    drawn at the new size — the very pixels the app draws when it starts with the setting on — and
    switched off again, the very pixels of before. (The table screen keeps each part while what it
    shows is unchanged: a part kept from before the switch would keep its old size.)"""
    data, ids = saved_games
    app = AppProcess(display, tmp_path, language="de")
    shutil.copytree(data, app.data)

    def table(name: str) -> bytes:
        """The table screen once it stands still (a scroll view's bar fades out after a scroll)."""
        app.wait_screen("game")
        assert app.clipped() == [], name
        shot = b""
        for _ in range(60):
            app.call({"cmd": "frames", "count": 20})
            last, shot = shot, Image.open(app.screenshot(f"large-live-{name}")).convert("RGB").tobytes()
            if shot == last:
                return shot
        raise AssertionError(f"the table screen ({name}) never stood still")

    def remembered() -> JSON:
        with Store(app.data / "companion.sqlite3") as store:
            return store.preferences().get(PREF_LARGE_TEXT)

    def switch(to: str) -> None:
        app.tap("game.home")
        app.wait_screen("start")
        app.tap("start.settings")
        app.wait_screen("settings")
        app.tap(f"settings.large_text.{to}")
        app.wait(lambda _s: remembered() is (to == "on"), what=f"large text {to}")
        app.call({"cmd": "frames", "count": 3})  # the screens drawn again at the new size
        app.tap("settings.back")
        app.wait_screen("start")
        app.tap("start.resume")

    app.start()
    try:
        if app.wait(lambda s: s["screen"] in ("start", "game"))["screen"] == "game":  # the last game open
            app.tap("game.home")
            app.wait_screen("start")
        app.tap("start.saved")
        app.wait_screen("saved")
        app.tap(f"saved.open.{ids['vm']}")
        normal = table("normal")
        switch("on")
        live = table("on")
        app.stop()
        app.start()  # the setting is remembered: the app starts in it, on the same table
        fresh = table("on-after-a-start")
        switch("off")
        back = table("off")
    finally:
        app.stop()
    assert live != normal, "the switch changed nothing on the table screen"
    assert live == fresh, "switched live, the table screen differs from a start in large text"
    assert back == normal, "switched off again, the table screen differs from before"
