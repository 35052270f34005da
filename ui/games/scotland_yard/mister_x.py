"""Mister X's panel: his tickets, who plays him, the travel log (a cell per field, each redrawn
only when its field changes) and where he was last seen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON, JSONObject
from ui import theme
from ui.games.base import num, obj, seq_of, txt
from ui.games.scotland_yard.look import TRANSPORT, text_on
from ui.parts import Part
from ui.widgets import Lbl, Panel, autogrid, fit_height, hbox, scroll, vbox

if TYPE_CHECKING:
    from ui.games.scotland_yard.screen import Screen


def panel(tv: Screen) -> Part:
    v = tv.view
    mrx = obj(v.get("mrx"))
    children = [Part("title", title, tv, num(mrx.get("black")), num(mrx.get("double")))]
    if tv.table_plays_x():  # no player: the table moves him in secret
        children.append(Part("by", by_table, tv, txt(mrx.get("ai"))))
    children.append(Part("log", log_box, 6, dp(50), children=log_cells(tv, v)))
    children.append(Part("where", where, tv, v.get("last_reveal")))
    tracker = obj(v.get("tracker"))
    if tracker.get("on"):
        children.append(Part("tracker", tracker_list, tv, tuple(num(c) for c in seq_of(tracker.get("candidates")))))
    else:
        children.append(Part("rest", Widget))
    return Part("mrx", box, children=children)


def box() -> Widget:
    return Panel(orientation="vertical", size_hint_x=None, width=dp(336))


def title(tv: Screen, black: int, double: int) -> Widget:
    return hbox(
        Lbl(tv.t("ui.sy.mrx"), size=theme.FONT_BIG, bold=True),
        Lbl(
            tv.t("ui.sy.x_tickets", black=black, double=double),
            colour=theme.MUTED,
            halign="right",
            size=theme.FONT_SMALL,
            tid="sy.x_tickets",
        ),
        size_hint_y=None,
        height=dp(30),
    )


def by_table(tv: Screen, level: str) -> Widget:
    return Lbl(
        tv.t("ui.sy.x_by_table", level=tv.t(f"sy.ai.{level}")),
        colour=theme.ACCENT,
        size=theme.FONT_SMALL,
        one_line=True,
        tid="sy.x_by_table",
        size_hint_y=None,
        height=dp(18),
    )


def log_box(cols: int, cell: float) -> Widget:
    return autogrid(cols, dp(4), row_force_default=True, row_default_height=cell)


def log_cells(tv: Screen, v: JSONObject) -> list[Part]:
    """A part per field of the travel log: what is written in it, whether it is a reveal field and
    whether it is the next one to be written."""
    entries = {num(obj(e).get("field")): obj(e) for e in seq_of(v.get("log"))}
    reveals = {num(r) for r in seq_of(v.get("reveal_fields"))}
    upcoming = num(v.get("next_field"), 0) if txt(v.get("phase")) != "over" else 0
    return [
        Part(f"log.{field}", log_cell, tv, field, entries.get(field), field in reveals, field == upcoming)
        for field in range(1, num(tv.facts.get("log_fields")) + 1)
    ]


def log_grid(tv: Screen, v: JSONObject, cols: int, cell: float) -> Widget:
    """The whole travel log at once (the end screen's route)."""
    grid = log_box(cols, cell)
    for part in log_cells(tv, v):
        grid.add_widget(part.make())
    return grid


def log_cell(tv: Screen, field: int, entry: JSONObject | None, reveal: bool, upcoming: bool) -> Widget:
    border = theme.WARN if reveal else None
    if entry is None:
        main = Lbl("!" if reveal else "", size=theme.FONT_BIG, bold=True, colour=theme.WARN, halign="center")
        top = Lbl(str(field), size=dp(14), colour=theme.MUTED, halign="center", size_hint_y=None, height=dp(16))
        colour = theme.PANEL_HI if upcoming else theme.BACKGROUND
    else:
        ticket = txt(entry.get("ticket"))
        station = entry.get("station")
        fg = text_on(ticket)
        head = f"{field}" + (" ×2" if entry.get("double") else "")
        if isinstance(station, int):  # a reveal box: the station below, the ticket beside the number
            head = f"{head} {tv.t(f'ui.sy.short.{ticket}')}"
        top = Lbl(head, size=dp(14), colour=fg, halign="center", size_hint_y=None, height=dp(16), fit=dp(9))
        if isinstance(station, int):
            main = Lbl(str(station), size=theme.FONT_BIG, bold=True, colour=fg, halign="center")
        else:
            # a long ticket word ("U-Bahn") gets smaller rather than break over two lines
            main = Lbl(tv.t(f"ui.sy.short.{ticket}"), size=dp(14), bold=True, colour=fg, halign="center", fit=dp(10))
        if border is None and ticket == "black":
            border = theme.MUTED  # a black field must not look like an empty one
        colour = TRANSPORT.get(ticket, theme.PANEL_HI)
    cell = Panel(top, main, orientation="vertical", colour=colour, border=border, padding=dp(2), spacing=0)
    cell.tid = f"sy.log.{field}"
    main.tid = f"sy.log.{field}.main"
    top.tid = f"sy.log.{field}.top"
    return cell


def where(tv: Screen, last_reveal: JSON) -> Widget:
    """His last reveal: announced while its round's detectives move (the same words however it
    came: a single move, or within a double move), else where he was last seen, else that he was
    not seen yet."""
    shown = obj(last_reveal)
    if shown.get("now"):
        return Lbl(
            tv.t("sy.reveal_now", station=num(shown.get("station")), field=num(shown.get("field"))),
            size=theme.FONT_BIG,
            bold=True,
            colour=theme.WARN,
            wrap=True,
            tid="sy.shown",
        )
    if shown:
        return Lbl(
            tv.t("ui.sy.last_seen", station=num(shown.get("station")), field=num(shown.get("field"))),
            wrap=True,
            tid="sy.shown",
        )
    return Lbl(tv.t("ui.sy.not_seen"), colour=theme.MUTED, wrap=True, tid="sy.shown")


def tracker_list(tv: Screen, candidates: tuple[int, ...]) -> Widget:
    """The stations he can be at, from public information only (the tracker)."""
    label = Lbl(
        tv.t("ui.sy.tracker", count=len(candidates)) + " " + ", ".join(map(str, candidates)),
        size=theme.FONT_SMALL,
        colour=theme.ACCENT,
        wrap=True,
        tid="sy.tracker",
    )
    return scroll(fit_height(vbox(label)), tid="sy.tracker.scroll")
