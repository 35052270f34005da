"""A real table, store and phone server on a loopback port, and real web socket phones."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from companion.app.seats import SeatLinks
from companion.app.store import Store
from companion.app.table import Table
from companion.core.jsonvalue import JSONObject
from companion.net import server as server_module
from companion.net.server import PhoneServer


@dataclass
class Rig:
    table: Table
    links: SeatLinks
    server: PhoneServer
    runner: web.AppRunner
    port: int
    session: aiohttp.ClientSession

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def tokens(self, seats: list[str]) -> dict[str, str]:
        assert self.table.current is not None
        return {link.seat: link.token for link in self.links.ensure(self.table.current.header.id, seats)}

    async def connect_all(self, seats: list[str]) -> dict[str, Phone]:
        """A phone on every seat (and e.g. the table link), each welcomed and holding the state."""
        tokens = self.tokens(seats)
        phones: dict[str, Phone] = {}
        for seat in seats:
            phones[seat] = await self.phone(tokens[seat])
            assert (await phones[seat].recv())["type"] == "welcome"
            await phones[seat].until("state")
        return phones

    async def phone(self, token: str, device: str | None = None) -> Phone:
        ws = await self.session.ws_connect(self.base + "/ws")
        phone = Phone(ws, device or secrets.token_hex(32))
        await phone.send({"type": "hello", "token": token, "device": phone.device})
        return phone


def close_code(msg: aiohttp.WSMessage, ws: aiohttp.ClientWebSocketResponse) -> int | None:
    """The close code the server sent: its close frame's (``msg.data``), not ``ws.close_code``, which
    turns 1006 when this process, stalled on a loaded machine, answers the close after the server,
    done waiting for the answer, has closed the connection."""
    return int(msg.data) if msg.type == aiohttp.WSMsgType.CLOSE else ws.close_code


@dataclass
class Phone:
    """A web socket client that records every byte it receives."""

    ws: aiohttp.ClientWebSocketResponse
    device: str
    received: list[str] = field(default_factory=list)
    next_id: int = 1

    async def send(self, message: Any) -> None:
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = 30.0) -> JSONObject:
        # A hard deadline: ws.receive(timeout=...) restarts its clock after every server ping
        # (heartbeat 20 s), so it would wait forever for a message that never comes.
        msg = await asyncio.wait_for(self.ws.receive(), timeout)
        if msg.type != aiohttp.WSMsgType.TEXT:
            return {"type": f"<{msg.type.name}>", "code": close_code(msg, self.ws)}
        self.received.append(msg.data)
        data: JSONObject = json.loads(msg.data)
        return data

    async def until(self, kind: str, timeout: float = 30.0, **match: Any) -> JSONObject:
        """Read messages until one of type ``kind`` (matching ``match``) arrives."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            msg = await self.recv(max(0.01, end - loop.time()))
            if msg["type"] == kind and all(msg.get(k) == v for k, v in match.items()):
                return msg
            if msg["type"].startswith("<"):
                raise AssertionError(f"connection ended while waiting for {kind}: {msg}")

    async def intent(self, seq: int, intent: JSONObject, timeout: float = 30.0) -> JSONObject:
        """Send an intent and return its ack or refusal (a refusal without an id, e.g. for
        flooding, answers it too: the server dropped the message unread)."""
        ident = self.next_id
        self.next_id += 1
        await self.send({"type": "intent", "id": ident, "seq": seq, "intent": intent})
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            msg = await self.recv(max(0.01, end - loop.time()))
            if msg["type"] in ("ack", "refused") and msg.get("id") in (ident, None):
                return msg
            if msg["type"].startswith("<"):
                raise AssertionError(f"connection ended while waiting for the answer to {intent}: {msg}")

    async def close(self) -> None:
        # The server may have closed this socket itself (a released seat, a closed game).
        with contextlib.suppress(ConnectionError):
            await self.ws.close()


def lift_flood_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """For tests whose phones play hundreds of moves a second: what they test is what each client
    receives, not the flood limit (tested in test_server.py), which no human at a table reaches."""
    bucket = server_module.Bucket
    monkeypatch.setattr(server_module, "Bucket", lambda: bucket(capacity=1e9, rate=1e9, level=1e9))


@asynccontextmanager
async def rig(tmp_path: Path, rules: str, config: JSONObject, seed: int = 1) -> AsyncIterator[Rig]:
    """A table with a game of ``rules`` (its shuffles from ``seed``: a run repeats exactly) and its phone server."""
    store = Store(tmp_path / "phones.sqlite3")
    table = Table(store)
    await table.start()
    await table.new_game(rules, config, "Friday night", seed=seed)
    links = SeatLinks(store)
    server = PhoneServer(table, links)
    runner, port = await server.start("127.0.0.1", 0)
    session = aiohttp.ClientSession()
    try:
        yield Rig(table, links, server, runner, port, session)
    finally:
        await session.close()
        await runner.cleanup()
        await table.stop()
        store.close()
