"""The web server for phones.

Routes: ``GET /s/<token>`` (the seat page — the same static page for any token, so a guessed
token learns nothing from it), ``GET /static/<file>`` (the page's shell and style),
``GET /static/games/<game>.js`` and ``.json`` (a game's phone module and its facts, found through the
registry of games), ``GET /texts/<lang>.json`` and the web socket ``GET /ws``.
Every message sent is built from the table's view for the connection's own seat; every message
received is an intent from ``docs/protocol.md``, checked by the table.
See ``docs/protocol.md`` for the wire format.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.resources
import json
import logging
import resource
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from aiohttp import WSMsgType, web

from companion.app.i18n import LANGUAGES, catalogue, error_text, language_name
from companion.app.names import refusal_text
from companion.app.seats import TABLE_SEAT, Claim, SeatLinks, redact
from companion.app.table import Table
from companion.core.audience import TABLE
from companion.core.errors import CompanionError
from companion.core.jsonvalue import JSON, JSONObject, encodable, has_lone_surrogate
from companion.games import entry, facts, game_names, get_summary
from companion.net.listen import BACKLOG, bind, port_of

log = logging.getLogger(__name__)

MAX_MESSAGE = 4096  # bytes of one web socket message from a phone
MAX_PER_ADDRESS = 32  # connections open at once from one address; more are closed as they come
REQUEST_TIMEOUT = 10.0  # seconds for a new connection's first request (headers, a POST's body) to arrive
KEEPALIVE = 15.0  # seconds an idle (or half-sent) request may keep a connection open after a request
FILE_RESERVE = 256  # file descriptors kept free for the rest of the app: connections beyond are closed
CLOSE_TIMEOUT = 1.0  # seconds a closing web socket waits for the phone's answer (a stop waits no longer)
GOING_AWAY = 1001  # the close code of a stopping server: the page reconnects (to the next program)
MAX_REQUEST = 4096  # bytes of an HTTP request body
HELLO_TIMEOUT = 10.0
BURST = 20  # messages a phone may send at once ...
RATE = 10.0  # ... refilled at this many per second
FLOOD_CLOSE = 40  # refusals for flooding before the connection is closed
GARBAGE_CLOSE = 20  # malformed messages before the connection is closed
FREE_FAILURES = 3  # bad tokens from one address before answers slow down
MAX_DELAY = 8.0  # the longest wait before one address's next hello is read
MAX_WAITING = 8  # hellos of one address that may wait for their turn at once
FORGET_AFTER = 600.0  # seconds after the last failure
PAGE_TEXTS = ("companion.net",)  # the page's own labels, beside every game's and the app's texts
STATIC_TYPES = {".js": "text/javascript", ".css": "text/css"}
# Texts the phone page shows before its texts are loaded (or while loading them fails): built into
# the page itself, in the table's language, so no screen ever shows a raw code.
BOOT_TEXTS = (
    "phone.connecting",
    "phone.connected",
    "phone.reconnecting",
    "phone.closed",
    "phone.loading",
    "phone.texts_retry",
    "phone.retry",
)
BOOT_PLACEHOLDER = '<script type="application/json" id="boot">{}</script>'
# Why a phone's game ended for it (the table's ``game_closed`` reasons) -> the error it is sent.
CLOSED_CODES = {"switched": "link.game_switched", "closed": "link.game_closed", "deleted": "link.game_deleted"}


@dataclass
class Bucket:
    """A token bucket: ``take()`` is False while a client sends faster than allowed."""

    capacity: float = BURST
    rate: float = RATE
    level: float = BURST
    stamp: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.capacity, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False


async def _pause(delay: float) -> bool:
    await asyncio.sleep(delay)
    return True


async def pause_unless_gone(ws: web.WebSocketResponse, delay: float) -> bool:
    """Wait ``delay`` seconds for a phone's turn; ``False`` as soon as it closes its socket (or
    speaks out of turn: a phone waits for the answer to its hello)."""
    try:
        await ws.receive(timeout=delay)
    except TimeoutError:
        return True
    return False


class Failures:
    """Bad hellos per remote address. After a few, that address's hellos are read one at a time,
    each after a wait that doubles per failure up to :data:`MAX_DELAY`: guessing from one address
    stays slow however many connections it opens, and a phone with a valid link from there still
    gets its turn (at most :data:`MAX_WAITING` hellos of one address wait; more are answered at
    once, unread, with ``link.busy``, and the page tries again). A failure is forgotten after
    :data:`FORGET_AFTER` seconds; a valid link clears its address's record."""

    def __init__(self) -> None:
        self._count: dict[str, tuple[int, float]] = {}
        self._turns: dict[str, asyncio.Lock] = {}
        self._waiting: dict[str, int] = {}

    def delay(self, address: str) -> float:
        count, since = self._count.get(address, (0, 0.0))
        if count < FREE_FAILURES or time.monotonic() - since > FORGET_AFTER:
            return 0.0
        doublings = min(count - FREE_FAILURES, 16)  # 0.25 s * 2**16 is far above the cap: never an overflow
        return float(min(MAX_DELAY, 0.25 * 2**doublings))

    def failed(self, address: str) -> None:
        count, _ = self._count.get(address, (0, 0.0))
        self._count[address] = (min(count + 1, 1_000_000), time.monotonic())

    def succeeded(self, address: str) -> None:
        self._count.pop(address, None)

    def clean(self, address: str) -> bool:
        """No failure from this address lately (none, or all forgotten)."""
        count, since = self._count.get(address, (0, 0.0))
        return count == 0 or time.monotonic() - since > FORGET_AFTER

    @contextlib.asynccontextmanager
    async def turn(self, address: str, pause: Callable[[float], Awaitable[bool]] = _pause) -> AsyncIterator[bool]:
        """Wait for this address's turn (and its delay, through ``pause``, which answers ``False``
        when the phone left meanwhile: its place in the queue is given up at once); ``False``: too
        many of its hellos wait, or the phone left."""
        if self._waiting.get(address, 0) >= MAX_WAITING:
            yield False
            return
        self._waiting[address] = self._waiting.get(address, 0) + 1
        lock = self._turns.setdefault(address, asyncio.Lock())
        try:
            async with lock:
                delay = self.delay(address)
                yield not delay or await pause(delay)
        finally:
            self._waiting[address] -= 1
            if not self._waiting[address]:
                del self._waiting[address]
                self._turns.pop(address, None)


def file_limit() -> int:
    """This process's limit of open files, raised to the most it may have (a service without
    ``LimitNOFILE=`` starts with 1024 however many the system allows)."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or soft < hard:
            wanted = 65536 if hard == resource.RLIM_INFINITY else hard
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
                soft = wanted
        return int(soft)
    except (ValueError, OSError):  # pragma: no cover (no such limit)
        return 1024


class Doorman:
    """Who may open a connection: at most :data:`MAX_PER_ADDRESS` open at once from one address,
    and never so many in all that the process runs out of file descriptors (:data:`FILE_RESERVE`
    kept free); a connection beyond is closed as it comes, before it costs anything. A connection
    whose first request has not arrived after :data:`REQUEST_TIMEOUT` seconds (a request sent one
    byte at a time, or none) is closed too. So one device, however many connections it opens, holds
    a few dozen of them and every other phone still gets in."""

    def __init__(self, per_address: int = MAX_PER_ADDRESS, open_files: int | None = None) -> None:
        self.per_address = per_address
        limit = open_files if open_files is not None else file_limit()
        self.most = max(per_address, limit - FILE_RESERVE)
        self._open: dict[str, set[asyncio.BaseTransport]] = {}
        self._waiting: set[asyncio.BaseTransport] = set()  # admitted, first request not seen yet
        self._counted = 0  # connections in ``_open`` (closed ones included until they are swept)

    def admit(self, address: str, transport: asyncio.BaseTransport) -> str:
        """Let a new connection in (``""``), or why not: ``"address"`` or ``"full"``."""
        mine = self._sweep(address)
        if len(mine) >= self.per_address:
            return "address"
        if self._counted >= self.most:
            for other in list(self._open):
                self._sweep(other)
            if self._counted >= self.most:
                return "full"
        mine.add(transport)
        self._open[address] = mine
        self._counted += 1
        self._waiting.add(transport)
        asyncio.get_running_loop().call_later(REQUEST_TIMEOUT, self._overdue, transport)
        return ""

    def started(self, transport: asyncio.BaseTransport | None) -> None:
        """A request arrived whole on this connection."""
        self._waiting.discard(transport)

    def open_from(self, address: str) -> int:
        return len(self._sweep(address))

    def _sweep(self, address: str) -> set[asyncio.BaseTransport]:
        mine = self._open.pop(address, set())
        live = {t for t in mine if not t.is_closing()}
        self._counted -= len(mine) - len(live)
        if live:
            self._open[address] = live
        return live

    def _overdue(self, transport: asyncio.BaseTransport) -> None:
        if transport in self._waiting:
            self._waiting.discard(transport)
            if not transport.is_closing():
                log.info("closed a connection whose request did not arrive within %s s", REQUEST_TIMEOUT)
                cast(asyncio.Transport, transport).abort()

    def factory(self, make: Callable[[], asyncio.BaseProtocol]) -> Callable[[], asyncio.BaseProtocol]:
        """A protocol factory for ``loop.create_server``: each connection is admitted (then served by
        ``make()``'s protocol) or closed at once."""
        return lambda: _Gate(self, make)


class _Gate(asyncio.Protocol):
    """A new connection's first protocol: it asks the :class:`Doorman`, then hands the connection
    to the web server's own protocol (or closes it)."""

    def __init__(self, doorman: Doorman, make: Callable[[], asyncio.BaseProtocol]) -> None:
        self.doorman = doorman
        self.make = make

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        why = self.doorman.admit(address, transport)
        if why:
            log.info(
                "refused a connection from %s (%s)",
                address,
                "too many open from there" if why == "address" else "no room",
            )
            cast(asyncio.Transport, transport).abort()
            return
        protocol = self.make()
        transport.set_protocol(protocol)
        protocol.connection_made(transport)


class _Runner(web.AppRunner):
    """The phone server's runner: its ``cleanup()`` first closes every web socket with "going away"
    (aiohttp would otherwise drop them as plain closes, or wait for them up to a minute)."""

    def __init__(self, app: web.Application, going_away: Callable[[], Awaitable[None]]) -> None:
        super().__init__(app, access_log=None, keepalive_timeout=KEEPALIVE, shutdown_timeout=1.0)
        self._going_away = going_away

    async def cleanup(self) -> None:
        await self._going_away()
        await super().cleanup()


class GuardedSite(web.SockSite):
    """aiohttp's site on a listening socket, with a :class:`Doorman` at the door."""

    def __init__(self, runner: web.BaseRunner, sock: socket.socket, doorman: Doorman) -> None:
        super().__init__(runner, sock, backlog=BACKLOG)
        self.doorman = doorman

    async def start(self) -> None:
        self._runner._reg_site(self)
        server = self._runner.server
        assert server is not None
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self.doorman.factory(server), sock=self._sock, backlog=self._backlog)


class Connection:
    """One phone's web socket, bound to one seat of one game once its hello is accepted."""

    def __init__(self, ws: web.WebSocketResponse, claim: Claim, state_text: Callable[[JSONObject], str]) -> None:
        self.ws = ws
        self.state_text = state_text  # the table serialises a state once for all the screens that get it
        self.claim = claim
        self.audience = claim.audience
        self.bucket = Bucket()
        self._latest_state: JSONObject | None = None
        self._replies: list[JSONObject] = []
        self._final: JSONObject | None = None
        self._wake = asyncio.Event()
        self.closed = False
        self.lang = ""  # the language this phone was last told to use

    def push_state(self, message: JSONObject) -> None:
        """Called by the table after every change; only the newest state is worth sending."""
        self._latest_state = message
        self._wake.set()

    def reply(self, message: JSONObject) -> None:
        self._replies.append(message)
        self._wake.set()

    def finish(self, message: JSONObject) -> None:
        """Send ``message`` after everything already queued, then close the connection."""
        self._final = message
        self._wake.set()

    async def sender(self) -> None:
        """Send what is queued, in order; a phone that vanished mid-send just ends the loop. A send
        that fails otherwise closes the socket, so the page reconnects instead of showing
        "connected" and hearing nothing."""
        try:
            await self._send_queued()
        except (ConnectionError, RuntimeError):
            pass
        except Exception:
            log.exception("a message to seat %s could not be sent; its socket is closed", self.claim.seat)
            await _close(self.ws, code=1011, message=b"send failed")

    async def _send_queued(self) -> None:
        while not self.closed:
            await self._wake.wait()
            self._wake.clear()
            # State first: an ack must never arrive before the state it confirms.
            batch: list[str] = []
            if self._latest_state is not None:
                batch.append(self.state_text(self._latest_state))
                self._latest_state = None
            batch += [_text(reply) for reply in self._replies]
            self._replies = []
            final, self._final = self._final, None
            if final is not None:
                batch.append(_text(final))
            for text in batch:
                if self.ws.closed:
                    return
                await send_text(self.ws, text)
            if final is not None:
                self.closed = True
                await _close(self.ws)


def _you(rules: str, game: Any, seat: str) -> JSONObject:
    """Whose phone this is, for its title bar: the seat's label as a text to say in the phone's
    language ("Mister X", "Detective 1", "Blue") and the name the table entered for it."""
    if seat == TABLE_SEAT:
        return {"label": {"code": "phone.table_screen", "params": {}}, "name": ""}
    try:
        players = get_summary(rules).players(game.rules.view(game.state, TABLE))
    except (CompanionError, ImportError, AttributeError):
        players = ()  # a game without a summary (the tests' toy game): its seat id
    for p in players:
        if p.seat == seat:
            return {"label": {"code": p.label.code, "params": dict(p.label.params)}, "name": p.name}
    return {"label": None, "name": seat}


class PhoneServer:
    def __init__(self, table: Table, links: SeatLinks, language: Callable[[], str] = lambda: "en") -> None:
        self.table = table
        self.links = links
        self.language = language
        # A seat's own language, chosen on its phone ((game id, seat) -> code); others follow the table's.
        self.seat_languages: dict[tuple[int, str], str] = {}
        self.failures = Failures()
        self.connections: set[Connection] = set()
        self.sockets: set[web.WebSocketResponse] = set()  # every open web socket (phones, host pages)
        self.doorman: Doorman | None = None  # made when serving (it reads the process's file limit)
        self._on_claim: list[Callable[[int, str], None]] = []
        self._on_leave: list[Callable[[int, str], None]] = []
        self._routes: list[Callable[[web.Application], None]] = []

    def add_routes(self, add: Callable[[web.Application], None]) -> None:
        """More routes on the same server (the host and landing pages, companion.net.host)."""
        self._routes.append(add)

    def on_claim(self, callback: Callable[[int, str], None]) -> None:
        """Tell the touchscreen when a seat was claimed (it hides that seat's QR code)."""
        self._on_claim.append(callback)

    def on_leave(self, callback: Callable[[int, str], None]) -> None:
        """Tell the touchscreen when a seat's phone went away (e.g. Mister X has no phone now)."""
        self._on_leave.append(callback)

    # -- the application ------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_REQUEST, middlewares=[self._arrived])
        app.router.add_get("/s/{token}", self.page)
        app.router.add_get("/static/games/{game:[a-z0-9_]+}.js", self.game_module)
        app.router.add_get("/static/games/{game:[a-z0-9_]+}.json", self.game_facts)
        app.router.add_get("/static/{name:[a-z0-9_]+\\.[a-z]+}", self.static)
        app.router.add_get("/texts/{lang}.json", self.texts)
        app.router.add_get("/ws", self.socket)
        for add in self._routes:
            add(app)
        return app

    async def start(self, host: str, port: int) -> tuple[web.AppRunner, int]:
        """Bind ``host``:``port`` (0: a free port) and serve there; the runner and the port bound."""
        sockets = bind(host, port)
        return await self.serve(sockets), port_of(sockets)

    async def serve(self, sockets: Sequence[socket.socket]) -> web.AppRunner:
        """Serve on sockets already listening (bound by :func:`companion.net.listen.bind`), each
        connection admitted by the :class:`Doorman`. ``runner.cleanup()`` stops within a second or
        two: every web socket is closed with "going away" and the page reconnects (to the next
        program)."""
        self.doorman = Doorman()
        runner = _Runner(self.app(), self.going_away)
        await runner.setup()
        for sock in sockets:
            await GuardedSite(runner, sock, self.doorman).start()
        return runner

    @web.middleware
    async def _arrived(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if self.doorman is not None:
            self.doorman.started(request.transport)
        response: web.StreamResponse = await handler(request)
        return response

    def web_socket(self, max_msg_size: int) -> web.WebSocketResponse:
        """A web socket for a phone or the host page: closed within :data:`CLOSE_TIMEOUT` at a stop."""
        return web.WebSocketResponse(max_msg_size=max_msg_size, heartbeat=20.0, compress=False, timeout=CLOSE_TIMEOUT)

    async def going_away(self) -> None:
        """The server stops: every web socket is told "going away" at once (the pages reconnect)."""
        closing = [_close(ws, code=GOING_AWAY, message=b"going away") for ws in list(self.sockets)]
        if closing:
            log.info("closing %d web sockets: going away", len(closing))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*closing, return_exceptions=True), CLOSE_TIMEOUT + 0.5)

    async def page(self, request: web.Request) -> web.StreamResponse:
        # No lookup of the token here: every /s/... answers the same bytes (they depend only on the
        # table's language: the few texts the page needs before its texts are loaded are built in).
        return web.Response(text=self.page_html(), content_type="text/html", headers=_NO_STORE)

    def page_html(self) -> str:
        lang = self.language()
        texts = catalogue(PAGE_TEXTS)
        boot = {code: texts.get(lang, {}).get(code) or texts["en"][code] for code in BOOT_TEXTS}
        data = json.dumps({"lang": lang, "texts": boot}).replace("<", "\\u003c")  # nothing can end the script
        html = _resource("phone.html")
        html = html.replace('<html lang="en">', f'<html lang="{lang}">', 1)
        return html.replace(BOOT_PLACEHOLDER, f'<script type="application/json" id="boot">{data}</script>', 1)

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in STATIC_FILES:
            raise web.HTTPNotFound()
        return web.Response(text=_resource(name), content_type=STATIC_FILES[name], headers=_NO_STORE)

    async def game_module(self, request: web.Request) -> web.StreamResponse:
        """A game's phone module, where its registry entry says (404: the page shows the view as text)."""
        game = request.match_info["game"]
        if game not in game_names() or not entry(game).phone:
            raise web.HTTPNotFound()
        package, _, path = entry(game).phone.partition(":")
        try:
            source = importlib.resources.files(package).joinpath(*path.split("/")).read_text("utf-8")
        except (ModuleNotFoundError, FileNotFoundError):
            log.error("the phone module of %s is missing (%s)", game, entry(game).phone)
            raise web.HTTPNotFound() from None
        return web.Response(text=source, content_type="text/javascript", headers=_NO_STORE)

    async def game_facts(self, request: web.Request) -> web.StreamResponse:
        """The constants a game's screens need (its ``FACTS``), for its phone module."""
        game = request.match_info["game"]
        if game not in game_names():
            raise web.HTTPNotFound()
        return web.json_response(facts(game), headers=_NO_STORE)

    async def texts(self, request: web.Request) -> web.StreamResponse:
        lang = request.match_info["lang"]
        if lang not in LANGUAGES:
            raise web.HTTPNotFound()
        texts = catalogue(PAGE_TEXTS)
        merged = {**texts["en"], **texts.get(lang, {})}
        return web.json_response(merged, headers=_NO_STORE)

    # -- the web socket -----------------------------------------------------------------
    async def socket(self, request: web.Request) -> web.StreamResponse:
        ws = self.web_socket(MAX_MESSAGE)
        await ws.prepare(request)
        self.sockets.add(ws)
        try:
            return await self._phone(ws, request.remote or "?")
        finally:
            self.sockets.discard(ws)

    async def _phone(self, ws: web.WebSocketResponse, address: str) -> web.StreamResponse:
        claim = await self._hello(ws, address)
        if claim is None:
            await _close(ws)
            return ws
        conn = Connection(ws, claim, self.table.text)
        conn.lang = self.lang_of(conn)  # what the welcome said
        self.connections.add(conn)
        sender = asyncio.create_task(conn.sender())
        # Bound to the claimed game: when the table leaves it, the phone is told and let go.
        subscription = self.table.subscribe(conn.audience, lambda m: self._push(conn, m), game_id=claim.game_id)
        log.info("seat %s joined (game %s)", claim.seat, claim.game_id)
        _tell(self._on_claim, claim)
        try:
            await self._serve(conn)
        finally:
            subscription.close()
            conn.closed = True
            conn._wake.set()
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender
            self.connections.discard(conn)
            await _close(ws)
            _tell(self._on_leave, claim)
        return ws

    async def _hello(self, ws: web.WebSocketResponse, address: str) -> Claim | None:
        """Read the hello and answer it. Every malformed hello and every token that opens no seat
        get the same answer (``link.invalid``), read in the address's turn (see :class:`Failures`)."""
        try:
            msg = await ws.receive(timeout=HELLO_TIMEOUT)
        except TimeoutError:
            await _send(ws, {"type": "error", "code": "hello.timeout", "text": self._text("hello.timeout")})
            return None
        if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
            return None  # the phone left (or sent more than a message may hold: closed with 1009)
        async with self.failures.turn(address, lambda delay: pause_unless_gone(ws, delay)) as turn:
            if not turn:
                await _send(ws, {"type": "error", "code": "link.busy", "text": self._text("link.busy")})
                return None
            claim: Claim | None = None
            hello = parse_message(msg.data) if msg.type == WSMsgType.TEXT else None
            if isinstance(hello, dict) and hello.get("type") == "hello" and set(hello) == {"type", "token", "device"}:
                claim = await asyncio.to_thread(self.links.claim, hello["token"], hello["device"])
            if claim is None:
                self.failures.failed(address)
                log.info("refused a link from %s", address)
                await _send(ws, {"type": "error", "code": "link.invalid", "text": self._text("link.invalid")})
                return None
            self.failures.succeeded(address)
        if not claim.ok:
            await _send(ws, {"type": "error", "code": "link.taken", "text": self._text("link.taken")})
            return None
        current = self.table.current
        if current is None or current.header.id != claim.game_id:
            await _send(ws, {"type": "error", "code": "link.not_open", "text": self._text("link.not_open")})
            return None
        if claim.seat != TABLE_SEAT and claim.seat not in current.game.rules.seats(current.game.state):
            # A seat the game does not have (Mister X when the table plays him): nobody looks or acts as it.
            log.info("refused a link from %s: game %s has no seat %s", address, claim.game_id, claim.seat)
            await _send(ws, {"type": "error", "code": "link.invalid", "text": self._text("link.invalid")})
            return None
        own = self.seat_languages.get((claim.game_id, claim.seat))
        await _send(
            ws,
            {
                "type": "welcome",
                "seat": claim.seat,
                "lang": own or self.language(),
                "own_lang": own is not None,
                "languages": [{"code": code, "name": language_name(code)} for code in LANGUAGES],
                "you": _you(current.header.rules, current.game, claim.seat),
            },
        )
        return claim

    def _push(self, conn: Connection, message: JSONObject) -> None:
        if message.get("type") == "game_closed":
            code = CLOSED_CODES.get(str(message.get("reason")), "link.game_closed")
            conn.finish({"type": "error", "code": code, "text": self._text(code, conn)})
            log.info("seat %s let go: game %s is no longer open", conn.claim.seat, conn.claim.game_id)
        else:
            conn.push_state(message)

    async def _serve(self, conn: Connection) -> None:
        floods = garbage = 0
        async for msg in conn.ws:
            if msg.type != WSMsgType.TEXT:
                if msg.type == WSMsgType.BINARY:
                    garbage += 1
                    conn.reply(self._refusal(None, "malformed", conn))
                    if garbage >= GARBAGE_CLOSE:
                        break
                    continue
                break
            if not conn.bucket.take():
                floods += 1
                if floods == 1 or floods % 10 == 0:
                    conn.reply(self._refusal(None, "flood", conn))
                if floods >= FLOOD_CLOSE:
                    log.info("closing a flooding phone (seat %s)", conn.claim.seat)
                    await _send(conn.ws, self._refusal(None, "flood", conn))
                    await _close(conn.ws, code=1008, message=b"flood")
                    break
                continue
            data = parse_message(msg.data)
            ident = data.get("id") if isinstance(data, dict) else None
            if not isinstance(ident, int) or isinstance(ident, bool):
                ident = None
            if isinstance(data, dict) and data.get("type") == "lang" and set(data) == {"type", "lang"}:
                if not self._choose_language(conn, data["lang"]):
                    garbage += 1
                    conn.reply(self._refusal(None, "malformed", conn))
                continue
            if not isinstance(data, dict) or set(data) != {"type", "id", "seq", "intent"} or data["type"] != "intent":
                garbage += 1
                code = "malformed.json" if data is _BAD else "malformed"
                conn.reply(self._refusal(ident, code, conn))
                if garbage >= GARBAGE_CLOSE:
                    break
                continue
            await self._intent(conn, ident, data)

    async def _intent(self, conn: Connection, ident: int | None, data: dict[str, Any]) -> None:
        envelope = {"seq": data["seq"], "intent": data["intent"]}
        try:
            source = "table_link" if conn.audience.is_table else f"phone:{conn.claim.seat}"
            ack = await self.table.submit_json(envelope, conn.audience, game_id=conn.claim.game_id, source=source)
        except CompanionError as exc:
            words = refusal_text(exc, self.lang_of(conn), (), self.table.current)  # seats and ids in words
            conn.reply({"type": "refused", "id": ident, **exc.to_json(), "text": words})
            return
        conn.reply({"type": "ack", "id": ident, "seq": ack.seq})

    def _refusal(self, ident: int | None, code: str, conn: Connection | None = None) -> JSONObject:
        return {"type": "refused", "id": ident, "code": code, "params": {}, "text": self._text(code, conn)}

    def _text(self, code: str, conn: Connection | None = None) -> str:
        return error_text(CompanionError(code), self.lang_of(conn) if conn is not None else self.language())

    # -- languages: the table's, or a seat's own -------------------------------------------------------
    def lang_of(self, conn: Connection) -> str:
        """The language of one phone: its seat's own choice, else the table's."""
        return self.seat_languages.get((conn.claim.game_id, conn.claim.seat)) or self.language()

    def _choose_language(self, conn: Connection, lang: JSON) -> bool:
        """A phone picks a language for its seat (``None``: follow the table again). Every phone of
        that seat is told; ``False`` for a language that does not exist (nothing changes)."""
        key = (conn.claim.game_id, conn.claim.seat)
        if lang is None:
            self.seat_languages.pop(key, None)
        elif isinstance(lang, str) and lang in LANGUAGES:
            self.seat_languages[key] = lang
        else:
            return False
        for other in self.connections:
            if (other.claim.game_id, other.claim.seat) == key:
                self._tell_language(other, force=True)
        return True

    def language_changed(self) -> None:
        """The table's language changed (touchscreen or host page): every phone that follows it is
        told at once, and loads its texts again."""
        for conn in list(self.connections):
            self._tell_language(conn)

    def _tell_language(self, conn: Connection, force: bool = False) -> None:
        lang = self.lang_of(conn)
        if force or lang != conn.lang:
            conn.lang = lang
            own = (conn.claim.game_id, conn.claim.seat) in self.seat_languages
            conn.reply({"type": "lang", "lang": lang, "own_lang": own})

    async def release(self, game_id: int, seat: str) -> str:
        """The table releases a seat: new token, and the seat's phones are disconnected now."""
        link = await asyncio.to_thread(self.links.release, game_id, seat)
        for conn in list(self.connections):
            if conn.claim.game_id == game_id and conn.claim.seat == seat:
                words = self._text("link.released", conn)
                await _send(conn.ws, {"type": "error", "code": "link.released", "text": words})
                await _close(conn.ws)
        log.info("seat %s released; new link %s", seat, redact(link.token))
        return link.token

    def connected_seats(self) -> set[tuple[int, str]]:
        return {(c.claim.game_id, c.claim.seat) for c in self.connections if not c.ws.closed}


_NO_STORE = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
_BAD: Any = object()


def parse_message(text: str) -> JSON:
    """A message from a page; ``_BAD`` for one that is not JSON, too deep, or holds a lone
    surrogate (no database, file or UTF-8 message could hold it: refused where it arrives)."""
    try:
        value: JSON = json.loads(text)
    except (ValueError, RecursionError):
        return _BAD  # type: ignore[no-any-return]
    if "\\u" in text and has_lone_surrogate(value):
        return _BAD  # type: ignore[no-any-return]
    return value


def _text(message: JSONObject) -> str:
    return json.dumps(message, ensure_ascii=False)


async def send_text(ws: web.WebSocketResponse, text: str) -> None:
    """Send JSON text; one that UTF-8 cannot carry (a lone surrogate echoed from some input) is
    sent with that character escaped: every frame is encodable."""
    try:
        await ws.send_str(text)
    except UnicodeEncodeError:
        await ws.send_str(encodable(text))


async def _send(ws: web.WebSocketResponse, message: JSONObject) -> None:
    if not ws.closed:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await send_text(ws, _text(message))


def _tell(callbacks: list[Callable[[int, str], None]], claim: Claim) -> None:
    """Tell the touchscreen about a seat's phone; its trouble is never the phone's."""
    for callback in callbacks:
        try:
            callback(claim.game_id, claim.seat)
        except Exception:
            log.exception("a seat listener failed")


async def _close(ws: web.WebSocketResponse, code: int = 1000, message: bytes = b"") -> None:
    """Close a phone's socket; a phone that is already gone is not an error."""
    if not ws.closed:
        with contextlib.suppress(ConnectionError, RuntimeError, TimeoutError):
            await ws.close(code=code, message=message)


def _resource(name: str) -> str:
    return importlib.resources.files("companion.net").joinpath("static", name).read_text("utf-8")


def _static_files() -> dict[str, str]:
    """Every script and style sheet of ``static/`` (not its folders) -> its content type."""
    root = importlib.resources.files("companion.net").joinpath("static")
    found: dict[str, str] = {}
    for entry_ in root.iterdir():
        suffix = "." + entry_.name.rsplit(".", 1)[-1]
        if entry_.is_file() and suffix in STATIC_TYPES:
            found[entry_.name] = STATIC_TYPES[suffix]
    return found


STATIC_FILES = _static_files()  # only these names are served: a request can never reach another file
