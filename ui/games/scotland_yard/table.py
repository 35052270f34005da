"""Scotland Yard's table screen: the list of panels (Mister X beside the figures, one figure's
destinations or the start cards) and the end screen's body."""

from __future__ import annotations

from collections.abc import Sequence

from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSONObject
from ui.games.base import obj, seq_of, txt
from ui.games.scotland_yard import end, figures, mister_x, start
from ui.games.scotland_yard.screen import Screen
from ui.parts import Part
from ui.widgets import hbox


class TableView(Screen):
    # -- the screen -------------------------------------------------------------------------------
    def panels(self) -> Sequence[Part]:
        phase = txt(self.view.get("phase"))
        if phase == "start":
            right = start.panel(self)
        elif self.selected is not None:
            right = figures.destinations_part(self, self.selected)
        else:
            right = figures.panel(self)
        return [Part("board", hbox, children=[mister_x.panel(self), right])]

    def settle(self) -> None:
        if self.selected is not None and self.selected not in self.moves():
            self.selected = None
        if txt(self.view.get("phase")) != "start":
            self.placing, self.placing_figure, self.start_scroll = {}, None, 1.0
        names = [txt(f) for f in seq_of(obj(self.legal).get("figures"))]
        if names and self.placing_figure not in names:
            self.placing_figure = next((f for f in names if f not in self.placing), None)

    def half_done(self) -> bool:
        return self.selected is not None or bool(self.placing)

    # -- the end ----------------------------------------------------------------------------------
    def end_body(self, msg: JSONObject) -> Widget:
        return end.end_body(self, msg)
