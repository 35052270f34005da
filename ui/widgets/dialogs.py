"""What asks or tells over the screen: a modal :class:`Dialog` with big buttons, :func:`confirm`
before anything destructive, and the :class:`Toast` at the bottom that tells what just happened
or why something was refused.

Imports Kivy, :mod:`ui.theme`, the kit's labels, buttons and panels (:mod:`ui.widgets.basic`), rows
(:mod:`ui.widgets.layout`) and :func:`ui.widgets.text.drawable` only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics import Color, RoundedRectangle
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from ui import theme
from ui.widgets.basic import Btn, Lbl, Panel
from ui.widgets.layout import hbox
from ui.widgets.text import drawable


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
        self.over_dialogs()
        parent = self.parent
        width = (parent.width if parent else dp(800)) - dp(40)
        self.text_size = (width - dp(24), None)
        self.text, self.markup = drawable(message)
        self.kind = kind
        self.texture_update()
        self.size = (width, max(theme.TOUCH, self.texture_size[1] + dp(20)))
        if parent is not None:
            self.pos = (dp(20), dp(16)) if parent is Window else (parent.x + dp(20), parent.y + dp(16))
        self._colour.rgba = {"error": theme.DANGER, "info": theme.ACCENT, "good": theme.GOOD}.get(kind, theme.ACCENT)
        Animation.cancel_all(self)
        self.opacity = 1
        if self._hide is not None:
            self._hide.cancel()
        self._hide = Clock.schedule_once(lambda *_: self.hide(), seconds)

    def over_dialogs(self) -> None:
        """Drawn over whatever the window shows now: a refusal inside an open dialog is read above
        the dialog's dim layer, not under it (the window draws its last child last)."""
        parent = self.parent
        top = Window.children[0] if Window.children else None
        if parent is None or not isinstance(top, ModalView):
            return  # already drawn last, or no dialog over the screen
        parent.remove_widget(self)
        Window.add_widget(self)

    def hide(self) -> None:
        self.text = ""
        self.kind = ""
        Animation(opacity=0, d=0.2).start(self)

    def on_touch_down(self, touch: Any) -> bool:
        """The next touch anywhere puts the message away; the touch itself goes through."""
        if self.opacity > 0 and self.text:
            self.hide()
        return False
