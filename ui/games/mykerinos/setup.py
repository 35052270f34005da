"""Mykerinos' new-game form (the colours that play in turn order, their names, the neutral colour
for two players, the museum's layout) and its row on the Settings screen."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON, JSONObject
from ui import theme
from ui.games import base
from ui.games.base import obj, preference, strs, txt
from ui.games.mykerinos.look import MYK_COLOUR
from ui.widgets import Btn, Choice, NameInput, autogrid, fit_height, vbox

PREF_LAYOUT, _ = preference("mykerinos", "layout")


def _settings(page: Any) -> list[Widget]:
    """The Settings screen's rows for Mykerinos (the new-game form's default layout)."""
    layout = Choice(
        [("line4", page.t("ui.settings.myk.line4")), ("ring5", page.t("ui.settings.myk.ring5"))],
        page.ctl.pref(PREF_LAYOUT, "line4"),
        page.setter(PREF_LAYOUT),
        tid="settings.myk.layout",
    )
    return [page.setting(page.t("ui.settings.myk.layout"), layout, page.t("ui.settings.myk.layout_note"))]


class SetupForm(base.SetupForm):
    settings = staticmethod(_settings)
    game = "mykerinos"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        self.order: list[str] = []
        self.names: dict[str, str] = {}  # the players' names by colour (optional)
        self.layout = str(app.ctl.pref(PREF_LAYOUT, "line4"))
        self.neutral: str | None = None
        super().__init__(app, **kwargs)

    def toggle(self, colour: str) -> None:
        if colour in self.order:
            self.order.remove(colour)
        elif len(self.order) < 4:
            self.order.append(colour)
        if self.neutral in self.order or len(self.order) != 2:
            self.neutral = None
        self.rebuild()

    def build(self) -> None:
        self.add_widget(
            self.row(self.t("ui.myk.setup.colours"), self.colour_buttons(), self.t("ui.myk.setup.colours_note"))
        )
        if self.order:  # a name for each colour that plays (optional)
            self.add_widget(self.row(self.t("ui.setup.names"), self.name_fields(), self.t("ui.setup.names_note")))
        if len(self.order) == 2:
            free = [c for c in strs(self.facts.get("colours")) if c not in self.order]
            if self.neutral is None:
                self.neutral = free[0]
            self.add_widget(
                self.row(
                    self.t("ui.myk.setup.neutral"),
                    Choice(
                        [(c, theme.marked(c, self.t(f"ui.myk.colour.{c}"))) for c in free],
                        self.neutral,
                        lambda v: setattr(self, "neutral", v),
                        tid="setup.myk.neutral",
                    ),
                    self.t("ui.myk.setup.neutral_note"),
                )
            )
        self.add_widget(
            self.row(
                self.t("ui.settings.myk.layout"),
                Choice(
                    [("line4", self.t("ui.settings.myk.line4")), ("ring5", self.t("ui.settings.myk.ring5"))],
                    self.layout,
                    lambda v: setattr(self, "layout", v),
                    tid="setup.myk.layout",
                ),
                self.t("ui.settings.myk.layout_note"),
            )
        )

    def colour_buttons(self) -> Widget:
        """A button per colour: tapped in turn order, each shows its place."""
        buttons = autogrid(4, dp(6))
        for colour in strs(self.facts.get("colours")):
            place = self.order.index(colour) + 1 if colour in self.order else 0
            words = theme.marked(colour, self.t(f"ui.myk.colour.{colour}"))
            label = f"{place}. {words}" if place else words
            btn = Btn(
                label,
                partial(self.toggle, colour),
                tid=f"setup.myk.colour.{colour}",
                colour=MYK_COLOUR[colour] if place else theme.BUTTON,
                text_colour=theme.on_player_colour(colour) if place else theme.TEXT,
                bold=bool(place),
            )
            buttons.add_widget(btn)
        return buttons

    def name_fields(self) -> Widget:
        """A name field for each colour that plays, in turn order."""
        fields = fit_height(vbox(spacing=dp(4)))
        for colour in self.order:

            def named(value: str, c: str = colour) -> None:
                self.names[c] = value

            hint = self.t(f"ui.myk.colour.{colour}")
            fields.add_widget(NameInput(self.names.get(colour, ""), named, hint=hint, tid=f"setup.myk.name.{colour}"))
        return fields

    def problem(self) -> str:
        return "" if 2 <= len(self.order) <= 4 else self.t("ui.myk.setup.need_colours")

    def remembered(self, last: JSONObject) -> None:
        colours = strs(self.facts.get("colours"))
        order = [c for c in strs(last.get("seats")) if c in colours]
        if 2 <= len(order) <= 4 and len(set(order)) == len(order):
            self.order = order
        self.names = {c: txt(n) for c, n in obj(last.get("names")).items() if c in colours}

    def setup(self) -> JSONObject:
        config: JSONObject = {"seats": list[JSON](self.order), "layout": self.layout}
        if len(self.order) == 2 and self.neutral:
            config["neutral"] = self.neutral
        names: JSONObject = {c: self.names[c].strip() for c in self.order if self.names.get(c, "").strip()}
        if names:
            config["names"] = names
        return config
