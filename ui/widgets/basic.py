"""The kit's labels, buttons, chips and panels: :class:`Lbl` (never spills: wraps, shortens or
gets smaller), :class:`Btn` (a flat button whose words are never cut), :class:`Panel` and
:class:`TapPanel` (rounded boxes, one that reacts to a tap), :class:`Chip` (a small coloured tag).

Every one of them that a test may tap or read carries a ``tid`` (see :mod:`ui.widgets`). Each has
a ``show`` (or takes new colours) so that :mod:`ui.widgets.inplace` can change it in place.

Imports Kivy, :mod:`ui.theme` and :mod:`ui.widgets.text` only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line, RoundedRectangle
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from ui import theme
from ui.theme import RGBA
from ui.widgets.text import drawable, fits, large_where_it_fits, measure_text, plain, widest_word


def _background(widget: Widget, colour: RGBA, radius: float = 8.0, border: RGBA | None = None) -> None:
    with widget.canvas.before:
        widget._bg_colour = Color(*colour)
        widget._bg_rect = RoundedRectangle(pos=widget.pos, size=widget.size, radius=[dp(radius)])
        if border is not None:
            Color(*border)
            widget._bg_line = Line(rounded_rectangle=(*widget.pos, *widget.size, dp(radius)), width=dp(1.5))

    def update(*_: Any) -> None:
        widget._bg_rect.pos = widget.pos
        widget._bg_rect.size = widget.size
        if border is not None:
            widget._bg_line.rounded_rectangle = (*widget.pos, *widget.size, dp(radius))

    widget.bind(pos=update, size=update)


class Lbl(Label):
    """A label that never spills: it wraps to its width (``wrap=True`` also grows its height to
    fit) or shortens with an ellipsis when it must stay one line. ``fit`` (a smallest font size) lets a
    one-line text that is too long get smaller first, then take two lines at that size, and only then
    be shortened (a header whose title is a game's name and date)."""

    tid = StringProperty("")

    def __init__(
        self,
        text: str = "",
        size: float = theme.FONT,
        colour: RGBA = theme.TEXT,
        bold: bool = False,
        halign: str = "left",
        valign: str = "middle",
        wrap: bool = False,
        one_line: bool = False,
        tid: str = "",
        fit: float | None = None,
        **kwargs: Any,
    ) -> None:
        self._given_markup = bool(kwargs.get("markup"))
        text, kwargs["markup"] = drawable(text, self._given_markup)
        normal, size = size, theme.font(size)
        super().__init__(text=text, font_size=size, color=colour, bold=bold, halign=halign, valign=valign, **kwargs)
        self.tid = tid
        self.normal_size: float = normal  # the size every screen is laid out for
        if fit is not None:
            # Fitted once the frame's layout has settled, not at each size it passes through on the
            # way (a new screen's labels change size several times before their first frame, and
            # each fitting measures the text up to three times)
            self._fitted: tuple[Any, ...] | None = None
            refit = Clock.create_trigger(lambda *_: self._fit(size, fit), -1)
            self.bind(size=lambda *_: refit(), text=lambda *_: refit())
        elif one_line:
            self.shorten = True
            self.shorten_from = "right"
            self.bind(size=lambda *_: setattr(self, "text_size", (self.width, self.height)))
            large_where_it_fits(self, normal, one_line=True)
        elif wrap:
            self.size_hint_y = None
            self.bind(width=lambda *_: setattr(self, "text_size", (self.width, None)))
            self.bind(texture_size=lambda *_: setattr(self, "height", self.texture_size[1] + dp(4)))
            self.largest_size: float = size  # a crowded panel gives it back normal_size in the large-text mode
            if theme.large_text():  # and no word wider than the label (a long German compound)
                self.bind(width=self._words_fit, text=self._words_fit)
        else:
            self.bind(size=lambda *_: setattr(self, "text_size", (self.width, self.height)))
            large_where_it_fits(self, normal, one_line=False)

    def show(self, text: str, colour: RGBA = theme.TEXT, bold: bool = False) -> None:
        """Show another text, colour or boldness, as a label made with them would."""
        # markup first: a text fitted to its width as it is set is measured as it will be drawn
        # (an equal value changes nothing)
        shown, self.markup = drawable(text, self._given_markup)
        self.text = shown
        self.color, self.bold = colour, bold

    def _words_fit(self, *_: Any) -> None:
        normal: float = self.normal_size
        if self._label is None or self.width <= 1 or not self.text:
            return
        pad = self._label.options["padding"]
        room = self.width - pad[0] - pad[2]
        size: float = self.largest_size
        while size > normal and widest_word(self, measure_text(self, size, None)[2]) >= room:
            size = max(normal, size - dp(1))
        self.font_size = size

    def _measure(self, size: float, width: float | None) -> tuple[float, float]:
        """The text's width and height at font ``size``, wrapped at ``width`` (``None``: one line)."""
        w, h, _probe = measure_text(self, size, width)
        return w, h

    def _fit(self, largest: float, smallest: float) -> None:
        if self._label is None or self.width <= 1 or not self.text:
            return
        given = (self.text, self.markup, self.bold, self.font_name, self.width, self.height, largest, smallest)
        if given == self._fitted:  # the same text in the same place: fitted already
            return
        self._fitted = given
        pad = self._label.options["padding"]
        room_w, room_h = self.width - pad[0] - pad[2], self.height - pad[1] - pad[3]
        size = largest
        normal: float = self.normal_size
        while size > normal and not fits(self, size, True, room_w, room_h):  # large text: back to normal
            size = max(normal, size - dp(1))
        # a margin: Kivy shortens by its own measure, word by word and a little wider (an ellipsis
        # in a travel-log box: "3 Bla…")
        room_line = room_w - dp(4)
        while size > smallest and self._measure(size, None)[0] > room_line:
            size = max(smallest, size - dp(1))
        one_line = self._measure(size, None)[0] <= room_line
        two_lines = not one_line and self._measure(size, self.width)[1] <= room_h
        self.font_size = size
        self.shorten = not two_lines  # still too long for two lines: shortened with an ellipsis
        self.shorten_from = "right"
        self.text_size = (self.width, self.height)


class Btn(Button):
    """A flat button at least :data:`theme.TOUCH` high whose text wraps inside it, between words: a
    word wider than the button is never cut anywhere (Kivy would show "Haut-fourn" / "eau") — a
    compound word breaks after its hyphen ("Haut-" / "fourneau"), and a word still too wide makes the
    font smaller, to three quarters of its size at most."""

    tid = StringProperty("")

    def __init__(
        self,
        text: str,
        on: Callable[[], object] | None = None,
        tid: str = "",
        colour: RGBA = theme.BUTTON,
        text_colour: RGBA = theme.TEXT,
        size: float = theme.FONT,
        height: float = theme.TOUCH,
        width: float | None = None,
        bold: bool = False,
        selected: bool = False,
        **kwargs: Any,
    ) -> None:
        self._given_markup = bool(kwargs.get("markup"))
        shown, kwargs["markup"] = drawable(text, self._given_markup)
        super().__init__(
            text=shown,
            font_size=size,  # larger in the large-text mode once its words are known to fit (_wrap)
            color=text_colour,
            bold=bold or selected,
            halign="center",
            valign="middle",
            background_normal="",
            background_down="",
            background_disabled_normal="",
            background_color=theme.ACCENT if selected else colour,
            **kwargs,
        )
        self.tid = tid
        self._on = on
        self.size_hint_y = None
        self.height = max(height, theme.TOUCH_SMALL)
        if width is not None:
            self.size_hint_x = None
            self.width = max(width, theme.TOUCH_SMALL)
        self._words, self._font = text, size
        self.bind(size=lambda *_: self._wrap())
        self._selected, self._bold = selected, bold or selected
        self._normal = theme.ACCENT if selected else colour
        self.bind(state=self._show_state, disabled=self._show_state)
        self._show_state()  # a button made disabled looks it from the start

    def _wrap(self) -> None:
        room = max(1.0, self.width - dp(10))
        self.text_size = (room, None)
        core = self._label
        if core is None or self._given_markup or not self._words.strip():
            return

        def widest(text: str, size: float) -> float:
            probe = type(core)(**{**core.options, "font_size": size})
            return max((probe.get_extents(word)[0] for word in text.split()), default=0.0)

        words = self._words.split(" ")  # break after the hyphens of the words that do not fit
        text = " ".join(re.sub(r"(?<=\w)-(?=\w)", "-\n", w) if widest(w, self._font) > room else w for w in words)
        size = self._font
        while size > self._font * 0.75 and widest(text, size) > room:
            size = max(self._font * 0.75, size - dp(1))
        if theme.large_text() and size == self._font:  # larger where the words fit the button
            largest = theme.font(self._font)

            def high(at: float) -> float:
                probe = type(core)(**{**core.options, "text": text, "font_size": at, "text_size": (room, None)})
                probe.render()
                return float(probe._internal_size[1])

            while largest > size and (widest(text, largest) > room or high(largest) > self.height - dp(4)):
                largest = max(size, largest - dp(1))
            size = largest
        (self.text, self.markup), self.font_size = drawable(text), size

    def show(self, text: str, on: Callable[[], object] | None, colour: RGBA, text_colour: RGBA, bold: bool) -> None:
        """Show another text, colour or boldness and act otherwise, as a button made with them would
        (one made ``selected`` stays so)."""
        self._on = on
        self.color = text_colour
        bold = bold or self._selected
        if not self._selected:
            self._normal = colour
        if text != self._words or bold != self._bold:  # its words are fitted to the button again
            self._words, self._bold = text, bold
            self.bold = bold
            shown, self.markup = drawable(text, self._given_markup)
            self.text = shown
            self._wrap()
        self._show_state()

    def _show_state(self, *_: Any) -> None:
        if self.disabled:
            self.background_color = theme.DISABLED
        else:
            self.background_color = theme.BUTTON_DOWN if self.state == "down" else self._normal

    def on_release(self) -> None:
        if self._on is not None:
            self._on()


class Panel(BoxLayout):
    """A box with a rounded dark background."""

    def __init__(
        self, *children: Widget, colour: RGBA = theme.PANEL, border: RGBA | None = None, **kwargs: Any
    ) -> None:
        kwargs.setdefault("padding", theme.PAD)
        kwargs.setdefault("spacing", theme.GAP)
        super().__init__(**kwargs)
        _background(self, colour, border=border)
        for child in children:
            self.add_widget(child)
        if theme.large_text():
            self.bind(minimum_height=self._give_back, height=self._give_back)

    def _give_back(self, *_: Any) -> None:
        """Large text: a panel laid out top to bottom that its wrapping texts would overfill gives
        them back their normal size (they fit at it: every screen is laid out for it)."""
        if self.orientation != "vertical" or self.minimum_height <= self.height + 1 or self.height <= 1:
            return
        for w in self.walk(restrict=True):
            normal = getattr(w, "normal_size", None)
            if isinstance(w, Label) and normal is not None and w.font_size > normal:
                w.largest_size = w.font_size = normal


class TapPanel(ButtonBehavior, Panel):
    """A whole panel that reacts to a tap (e.g. a figure's row): at least :data:`theme.TOUCH` high."""

    tid = StringProperty("")

    def __init__(self, on: Callable[[], object], tid: str = "", selected: bool = False, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "horizontal")
        colour = theme.ACCENT if selected else theme.BUTTON
        super().__init__(colour=colour, **kwargs)
        self.tid = tid
        self._on = on
        self._normal = colour
        self.bind(state=self._show_state)

    def _show_state(self, *_: Any) -> None:
        self._bg_colour.rgba = theme.BUTTON_DOWN if self.state == "down" else self._normal

    def on_release(self) -> None:
        self._on()


class Chip(Label):
    """A small coloured tag: a ticket, a player colour, a room."""

    tid = StringProperty("")

    def __init__(
        self,
        text: str,
        colour: RGBA,
        text_colour: RGBA = theme.TEXT,
        size: float = theme.FONT,
        width: float | None = None,
        height: float | None = None,
        one_line: bool = False,
        short: str = "",
        **kwargs: Any,
    ) -> None:
        given = bool(kwargs.get("markup"))
        text, kwargs["markup"] = drawable(text, given)
        short = drawable(short, given)[0] if short else ""
        if short and not kwargs["markup"] and short != plain(short):
            kwargs["markup"] = True  # the short form needs markup where the whole text does not
            text = escape_markup(text)
        super().__init__(
            text=text, font_size=theme.font(size), color=text_colour, halign="center", valign="middle", **kwargs
        )
        if one_line:
            self.shorten = True
            self.shorten_from = "right"
        large_where_it_fits(self, size, one_line=one_line)
        if width is not None:
            self.size_hint_x = None
            self.width = width
        if height is not None:
            self.size_hint_y = None
            self.height = height
        self.bind(size=lambda *_: setattr(self, "text_size", (self.width, self.height)))
        if short:  # a shorter form ("Tangerine") when the whole text does not fit the chip's width
            full = text
            self.bind(
                width=lambda *_: setattr(
                    self, "text", full if self._label.get_extents(full)[0] <= self.width - dp(4) else short
                )
            )
        _background(self, colour, radius=6)
