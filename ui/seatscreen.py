"""Linking phones: per seat a QR code shown only on request and hidden again as soon as a phone
has claimed the seat (a detective must not photograph Mister X's code); release with confirmation
issues a new link; an optional Wi-Fi QR code joins the Pi's hotspot."""

from __future__ import annotations

import io
from collections.abc import Collection
from functools import partial
from typing import Any

from kivy.core.image import Image as CoreImage
from kivy.metrics import dp
from kivy.uix.image import Image
from kivy.uix.widget import Widget

from companion.app.seats import TABLE_SEAT, SeatLink
from ui import theme
from ui.page import Page
from ui.widgets import Btn, Lbl, Panel, confirm, fit_height, hbox, scroll, vbox


def link_lines(url: str) -> str:
    """A link on two lines, the address and then its last part (a token is one long word: as one
    line with the address it does not fit beside the QR code)."""
    head, _, tail = url.rpartition("/")
    return f"{head}/\n{tail}" if head.count("/") > 2 and tail else url


class SeatsScreen(Page):
    name = "seats"
    back_to = "game"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.links: list[SeatLink] = []
        self.showing: str | None = None  # the seat whose QR code is on screen ("@wifi" for the hotspot)
        self.qr_texture: Any = None
        self.qr_caption = ""
        self.qr_url = ""
        self.qr_code = ""  # the seat's room code, shown under its QR code
        self.wanted: str | None = None  # the seat whose code to show as soon as the links are read

    def open_for(self, seat: str) -> None:
        """One tap from a table screen: the Phones screen with this seat's QR code on it."""
        self.wanted = seat
        self.app.go("seats")

    def title(self) -> str:
        return self.t("ui.seats.title")

    def on_pre_enter(self, *args: Any) -> None:
        self.showing = None
        self.refresh()

    def on_leave(self, *args: Any) -> None:
        self.hide()

    def refresh(self) -> None:
        super().refresh()
        if self.ctl.game_id is not None:
            self.app.run(self.ctl.seat_links(), self._links)

    def _links(self, links: list[SeatLink]) -> None:
        self.links = links
        self.body.clear_widgets()
        self.body.add_widget(self.build_body())
        wanted, self.wanted = self.wanted, None
        if wanted is not None:
            self.show(wanted)  # a free seat's code; a claimed seat shows as joined, with Release

    def update_from_message(self) -> None:
        """Seat names may change with the game (e.g. a new game was opened)."""
        if self.links and self.links[0].game_id != self.ctl.game_id:
            self.showing = None
            self.refresh()

    def build(self) -> Widget | None:
        return self.build_body()

    def seat_label(self, seat: str) -> str:
        view = self.app.pages["game"].view
        return view.seat_label(seat) if view is not None else seat

    def build_body(self) -> Widget:
        connected = self.ctl.connected()
        rows = fit_height(vbox(spacing=dp(6), padding=(0, 0, dp(10), 0)))
        for link in self.links:
            rows.add_widget(self.seat_row(link, connected))
        if self.ctl.wifi() is not None:
            rows.add_widget(Btn(self.t("ui.seats.wifi"), self.show_wifi, tid="seats.wifi"))
        if self.ctl.host is not None and self.ctl.phones.server:
            rows.add_widget(Btn(self.t("ui.seats.host"), self.show_host, tid="seats.host"))
        if not self.ctl.phones.port:  # none listening (a server starting has its port already)
            rows.add_widget(
                Lbl(self.t("ui.seats.no_server", problem=self.ctl.phones.problem), colour=theme.DANGER, wrap=True)
            )
        left = scroll(rows, tid="seats.list")
        left.size_hint_x = None
        left.width = dp(380)
        return hbox(left, self.qr_panel())

    def seat_row(self, link: SeatLink, connected: Collection[str]) -> Widget:
        """A seat: its name, whether a phone holds it, and Show / Hide (its code) or Release."""
        if link.claimed:
            state = self.t("ui.seats.connected") if link.seat in connected else self.t("ui.seats.joined")
            colour = theme.GOOD
        else:
            state, colour = self.t("ui.seats.free"), theme.MUTED
        info = vbox(
            Lbl(self.seat_label(link.seat), bold=True, one_line=True),
            Lbl(state, colour=colour, size=theme.FONT_SMALL, one_line=True),
            spacing=0,
        )
        row = Panel(
            info,
            orientation="horizontal",
            size_hint_y=None,
            height=dp(68),
            border=theme.ACCENT if self.showing == link.seat else None,
        )
        if link.claimed:
            release = partial(self.release, link.seat)
            row.add_widget(
                Btn(
                    self.t("ui.seats.release"),
                    release,
                    tid=f"seats.release.{link.seat}",
                    colour=theme.DANGER,
                    width=dp(120),
                )
            )
        elif self.showing == link.seat:
            row.add_widget(Btn(self.t("ui.seats.hide"), self.hide, tid=f"seats.hide.{link.seat}", width=dp(120)))
        else:
            row.add_widget(
                Btn(
                    self.t("ui.seats.show"),
                    partial(self.show, link.seat),
                    tid=f"seats.show.{link.seat}",
                    colour=theme.ACCENT,
                    width=dp(120),
                )
            )
        return row

    def qr_panel(self) -> Widget:
        if self.showing is not None and self.showing != "@wifi" and self.ctl.phones.address is None:
            return Panel(
                Lbl(self.t("ui.seats.no_network"), colour=theme.DANGER, wrap=True, tid="seats.no_network"),
                Widget(),
                orientation="vertical",
            )
        if self.showing is None or self.qr_texture is None:
            return Panel(
                Lbl(self.t("ui.seats.explain"), colour=theme.MUTED, wrap=True), Widget(), orientation="vertical"
            )
        image = Image(texture=self.qr_texture, fit_mode="contain")
        image.tid = "seats.qr"
        caption = Lbl(
            self.qr_caption,
            bold=True,
            halign="center",
            size_hint_y=None,
            height=dp(28),
            one_line=True,
            colour=theme.rgb("#111111"),
            tid="seats.qr.caption",
        )
        url = Lbl(  # whole, to be typed where no camera scans (a laptop): the address, then the token
            link_lines(self.qr_url),
            size=theme.FONT_SMALL,
            colour=theme.rgb("#555555"),
            halign="center",
            wrap=True,
            tid="seats.qr.url",
        )
        parts: list[Widget] = [caption, image, url]
        if self.qr_code:  # or type the code on the landing page, when a camera will not scan
            parts.append(
                Lbl(
                    self.t("ui.seats.code", room=self.qr_code, address=self.ctl.landing_url() or ""),
                    bold=True,
                    halign="center",
                    size_hint_y=None,
                    height=dp(30),
                    one_line=True,
                    colour=theme.rgb("#111111"),
                    tid="seats.qr.code",
                )
            )
        return Panel(*parts, orientation="vertical", colour=theme.rgb("#ffffff"), padding=dp(6), spacing=dp(2))

    def _show_png(self, png: bytes, caption: str, url: str, code: str = "") -> None:
        texture = CoreImage(io.BytesIO(png), ext="png").texture
        texture.mag_filter = "nearest"
        texture.min_filter = "nearest"
        self.qr_texture, self.qr_caption, self.qr_url, self.qr_code = texture, caption, url, code
        self.body.clear_widgets()
        self.body.add_widget(self.build_body())

    def show(self, seat: str) -> None:
        link = next((lk for lk in self.links if lk.seat == seat), None)
        if link is None or link.claimed:
            return
        url = self.ctl.link_url(link.token)  # the address of the network now
        self.showing = seat
        if url is None:  # no network yet: no code a phone could use
            self.qr_texture, self.qr_url, self.qr_code = None, "", ""
            self.body.clear_widgets()
            self.body.add_widget(self.build_body())
            return
        caption = self.t("ui.seats.scan", seat=self.seat_label(seat))
        code = self.ctl.room_code(seat)
        self.app.run(
            self.ctl.qr(url), lambda png: self._show_png(png, caption, url, code) if self.showing == seat else None
        )

    def network_changed(self) -> None:
        """The address changed: a seat's code on screen is drawn again with the new one (or gives
        way to "no network yet"); the host page's code likewise."""
        if self.showing is None or self.showing == "@wifi":
            return
        if self.showing == "@host":
            self.show_host()
        else:
            self.show(self.showing)

    def show_wifi(self) -> None:
        payload = self.ctl.wifi()
        if payload is None:
            return
        self.showing = "@wifi"
        caption = self.t("ui.seats.wifi_scan", ssid=self.ctl.config.hotspot_ssid)
        self.app.run(self.ctl.qr(payload), lambda png: self._show_png(png, caption, self.ctl.config.hotspot_ssid))

    def show_host(self) -> None:
        """The host page's link: run the table from a phone or tablet too (keep it to yourself)."""
        self.showing = "@host"
        caption = self.t("ui.seats.host_scan")

        async def make() -> tuple[str, bytes]:
            url = await self.ctl.host_url() or ""
            return url, await self.ctl.qr(url)

        def shown(made: tuple[str, bytes]) -> None:
            if self.showing == "@host":
                self._show_png(made[1], caption, made[0])

        self.app.run(make(), shown)

    def hide(self) -> None:
        self.showing = None
        self.qr_texture = None
        if self.links:
            self.body.clear_widgets()
            self.body.add_widget(self.build_body())

    def claimed(self, game_id: int, seat: str) -> None:
        """A phone joined: hide that seat's code at once and show the seat as joined."""
        if game_id != self.ctl.game_id:
            return
        if self.showing == seat:
            self.showing = None
            self.qr_texture = None
        if self.manager is not None and self.manager.current == self.name:
            self.refresh()
            if seat == TABLE_SEAT:  # the public table screen, opened from the host page: no seat's name
                words = self.t("ui.seats.table_now")
            else:
                words = self.t("ui.seats.joined_now", seat=self.seat_label(seat))
            self.app.toast.show(words, "good", 3.0)

    def release(self, seat: str) -> None:
        confirm(
            self.t("ui.seats.release_confirm", seat=self.seat_label(seat)),
            self.t("ui.seats.release_yes"),
            self.t("ui.cancel"),
            lambda: self.app.run(self.ctl.release(seat), lambda _: self.refresh()),
            detail=self.t("ui.seats.release_detail"),
        )
