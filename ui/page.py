"""The frame of every screen: a header bar (back, title, actions) above a body that is rebuilt
from current data whenever the screen is shown or the language changes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON
from ui import theme
from ui.widgets import Btn, Lbl, Panel

if TYPE_CHECKING:
    from ui.shell import CompanionApp


class Page(Screen):
    back_to: str | None = "start"

    def __init__(self, app: CompanionApp, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.app = app
        self.ctl = app.ctl
        self.frame = BoxLayout(orientation="vertical", padding=(dp(6), dp(4), dp(6), dp(6)), spacing=dp(6))
        self.header = Panel(orientation="horizontal", size_hint_y=None, height=theme.HEADER, padding=(dp(4), dp(2)))
        self.body = BoxLayout(orientation="vertical")
        self.frame.add_widget(self.header)
        self.frame.add_widget(self.body)
        self.add_widget(self.frame)

    def t(self, code: str, **params: JSON) -> str:
        return self.ctl.t(code, **params)

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    # -- to override ------------------------------------------------------------------------------
    def title(self) -> str:
        return str(self.name)

    def actions(self) -> list[Widget]:
        return []

    def build(self) -> Widget | None:
        return None

    # -- building ----------------------------------------------------------------------------------
    def refresh(self) -> None:
        self.build_header()
        body = self.build()
        if body is not None:
            self.body.clear_widgets()
            self.body.add_widget(body)

    def build_header(self) -> None:
        self.header.clear_widgets()
        if self.back_to is not None:
            target = self.back_to
            self.header.add_widget(
                Btn(
                    "‹ " + self.t("ui.back"),
                    lambda: self.app.go(target),
                    tid=f"{self.name}.back",
                    width=dp(110),
                    height=theme.HEADER - dp(6),
                    size=theme.FONT,
                )
            )
        self.header.add_widget(
            Lbl(self.title(), size=theme.FONT_BIG, bold=True, fit=theme.FONT_SMALL, padding=(dp(8), 0))
        )
        for action in self.actions():
            self.header.add_widget(action)

    def header_button(self, text: str, on: Any, tid: str, width: float = dp(120), **kwargs: Any) -> Btn:
        return Btn(text, on, tid=tid, width=width, height=theme.HEADER - dp(6), **kwargs)
