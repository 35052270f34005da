"""The table screen of the current game and its end screen.

The header always offers the way home, the phones (seat links), the game's table options and —
only while the snapshot says ``can_undo`` — undo with confirmation.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games import game_ui
from ui.games.base import TableView
from ui.historyscreen import qr_widget
from ui.page import Page
from ui.parts import Part, forget, sync
from ui.widgets import Btn, Dialog, Lbl, text_part, vbox


class GameScreen(Page):
    name = "game"
    back_to = "start"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.view: TableView | None = None
        self.msg: JSONObject = {}

    # -- the snapshot ------------------------------------------------------------------------------
    def show(self, msg: JSONObject) -> None:
        """Draw a new snapshot: a new game gets a new table view; the same game's view draws only
        what changed (see :mod:`ui.parts`)."""
        if self.view is None or self.view.game != msg.get("game") or self.msg.get("game_id") != msg.get("game_id"):
            self.view = game_ui(str(msg.get("game"))).TableView(self.app)
            self.body.clear_widgets()
            self.body.add_widget(self.view)
        self.msg = msg
        self.view.render(msg)
        self.build_header()

    def clear(self) -> None:
        self.view = None
        self.msg = {}
        self.body.clear_widgets()

    def refresh(self) -> None:
        """Everything drawn anew (the language changed)."""
        forget(self.header)
        if self.view is not None:
            self.view.forget()
        self.update()

    def update(self) -> None:
        """Drawn again from the snapshot it shows: only what changed (the phones linked, say)."""
        if self.msg:
            self.show(self.msg)
        else:
            self.build_header()

    def on_pre_enter(self, *args: Any) -> None:
        self.update()

    def _view_for(self, msg: JSONObject) -> TableView:
        if self.view is not None and self.view.game == msg.get("game"):
            return self.view
        view: TableView = game_ui(str(msg.get("game"))).TableView(self.app)
        return view

    def over(self, msg: JSONObject) -> bool:
        return msg.get("type") == "state" and self._view_for(msg).over(msg)

    def announcement(self, msg: JSONObject) -> str:
        return self._view_for(msg).announcement(msg)

    def status_line(self, msg: JSONObject) -> str:
        return self._view_for(msg).status(msg)

    # -- header ------------------------------------------------------------------------------------
    def title(self) -> str:
        return self.status_line(self.msg) if self.msg else ""

    def build_header(self) -> None:
        """Home, the status line, Undo (while the snapshot says ``can_undo``), Options (while the
        game offers any) and Phones; each kept while it reads the same."""
        options = [(label, tid) for label, _, tid in self.view.options()] if self.view is not None else []
        parts = [
            Part("home", self.header_button, self.t("ui.home"), self.go_home, "game.home", dp(104)),
            status_part(self.title()),
        ]
        if self.msg.get("can_undo") is True:
            parts.append(Part("undo", self.undo_button, self.t("ui.undo")))
        if options:
            parts.append(
                Part("options", self.header_button, self.t("ui.options"), self.open_options, "game.options", dp(104))
            )
        parts.append(Part("seats", self.header_button, self.t("ui.phones"), self.go_seats, "game.seats", dp(104)))
        sync(self.header, parts)

    def go_home(self) -> None:
        self.app.go("start")

    def go_seats(self) -> None:
        self.app.go("seats")

    def undo_button(self, label: str) -> Widget:
        return self.header_button(
            label, self.app.undo, "game.undo", width=dp(96), colour=theme.WARN, text_colour=theme.rgb("#111111")
        )

    def open_options(self) -> None:
        if self.view is None:
            return
        box = vbox(size_hint_y=None)
        dialog = Dialog(self.t("ui.options.title"), box)
        for label, action, tid in self.view.options():

            def chosen(a: Any = action) -> None:
                dialog.dismiss()
                a()

            box.add_widget(Btn(label, chosen, tid=tid))
        box.height = len(self.view.options()) * (theme.TOUCH + theme.GAP)
        dialog.add_button(Btn(self.t("ui.close"), dialog.dismiss, tid="options.close"))
        dialog.open()


def status_part(title: str) -> Part:
    """The status line (whose turn it is: new words on nearly every action, given in place)."""
    return text_part(
        "status", title, size=theme.FONT_BIG, bold=True, fit=theme.FONT_SMALL, padding=(dp(8), 0), tid="game.status"
    )


class EndScreen(Page):
    name = "end"
    back_to = None

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.msg: JSONObject = {}
        self.bgstats: tuple[tuple[int, int], bytes] | None = None  # (game, seq) -> its BG Stats QR code
        self.big = False  # the BG Stats code shown (over the whole body) instead of the result

    def show(self, msg: JSONObject) -> None:
        if msg.get("game_id") != self.msg.get("game_id"):
            self.big = False
        self.msg = msg
        key = (int(str(msg.get("game_id", 0))), int(str(msg.get("seq", 0))))
        if self.app.pages["game"].over(msg) and (self.bgstats is None or self.bgstats[0] != key):
            self.app.run(self.ctl.bgstats(key[0]), lambda made: self._bgstats(key, made[1]))
        if self.manager is not None and self.manager.current == self.name:
            self.refresh()

    def _bgstats(self, key: tuple[int, int], png: bytes) -> None:
        self.bgstats = (key, png)
        if self.manager is not None and self.manager.current == self.name:
            self.refresh()

    def title(self) -> str:
        # Just "Game over": beside Home, Undo, BG Stats and the board there is no room for a game's
        # title in every language (the saved games list shows the titles).
        return self.t("ui.end.title")

    def build_header(self) -> None:
        self.header.clear_widgets()
        self.header.add_widget(
            self.header_button(self.t("ui.home"), lambda: self.app.go("start"), "end.home", width=dp(104))
        )
        self.header.add_widget(
            Lbl(self.title(), size=theme.FONT_BIG, bold=True, fit=theme.FONT_SMALL, padding=(dp(8), 0))
        )
        if self.msg.get("can_undo") is True:
            self.header.add_widget(
                self.header_button(
                    self.t("ui.undo"),
                    self.app.undo,
                    "end.undo",
                    width=dp(96),
                    colour=theme.WARN,
                    text_colour=theme.rgb("#111111"),
                )
            )
        if self.bgstats is not None:
            label = self.t("ui.end.result") if self.big else self.t("ui.end.bgstats_button")
            colour = theme.BUTTON if self.big else theme.ACCENT
            self.header.add_widget(
                self.header_button(label, self.toggle_big, "end.bgstats_toggle", width=dp(120), colour=colour)
            )
        self.header.add_widget(
            self.header_button(self.t("ui.end.board"), lambda: self.app.go("game"), "end.board", width=dp(150))
        )

    def toggle_big(self) -> None:
        self.big = not self.big
        self.refresh()

    def build(self) -> Widget | None:
        if not self.msg:
            return Widget()
        view = self.app.pages["game"]._view_for(self.msg)
        view.msg = self.msg
        body = view.end_body(self.msg)
        key = (int(str(self.msg.get("game_id", 0))), int(str(self.msg.get("seq", 0))))
        if self.bgstats is None or self.bgstats[0] != key:
            return body
        # The play for the score app, over the whole body (a code beside the result would be too small
        # to scan off the screen, and would squeeze each game's end screen).
        return qr_widget(self.bgstats[1], self.t("ui.end.bgstats"), "end.bgstats") if self.big else body
