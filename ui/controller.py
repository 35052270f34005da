"""What the touchscreen does, without any Kivy: the table, phones, preferences and words.

Screens call these coroutines on the one event loop; nothing here changes game state except by
submitting intents to the table (as :data:`~companion.core.audience.TABLE`), so the touchscreen is
just one more input with the same rules as a phone or a button.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from companion.app.config import Config
from companion.app.i18n import LANGUAGES, text
from companion.app.names import refusal_text
from companion.app.preferences import PREF_LANGUAGE
from companion.app.qr import base_url, lan_address, qr_png, seat_url
from companion.app.seats import SeatLink, SeatLinks, wifi_payload
from companion.app.store import GameHeader, Store
from companion.app.table import Ack, Table
from companion.core.audience import TABLE
from companion.core.errors import CompanionError
from companion.core.jsonvalue import JSON, JSONObject

if TYPE_CHECKING:  # loaded when first used: the start screen needs none of them
    from companion.app.history import History, Play
    from companion.app.roomcodes import RoomCodes
    from companion.app.speech import Announcer

log = logging.getLogger(__name__)
UI_TEXTS = ("ui", "hardware")  # the touchscreen's own, and the words of the box's buttons and readers

# The table's own preference key (each game's are in its package: ``companion.games.preferences``).
__all__ = ["PREF_LANGUAGE", "PREF_LARGE_TEXT", "Controller", "Phones"]
PREF_LARGE_TEXT = "ui.large_text"  # every text larger (Settings), for reading from across the table


class PhoneService(Protocol):
    """What the touchscreen uses of the phone server (``companion.net.server.PhoneServer``; the entry
    point, ``ui/app.py``, starts it and hands it over, so the touchscreen imports no other front end)."""

    async def release(self, game_id: int, seat: str) -> str: ...

    def connected_seats(self) -> set[tuple[int, str]]: ...

    def on_claim(self, callback: Callable[[int, str], None]) -> None: ...

    def on_leave(self, callback: Callable[[int, str], None]) -> None: ...


class HostService(Protocol):
    """What the touchscreen uses of the host page (``companion.net.host.Host``, handed over the same way)."""

    codes: RoomCodes
    history: History

    def url(self) -> str: ...

    def bgstats_url(self, game_id: int, started: str) -> str: ...


@dataclass
class Phones:
    """The phone server as the touchscreen sees it: ``port`` 0 when nothing listens (``problem``
    says why); ``server`` None until it serves (it starts right after the first frame).
    ``address`` is read anew each time (the configured one, else this machine's LAN address; None
    while there is no network), so every code shown carries the address of the network now."""

    server: PhoneService | None
    port: int
    configured: str = ""  # [server] public_address
    problem: str = ""

    @property
    def address(self) -> str | None:
        return lan_address(self.configured)

    def url(self) -> str | None:
        """``http://address:port/``; None without a network or without a listening server."""
        address = self.address
        return base_url(address, self.port) if address and self.port else None


class Controller:
    def __init__(self, config: Config, store: Store, table: Table, links: SeatLinks) -> None:
        self.config = config
        self.store = store
        self.table = table
        self.links = links
        self.prefs: dict[str, JSON] = {}
        self.phones = Phones(None, 0, config.public_address)
        self.language_changed: list[Callable[[], None]] = []
        self.address_changed: list[Callable[[], None]] = []  # the network came, went or changed
        self.health: list[tuple[str, dict[str, JSON]]] = []  # warnings about the Pi (companion.appliance.health)
        self.health_changed: list[Callable[[], None]] = []
        self.health_poke: Callable[[], None] = lambda: None  # read the warnings again now (HealthWatch.poke)

        self.pref_changed: list[Callable[[str], None]] = []  # every preference, by key (e.g. speech)
        self.inputs: Any = None  # hardware.router.Box, when the box's hardware runs
        self.host: HostService | None = None  # the host page and room codes on the phone server (companion.net.host)
        self.hardware_problem = ""
        self.announcer: Announcer | None = None  # the table's voice (companion.app.speech), after the first frame

    async def load(self) -> None:
        self.prefs = await asyncio.to_thread(self.store.preferences)

    # -- words --------------------------------------------------------------------------------
    @property
    def lang(self) -> str:
        chosen = self.prefs.get(PREF_LANGUAGE)
        return chosen if isinstance(chosen, str) and chosen in LANGUAGES else self.config.language

    def t(self, code: str, **params: JSON) -> str:
        return text(code, params, self.lang, UI_TEXTS)

    def error(self, exc: CompanionError) -> str:
        return refusal_text(exc, self.lang, UI_TEXTS, self.table.current)  # ids in words

    def said(self, line: JSON) -> str:
        """A game's words (``{"code", "params"}``, e.g. a snapshot's last action) in the table's language."""
        if not isinstance(line, dict) or not isinstance(line.get("code"), str):
            return ""
        params = line.get("params")
        from companion.app.readable import phrase

        return phrase(str(line["code"]), params if isinstance(params, dict) else {}, self.lang)

    def source_words(self, source: JSON, seat_label: Callable[[str], str]) -> str:
        """Where an action came from, in words ("D2's phone", "this screen"); "" when not known."""
        if not isinstance(source, str) or not source:
            return ""
        kind, _, seat = source.partition(":")
        if kind == "phone" and seat:
            return self.t("ui.source.phone", seat=seat_label(seat))
        if kind in ("touchscreen", "table_link", "input", "cli", "table_player"):
            return self.t(f"ui.source.{kind}")
        return ""

    # -- preferences ----------------------------------------------------------------------------
    def pref(self, key: str, default: JSON = None) -> JSON:
        return self.prefs.get(key, default)

    async def set_pref(self, key: str, value: JSON) -> None:
        await asyncio.to_thread(self.store.set_preference, key, value)
        self.prefs[key] = value
        if key == PREF_LANGUAGE:
            for callback in list(self.language_changed):
                callback()
        for changed in list(self.pref_changed):
            changed(key)

    # -- the game -------------------------------------------------------------------------------
    @property
    def game_id(self) -> int | None:
        return self.table.current.header.id if self.table.current else None

    async def submit(self, intent: JSONObject, seq: int, game_id: int) -> Ack:
        """Send an intent the screen built from ``legal``, against the state (and game) it shows.

        What the hardware knows and the screen must not show is filled in first (a Victorian
        Masterminds agent disc scanned for the next placement)."""
        if self.inputs is not None:
            intent = self.inputs.router.complete_intent(intent)
        return await self.table.submit_json(
            {"seq": seq, "intent": intent}, TABLE, game_id=game_id, source="touchscreen"
        )

    async def new_game(self, rules: str, setup: JSONObject, title: str) -> int:
        return await self.table.new_game(rules, setup, title)

    async def last_setup(self, rules: str) -> JSONObject:
        """The setup keys a game remembers (names, colours) of the latest game of ``rules`` (``{}``
        when there is none): a new game's form starts from who played last."""
        from companion.app.preferences import last_setups
        from companion.games import get_summary

        last = last_setups(await self.table.games()).get(rules, {})
        keys = {k.key for k in get_summary(rules).setup_keys if k.remembered}
        return {k: v for k, v in last.items() if k in keys}

    async def open_game(self, game_id: int) -> None:
        await self.table.open_game(game_id)

    async def close_game(self) -> None:
        await self.table.close_game()

    async def delete_game(self, game_id: int) -> None:
        await self.table.delete_game(game_id)

    async def games(self) -> list[GameHeader]:
        return await self.table.games()

    def seats(self) -> list[str]:
        current = self.table.current
        if current is None:
            return []
        game = current.game
        return list(game.rules.seats(game.state))

    # -- phones -----------------------------------------------------------------------------------
    async def seat_links(self) -> list[SeatLink]:
        game_id, seats = self.game_id, self.seats()
        if game_id is None:
            return []
        return await asyncio.to_thread(self.links.ensure, game_id, seats)

    def link_url(self, token: str) -> str | None:
        """A seat's link with the address of the network now; None while there is none."""
        address = self.phones.address
        return seat_url(address, self.phones.port, token) if address else None

    async def qr(self, payload: str) -> bytes:
        return await asyncio.to_thread(qr_png, payload, 10)

    def wifi(self) -> str | None:
        if not self.config.hotspot_ssid:
            return None
        return wifi_payload(self.config.hotspot_ssid, self.config.hotspot_password)

    def room_code(self, seat: str) -> str:
        """The seat's room code, shown under its QR code ("" without the host part)."""
        game_id = self.game_id
        if self.host is None or game_id is None:
            return ""
        return self.host.codes.issue(game_id, seat).code

    def landing_url(self) -> str | None:
        """Where a room code is typed: the phone server's front page (None without a network)."""
        return self.phones.url()

    def network_changed(self) -> None:
        """The phones' address changed (:class:`companion.app.netwatch.AddressWatch`): redraw what shows it."""
        for callback in list(self.address_changed):
            callback()

    def health_words(self, lang: str | None = None) -> list[str]:
        """The Pi's warnings (overlay file system, under-voltage, throttling) in the table's language."""
        return [text(code, params, lang or self.lang, ("companion.appliance",)) for code, params in self.health]

    def set_health(self, warnings: list[tuple[str, dict[str, JSON]]]) -> None:
        if warnings != self.health:
            self.health = warnings
            for callback in list(self.health_changed):
                callback()

    async def host_url(self) -> str | None:
        return await asyncio.to_thread(self.host.url) if self.host is not None else None

    async def plays_page(self, page: int) -> tuple[list[Play], int]:
        """One page of the finished games (the latest first), and how many there are."""
        from companion.app.history import PAGE, History

        history = self.host.history if self.host is not None else History(self.store)
        return await asyncio.to_thread(history.page, self.lang, page * PAGE, PAGE)

    async def bgstats(self, game_id: int) -> tuple[str, bytes]:
        """A finished game's whole BG Stats link, and a QR code of the short link on the Pi that
        forwards to it (small enough to read off the screen however many players); without the
        phone server, a code of the whole link (error correction L: bigger modules)."""
        from companion.app import bgstats
        from companion.app.history import History

        history = self.host.history if self.host is not None else History(self.store)
        play = await asyncio.to_thread(history.play, game_id, self.lang)
        link = bgstats.link(play)
        if self.host is not None:
            short = await asyncio.to_thread(self.host.bgstats_url, play.game_id, play.started)
            return link, await asyncio.to_thread(qr_png, short, 10)
        return link, await asyncio.to_thread(qr_png, link, 10, "L")

    async def release(self, seat: str) -> None:
        game_id = self.game_id
        if game_id is None:
            return
        if self.host is not None:
            self.host.codes.forget(game_id, seat)
        if self.phones.server is not None:
            await self.phones.server.release(game_id, seat)
        else:
            await asyncio.to_thread(self.links.release, game_id, seat)

    async def phone_holds(self, seat: str) -> bool:
        """Whether a phone holds the seat's link in the open game (it keeps that seat's secrets, e.g.
        a Victorian Masterminds pile: the touchscreen then places by it)."""
        game_id = self.game_id
        if game_id is None:
            return False
        (link,) = await asyncio.to_thread(self.links.ensure, game_id, [seat])
        return bool(link.claimed)

    def connected(self) -> set[str]:
        server, game_id = self.phones.server, self.game_id
        if server is None or game_id is None:
            return set()
        return {seat for gid, seat in server.connected_seats() if gid == game_id}
