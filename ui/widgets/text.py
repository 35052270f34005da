"""Texts as a label can draw them, and text that fits its place.

- :func:`drawable` / :func:`plain`: the glyphs the default font lacks (arrows, the players' shapes)
  drawn with DejaVu Sans through markup, and the text without that markup again;
- :func:`measure_text`, :func:`widest_word`, :func:`fits`: a label's text measured at a font size,
  without drawing it;
- :func:`large_where_it_fits`: the large-text mode's bigger font where the label's place has room.

Imports Kivy and :mod:`ui.theme` only (every other room of the kit builds on this one).
"""

from __future__ import annotations

import re
from typing import Any

from kivy.metrics import dp
from kivy.resources import resource_find
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from ui import theme

# Characters the default font (Roboto) has no glyph for, drawn with DejaVu Sans (shipped with Kivy):
# a game's words may say "D2 taxi 53 → 69"; the players' shapes (theme.PLAYER_MARK).
MISSING_GLYPHS = "→←↔" + "".join(theme.PLAYER_MARK.values())
FALLBACK_FONT = resource_find("data/fonts/DejaVuSans.ttf") or "DejaVuSans"


def drawable(text: str, markup: bool = False) -> tuple[str, bool]:
    """``text`` as a label can draw it, and whether that needs markup (see :func:`plain`);
    ``markup``: ``text`` is markup already (its tags are kept, only the glyphs are wrapped)."""
    if not any(c in text for c in MISSING_GLYPHS):
        return text, markup
    out = text if markup else escape_markup(text)
    for c in MISSING_GLYPHS:
        out = out.replace(c, f"[font={FALLBACK_FONT}]{c}[/font]")
    return out, True


def plain(text: str) -> str:
    """What a label made by :func:`drawable` shows, without its markup."""
    if "[font=" not in text:
        return text
    text = re.sub(r"\[font=[^\]]*\]|\[/font\]", "", text)
    return text.replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")


def measure_text(label: Label, size: float, width: float | None) -> tuple[float, float, Any]:
    """``label``'s text at font ``size``, wrapped at ``width`` (``None``: one line): its width and
    height inside the padding, and the renderer that measured it."""
    core = label._label
    probe = type(core)(**{**core.options, "text": label.text, "font_size": size, "text_size": (width, None)})
    probe.options["shorten"] = False
    probe.render()
    pad = core.options["padding"]
    w, h = probe._internal_size
    return w - pad[0] - pad[2], h - pad[1] - pad[3], probe


def widest_word(label: Label, probe: Any) -> float:
    words = [] if label.markup else label.text.replace("\u00ad", "").split()
    return float(max((probe.get_extents(x)[0] for x in words), default=0))


def fits(label: Label, size: float, one_line: bool, room_w: float, room_h: float) -> bool:
    """Strictly, with a margin for one line (Kivy measures its shortening word by word, a little
    wider than the whole line)."""
    if one_line:
        w, h, _ = measure_text(label, size, None)
        return w + dp(8) < room_w and h <= room_h
    w, h, probe = measure_text(label, size, room_w)
    return h <= room_h and widest_word(label, probe) < room_w


def large_where_it_fits(label: Label, normal: float, one_line: bool, inset: float = 0.0) -> None:
    """Large text (``theme.large_text()``): ``label`` draws its text as large as the mode asks where
    its place has room for it, else a little smaller, never smaller than ``normal`` (the size every
    screen is laid out for, so the text always fits as it does in the normal mode). ``inset``: the
    room its own text box leaves on each side (a button's)."""
    if not theme.large_text():
        return
    largest = theme.font(normal)

    def fit(*_: Any) -> None:
        if label._label is None or label.width <= 1 or not label.text:
            return
        pad = label._label.options["padding"]
        room_w = label.width - 2 * inset - pad[0] - pad[2]
        room_h = label.height - pad[1] - pad[3]
        size = largest
        while size > normal and not fits(label, size, one_line, room_w, room_h):
            size = max(normal, size - dp(1))
        label.font_size = size

    label.bind(size=fit, text=fit, parent=fit)  # a fixed size is set before: fit when it is placed


def one_size(grid: Widget) -> Widget:
    """The like labels of ``grid`` (its cells) drawn at one size, the largest every one of them fits
    at, as a printed table does (else a long word shrinks alone: "Monument" in large text, a button's
    "Universidad" that shrinks to fit in Spanish). Each
    cell still fits itself (:func:`large_where_it_fits`, a button's own fitting); the size it
    chose is remembered, and every cell is drawn at the smallest of those — so when a cell's own
    size grows again (its place was laid out), the grid's grows with it."""
    busy: list[bool] = []

    def even() -> None:
        cells = [c for c in grid.children if isinstance(c, Label) and c.text.strip()]
        if len(cells) < 2:
            return
        smallest = min(getattr(c, "own_size", float(c.font_size)) for c in cells)
        busy.append(True)
        try:
            for c in cells:
                if float(c.font_size) != smallest:
                    c.font_size = smallest
        finally:
            busy.clear()

    def fitted(cell: Widget, size: float) -> None:
        if not busy:  # the cell fitted itself: remember its size (on the cell), then even the grid
            cell.own_size = float(size)
            even()

    def watch(_grid: Widget, children: list[Widget]) -> None:
        for c in children:
            if isinstance(c, Label) and not hasattr(c, "own_size"):
                c.own_size = float(c.font_size)
                c.bind(font_size=fitted)
        even()

    grid.bind(children=watch)
    watch(grid, list(grid.children))
    return grid
