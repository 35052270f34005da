"""A plain fallback for a game without its own screens: the public view as text."""

from __future__ import annotations

import json

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games import base
from ui.widgets import Lbl, fit_height, scroll, vbox


class TableView(base.TableView):
    game = ""

    def build(self) -> None:
        text = json.dumps(self.view, ensure_ascii=False, indent=1)[:4000]
        self.add_widget(scroll(fit_height(vbox(Lbl(text, size=theme.FONT_SMALL, wrap=True)))))

    def status(self, msg: JSONObject) -> str:
        return str(msg.get("title", ""))


class SetupForm(base.SetupForm):
    def build(self) -> None:
        self.add_widget(Lbl(self.t("ui.new.no_setup"), wrap=True))

    def setup(self) -> JSONObject:
        return {}
