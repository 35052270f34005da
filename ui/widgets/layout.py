"""Arranging widgets: rows and columns (:func:`hbox`, :func:`vbox`), layouts as high as their
children need (:func:`fit_height`, :func:`autogrid`, :func:`flow`), a vertical scroll view
(:func:`scroll`) and empty room (:func:`spacer`).

Imports Kivy and :mod:`ui.theme` only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.stacklayout import StackLayout
from kivy.uix.widget import Widget

from ui import theme


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
