"""A phone for the touchscreen benchmarks: one seat's web socket, in its own process (as a phone is
its own device), writing when each state arrived.

``python benchmarks/phone_probe.py URL`` (a seat's link, ``http://host:port/s/TOKEN``) says hello
on the page's web socket and then prints one line per state message: its ``seq`` and
``time.perf_counter()`` at its arrival (the system's monotonic clock, the same in every process on
the machine, so the app can subtract the moment it submitted the action). It leaves any CPU-capped
cgroup it was started in (the phone is not the Pi). Ends when its input closes or the socket does.
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


async def phone(url: str) -> None:
    parsed = urlparse(url)
    token = parsed.path.rsplit("/", 1)[-1]
    async with aiohttp.ClientSession() as session, session.ws_connect(f"{parsed.scheme}://{parsed.netloc}/ws") as ws:
        await ws.send_str(json.dumps({"type": "hello", "token": token, "device": secrets.token_hex(32)}))
        print("connected", flush=True)
        async for msg in ws:
            now = time.perf_counter()
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            if data.get("type") == "state":
                print(f"{data.get('seq')} {now:.6f}", flush=True)


def main() -> None:
    leave_cap()
    asyncio.run(phone(sys.argv[1]))


if __name__ == "__main__":
    main()
