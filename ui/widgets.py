"""Small building blocks for every screen: labels that wrap instead of overflowing, big buttons,
panels, +/- steppers, one-of-n choices, confirmation dialogs and the message toast.

Every interactive widget can carry a ``tid`` (test id): the test control channel (``ui/control.py``)
finds widgets by it and taps them with real touch events. A ``tid`` is a stable, readable name such
as ``"start.new"`` or ``"sy.dest.taxi.34"``; it is never shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.graphics import Color, Line, RoundedRectangle
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.resources import resource_find
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.stacklayout import StackLayout
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from ui import theme
from ui.parts import Part
from ui.theme import RGBA

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


def _measure(label: Label, size: float, width: float | None) -> tuple[float, float, Any]:
    """``label``'s text at font ``size``, wrapped at ``width`` (``None``: one line): its width and
    height inside the padding, and the renderer that measured it."""
    core = label._label
    probe = type(core)(**{**core.options, "text": label.text, "font_size": size, "text_size": (width, None)})
    probe.options["shorten"] = False
    probe.render()
    pad = core.options["padding"]
    w, h = probe._internal_size
    return w - pad[0] - pad[2], h - pad[1] - pad[3], probe


def _widest_word(label: Label, probe: Any) -> float:
    words = [] if label.markup else label.text.replace("\u00ad", "").split()
    return float(max((probe.get_extents(x)[0] for x in words), default=0))


def _fits(label: Label, size: float, one_line: bool, room_w: float, room_h: float) -> bool:
    """Strictly, with a margin for one line (Kivy measures its shortening word by word, a little
    wider than the whole line)."""
    if one_line:
        w, h, _ = _measure(label, size, None)
        return w + dp(8) < room_w and h <= room_h
    w, h, probe = _measure(label, size, room_w)
    return h <= room_h and _widest_word(label, probe) < room_w


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
        while size > normal and not _fits(label, size, one_line, room_w, room_h):
            size = max(normal, size - dp(1))
        label.font_size = size

    label.bind(size=fit, text=fit, parent=fit)  # a fixed size is set before: fit when it is placed


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
            self.bind(size=lambda *_: self._fit(size, fit), text=lambda *_: self._fit(size, fit))
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
        while size > normal and _widest_word(self, _measure(self, size, None)[2]) >= room:
            size = max(normal, size - dp(1))
        self.font_size = size

    def _measure(self, size: float, width: float | None) -> tuple[float, float]:
        """The text's width and height at font ``size``, wrapped at ``width`` (``None``: one line)."""
        w, h, _probe = _measure(self, size, width)
        return w, h

    def _fit(self, largest: float, smallest: float) -> None:
        if self._label is None or self.width <= 1 or not self.text:
            return
        pad = self._label.options["padding"]
        room_w, room_h = self.width - pad[0] - pad[2], self.height - pad[1] - pad[3]
        size = largest
        normal: float = self.normal_size
        while size > normal and not _fits(self, size, True, room_w, room_h):  # large text: back to normal
            size = max(normal, size - dp(1))
        while size > smallest and self._measure(size, None)[0] > room_w:
            size = max(smallest, size - dp(1))
        one_line = self._measure(size, None)[0] <= room_w
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


class NameInput(TextInput):
    """One line of text a player types (a name: at most ``limit`` characters); the docked on-screen
    keyboard comes up when it is tapped. ``changed(text)`` follows every edit."""

    tid = StringProperty("")

    def __init__(
        self, text: str, changed: Callable[[str], object], hint: str = "", tid: str = "", limit: int = 40, **kwargs: Any
    ) -> None:
        super().__init__(
            text=text[:limit],
            hint_text=hint,
            multiline=False,
            write_tab=False,
            font_size=theme.FONT,
            background_normal="",
            background_active="",
            background_color=theme.PANEL_HI,
            foreground_color=theme.TEXT,
            hint_text_color=theme.MUTED,
            cursor_color=theme.ACCENT,
            padding=(dp(10), dp(12)),
            **kwargs,
        )
        self.tid = tid
        self.limit = limit
        self.size_hint_y = None
        self.height = theme.TOUCH
        self.bind(text=lambda _w, value: changed(value))

    def insert_text(self, substring: str, from_undo: bool = False) -> None:
        room = self.limit - len(self.text)
        if room > 0:
            super().insert_text(substring[:room], from_undo=from_undo)


def hbox(*children: Widget, **kwargs: Any) -> BoxLayout:
    kwargs.setdefault("spacing", theme.GAP)
    box = BoxLayout(orientation="horizontal", **kwargs)
    for child in children:
        box.add_widget(child)
    return box


def vbox(*children: Widget, **kwargs: Any) -> BoxLayout:
    kwargs.setdefault("spacing", theme.GAP)
    box = BoxLayout(orientation="vertical", **kwargs)
    for child in children:
        box.add_widget(child)
    return box


def fit_height(box: BoxLayout | GridLayout | StackLayout) -> BoxLayout | GridLayout | StackLayout:
    """Let a layout be exactly as high as its children need (for use inside a scroll view)."""
    box.size_hint_y = None
    box.bind(minimum_height=box.setter("height"))
    return box


def autogrid(cols: int, spacing: Any = theme.GAP, **kwargs: Any) -> GridLayout:
    """A grid as high as its rows need."""
    layout = GridLayout(cols=cols, spacing=spacing, size_hint_y=None, **kwargs)
    layout.bind(minimum_height=layout.setter("height"))
    return layout


def flow(children: Iterable[Widget] = (), spacing: float = theme.GAP) -> StackLayout:
    """Widgets left to right, wrapping onto new rows; as high as it needs."""
    stack = StackLayout(orientation="lr-tb", spacing=spacing, size_hint_y=None)
    stack.bind(minimum_height=stack.setter("height"))
    for child in children:
        stack.add_widget(child)
    return stack


def scroll(content: Widget, tid: str = "") -> ScrollView:
    view = ScrollView(do_scroll_x=False, bar_width=dp(8), scroll_type=["bars", "content"], bar_color=theme.MUTED)
    view.tid = tid
    if content.size_hint_y is not None:
        content.size_hint_y = None
        if hasattr(content, "minimum_height"):
            content.bind(minimum_height=content.setter("height"))
    view.add_widget(content)
    return view


def spacer(width: float | None = None, height: float | None = None) -> Widget:
    w = Widget()
    if width is not None:
        w.size_hint_x = None
        w.width = width
    if height is not None:
        w.size_hint_y = None
        w.height = height
    return w


class Stepper(BoxLayout):
    """A number with large − and + buttons (``tid`` + ``.minus`` / ``.plus`` / ``.value``)."""

    def __init__(
        self,
        value: int,
        low: int,
        high: int,
        on_change: Callable[[int], object] | None = None,
        tid: str = "",
        button: float = dp(64),
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("spacing", theme.GAP)
        super().__init__(orientation="horizontal", size_hint=(None, None), height=theme.TOUCH, **kwargs)
        self.value, self.low, self.high, self._on = value, low, high, on_change
        self.minus = Btn("−", self.down, tid=f"{tid}.minus", width=button, size=theme.FONT_TITLE, bold=True)
        self.plus = Btn("+", self.up, tid=f"{tid}.plus", width=button, size=theme.FONT_TITLE, bold=True)
        self.label = Lbl(str(value), size=theme.FONT_TITLE, bold=True, halign="center", tid=f"{tid}.value")
        self.label.size_hint_x = None
        self.label.width = dp(56)
        for w in (self.minus, self.label, self.plus):
            self.add_widget(w)
        self.width = 2 * button + dp(56) + 2 * theme.GAP
        self._sync()

    def _sync(self) -> None:
        self.label.text = str(self.value)
        self.minus.disabled = self.value <= self.low
        self.plus.disabled = self.value >= self.high

    def set(self, value: int) -> None:
        self.value = max(self.low, min(self.high, value))
        self._sync()
        if self._on is not None:
            self._on(self.value)

    def down(self) -> None:
        self.set(self.value - 1)

    def up(self) -> None:
        self.set(self.value + 1)


def choice_id(value: Any) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)


class Choice(GridLayout):
    """One of several options as a row of buttons; the chosen one is highlighted."""

    def __init__(
        self,
        options: Sequence[tuple[Any, str]],
        value: Any,
        on_change: Callable[[Any], object] | None = None,
        tid: str = "",
        cols: int | None = None,
        button_width: float | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("spacing", theme.GAP)
        super().__init__(cols=cols or len(options), size_hint_y=None, **kwargs)
        self.bind(minimum_height=self.setter("height"))
        if button_width is not None:
            self.size_hint_x = None
            self.bind(minimum_width=self.setter("width"))
        self.options, self.value, self._on, self.tid = list(options), value, on_change, tid
        self._build(button_width)

    def _build(self, button_width: float | None = None) -> None:
        self.clear_widgets()
        for value, label in self.options:
            self.add_widget(
                Btn(
                    label,
                    partial(self.choose, value),
                    tid=f"{self.tid}.{choice_id(value)}",
                    selected=value == self.value,
                    width=button_width,
                )
            )

    def choose(self, value: Any) -> None:
        self.value = value
        width = self.children[0].width if self.size_hint_x is None and self.children else None
        self._build(width)
        if self._on is not None:
            self._on(value)


class Dialog(ModalView):
    """A modal question with big buttons; always answerable with a tap."""

    def __init__(self, title: str, body: Widget | None = None, width: float = dp(560), **kwargs: Any) -> None:
        super().__init__(size_hint=(None, None), width=width, auto_dismiss=False, **kwargs)
        self.background = ""
        self.background_color = (0, 0, 0, 0)
        self.overlay_color = (0, 0, 0, 0.7)
        self.box = Panel(orientation="vertical", colour=theme.PANEL_HI, padding=dp(14), spacing=dp(10))
        self.box.add_widget(Lbl(title, size=theme.FONT_BIG, bold=True, wrap=True))
        if body is not None:
            self.box.add_widget(body)
        self.buttons = hbox(size_hint_y=None, height=theme.TOUCH)
        self.box.add_widget(self.buttons)
        self.default: Callable[[], object] | None = None  # what the box's "confirm" button does
        self.add_widget(self.box)
        self.box.bind(minimum_height=lambda *_: setattr(self, "height", self.box.minimum_height))

    def add_button(self, btn: Btn) -> None:
        self.buttons.add_widget(btn)


def confirm(
    message: str,
    yes: str,
    no: str,
    on_yes: Callable[[], object],
    danger: bool = True,
    detail: str = "",
) -> Dialog:
    """Ask before anything destructive. Buttons: ``confirm.no`` and ``confirm.yes``."""
    body = Lbl(detail, colour=theme.MUTED, wrap=True) if detail else None
    dialog = Dialog(message, body)

    def answer(ok: bool) -> None:
        dialog.dismiss()
        if ok:
            on_yes()

    dialog.default = lambda: answer(True)
    dialog.add_button(Btn(no, lambda: answer(False), tid="confirm.no"))
    dialog.add_button(Btn(yes, lambda: answer(True), tid="confirm.yes", colour=theme.DANGER if danger else theme.GOOD))
    dialog.open()
    return dialog


class Toast(Label):
    """The one line at the bottom that tells what just happened or why something was refused."""

    tid = StringProperty("toast")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            text="",
            font_size=theme.FONT,
            color=theme.TEXT,
            halign="center",
            valign="middle",
            size_hint=(None, None),
            opacity=0,
            **kwargs,
        )
        self.kind = ""
        self._hide: Any = None
        with self.canvas.before:
            self._colour = Color(*theme.DANGER)
            self._rect = RoundedRectangle(pos=self.pos, size=self.size, radius=[dp(10)])
        self.bind(pos=self._redraw, size=self._redraw)

    def _redraw(self, *_: Any) -> None:
        self._rect.pos = self.pos
        self._rect.size = self.size

    def show(self, message: str, kind: str = "error", seconds: float = 5.0) -> None:
        parent = self.parent
        width = (parent.width if parent else dp(800)) - dp(40)
        self.text_size = (width - dp(24), None)
        self.text, self.markup = drawable(message)
        self.kind = kind
        self.texture_update()
        self.size = (width, max(theme.TOUCH, self.texture_size[1] + dp(20)))
        if parent is not None:
            self.pos = (parent.x + dp(20), parent.y + dp(16))
        self._colour.rgba = {"error": theme.DANGER, "info": theme.ACCENT, "good": theme.GOOD}.get(kind, theme.ACCENT)
        Animation.cancel_all(self)
        self.opacity = 1
        if self._hide is not None:
            self._hide.cancel()
        self._hide = Clock.schedule_once(lambda *_: self.hide(), seconds)

    def hide(self) -> None:
        self.text = ""
        self.kind = ""
        Animation(opacity=0, d=0.2).start(self)

    def on_touch_down(self, touch: Any) -> bool:
        """The next touch anywhere puts the message away; the touch itself goes through."""
        if self.opacity > 0 and self.text:
            self.hide()
        return False


# -- widgets as parts of a screen (ui.parts), changed in place -----------------------------------------
# A label or button whose text, colour or boldness changed is given them (about a tenth of what making
# it costs: a Kivy widget applies its class rules and builds its canvas when made); any other change of
# its looks makes it again.

Style = tuple[tuple[str, Any], ...]
LIVE = ("text_colour", "colour", "bold")  # what a kept label or button is given in place


def style_of(style: dict[str, Any]) -> Style:
    return tuple(sorted(style.items()))


def _fixed(style: Style) -> Style:
    return tuple(item for item in style if item[0] not in LIVE)


def text_part(name: str, text: str, **style: Any) -> Part:
    """A :class:`Lbl` (``style``: its arguments) as a part that a new text, colour or boldness
    changes in place. In the large-text mode it is made again: a crowded panel may have given the
    label back its normal size, which a new text may not need."""
    return Part(name, _label, text, style_of(style), update=_relabel)


def _label(text: str, style: Style) -> Lbl:
    label = Lbl(text, **dict(style))
    label.part_style = style
    return label


def _relabel(label: Widget, text: str, style: Style) -> bool:
    if not isinstance(label, Lbl) or theme.large_text() or _fixed(label.part_style) != _fixed(style):
        return False
    looks = dict(style)
    label.show(text, looks.get("colour", theme.TEXT), looks.get("bold", False))
    label.part_style = style
    return True


def button_part(name: str, text: str, on: Callable[[], object] | None, **style: Any) -> Part:
    """A :class:`Btn` (``style``: its arguments but ``on``) as a part that a new text, colour,
    boldness or action changes in place. ``on`` is compared with ``==``: a bound method or an
    action that compares by value (:class:`ui.games.base.Sends`, which
    :meth:`~ui.games.base.TableView.action_part` uses) keeps the button untouched while it is
    unchanged; a :func:`functools.partial` or a lambda never compares equal, so the button is given
    it again at every draw (cheap, but not untouched)."""
    return Part(name, _button, text, on, style_of(style), update=_rebutton)


def _button(text: str, on: Callable[[], object] | None, style: Style) -> Btn:
    button = Btn(text, on, **dict(style))
    button.part_style = style
    return button


def _rebutton(button: Widget, text: str, on: Callable[[], object] | None, style: Style) -> bool:
    # a button held down keeps what it meant when the finger came down: a new one takes its place
    if not isinstance(button, Btn) or button.state == "down" or _fixed(button.part_style) != _fixed(style):
        return False
    looks = dict(style)
    button.show(
        text, on, looks.get("colour", theme.BUTTON), looks.get("text_colour", theme.TEXT), looks.get("bold", False)
    )
    button.part_style = style
    return True


def chip_part(name: str, text: str, colour: RGBA, opacity: float = 1.0, **style: Any) -> Part:
    """A :class:`Chip` as a part that a new text (unless it has a ``short`` form), colour,
    boldness or opacity (a stack's agent being resolved, then resolved) changes in place."""
    return Part(name, _chip, text, colour, opacity, style_of(style), update=_rechip)


def _chip(text: str, colour: RGBA, opacity: float, style: Style) -> Chip:
    looks = dict(style)
    tid = looks.pop("tid", "")
    chip = Chip(text, colour, **looks)
    chip.opacity, chip.tid, chip.part_style = opacity, tid, (text, style)
    return chip


def _rechip(chip: Widget, text: str, colour: RGBA, opacity: float, style: Style) -> bool:
    if not isinstance(chip, Chip) or theme.large_text():
        return False
    was_text, was = chip.part_style
    looks = dict(style)
    if _fixed(was) != _fixed(style) or (text != was_text and looks.get("short")):
        return False
    if text != was_text:
        shown, chip.markup = drawable(text, bool(looks.get("markup")))
        chip.text = shown
    chip._bg_colour.rgba = colour
    chip.color, chip.bold, chip.opacity = looks.get("text_colour", theme.TEXT), looks.get("bold", False), opacity
    chip.part_style = (text, style)
    return True
