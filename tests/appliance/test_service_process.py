"""`companion serve` as systemd runs it: a real process, a real notification socket, a real phone.

systemd's side is played by this test: it binds the datagram socket named in $NOTIFY_SOCKET, asks
for a watchdog ($WATCHDOG_USEC) and connects stderr to a file named in $JOURNAL_STREAM.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp
from served import FakeSystemd

from companion.app.chance import TEST_SEED_ENV
from companion.app.seats import SeatLinks
from companion.app.store import Store

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_tells_systemd_ready_status_watchdog_and_stopping(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    port = free_port()
    config = tmp_path / "companion.toml"
    config.write_text(
        f'[table]\ndata_dir = "{data}"\n[server]\nhost = "127.0.0.1"\nport = {port}\npublic_address = "127.0.0.1"\n'
        '[hardware]\nmode = "simulated"\n'
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("COMPANION_", "NOTIFY_", "WATCHDOG_", "JOURNAL_")) or k == TEST_SEED_ENV
    }
    env["COMPANION_CONFIG"] = str(config)
    made = subprocess.run(
        [sys.executable, "-m", "companion.cli", "new", "scotland_yard", "--setup", '{"detectives": ["Dora"]}'],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    systemd = FakeSystemd(tmp_path)
    log_path = tmp_path / "journal.log"
    log = log_path.open("wb")
    st = os.fstat(log.fileno())
    env.update(NOTIFY_SOCKET=str(systemd.path), WATCHDOG_USEC="400000", JOURNAL_STREAM=f"{st.st_dev}:{st.st_ino}")
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
        stdout=log, stderr=log,
    )  # fmt: skip
    try:
        ready = systemd.wait_for("READY=1")
        assert ready[1].startswith("STATUS=game 1 scotland_yard at seq ")
        assert ready[1].endswith("; 0 phones connected")
        assert systemd.messages[-1][0] == proc.pid  # sent by the service's main process (NotifyAccess=main)
        # a phone joins: the status systemd shows follows within a heartbeat or two
        with Store(data / "companion.sqlite3") as store:
            token = SeatLinks(store).ensure(1, ["mrx"])[0].token
        asyncio.run(phone_joins(port, token, systemd))
        beats = sum(lines.count("WATCHDOG=1") for _, lines in systemd.messages)
        assert beats >= 2  # every 0.2 s: half of WATCHDOG_USEC
        proc.send_signal(signal.SIGTERM)
        systemd.wait_for("STOPPING=1", timeout=30)
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        log.close()
        systemd.sock.close()
    journal = log_path.read_text()
    assert "\x1b[" not in journal
    logged = [line for line in journal.splitlines() if line.startswith("<")]
    assert logged, journal  # journal lines carry a syslog priority, no time stamp
    assert all(line[:3] in ("<2>", "<3>", "<4>", "<6>", "<7>") for line in logged)


async def phone_joins(port: int, token: str, systemd: FakeSystemd) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
        await ws.send_str(json.dumps({"type": "hello", "token": token, "device": "d" * 64}))
        welcome = json.loads((await ws.receive(timeout=30)).data)
        assert welcome["type"] == "welcome"
        status = await asyncio.to_thread(systemd.wait_for, "STATUS=game 1 scotland_yard at seq", 30)
        while not any(line.endswith("; 1 phone connected") for line in status):
            status = await asyncio.to_thread(systemd.wait_for, "STATUS=", 30)
