"""A real table, store and phone server with the host and landing pages, on a loopback port; a host
page client over a real web socket."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from harness import Phone, Rig

from companion.app.preferences import Preferences
from companion.app.seats import SeatLinks
from companion.app.store import Store
from companion.app.table import Table
from companion.net.host import Host
from companion.net.server import PhoneServer


@dataclass
class HostRig(Rig):
    host: Host = field(default=None)  # type: ignore[assignment]
    prefs: Preferences = field(default=None)  # type: ignore[assignment]

    @property
    def host_url(self) -> str:
        return f"{self.base}/h/{self.host.link.token()}"

    async def host_page(self, token: object = None) -> HostClient:
        ws = await self.session.ws_connect(self.base + "/host/ws")
        client = HostClient(ws)
        real = self.host.link.token() if token is None else token
        await client.ws.send_str(json.dumps({"type": "hello", "token": real}))
        return client

    async def join(self, code: str) -> tuple[int, Any]:
        async with self.session.post(self.base + "/join", json={"code": code}) as r:
            return r.status, await r.json()


@dataclass
class HostClient:
    ws: aiohttp.ClientWebSocketResponse
    state: dict[str, Any] = field(default_factory=dict)
    received: list[str] = field(default_factory=list)
    next_id: int = 1

    async def recv(self, timeout: float = 30.0) -> dict[str, Any]:
        msg = await asyncio.wait_for(self.ws.receive(), timeout)
        if msg.type != aiohttp.WSMsgType.TEXT:
            return {"type": f"<{msg.type.name}>"}
        self.received.append(msg.data)
        data: dict[str, Any] = json.loads(msg.data)
        if data["type"] == "host":
            self.state = data
        return data

    async def until(self, check: Any, timeout: float = 30.0) -> dict[str, Any]:
        """Read until a host state for which ``check(state)`` is true."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        if self.state and check(self.state):
            return self.state
        while True:
            msg = await self.recv(max(0.01, end - loop.time()))
            if msg["type"] == "host" and check(msg):
                return msg
            if msg["type"].startswith("<"):
                raise AssertionError(f"the host page was closed while waiting: {msg}")

    async def do(self, op: str, **args: Any) -> dict[str, Any]:
        """A request; its answer (``done`` or ``refused``)."""
        ident = self.next_id
        self.next_id += 1
        await self.ws.send_str(json.dumps({"type": "do", "id": ident, "op": op, "args": args}))
        while True:
            msg = await self.recv()
            if msg["type"] in ("done", "refused") and msg.get("id") in (ident, None):
                return msg
            if msg["type"].startswith("<"):
                raise AssertionError(f"the host page was closed while waiting for {op}: {msg}")

    async def ok(self, op: str, **args: Any) -> Any:
        answer = await self.do(op, **args)
        assert answer["type"] == "done", answer
        return answer["result"]


@asynccontextmanager
async def host_rig(tmp_path: Path) -> AsyncIterator[HostRig]:
    store = Store(tmp_path / "host.sqlite3")
    table = Table(store)
    await table.start()
    links = SeatLinks(store)
    prefs = Preferences(store)
    await prefs.load()
    server = PhoneServer(table, links, language=lambda: prefs.language)
    port = [0]
    host = Host(
        server,
        store,
        table,
        links,
        tmp_path,
        base=lambda: ("127.0.0.1", port[0]),
        pref=prefs.get,
        set_pref=prefs.set,
        language=lambda: prefs.language,
    )
    runner, port[0] = await server.start("127.0.0.1", 0)
    session = aiohttp.ClientSession()
    try:
        yield HostRig(table, links, server, runner, port[0], session, host=host, prefs=prefs)
    finally:
        await session.close()
        await runner.cleanup()
        await table.stop()
        store.close()


__all__ = ["HostClient", "HostRig", "Phone", "host_rig"]
