"""The host page and the landing page: running a table without a touchscreen.

Routes (added to the phone server):

- ``GET /`` — the landing page: anyone types a room code there (:mod:`companion.app.roomcodes`);
- ``POST /join`` — ``{"code": "ABCDE"}`` -> ``{"link": "/s/<token>"}`` for a valid code, else
  ``{"code": "room.invalid"|"room.busy", "text": ...}`` (403); wrong codes are slowed per address;
- ``GET /h/<token>`` — the host page (the same bytes for any token, like a seat's page);
- ``GET /host/ws`` — its web socket: ``{"type": "hello", "token": ...}`` first (the host token,
  :mod:`companion.app.hostlink`, checked in constant time, failures slowed per address), then the
  server pushes ``{"type": "host", ...}`` (games, the open game with its seats, settings, the end
  result with its BG Stats link, the Pi's warnings) after every change, and answers
  ``{"type": "do", "id": n, "op": ..., "args": {...}}`` with ``{"type": "done", "id": n, "result": ...}``
  or ``{"type": "refused", "id": n, "code": ..., "params": ..., "text": ...}``.

What the host page sees is what the touchscreen sees: the public table, every seat's state, and
— one at a time, on request — a seat's link, QR code and room code. Nothing secret to a seat is
ever in it. See ``docs/host.md``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import datetime
import html
import importlib.resources
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import ClassVar

from aiohttp import WSMsgType, web

from companion.app import bgstats, preferences, readable
from companion.app.history import PAGE, History, Play, local_time
from companion.app.hostlink import HostLink
from companion.app.i18n import LANGUAGES, language_name, text
from companion.app.names import refusal_text
from companion.app.qr import qr_png, seat_url
from companion.app.roomcodes import RoomCodes, Turns
from companion.app.seats import TABLE_SEAT, SeatLinks
from companion.app.store import Store
from companion.app.table import Table
from companion.core.audience import TABLE
from companion.core.errors import CompanionError, MalformedInput
from companion.core.jsonvalue import JSON, JSONObject
from companion.games import entry, game_names, get_summary
from companion.games import facts as game_facts
from companion.games import preferences as game_preferences
from companion.net.server import (
    REQUEST_TIMEOUT,
    Bucket,
    Failures,
    PhoneServer,
    parse_message,
    pause_unless_gone,
    send_text,
)

log = logging.getLogger(__name__)

HOST_MESSAGE = 16384  # bytes of one message from the host page (a setup with board changes)
HELLO_TIMEOUT = 10.0
LINK_CHECK = 1.0  # seconds between two looks at the host link while host pages are open
PUSH_DELAY = 0.05  # seconds: several changes at once become one push
_NO_STORE = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


class HostError(CompanionError):
    default_code = "host"


def png_data(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


class HostConnection:
    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.bucket = Bucket()
        self.lock = asyncio.Lock()
        self.token: str | None = None  # the host link it opened with

    async def send(self, message: JSONObject) -> None:
        """Send one message; a send that fails (other than to a page already gone) closes the
        socket, so the page reconnects instead of waiting for answers that never come."""
        async with self.lock:
            if self.ws.closed:
                return
            try:
                await send_text(self.ws, json.dumps(message, ensure_ascii=False))
            except (ConnectionError, RuntimeError):
                pass
            except Exception:
                log.exception("a message to the host page could not be sent; its socket is closed")
                with contextlib.suppress(Exception):
                    await self.ws.close(code=1011, message=b"send failed")


class Host:
    """The host page's and landing page's side of the server (one per running table)."""

    def __init__(
        self,
        server: PhoneServer,
        store: Store,
        table: Table,
        links: SeatLinks,
        data_dir: Path,
        *,
        base: Callable[[], tuple[str, int]],
        pref: Callable[[str, JSON], JSON],
        set_pref: Callable[[str, JSON], Awaitable[None]],
        language: Callable[[], str],
        warnings: Callable[[str], list[str]] | None = None,
    ) -> None:
        """``warnings(lang)``: the Pi's own warnings in words (under-voltage, an overlay file
        system: ``companion.appliance.health``), shown above the page; :meth:`refresh` when they change."""
        self.server = server
        self.warnings = warnings
        self.store = store
        self.table = table
        self.links = links
        self.link = HostLink(data_dir)
        self.codes = RoomCodes()
        self.turns = Turns()  # every typed code waits for its turn: a bounded rate of guesses
        self._watcher: asyncio.Task[None] | None = None
        self.history = History(store)
        self.join_failures = Failures()
        self.base = base
        self.pref = pref
        self.set_pref = set_pref
        self.language = language
        self.sockets: set[HostConnection] = set()
        self._push: asyncio.TimerHandle | None = None
        self._results: dict[tuple[int, int, str], JSONObject] = {}
        self.changed: list[Callable[[], None]] = []  # e.g. the touchscreen's Phones screen
        server.add_routes(self.routes)
        server.on_claim(self._claimed)
        table.subscribe(TABLE, self._table_changed, send_now=False)

    # -- routes -------------------------------------------------------------------------------------
    def routes(self, app: web.Application) -> None:
        app.router.add_get("/", self.landing)
        app.router.add_post("/join", self.join)
        app.router.add_get("/h/{token}", self.page)
        app.router.add_get("/host/ws", self.socket)
        app.router.add_get(bgstats.SHORT_PREFIX + "{name}", self.bgstats_page)

    def url(self) -> str:
        """The host link (for the touchscreen, ``serve`` at a terminal and ``companion host-link``)."""
        address, port = self.base()
        host = f"[{address}]" if ":" in address else address
        return f"http://{host}:{port}/h/{self.link.token()}"

    def bgstats_url(self, game_id: int, started: str) -> str:
        """A finished play's short link on the Pi (what its BG Stats QR code holds)."""
        address, port = self.base()
        host = f"[{address}]" if ":" in address else address
        return f"http://{host}:{port}{bgstats.short_path(self.link.token(), game_id, started)}"

    async def bgstats_page(self, request: web.Request) -> web.StreamResponse:
        """A short link's answer: a page that forwards to the play's whole createPlay link (and shows
        it as a button, for a phone that does not follow the forward into the app by itself)."""
        headers = await asyncio.to_thread(self.store.games)
        started_of = {h.id: h.created for h in headers if h.status == "finished"}
        secret = await asyncio.to_thread(self.link.token)
        game_id = bgstats.short_game(secret, request.match_info["name"], started_of)
        if game_id is None:
            return web.Response(status=404, text=self._text("host.bgstats_gone"), headers=_NO_STORE)
        play = await asyncio.to_thread(self.history.play, game_id, self.language())
        target = html.escape(bgstats.link(play), quote=True)
        page = (
            '<!doctype html><html><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta http-equiv="refresh" content="1;url={target}"><title>BG Stats</title></head>'
            '<body style="font-family:sans-serif;text-align:center;padding:2em">'
            f"<p>{html.escape(play.game)} · {html.escape(play.title)}</p>"
            f'<p><a href="{target}" rel="noreferrer" style="font-size:1.4em">'
            f"{html.escape(self._label('host.bgstats_open'))}</a></p></body></html>"
        )
        return web.Response(text=page, content_type="text/html", headers=_NO_STORE)

    async def landing(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=_resource("landing.html"), content_type="text/html", headers=_NO_STORE)

    async def page(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=_resource("host.html"), content_type="text/html", headers=_NO_STORE)

    # -- room codes ---------------------------------------------------------------------------------
    async def join(self, request: web.Request) -> web.StreamResponse:
        """A typed room code -> its seat's link. Wrong, used, old or taken codes get one answer.

        One address's codes are looked at one at a time, each after a wait that grows with its
        wrong ones (:class:`~companion.net.server.Failures`); then every code, from any address,
        waits for its turn among :data:`~companion.app.roomcodes.GUESSES_PER_MINUTE` a minute
        (:class:`~companion.app.roomcodes.Turns`), an address without wrong codes first. Wrong codes
        never make a right one refused: they only make it wait for the next turn (2 s at most)."""
        address = request.remote or "?"
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):  # a body sent a byte at a time holds nothing for long
                raw = await request.text()
        except TimeoutError:
            return self._join_refused("request.timeout", 408)
        except web.HTTPRequestEntityTooLarge:
            return self._join_refused("malformed", 413)
        body = parse_message(raw)
        typed = body.get("code") if isinstance(body, dict) else None
        async with self.join_failures.turn(address) as turn:  # one address's codes one at a time, slowed
            if not turn or not await self.turns.wait(first=self.join_failures.clean(address)):
                return self._join_refused("room.busy", 429)
            where = self.codes.redeem(typed)
            link = None
            current = self.table.current
            if where is not None and current is not None and current.header.id == where[0]:
                (seat_link,) = await asyncio.to_thread(self.links.ensure, where[0], [where[1]])
                if not seat_link.claimed:
                    link = f"/s/{seat_link.token}"
            if link is None:
                self.join_failures.failed(address)
                log.info("refused a room code from %s", address)
                return self._join_refused("room.invalid", 403)
            self.join_failures.succeeded(address)
        self._schedule()
        return web.json_response({"link": link}, headers=_NO_STORE)

    def _join_refused(self, code: str, status: int) -> web.StreamResponse:
        return web.json_response({"code": code, "text": self._text(code)}, status=status, headers=_NO_STORE)

    def _claimed(self, game_id: int, seat: str) -> None:
        self.codes.forget(game_id, seat)
        self._schedule()

    def _table_changed(self, message: JSONObject) -> None:
        current = self.table.current
        self.codes.keep_only(current.header.id if current is not None else None)  # codes die with their game
        self._schedule()

    # -- the host socket ----------------------------------------------------------------------------
    async def socket(self, request: web.Request) -> web.StreamResponse:
        ws = self.server.web_socket(HOST_MESSAGE)
        await ws.prepare(request)
        self.server.sockets.add(ws)  # told "going away" when the server stops
        try:
            await self._host_page(ws, request.remote or "?")
        finally:
            self.server.sockets.discard(ws)
        return ws

    async def _host_page(self, ws: web.WebSocketResponse, address: str) -> None:
        token: str | None = None
        try:
            msg = await ws.receive(timeout=HELLO_TIMEOUT)
        except TimeoutError:
            msg = None
        conn = HostConnection(ws)
        async with self.server.failures.turn(address, lambda delay: pause_unless_gone(ws, delay)) as turn:  # shared
            if not turn:  # too many of this address's hellos wait: busy, and the page tries again
                await conn.send({"type": "error", "code": "link.busy", "text": self._text("link.busy")})
                await ws.close()
                return
            if msg is not None and msg.type == WSMsgType.TEXT:
                hello = parse_message(msg.data)
                presented = hello.get("token") if isinstance(hello, dict) and set(hello) == {"type", "token"} else None
                is_hello = isinstance(hello, dict) and hello.get("type") == "hello"
                if is_hello and isinstance(presented, str) and await asyncio.to_thread(self.link.check, presented):
                    token = presented
            if msg is None:  # said nothing in time: the page tries again
                await conn.send({"type": "error", "code": "hello.timeout", "text": self._text("hello.timeout")})
                await ws.close()
                return
            if token is None:
                self.server.failures.failed(address)
                log.info("refused a host link from %s", address)
                await conn.send({"type": "error", "code": "host.invalid", "text": self._text("host.invalid")})
                await ws.close()
                return
            self.server.failures.succeeded(address)
        log.info("host page opened from %s", address)
        conn.token = token
        self.sockets.add(conn)
        self._watch_link()
        try:
            await conn.send({"type": "welcome", "lang": self.language()})
            await conn.send(await self.state())
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    break
                if not conn.bucket.take():
                    await conn.send({"type": "refused", "id": None, "code": "flood", "text": self._text("flood")})
                    continue
                await self._request(conn, parse_message(message.data))
        finally:
            self.sockets.discard(conn)
            if not ws.closed:
                await ws.close()

    def _watch_link(self) -> None:
        """While host pages are open, look every :data:`LINK_CHECK` seconds whether the host link
        is still theirs: ``companion host-link --new`` (another process) cuts them off at once."""
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.get_running_loop().create_task(self._watch_loop(), name="host-link-watch")

    async def _watch_loop(self) -> None:
        while self.sockets:
            await asyncio.sleep(LINK_CHECK)
            for conn in list(self.sockets):
                if conn.token is not None and not await asyncio.to_thread(self.link.check, conn.token):
                    log.info("the host link was replaced: an open host page is let go")
                    self.sockets.discard(conn)
                    await conn.send({"type": "error", "code": "host.replaced", "text": self._text("host.replaced")})
                    with contextlib.suppress(Exception):
                        await conn.ws.close()

    async def _request(self, conn: HostConnection, data: JSON) -> None:
        ident = data.get("id") if isinstance(data, dict) else None
        if not isinstance(ident, int) or isinstance(ident, bool):
            ident = None
        try:
            if not isinstance(data, dict) or data.get("type") != "do" or set(data) != {"type", "id", "op", "args"}:
                raise MalformedInput("malformed", "expected {type: do, id, op, args}")
            op, args = data["op"], data["args"]
            handler = self.OPS.get(op) if isinstance(op, str) else None
            if handler is None or not isinstance(args, dict):
                raise MalformedInput("malformed.unknown_kind", "no such request", kind=str(op)[:40])
            result = await handler(self, args)
        except CompanionError as exc:
            await conn.send({"type": "refused", "id": ident, **exc.to_json(), "text": self._error(exc)})
            return
        except Exception:
            log.exception("a host request failed")
            failed: JSONObject = {"type": "refused", "id": ident, "code": "error", "params": {}}
            await conn.send({**failed, "text": self._text("error")})
            return
        await conn.send({"type": "done", "id": ident, "result": result})
        self._schedule()

    def _text(self, code: str, **params: JSON) -> str:
        return text(code, params, self.language(), ("companion.net",))

    def _label(self, code: str) -> str:
        """A word of the host page itself (its catalogue is companion/net's)."""
        return text(code, {}, self.language(), ("companion.net",))

    def _error(self, exc: CompanionError) -> str:
        return refusal_text(exc, self.language(), ("companion.net",), self.table.current)

    # -- what the host page shows -----------------------------------------------------------------------
    def refresh(self) -> None:
        """Something the page shows beside the table changed (the Pi's warnings): push it."""
        self._schedule()

    def _schedule(self) -> None:
        if not self.sockets and not self.changed:
            return
        if self._push is None:
            self._push = asyncio.get_running_loop().call_later(PUSH_DELAY, self._start_push)

    def _start_push(self) -> None:
        self._push = None
        task = asyncio.ensure_future(self._push_all())
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def _push_all(self) -> None:
        for callback in list(self.changed):
            callback()
        if not self.sockets:
            return
        try:
            message = await self.state()
        except Exception:
            log.exception("the host page's state failed")
            return
        for conn in list(self.sockets):
            await conn.send(message)

    async def state(self) -> JSONObject:
        lang = self.language()
        games = await asyncio.to_thread(self.store.games)
        current = self.table.current
        open_game: JSON = None
        if current is not None:
            open_game = await self._current(lang)
        setup: list[JSON] = []
        last = preferences.last_setups(games)
        for rules in game_names():
            if not entry(rules).package.startswith("companion.games."):
                continue  # a game the tests add (the toy) is no box on a shelf
            summary = get_summary(rules)
            keys: list[JSON] = [
                {
                    "key": k.key,
                    "kind": k.kind,
                    "required": k.required,
                    "remembered": k.remembered,
                    "choices": list(k.choices),
                    "example": k.example,
                    "label": text(f"{summary.prefix}.setup_key.{k.key}", lang=lang),
                    "code": f"{summary.prefix}.setup_key.{k.key}",  # its words' code (``.item``: one entry)
                }
                for k in summary.setup_keys
            ]
            prefs = {s.key: v for s in preferences.settings() if (v := self.pref(s.key, None)) is not None}
            setup.append(
                {
                    "rules": rules,
                    "name": readable.phrase(f"{summary.prefix}.sum.game", {}, lang),
                    "keys": keys,
                    "defaults": preferences.setup_defaults(rules, prefs, last.get(rules)),
                }
            )
        return {
            "type": "host",
            "lang": lang,
            "languages": [{"code": c, "name": language_name(c)} for c in LANGUAGES],
            "games": [
                {
                    "id": h.id,
                    "title": h.title,
                    "rules": h.rules,
                    "status": h.status,
                    "events": h.events,
                    "updated": local_time(h.updated),
                    "current": current is not None and h.id == current.header.id,
                }
                for h in games
            ],
            "current": open_game,
            "warnings": list(self.warnings(lang)) if self.warnings is not None else [],
            "settings": {s.key: self.pref(s.key, s.default) for s in preferences.settings()},
            # the table's speech, then every game's preferences, as its package gives them (the
            # settings tab draws them all; the language has a field of its own)
            "preferences": [
                *preferences.table_entries(),
                *({**entry, "game": g} for g in game_names() for entry in game_preferences(g)),
            ],
            "setup": setup,
        }

    async def _current(self, lang: str) -> JSONObject:
        current = self.table.current
        assert current is not None
        header, game = current.header, current.game
        summary = get_summary(header.rules)
        view = game.rules.view(game.state, TABLE)
        seats = [*game.rules.seats(game.state), TABLE_SEAT]
        links = {link.seat: link for link in await asyncio.to_thread(self.links.ensure, header.id, seats)}
        connected = {seat for gid, seat in self.server.connected_seats() if gid == header.id}
        labels = {p.seat: p.name or readable.line(p.label, lang) for p in summary.players(view)}
        over = game.outcome() is not None
        out: JSONObject = {
            "id": header.id,
            "title": header.title,
            "rules": header.rules,
            "game": readable.phrase(f"{summary.prefix}.sum.game", {}, lang),
            "seq": game.seq,
            "status": readable.line(summary.status(view), lang),
            "over": over,
            "can_end": not over and self._end_intent() is not None,
            "seats": [
                {
                    "seat": seat,
                    "label": labels.get(seat, seat) if seat != TABLE_SEAT else self._label("host.table_screen"),
                    "claimed": links[seat].claimed,
                    "connected": seat in connected,
                }
                for seat in seats
            ],
        }
        if over:
            out["result"] = await self._result(header.id, game.seq, lang)
        return out

    async def _result(self, game_id: int, seq: int, lang: str) -> JSONObject:
        key = (game_id, seq, lang)
        if key not in self._results:
            play = await asyncio.to_thread(self.history.play, game_id, lang)
            self._results = {key: await asyncio.to_thread(self._play_json, play, True)}
        return self._results[key]

    def _play_json(self, play: Play, with_qr: bool) -> JSONObject:
        out: JSONObject = {
            "game_id": play.game_id,
            "game": play.game,
            "title": play.title,
            "when": local_time(play.started),
            "minutes": play.minutes,
            "how": play.how,
            "players": [
                {
                    "label": p.label,
                    "role": p.role,
                    "score": p.score,
                    "winner": p.winner,
                    "rank": p.rank,
                    "bot": p.bot,
                }
                for p in play.players
            ],
        }
        if with_qr:  # the code holds the short link on the Pi; the button, the whole link
            short = self.bgstats_url(play.game_id, play.started)
            out["bgstats"] = {"link": bgstats.link(play), "short": short, "qr": png_data(qr_png(short, 6))}
        return out

    # -- requests -----------------------------------------------------------------------------------
    async def op_new_game(self, args: JSONObject) -> JSON:
        rules, setup, title = args.get("rules"), args.get("setup"), args.get("title", "")
        if not isinstance(rules, str) or rules not in game_names() or not isinstance(setup, dict):
            raise MalformedInput("malformed", "expected rules, setup and title")
        if not isinstance(title, str) or len(title) > 80:
            raise MalformedInput("malformed.field", "title: a short text", field="title", expected="text")
        summary = get_summary(rules)
        missing = readable.missing_setup(summary, setup)
        if missing:
            raise HostError("host.setup_missing", "the setup is incomplete", keys=", ".join(k.key for k in missing))
        if not title:
            name = readable.phrase(f"{summary.prefix}.sum.game", {}, self.language())
            title = f"{name} {datetime.datetime.now().strftime('%d.%m. %H:%M')}"
        game_id = await self.table.new_game(rules, setup, title)
        return {"game_id": game_id}

    async def op_open_game(self, args: JSONObject) -> JSON:
        await self.table.open_game(_int(args, "id"))
        return None

    def _end_intent(self) -> str | None:
        """The intent with which the table ends the open game now, when its rules offer one (its facts'
        ``end_intent``, offered to the table now: Scotland Yard's "End the game now")."""
        current = self.table.current
        if current is None:
            return None
        kind = game_facts(current.header.rules).get("end_intent")
        if not isinstance(kind, str):
            return None
        legal = current.game.rules.legal(current.game.state, TABLE)
        offered = legal.get("intents", []) if isinstance(legal, dict) else []
        return kind if isinstance(offered, list) and kind in offered else None

    async def op_end_game(self, args: JSONObject) -> JSON:
        """The table ends the open game now, as the touchscreen's "End the game now" does."""
        current = self.table.current
        kind = self._end_intent()
        if current is None or kind is None:
            raise HostError("host.cannot_end", "this game cannot be ended from here now")
        game_id = current.header.id
        await self.table.submit_json(
            {"seq": _int(args, "seq"), "intent": {"kind": kind}}, TABLE, game_id=game_id, source="host"
        )
        return None

    async def op_close_game(self, args: JSONObject) -> JSON:
        await self.table.close_game()
        return None

    async def op_delete_game(self, args: JSONObject) -> JSON:
        await self.table.delete_game(_int(args, "id"))
        return None

    def _open_seat(self, args: JSONObject) -> tuple[int, str]:
        current = self.table.current
        seat = args.get("seat")
        if current is None:
            raise HostError("table.no_game", "no game is open")
        seats = [*current.game.rules.seats(current.game.state), TABLE_SEAT]
        if not isinstance(seat, str) or seat not in seats:
            raise HostError("host.no_seat", "no such seat in this game", seat=str(seat)[:20])
        return current.header.id, seat

    async def op_show_seat(self, args: JSONObject) -> JSON:
        """One seat's link, QR code and room code (for a seat no phone holds yet)."""
        game_id, seat = self._open_seat(args)
        (link,) = await asyncio.to_thread(self.links.ensure, game_id, [seat])
        if link.claimed:
            raise HostError("host.seat_taken", "a phone holds this seat; release it first")
        address, port = self.base()
        url = seat_url(address, port, link.token)
        png = await asyncio.to_thread(qr_png, url, 8)
        code = self.codes.issue(game_id, seat)
        return {"seat": seat, "url": url, "code": code.code, "qr": png_data(png)}

    async def op_release_seat(self, args: JSONObject) -> JSON:
        game_id, seat = self._open_seat(args)
        await self.server.release(game_id, seat)
        self.codes.forget(game_id, seat)
        return None

    async def op_setting(self, args: JSONObject) -> JSON:
        key, value = preferences.check(args.get("key"), args.get("value"))
        await self.set_pref(key, value)
        return None

    async def op_history(self, args: JSONObject) -> JSON:
        """One page of the history (``page`` from 0; every finished game is on one of them)."""
        page = args.get("page", 0)
        if isinstance(page, bool) or not isinstance(page, int) or not 0 <= page <= 10**6:
            raise MalformedInput("malformed.field", "page: expected a number from 0", field="page", expected="integer")
        plays, total = await asyncio.to_thread(self.history.page, self.language(), page * PAGE, PAGE)
        return {"plays": [self._play_json(p, False) for p in plays], "page": page, "per_page": PAGE, "total": total}

    async def op_bgstats(self, args: JSONObject) -> JSON:
        play = await asyncio.to_thread(self.history.play, _int(args, "game_id"), self.language())
        return await asyncio.to_thread(self._play_json, play, True)

    OPS: ClassVar[dict[str, Callable[[Host, JSONObject], Awaitable[JSON]]]] = {
        "new_game": op_new_game,
        "open_game": op_open_game,
        "close_game": op_close_game,
        "end_game": op_end_game,
        "delete_game": op_delete_game,
        "show_seat": op_show_seat,
        "release_seat": op_release_seat,
        "setting": op_setting,
        "history": op_history,
        "bgstats": op_bgstats,
    }


def _int(args: JSONObject, key: str) -> int:
    """An id from the page: an integer SQLite can hold (a larger one names no game either)."""
    value = args.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not -(2**63) <= value < 2**63:
        raise MalformedInput("malformed.field", f"{key}: expected integer", field=key, expected="integer")
    return value


def _resource(name: str) -> str:
    return importlib.resources.files("companion.net").joinpath("static", name).read_text("utf-8")
