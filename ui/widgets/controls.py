"""What a player sets with a finger: a typed name (:class:`NameInput`), a number with − and +
(:class:`Stepper`) and one of several options (:class:`Choice`, its buttons' ids from
:func:`choice_id`).

Imports Kivy, :mod:`ui.theme` and the kit's labels and buttons (:mod:`ui.widgets.basic`) only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.textinput import TextInput

from ui import theme
from ui.widgets.basic import Btn, Lbl


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
