"""Scotland Yard's end screen: who won and why, Mister X's whole route, where everyone stood."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games.base import obj, seq_of, txt
from ui.games.scotland_yard.mister_x import log_grid
from ui.widgets import Lbl, Panel, fit_height, hbox, scroll, vbox

if TYPE_CHECKING:
    from ui.games.scotland_yard.screen import Screen


def end_body(tv: Screen, msg: JSONObject) -> Widget:
    v = obj(msg.get("view"))
    end = obj(v.get("end"))
    winner = end.get("winner")
    banner_colour = theme.GOOD if winner == "detectives" else theme.DANGER if winner == "mrx" else theme.PANEL_HI
    headline = tv.t(f"sy.{txt(end.get('reason'))}") if end else tv.t("ui.end.over")
    banner = Panel(
        Lbl(headline, size=theme.FONT_TITLE, bold=True, halign="center", wrap=True, tid="end.headline"),
        colour=banner_colour,
        size_hint_y=None,
        height=dp(70),
    )
    route = Panel(
        Lbl(tv.t("ui.sy.route"), size=theme.FONT_BIG, bold=True, size_hint_y=None, height=dp(30)),
        log_grid(tv, v, cols=8, cell=dp(48)),
        Widget(),
        orientation="vertical",
    )
    side = Panel(scroll(where_everyone_was(tv, v, end)), orientation="vertical", size_hint_x=None, width=dp(230))
    return vbox(banner, hbox(route, side))


def where_everyone_was(tv: Screen, v: JSONObject, end: JSONObject) -> Widget:
    figures = fit_height(vbox(spacing=dp(4)))
    x_station = obj(v.get("mrx")).get("station")
    figures.add_widget(
        Lbl(
            tv.t("ui.sy.x_was", station=x_station) if isinstance(x_station, int) else "",
            bold=True,
            colour=theme.WARN,
            wrap=True,
            tid="end.x_station",
        )
    )
    if isinstance(end.get("figure"), str):
        by = tv.figure_name(txt(end.get("figure")))
        figures.add_widget(Lbl(tv.t("ui.sy.caught_by", figure=by, station=end.get("station")), wrap=True))
    for f in seq_of(v.get("figures")):
        f = obj(f)
        figures.add_widget(
            Lbl(
                tv.t("ui.pair", label=tv.figure_name(txt(f.get("figure"))), value=f.get("station")),
                colour=theme.MUTED,
                wrap=True,
            )
        )
    return figures
