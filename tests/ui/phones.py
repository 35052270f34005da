"""A real phone (``tests/net/harness.py``'s web socket client) driven from synchronous test code.

The phone runs on its own event loop in a background thread; :class:`SyncPhone` wraps its
coroutines so a test can interleave phone actions with taps on the touchscreen."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import secrets
import sys
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import aiohttp

HARNESS = Path(__file__).resolve().parents[1] / "net" / "harness.py"
_spec = importlib.util.spec_from_file_location("net_harness", HARNESS)
assert _spec is not None and _spec.loader is not None
harness = importlib.util.module_from_spec(_spec)
sys.modules["net_harness"] = harness
_spec.loader.exec_module(harness)


class PumpedPhone(harness.Phone):  # type: ignore[misc,name-defined]
    """A harness phone whose socket is read all the time (so pings are answered while the test
    is busy with the touchscreen: a phone that never reads is closed by the server's heartbeat);
    ``recv`` takes the messages in the order they came."""

    def start_pump(self) -> None:
        self.inbox: asyncio.Queue[Any] = asyncio.Queue()
        self.pump = asyncio.get_running_loop().create_task(self._pump())

    async def _pump(self) -> None:
        while True:
            msg = await self.ws.receive()
            await self.inbox.put(msg)
            if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                return

    async def recv(self, timeout: float = 30.0) -> dict[str, Any]:
        msg = await asyncio.wait_for(self.inbox.get(), timeout)
        if msg.type != aiohttp.WSMsgType.TEXT:
            return {"type": f"<{msg.type.name}>"}
        self.received.append(msg.data)
        data: dict[str, Any] = json.loads(msg.data)
        return data


class SyncPhone:
    def __init__(self, url: str, device: str | None = None) -> None:
        parsed = urlparse(url)
        self.base = f"{parsed.scheme}://{parsed.netloc}"
        self.token = parsed.path.rsplit("/", 1)[-1]
        self.device = device or secrets.token_hex(32)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.phone: Any = None
        self.session: aiohttp.ClientSession | None = None

    def _run(self, coro: Any, timeout: float = 40.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def connect(self) -> dict[str, Any]:
        """Open the page's web socket and say hello; returns the welcome (or error)."""

        async def go() -> dict[str, Any]:
            if self.session is None:
                self.session = aiohttp.ClientSession()
            ws = await self.session.ws_connect(self.base + "/ws")
            self.phone = PumpedPhone(ws, self.device)
            self.phone.start_pump()
            await self.phone.send({"type": "hello", "token": self.token, "device": self.device})
            reply: dict[str, Any] = await self.phone.recv()
            return reply

        return self._run(go())  # type: ignore[no-any-return]

    def state(self, seq: int | None = None, timeout: float = 30.0) -> dict[str, Any]:
        """The newest state, after reading until one with at least ``seq`` arrived."""

        async def go() -> dict[str, Any]:
            latest = self.latest()
            while latest is None or (seq is not None and latest["seq"] < seq):
                await self.phone.until("state", timeout=timeout)
                latest = self.latest()
            # drain whatever else is already waiting
            while True:
                try:
                    await self.phone.recv(timeout=0.05)
                except TimeoutError:
                    break
            latest = self.latest()
            assert latest is not None
            return latest

        return self._run(go(), timeout + 5)  # type: ignore[no-any-return]

    def latest(self) -> dict[str, Any] | None:
        states = [json.loads(m) for m in self.phone.received]
        states = [m for m in states if m.get("type") == "state"]
        return states[-1] if states else None

    def until_error(self, timeout: float = 30.0) -> str:
        """The code of the next error message (e.g. the table released this seat)."""

        async def go() -> str:
            message = await self.phone.until("error", timeout=timeout)
            return str(message["code"])

        return self._run(go(), timeout + 5)  # type: ignore[no-any-return]

    def until_type(self, kind: str, timeout: float = 30.0) -> dict[str, Any]:
        """The next message of type ``kind`` (e.g. ``language``: the table switched language)."""

        async def go() -> dict[str, Any]:
            message: dict[str, Any] = await self.phone.until(kind, timeout=timeout)
            return message

        return self._run(go(), timeout + 5)  # type: ignore[no-any-return]

    def intent(self, intent: dict[str, Any], seq: int) -> dict[str, Any]:
        return self._run(self.phone.intent(seq, intent))  # type: ignore[no-any-return]

    def close(self) -> None:
        async def go() -> None:
            if self.phone is not None:
                await self.phone.close()
            if self.session is not None:
                await self.session.close()

        try:
            self._run(go())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)
