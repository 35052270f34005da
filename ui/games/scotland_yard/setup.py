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
        levels = [
            (level, self.t("ui.sy.setup.x_table", level=self.t(f"sy.ai.{level}")))
            for level in strs(self.facts.get("ai_levels"))
        ]
        self.add_widget(
            self.row(
                self.t("ui.sy.setup.mister_x"),
                Choice(
                    [(PLAYER, self.t("ui.sy.setup.x_player")), *levels],
                    self.mister_x,
                    self._set("mister_x"),
                    tid="setup.sy.mister_x",
                    cols=2,
                ),
                self.t("ui.sy.setup.x_table_note") if table else self.t("ui.sy.setup.x_player_note"),
            )
        )
        self.add_widget(
            self.row(
                self.t("ui.sy.setup.detectives"),
                Choice(
                    [(n, str(n)) for n in range(1, 6)],
                    self.detectives,
                    self._set("detectives"),
                    tid="setup.sy.detectives",
                ),
                self.t("ui.sy.setup.detectives_note_table") if table else self.t("ui.sy.setup.detectives_note"),
            )
        )
        self.add_widget(self.names_row(table))
        on_off = [(False, self.t("ui.off")), (True, self.t("ui.on"))]
        self.add_widget(
            self.row(
                self.t("ui.settings.sy.tracker"),
                Choice(on_off, self.tracker, self._set("tracker"), tid="setup.sy.tracker"),
                self.t("ui.settings.sy.tracker_note"),
            )
        )
        self.add_widget(
            self.row(
                self.t("ui.settings.sy.bobbies"),
                Choice(on_off, self.bobbies, self._set("bobbies"), tid="setup.sy.bobbies"),
                self.t("ui.settings.sy.bobbies_note"),
            )
        )
        phones = self.t("ui.sy.setup.phones_table") if table else self.t("ui.sy.setup.phones")
        self.add_widget(Lbl(phones, colour=theme.MUTED, wrap=True, tid="setup.sy.phones"))

    def names_row(self, table: bool) -> Widget:
        """The players' names (optional; the last game's, to start with): history and BG Stats name them."""
        fields = fit_height(vbox(spacing=dp(4)))
        if not table:

            def x_named(value: str) -> None:
                self.x_name = value

            hint = self.t("ui.sy.setup.x_name")
            fields.add_widget(NameInput(self.x_name, x_named, hint=hint, tid="setup.sy.name.mrx"))
        for i in range(self.detectives):

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

    def setup(self) -> JSONObject:
        names: list[JSON] = [self.names[i].strip() for i in range(self.detectives)]
        setup: JSONObject = {"detectives": names, "tracker": self.tracker, "bobbies_keep_game_alive": self.bobbies}
        if self.mister_x != PLAYER:
            setup["mister_x_ai"] = self.mister_x  # the table plays him at this level
        elif self.x_name.strip():
            setup["mister_x"] = self.x_name.strip()
        return setup
