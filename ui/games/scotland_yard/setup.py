"""Scotland Yard's new-game form and its rows on the Settings screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON, JSONObject
from ui import theme
from ui.games import base
from ui.games.base import preference, seq_of, strs, txt
from ui.widgets import Choice, Lbl, NameInput, fit_height, vbox

PREF_TRACKER, _ = preference("scotland_yard", "tracker")
PREF_BOBBIES, _ = preference("scotland_yard", "bobbies_keep_game_alive")
PLAYER = "player"  # the setup's choice "a player is Mister X" (else: the level of the table playing him)


def _settings(page: Any) -> list[Widget]:
    """The Settings screen's rows for Scotland Yard (the new-game form's defaults)."""
    return [
        page.setting(
            page.t("ui.settings.sy.tracker"),
            page.on_off(PREF_TRACKER, False, "settings.sy.tracker"),
            page.t("ui.settings.sy.tracker_note"),
        ),
        page.setting(
            page.t("ui.settings.sy.bobbies"),
            page.on_off(PREF_BOBBIES, False, "settings.sy.bobbies"),
            page.t("ui.settings.sy.bobbies_note"),
        ),
    ]


class SetupForm(base.SetupForm):
    settings = staticmethod(_settings)
    game = "scotland_yard"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        self.detectives = 2
        self.names = ["", "", "", "", ""]  # the detective players' names (optional)
        self.x_name = ""  # Mister X's player's name (optional)
        self.mister_x = PLAYER  # or the level of the table playing him
        self.d_ai = PLAYER  # or the level of the table playing detective seats and the bobbies
        self.people = 0  # with d_ai: how many detective seats people play (the first ones)
        self.tracker = bool(app.ctl.pref(PREF_TRACKER, False))
        self.bobbies = bool(app.ctl.pref(PREF_BOBBIES, False))
        super().__init__(app, **kwargs)

    def _set(self, name: str) -> Callable[[Any], None]:
        def set_value(value: Any) -> None:
            setattr(self, name, value)
            self.rebuild()

        return set_value

    def build(self) -> None:
        table = self.mister_x != PLAYER
        if table:
            self.d_ai = PLAYER  # the table never plays both sides
        self.people = min(self.people, self.detectives - 1)
        yard = self.d_ai != PLAYER
        for row in (*self.sides_rows(table, yard), *self.seats_rows(table, yard), *self.options_rows()):
            self.add_widget(row)
        phones = "phones_table" if table else "phones_yard" if yard else "phones"
        self.add_widget(Lbl(self.t(f"ui.sy.setup.{phones}"), colour=theme.MUTED, wrap=True, tid="setup.sy.phones"))

    def sides_rows(self, table: bool, yard: bool) -> list[Widget]:
        """Who plays Mister X, and (while a player is him) who plays the detectives: players, or
        the table at a level."""
        levels = [
            (level, self.t("ui.sy.setup.x_table", level=self.t(f"sy.ai.{level}")))
            for level in strs(self.facts.get("ai_levels"))
        ]
        x_choice = Choice(
            [(PLAYER, self.t("ui.sy.setup.x_player")), *levels],
            self.mister_x,
            self._set("mister_x"),
            tid="setup.sy.mister_x",
            cols=2,
        )
        x_note = self.t("ui.sy.setup.x_table_note") if table else self.t("ui.sy.setup.x_player_note")
        rows = [self.row(self.t("ui.sy.setup.mister_x"), x_choice, x_note)]
        if not table:
            d_choice = Choice(
                [(PLAYER, self.t("ui.sy.setup.d_players")), *levels],
                self.d_ai,
                self._set("d_ai"),
                tid="setup.sy.detectives_ai",
                cols=2,
            )
            d_note = self.t("ui.sy.setup.d_table_note") if yard else self.t("ui.sy.setup.d_players_note")
            rows.append(self.row(self.t("ui.sy.setup.d_by"), d_choice, d_note))
        return rows

    def seats_rows(self, table: bool, yard: bool) -> list[Widget]:
        """How many detective seats, how many of them people play (with the table's detectives),
        and the people's names."""
        note = "detectives_note_table" if table else "d_seats_note" if yard else "detectives_note"
        count = Choice(
            [(n, str(n)) for n in range(1, 6)], self.detectives, self._set("detectives"), tid="setup.sy.detectives"
        )
        label = self.t("ui.sy.setup.d_seats") if yard else self.t("ui.sy.setup.detectives")
        rows = [self.row(label, count, self.t(f"ui.sy.setup.{note}"))]
        if yard:
            people = Choice(
                [(n, str(n)) for n in range(self.detectives)], self.people, self._set("people"), tid="setup.sy.people"
            )
            rows.append(self.row(self.t("ui.sy.setup.d_people"), people, self.t("ui.sy.setup.d_people_note")))
        rows.append(self.names_row(table))
        return rows

    def options_rows(self) -> list[Widget]:
        on_off = [(False, self.t("ui.off")), (True, self.t("ui.on"))]
        return [
            self.row(
                self.t("ui.settings.sy.tracker"),
                Choice(on_off, self.tracker, self._set("tracker"), tid="setup.sy.tracker"),
                self.t("ui.settings.sy.tracker_note"),
            ),
            self.row(
                self.t("ui.settings.sy.bobbies"),
                Choice(on_off, self.bobbies, self._set("bobbies"), tid="setup.sy.bobbies"),
                self.t("ui.settings.sy.bobbies_note"),
            ),
        ]

    def names_row(self, table: bool) -> Widget:
        """The players' names (optional; the last game's, to start with): history and BG Stats name them."""
        fields = fit_height(vbox(spacing=dp(4)))
        if not table:

            def x_named(value: str) -> None:
                self.x_name = value

            hint = self.t("ui.sy.setup.x_name")
            fields.add_widget(NameInput(self.x_name, x_named, hint=hint, tid="setup.sy.name.mrx"))
        for i in range(self.people if self.d_ai != PLAYER else self.detectives):  # the table's seats have no names

            def named(value: str, i: int = i) -> None:
                self.names[i] = value

            hint = self.t("sy.setup_key.detectives.item", n=i + 1)
            fields.add_widget(NameInput(self.names[i], named, hint=hint, tid=f"setup.sy.name.{i + 1}"))
        return self.row(self.t("ui.setup.names"), fields, self.t("ui.setup.names_note"))

    def remembered(self, last: JSONObject) -> None:
        detectives = [txt(n) for n in seq_of(last.get("detectives"))]
        if 1 <= len(detectives) <= 5:
            self.detectives = len(detectives)
            self.names = [*detectives, *[""] * (5 - len(detectives))]
        self.x_name = txt(last.get("mister_x"))
        level = txt(last.get("detectives_ai"))
        if level in strs(self.facts.get("ai_levels")) and not last.get("mister_x_ai"):
            self.d_ai = level
            theirs = strs(last.get("table_detectives")) or [f"d{k}" for k in range(1, 6)]
            self.people = sum(1 for k in range(1, len(detectives) + 1) if f"d{k}" not in theirs)

    def setup(self) -> JSONObject:
        yard = self.d_ai != PLAYER
        people = self.people if yard else self.detectives
        names: list[JSON] = [self.names[i].strip() if i < people else "" for i in range(self.detectives)]
        setup: JSONObject = {"detectives": names, "tracker": self.tracker, "bobbies_keep_game_alive": self.bobbies}
        if yard:  # the table plays the seats after the people's, and the bobbies
            setup["detectives_ai"] = self.d_ai
            setup["table_detectives"] = [*(f"d{k}" for k in range(people + 1, self.detectives + 1)), "bobbies"]
        if self.mister_x != PLAYER:
            setup["mister_x_ai"] = self.mister_x  # the table plays him at this level
        elif self.x_name.strip():
            setup["mister_x"] = self.x_name.strip()
        return setup
