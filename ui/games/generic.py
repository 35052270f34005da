"""A plain fallback for a game without its own screens: the public view as text."""

from __future__ import annotations

import json
from collections.abc import Sequence

from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games import base
from ui.parts import Part
from ui.widgets import Lbl, fit_height, scroll, vbox


def view_text(text: str) -> Widget:
    return scroll(fit_height(vbox(Lbl(text, size=theme.FONT_SMALL, wrap=True))))


class TableView(base.TableView):
    game = ""

    def panels(self) -> Sequence[Part]:
        return [Part("view", view_text, json.dumps(self.view, ensure_ascii=False, indent=1)[:4000])]

    def status(self, msg: JSONObject) -> str:
        return str(msg.get("title", ""))


class SetupForm(base.SetupForm):
    def build(self) -> None:
        self.add_widget(Lbl(self.t("ui.new.no_setup"), wrap=True))

    def setup(self) -> JSONObject:
        return {}
