"""The play history: every finished game (date, duration, result, players with scores and winners),
each with its BG Stats QR code on request, as on the end screen."""

from __future__ import annotations

import io
from functools import partial
from typing import Any

from kivy.core.image import Image as CoreImage
from kivy.metrics import dp
from kivy.uix.image import Image
from kivy.uix.widget import Widget

from companion.app.history import PAGE, Play, local_time
from ui import theme
from ui.page import Page
from ui.widgets import Btn, Lbl, Panel, fit_height, hbox, scroll, vbox


def qr_widget(png: bytes, caption: str, tid: str) -> Widget:
    """A QR code on white with a caption, drawn pixel-sharp (shared with the end screen)."""
    texture = CoreImage(io.BytesIO(png), ext="png").texture
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    image = Image(texture=texture, fit_mode="contain")
    image.tid = tid
    label = Lbl(
        caption,
        bold=True,
        halign="center",
        size_hint_y=None,
        height=dp(44),
        wrap=True,
        size=theme.FONT_SMALL,
        colour=theme.rgb("#111111"),
    )
    return Panel(label, image, orientation="vertical", colour=theme.rgb("#ffffff"), padding=dp(6), spacing=dp(2))


def players_line(play: Play, won: str) -> str:
    out = []
    for p in play.players:
        score = "" if p.score is None else f" {p.score}"
        out.append(f"{p.label}{score}{f' ({won})' if p.winner else ''}")
    return ", ".join(out)


class HistoryScreen(Page):
    name = "history"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.plays: list[Play] = []
        self.page = 0  # every finished game is on one of the pages, the latest first
        self.total = 0
        self.showing: int | None = None
        self.png: bytes | None = None

    def title(self) -> str:
        return self.t("ui.history.title")

    def on_pre_enter(self, *args: Any) -> None:
        self.showing, self.png, self.page = None, None, 0
        self.refresh()

    def refresh(self) -> None:
        super().refresh()
        self.app.run(self.ctl.plays_page(self.page), self._plays)

    def _plays(self, found: tuple[list[Play], int]) -> None:
        self.plays, self.total = found
        self.body.clear_widgets()
        self.body.add_widget(self.build_body())

    def turn_page(self, step: int) -> None:
        self.page = max(0, self.page + step)
        self.showing, self.png = None, None
        self.refresh()

    def pager(self) -> Widget | None:
        """Newer and older plays, when there are more than one page holds."""
        pages = -(-self.total // PAGE)
        if pages <= 1:
            return None
        newer = Btn(self.t("ui.history.newer"), partial(self.turn_page, -1), tid="history.newer", width=dp(150))
        older = Btn(self.t("ui.history.older"), partial(self.turn_page, 1), tid="history.older", width=dp(150))
        newer.disabled, older.disabled = self.page <= 0, self.page >= pages - 1
        at = Lbl(
            self.t("ui.history.page", page=self.page + 1, pages=pages, total=self.total),
            colour=theme.MUTED,
            halign="center",
            tid="history.page",
        )
        return hbox(newer, at, older, size_hint_y=None, height=theme.TOUCH)

    def build(self) -> Widget | None:
        return self.build_body()

    def build_body(self) -> Widget:
        rows = fit_height(vbox(spacing=dp(6), padding=(0, 0, dp(10), 0)))
        if not self.plays:
            rows.add_widget(Lbl(self.t("ui.history.none"), colour=theme.MUTED, wrap=True))
        for play in self.plays:
            info = vbox(
                Lbl(play.heading, bold=True, one_line=True),
                Lbl(
                    self.t("ui.history.line", when=local_time(play.started), minutes=play.minutes, how=play.how),
                    colour=theme.MUTED,
                    size=theme.FONT_SMALL,
                    one_line=True,
                ),
                Lbl(players_line(play, self.t("ui.history.won")), size=theme.FONT_SMALL, one_line=True),
                spacing=0,
            )
            rows.add_widget(
                Panel(
                    info,
                    Btn(
                        self.t("ui.history.bgstats"),
                        partial(self.show, play.game_id),
                        tid=f"history.bgstats.{play.game_id}",
                        selected=self.showing == play.game_id,
                        width=dp(120),
                    ),
                    orientation="horizontal",
                    size_hint_y=None,
                    height=dp(86),
                )
            )
        pager = self.pager()
        if pager is not None:
            rows.add_widget(pager)
        left = scroll(rows, tid="history.list")
        if self.showing is None or self.png is None:
            return left
        left.size_hint_x = None
        left.width = dp(420)
        return hbox(left, qr_widget(self.png, self.t("ui.end.bgstats"), "history.qr"))

    def show(self, game_id: int) -> None:
        self.showing = game_id

        def shown(made: tuple[str, bytes]) -> None:
            if self.showing == game_id:
                self.png = made[1]
                self.body.clear_widgets()
                self.body.add_widget(self.build_body())

        self.app.run(self.ctl.bgstats(game_id), shown)
