"""Mykerinos' end screen: who won, and every player best first (ties broken as the rules do) with
their exhibition, total score and what is left of their supply."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games.base import num, obj, seq_of, txt
from ui.games.mykerinos.look import MYK_COLOUR
from ui.widgets import Chip, Lbl, Panel, autogrid, vbox

if TYPE_CHECKING:
    from ui.games.mykerinos.screen import Screen


def end_body(tv: Screen, msg: JSONObject) -> Widget:
    v = obj(msg.get("view"))
    result = obj(v.get("result"))
    exhibition = obj(result.get("exhibition"))
    players = obj(v.get("players"))
    headline = tv.announcement(msg) or tv.t("ui.end.over")
    box = vbox(
        Panel(
            Lbl(headline, size=theme.FONT_TITLE, bold=True, halign="center", tid="end.headline"),
            colour=theme.GOOD,
            size_hint_y=None,
            height=dp(64),
        )
    )
    grid = autogrid(4, dp(4), row_force_default=True, row_default_height=dp(42))
    for key in ("player", "exhibition", "total", "supply"):
        grid.add_widget(Lbl(tv.t(f"ui.myk.end.{key}"), colour=theme.MUTED, halign="center", one_line=True))
    for seat in (txt(s) for s in seq_of(result.get("order"))):  # best first, ties broken as the rules do
        p = obj(players.get(seat))
        grid.add_widget(
            Chip(tv.colour_name(seat), MYK_COLOUR.get(seat, theme.ACCENT), theme.on_player_colour(seat), bold=True)
        )
        grid.add_widget(Lbl(str(num(exhibition.get(seat))), halign="center", tid=f"end.exhibition.{seat}"))
        grid.add_widget(
            Lbl(str(num(p.get("score"))), halign="center", bold=True, size=theme.FONT_TITLE, tid=f"end.score.{seat}")
        )
        grid.add_widget(Lbl(str(num(p.get("supply"))), halign="center", colour=theme.MUTED))
    box.add_widget(Panel(grid, Widget(), orientation="vertical"))
    return box
