"""Victorian Masterminds' end screen: who won, every player's place and the score by part."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games.base import num, obj, seq_of, txt
from ui.widgets import Chip, Lbl, Panel, autogrid, hbox, vbox

if TYPE_CHECKING:
    from ui.games.victorian_masterminds.screen import Screen


PARTS = ("segments", "buildings", "missions", "chaos_tokens", "codex", "total")  # the score's columns


def end_body(tv: Screen, msg: JSONObject) -> Widget:
    tv.msg = msg
    v = obj(msg.get("view"))
    result = obj(v.get("result"))
    places = obj(result.get("places"))
    headline = tv.announcement(msg) or tv.t("ui.end.over")
    box = vbox(
        Panel(
            Lbl(headline, size=theme.FONT_TITLE, bold=True, halign="center", tid="end.headline"),
            colour=theme.GOOD,
            size_hint_y=None,
            height=dp(64),
        )
    )
    grid = autogrid(len(PARTS) + 2, dp(2), row_force_default=True, row_default_height=dp(40))
    grid.mixed_sizes = True  # headings small, totals large: a score sheet, not a grid of like cells
    grid.add_widget(Lbl("", size_hint_x=None, width=dp(60)))
    grid.add_widget(Lbl("", size_hint_x=None, width=dp(150)))
    for part in PARTS:
        grid.add_widget(
            # smaller, or on two lines, where a heading is long ("Fichas de caos" in a 91 px column)
            Lbl(tv.t(f"ui.vm.score.{part}"), size=dp(14), colour=theme.MUTED, halign="center", fit=dp(10))
        )
    players = sorted((obj(p) for p in seq_of(v.get("players"))), key=lambda p: num(places.get(txt(p.get("seat"))), 9))
    for p in players:
        for cell in score_row(tv, v, p, num(places.get(txt(p.get("seat"))))):
            grid.add_widget(cell)
    box.add_widget(Panel(grid, Widget(), orientation="vertical"))
    return box


def score_row(tv: Screen, v: JSONObject, p: JSONObject, place: int) -> list[Widget]:
    """One player's row of the score grid: the place, the colour and name, a cell per part."""
    seat = txt(p.get("seat"))
    score = obj(p.get("score"))
    cells: list[Widget] = [
        Lbl(f"{place}.", size=theme.FONT_BIG, bold=True, halign="center", size_hint_x=None, width=dp(60)),
        hbox(
            Chip("", theme.player_colour(txt(p.get("colour"))), width=dp(14), height=dp(26)),
            Lbl(tv._label_in(v, seat), bold=True, one_line=True),
            size_hint_x=None,
            width=dp(150),
        ),
    ]
    for part in PARTS:
        cells.append(
            Lbl(
                str(num(score.get(part))),
                halign="center",
                size=theme.FONT_TITLE if part == "total" else theme.FONT,
                bold=part == "total",
                tid=f"end.score.{seat}.{part}",
            )
        )
    return cells
