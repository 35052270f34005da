"""The museum below the players: five wings under their patrons, each with its rooms of value 5 and
3, the rooms of value 2 between them (a row of four or a ring of five), who occupies each room, and
the rooms to tap while one is chosen for a museum card or Sir Brown."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON, JSONObject
from ui import theme
from ui.games.base import obj, seq_of, txt
from ui.games.mykerinos.look import MYK_COLOUR, PATRON_COLOUR, PATRON_TEXT
from ui.parts import Part
from ui.widgets import Btn, Chip, Lbl, Panel, hbox, spacer, vbox

if TYPE_CHECKING:
    from ui.games.mykerinos.screen import Screen


def rooms_of(layout: str) -> tuple[list[str], list[str]]:
    """Room ids by the protocol's naming (``"<wing>:3"``, ``"<wing>:5"``, ``"<a>-<b>:2"``): only to draw
    the board; which rooms are legal always comes from ``legal``."""
    wings = [f"{w}:{v}" for w in range(1, 6) for v in (5, 3)]
    twos = [f"{w}-{w + 1}:2" for w in range(1, 5)] + (["5-1:2"] if layout == "ring5" else [])
    return wings, twos


def museum_part(tv: Screen, museum_: JSON, wings_: JSON, layout_: JSON, legal: frozenset[str]) -> Part:
    """The museum: a part per wing and per room, so a room taken or offered changes only itself."""
    museum = obj(museum_)
    wings = [txt(w) for w in seq_of(wings_)]
    _, twos = rooms_of(txt(layout_, "line4"))
    columns: list[Part] = []
    for wing in range(1, 6):
        patron = wings[wing - 1] if len(wings) >= wing else ""
        rooms = [room_part(tv, f"{wing}:{value}", museum, legal) for value in (5, 3)]
        columns.append(
            Part(f"wing.{wing}", wing_column, children=[Part("patron", wing_chip, tv, wing, patron), *rooms])
        )
        two = f"{wing}-{wing + 1}:2"
        if two in twos:
            columns.append(between_part(tv, two, museum, legal))
    if "5-1:2" in twos:
        columns.append(between_part(tv, "5-1:2", museum, legal))
    return Part("museum", museum_box, tv, children=columns)


def museum_box(tv: Screen) -> Widget:
    title = hbox(
        Lbl(tv.t("ui.myk.museum_title"), bold=True),
        Lbl(tv.t("ui.myk.museum_note"), size=theme.FONT_SMALL, colour=theme.MUTED, halign="right"),
        size_hint_y=None,
        height=dp(22),
    )
    row = hbox(spacing=dp(4))
    box = Panel(title, row, orientation="vertical", padding=dp(6), spacing=dp(4))
    box.content = row
    return box


def wing_column() -> Widget:
    return vbox(spacing=dp(4))


def wing_chip(tv: Screen, wing: int, patron: str) -> Widget:
    return Chip(
        tv.patron(patron) if patron else tv.t("ui.myk.wing", n=wing),
        PATRON_COLOUR.get(patron, theme.PANEL_HI),
        PATRON_TEXT.get(patron, theme.TEXT),
        size=dp(14),
        height=dp(30),
        one_line=True,
        short=tv.t(f"ui.myk.short.{patron}") if patron else "",
        tid=f"myk.wing.{wing}",
    )


def room_part(tv: Screen, room_: str, museum: JSONObject, legal: frozenset[str]) -> Part:
    return Part(room_, room, tv, room_, museum.get(room_), room_ in legal)


def between_part(tv: Screen, two: str, museum: JSONObject, legal: frozenset[str]) -> Part:
    """A room of value 2 between two wings, level with their rooms of value 5."""
    children = [Part("above", spacer, None, dp(30)), room_part(tv, two, museum, legal), Part("below", Widget)]
    return Part(f"between.{two}", between_column, children=children)


def between_column() -> Widget:
    return vbox(spacing=dp(4), size_hint_x=None, width=dp(52))


def room(tv: Screen, room_: str, holder: JSON, legal: bool) -> Widget:
    value = room_.rsplit(":", 1)[1]
    if legal:
        return Btn(
            value,
            partial(tv.room_tapped, room_),
            tid=f"myk.pick.{room_}",
            colour=theme.GOOD,
            bold=True,
            height=dp(52),
        )
    if isinstance(holder, str):
        chip = Chip(
            f"{value}  {tv.colour_name(holder)}",
            MYK_COLOUR.get(holder, theme.ACCENT),
            theme.on_player_colour(holder),
            size=dp(14),
            height=dp(52),
        )
    else:
        chip = Chip(value, theme.BACKGROUND, theme.MUTED, size=theme.FONT_BIG, height=dp(52))
    chip.tid = f"myk.room.{room_}"
    return chip
