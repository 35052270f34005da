"""Victorian Masterminds' table screen: the list of panels (the level, the firepower and what to do
now on top; why the level changed last; the five cities; the stack turned over or the tallies),
the table's options and the end screen's body."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSONObject
from ui.games.base import num
from ui.games.victorian_masterminds import cities, corrections, end, level, players, stack, turn
from ui.games.victorian_masterminds.screen import Screen
from ui.parts import Part
from ui.widgets import hbox


def top_row() -> Widget:
    return hbox(size_hint_y=None, height=dp(150))


class TableView(Screen):
    # -- the screen -------------------------------------------------------------------------------
    def settle(self) -> None:
        if self.recycling is not None and "vm.place" not in self.actions():
            self.recycling = None

    def panels(self) -> Sequence[Part]:
        """The level, the firepower and what to do now; why the level changed last; the five
        cities; the stack being resolved or the tallies. Each drawn from the pieces of the view it
        shows (a player's tallies stay the same object while unchanged: ``companion.core.shared``)."""
        v = self.view
        labels = self.labels()
        firepowers = tuple(num(p.get("firepower")) for p in self.players())
        top = Part(
            "top",
            top_row,
            children=[
                Part("level", level.level_panel, self, v.get("level"), v.get("final_round")),
                players.firepower_part(self, labels, firepowers, v.get("active"), v.get("phase")),
                turn.action_part(self),
            ],
        )
        parts = [top]
        why = level.level_why(self)
        if why:  # every change of the level says why (a capture, the table's correction)
            parts.append(Part("level_why", level.level_why_line, why))
        parts.append(Part("cities", cities.cities_row, children=cities.city_parts(self)))
        shown = stack.stack_to_show(self)
        if shown:
            parts.append(stack.stack_part(self, shown, v.get("resolution") is not None))
        else:
            parts.append(players.tally_part(self))
        return parts

    # -- table options: corrections, segments, missions ----------------------------------------------
    def options(self) -> list[tuple[str, Callable[[], object], str]]:
        return corrections.options(self)

    # -- the end ----------------------------------------------------------------------------------
    def end_body(self, msg: JSONObject) -> Widget:
        return end.end_body(self, msg)
