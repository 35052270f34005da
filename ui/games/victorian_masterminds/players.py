"""The players' rows: the firepower column beside the level (whose turn it is in bold), and the
tallies with the running score (where the stack turned over is shown while there is one)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON
from ui import theme
from ui.games.base import num, obj, strs, txt
from ui.parts import Part
from ui.widgets import Chip, Lbl, Panel, fit_height, hbox, scroll, text_part, vbox

if TYPE_CHECKING:
    from ui.games.victorian_masterminds.screen import Screen


def firepower_part(
    tv: Screen, labels: tuple[tuple[str, str, str], ...], firepowers: tuple[int, ...], active_: JSON, phase: JSON
) -> Part:
    """The firepower column: a row per player, each made again only when its own firepower or
    whether it is that player's turn changes."""
    active = txt(active_)
    rows = [
        firepower_part_of(tv, seat, colour, firepower, seat == active and txt(phase) == "turn")
        for (seat, colour, _), firepower in zip(labels, firepowers, strict=True)
    ]
    return Part("firepower", firepower_box, tv, children=rows)


def firepower_box(tv: Screen) -> Widget:
    rows = fit_height(vbox(spacing=dp(2)))
    box = Panel(
        Lbl(tv.t("ui.vm.firepower"), size=theme.FONT_SMALL, colour=theme.MUTED, size_hint_y=None, height=dp(20)),
        rows,
        Widget(),
        orientation="vertical",
        size_hint_x=None,
        width=dp(176),
        padding=dp(6),
        spacing=dp(2),
    )
    box.content = rows
    return box


def firepower_part_of(tv: Screen, seat: str, colour: str, firepower: int, now: bool) -> Part:
    """One player's row: the name in bold while it is their turn, and their firepower."""
    name = text_part("name", tv.seat_label(seat), bold=now, one_line=True, colour=theme.TEXT if now else theme.MUTED)
    value = text_part(
        "value",
        str(firepower),
        size=theme.FONT_BIG,
        bold=True,
        halign="right",
        size_hint_x=None,
        width=dp(34),
        tid=f"vm.firepower.{seat}",
    )
    return Part(f"firepower.{seat}", firepower_row, children=[Part("colour", colour_chip, colour), name, value])


def firepower_row() -> Widget:
    return hbox(size_hint_y=None, height=dp(26))


def colour_chip(colour: str) -> Widget:
    return Chip("", theme.player_colour(colour), width=dp(14), height=dp(22))


def tally_part(tv: Screen) -> Part:
    """The tallies: a header row and a row per player, each made again only when that player's
    tallies change (a player's part of the view stays the same object while unchanged)."""
    rows = [Part("head", tally_head, tv)]
    for p in tv.players():
        shown = tuple(p.get(key) for key in tv.tally_keys())
        rows.append(tally_row(tv, shown))
    return Part("tally", tally_box, children=rows)


def tally_box() -> Widget:
    rows = fit_height(vbox(spacing=dp(1)))
    view = scroll(fit_height(vbox(rows)), tid="vm.tally")
    view.content = rows
    return view


def tally_head(tv: Screen) -> Widget:
    keys = strs(tv.facts.get("tally"))  # a count, or a list whose length is shown
    row = tally_line()
    row.add_widget(Lbl("", size_hint_x=None, width=dp(150)))
    for key in (*keys, "score"):
        row.add_widget(Lbl(tv.t(f"ui.vm.tally.{key}"), size=dp(14), colour=theme.MUTED, halign="center", one_line=True))
    return row


def tally_row(tv: Screen, shown: tuple[JSON, ...]) -> Part:
    """One player's tallies (``shown``: the values of :meth:`Screen.tally_keys`): a tally that
    changes is given its new number in place."""
    p = dict(zip(tv.tally_keys(), shown, strict=True))
    keys = strs(tv.facts.get("tally"))
    seat = txt(p.get("seat"))
    values = {key: len(v) if isinstance(v := p.get(key), list) else num(v) for key in keys}
    values["score"] = num(obj(p.get("score")).get("total"))
    cells = [Part("who", tally_who, tv, seat, txt(p.get("colour")))]
    for key in (*keys, "score"):
        big = key == "score"
        size = theme.FONT_BIG if big else theme.FONT
        cells.append(
            text_part(key, str(values[key]), bold=big, halign="center", size=size, tid=f"vm.tally.{seat}.{key}")
        )
    return Part(f"player.{seat}", tally_line, children=cells)


def tally_who(tv: Screen, seat: str, colour: str) -> Widget:
    return hbox(
        Chip("", theme.player_colour(colour), width=dp(12), height=dp(22)),
        Lbl(tv.seat_label(seat), one_line=True),
        size_hint_x=None,
        width=dp(150),
    )


def tally_line() -> Widget:
    """A row of the tallies: the player's 150 px, then a column per tally of equal width."""
    return hbox(spacing=dp(2), size_hint_y=None, height=dp(27))
