"""A phone for the touchscreen benchmarks: one seat's web socket, in its own process (as a phone is
its own device), writing when each state arrived.

``python benchmarks/phone_probe.py URL`` (a seat's link, ``http://host:port/s/TOKEN``) says hello
on the page's web socket and then prints one line per state message: its ``seq`` and
``time.perf_counter()`` at its arrival (the system's monotonic clock, the same in every process on
the machine, so the app can subtract the moment it submitted the action). It leaves any CPU-capped
cgroup it was started in (the phone is not the Pi). Ends when its input closes or the socket does.

With ``--act`` the phone also plays: each line on its input, ``{"id", "seq", "intent"}``, is sent
as the page sends a player's move (the app answers ``ack`` or ``refused``); ``--device=HEX`` is
the phone's device secret (the same phone coming back to its seat), a new one without it. With a host link
(``http://host:port/h/TOKEN``) it is the host page instead: its web socket, reading what it pushes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import aiohttp

ROOT_GROUP = Path("/sys/fs/cgroup/cpu/cgroup.procs")


def leave_cap() -> None:
    with contextlib.suppress(OSError):  # not capped, or not allowed: measured as it is
        ROOT_GROUP.write_text(str(os.getpid()))


async def act(ws: aiohttp.ClientWebSocketResponse) -> None:
    """Send each intent line from the input, as the phone page does."""
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            await ws.close()
            return
        await ws.send_str(line.strip())


async def phone(url: str, acting: bool, device: str) -> None:
    parsed = urlparse(url)
    token = parsed.path.rsplit("/", 1)[-1]
    host = parsed.path.startswith("/h/")
    path, hello = ("/host/ws", {"type": "hello", "token": token}) if host else ("/ws", None)
    hello = hello or {"type": "hello", "token": token, "device": device}
    async with aiohttp.ClientSession() as session, session.ws_connect(f"{parsed.scheme}://{parsed.netloc}{path}") as ws:
        await ws.send_str(json.dumps(hello))
        print("connected", flush=True)
        sender = asyncio.get_running_loop().create_task(act(ws)) if acting else None
        async for msg in ws:
            now = time.perf_counter()
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            if data.get("type") == "state" and not host:
                print(f"{data.get('seq')} {now:.6f}", flush=True)
        if sender is not None:
            sender.cancel()


def main() -> None:
    leave_cap()
    flags = sys.argv[2:]
    device = next((f.split("=", 1)[1] for f in flags if f.startswith("--device=")), secrets.token_hex(32))
    asyncio.run(phone(sys.argv[1], "--act" in flags, device))


if __name__ == "__main__":
    main()
