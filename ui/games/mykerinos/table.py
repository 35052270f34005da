"""Mykerinos' table screen: the list of panels (the players beside what to do now; what a lower
count of the last zone points back to; below, the zone counts being entered or the museum), the
options menu and the end screen's body."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSONObject
from ui.games.base import obj
from ui.games.mykerinos import actions, corrections, counts, end, museum, players
from ui.games.mykerinos.screen import Screen
from ui.parts import Part
from ui.widgets import hbox


def top_row() -> Widget:
    return hbox(size_hint_y=None, height=dp(196))


class TableView(Screen):
    # -- the screen -------------------------------------------------------------------------------
    def panels(self) -> Sequence[Part]:
        """The players and what to do now; what a lower count of the last zone points back to;
        below, the zone counts being entered or the museum. Each drawn from the pieces of the view
        it shows."""
        v = self.view
        acts = self.actions()
        top = Part(
            "top",
            top_row,
            children=[
                players.panel(self),
                actions.action_part(self),
            ],
        )
        parts = [top]
        last = obj(obj(v.get("survey")).get("last"))  # the last zone of a season, while it is counted
        if obj(last.get("missed")):
            parts.append(Part("missed", counts.missed_note, self, last))
        if "myk.zone_counts" in acts:
            # the steppers hold the counts being entered: kept while the zone is the same
            parts.append(Part("counts", counts.counts_panel, self, acts["myk.zone_counts"], self.counts_zone, last))
        else:
            legal = self.legal_rooms(acts)
            parts.append(museum.museum_part(self, v.get("museum"), v.get("wings"), v.get("layout"), legal))
        return parts

    # -- corrections ----------------------------------------------------------------------------------
    def options(self) -> list[tuple[str, Callable[[], object], str]]:
        return corrections.options(self)

    # -- the end ----------------------------------------------------------------------------------
    def end_body(self, msg: JSONObject) -> Widget:
        return end.end_body(self, msg)
