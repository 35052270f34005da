"""Victorian Masterminds' new-game form (players, colours, machines, the Secret Service start level
remembered per player count, the rule variants) and its rows on the Settings screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON, JSONObject
from ui import theme
from ui.games import base
from ui.games.base import num, obj, preference, seq_of, strs, txt
from ui.widgets import Choice, Lbl, NameInput, Panel, Stepper, hbox, spacer

PREF_GUNNER, _ = preference("victorian_masterminds", "gunner_rule")
PREF_CITY_LOOT, _ = preference("victorian_masterminds", "capture_city_loot")


def start_level_key(players: int) -> str:
    """The preference that remembers the Secret Service start level for this many players."""
    return preference("victorian_masterminds", players=players)[0]


def _settings(page: Any) -> list[Widget]:
    """The Settings screen's rows for Victorian Masterminds (the new-game form's defaults)."""
    gunner = Choice(
        [(">=", page.t("ui.settings.vm.gunner_ge")), (">", page.t("ui.settings.vm.gunner_gt"))],
        page.ctl.pref(PREF_GUNNER, ">="),
        page.setter(PREF_GUNNER),
        tid="settings.vm.gunner",
    )
    rows = [
        page.setting(page.t("ui.settings.vm.gunner"), gunner, page.t("ui.settings.vm.gunner_note")),
        page.setting(
            page.t("ui.settings.vm.city_loot"),
            page.on_off(PREF_CITY_LOOT, False, "settings.vm.city_loot"),
            page.t("ui.settings.vm.city_loot_note"),
        ),
    ]
    for players in (2, 3, 4):
        key = start_level_key(players)
        known = page.ctl.pref(key)
        value = known if isinstance(known, int) else 0
        stepper = Stepper(value, 0, 11, page.setter(key), tid=f"settings.vm.level.{players}")
        note = "" if isinstance(known, int) else page.t("ui.settings.vm.level_unknown")
        rows.append(page.setting(page.t("ui.settings.vm.level", players=players), hbox(stepper, Widget()), note))
    return rows


class SetupForm(base.SetupForm):
    settings = staticmethod(_settings)
    game = "victorian_masterminds"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        ctl = app.ctl
        self.count = 3
        self.colours = strs(self.facts.get("colours"))
        self.machines = [1, 2, 3, 4]
        self.names = ["", "", "", ""]  # the players' names (optional)
        self.first = 0
        self.gunner = str(ctl.pref(PREF_GUNNER, ">="))
        self.city_loot = bool(ctl.pref(PREF_CITY_LOOT, False))
        self.level: int | None = None
        self.level_touched = False
        super().__init__(app, **kwargs)

    def known_level(self) -> int | None:
        value = self.ctl.pref(start_level_key(self.count))
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def _set(self, name: str, rebuild: bool = True) -> Callable[[Any], None]:
        def set_value(value: Any) -> None:
            setattr(self, name, value)
            if name == "count":
                self.level, self.level_touched = None, False
                self.first = min(self.first, value - 1)
            if rebuild:
                self.rebuild()

        return set_value

    def build(self) -> None:
        self.add_widget(
            self.row(
                self.t("ui.vm.setup.players"),
                Choice([(n, str(n)) for n in (2, 3, 4)], self.count, self._set("count"), tid="setup.vm.players"),
            )
        )
        self.level_row()
        for i in range(self.count):
            self.add_widget(self.player_panel(i))
        n = self.count
        self.add_widget(
            self.row(
                self.t("ui.vm.setup.first"),
                Choice(
                    [(i, theme.marked(c, self.t(f"ui.vm.colour.{c}"))) for i, c in enumerate(self.colours[:n])],
                    self.first,
                    self._set("first", rebuild=False),
                    tid="setup.vm.first",
                ),
            )
        )
        self.add_widget(
            self.row(
                self.t("ui.settings.vm.gunner"),
                Choice(
                    [(">=", self.t("ui.settings.vm.gunner_ge")), (">", self.t("ui.settings.vm.gunner_gt"))],
                    self.gunner,
                    self._set("gunner", rebuild=False),
                    tid="setup.vm.gunner",
                ),
            )
        )
        on_off = [(False, self.t("ui.off")), (True, self.t("ui.on"))]
        self.add_widget(
            self.row(
                self.t("ui.settings.vm.city_loot"),
                Choice(on_off, self.city_loot, self._set("city_loot", rebuild=False), tid="setup.vm.city_loot"),
            )
        )
        self.add_widget(spacer(height=dp(10)))

    def player_panel(self, i: int) -> Widget:
        """Player ``i + 1``'s machine count, colour and name."""

        def colour(value: Any) -> None:
            self.colours[i] = str(value)
            self.rebuild()

        def machine(value: int) -> None:
            self.machines[i] = value

        def named(value: str) -> None:
            self.names[i] = value

        return Panel(
            hbox(
                Lbl(self.t("ui.vm.setup.player", n=i + 1), bold=True),
                Lbl(self.t("ui.vm.setup.machine"), colour=theme.MUTED, halign="right"),
                Stepper(self.machines[i], 1, 6, machine, tid=f"setup.vm.machine.{i + 1}"),
                size_hint_y=None,
                height=theme.TOUCH,
            ),
            Choice(
                [(c, theme.marked(c, self.t(f"ui.vm.colour.{c}"))) for c in strs(self.facts.get("colours"))],
                self.colours[i],
                colour,
                tid=f"setup.vm.colour.{i + 1}",
            ),
            NameInput(self.names[i], named, hint=self.t("ui.setup.name_hint"), tid=f"setup.vm.name.{i + 1}"),
            orientation="vertical",
            size_hint_y=None,
            height=3 * theme.TOUCH + 2 * theme.GAP + 2 * theme.PAD,
        )

    def level_row(self) -> None:
        """The Secret Service start level: the dial's numbers are not known to the companion, so it is
        asked once per player count and remembered. It comes right under the player count, in view
        before "Start the game", and shows "?" until it was entered or remembered."""
        known = self.known_level()
        if self.level is None:
            self.level = known if known is not None else 0

        def level(value: int) -> None:
            self.level = value
            self.level_touched = True
            stepper.label.color = theme.TEXT

        missing = known is None and not self.level_touched
        note = (
            self.t("ui.vm.setup.level_known")
            if known is not None
            else self.t("ui.vm.setup.level_unknown", players=self.count)
        )
        stepper = Stepper(self.level, 0, 11, level, tid="setup.vm.level")
        if missing:  # not a value yet: either button enters one (− gives 0)
            stepper.label.text = "?"
            stepper.label.color = theme.WARN
            stepper.minus.disabled = False
        self.add_widget(
            self.row(
                self.t("ui.vm.setup.level", players=self.count),
                hbox(stepper, Widget(), size_hint_y=None, height=theme.TOUCH),
                note,
            )
        )

    def problem(self) -> str:
        if self.known_level() is None and not self.level_touched:
            return self.t("ui.vm.setup.level_missing", players=self.count)
        colours = self.colours[: self.count]
        if len(set(colours)) != len(colours):
            return self.t("ui.vm.setup.same_colour")
        machines = self.machines[: self.count]
        if len(set(machines)) != len(machines):
            return self.t("ui.vm.setup.same_machine")
        return ""

    def remembered(self, last: JSONObject) -> None:
        players = [obj(p) for p in seq_of(last.get("players"))]
        known = strs(self.facts.get("colours"))
        if not 2 <= len(players) <= 4:
            return
        self.count = len(players)
        for i, p in enumerate(players):
            colour, machine = txt(p.get("colour")), num(p.get("machine"))
            if colour in known:
                self.colours[i] = colour
            if 1 <= machine <= 6:
                self.machines[i] = machine
            self.names[i] = txt(p.get("name"))
        self.level, self.level_touched = None, False

    def setup(self) -> JSONObject:
        players: list[JSON] = []
        for i in range(self.count):
            player: JSONObject = {"seat": f"p{i + 1}", "colour": self.colours[i], "machine": self.machines[i]}
            if self.names[i].strip():
                player["name"] = self.names[i].strip()
            players.append(player)
        return {
            "players": players,
            "secret_service_start": self.level if self.level is not None else 0,
            "gunner_rule": self.gunner,
            "capture_city_loot": self.city_loot,
            "first_player": f"p{self.first + 1}",
        }

    def remember(self) -> None:
        if self.level_touched and self.level is not None:
            self.app.run(self.ctl.set_pref(start_level_key(self.count), self.level))
