"""The host link and the data directory's lock, with real processes (issue 26, items 9, 10, 11).

- 9: ``companion host-link`` printed the configured port, not the one the running server answers
  (``serve --port``, any free port).
- 10: ``host-link --new`` left a host page already open working with the old link.
- 11: an offline command holding the lock made ``serve`` (and ``run``) exit at once; under systemd
  each exit is a restart, and after five in five minutes the service stays failed. Now the service
  waits for the lock and says so in its status.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import aiohttp
from served import ROOT, Box, FakeSystemd, free_port, stop

SETUP = '{"mister_x": "Xavier", "detectives": ["Dora"]}'


def host_url(box: Box, *args: str) -> str:
    made = box.cli("host-link", *args)
    assert made.returncode == 0, made.stderr
    return made.stdout.strip().splitlines()[-1]


async def open_host_page(url: str) -> tuple[aiohttp.ClientSession, aiohttp.ClientWebSocketResponse]:
    base, token = url.split("/h/")
    session = aiohttp.ClientSession()
    async with session.get(url) as page:
        assert page.status == 200 and "host" in (await page.text()).lower()
    ws = await session.ws_connect(base + "/host/ws")
    await ws.send_json({"type": "hello", "token": token})
    return session, ws


async def first(ws: aiohttp.ClientWebSocketResponse, kinds: tuple[str, ...], timeout: float = 30) -> dict[str, object]:
    end = time.monotonic() + timeout
    while True:
        msg = await asyncio.wait_for(ws.receive(), max(0.01, end - time.monotonic()))
        if msg.type != aiohttp.WSMsgType.TEXT:
            return {"type": f"<{msg.type.name}>"}
        data: dict[str, object] = json.loads(msg.data)
        if data["type"] in kinds:
            return data


def test_host_link_names_the_port_the_running_server_answers(tmp_path: Path) -> None:
    """Item 9. The configuration says one port; ``serve --port`` another, and ``--port 0`` any free
    one: the printed link is the running server's (it opens the host page), and with nothing
    running the configured port again."""
    box = Box(tmp_path)
    assert box.cli("new", "scotland_yard", "--setup", SETUP).returncode == 0
    for given in (str(free_port()), "0"):
        server = box.serve("--port", given)
        try:
            url = host_url(box)
            listening = next(line for line in box.output if "serving phones on" in line)
            port = int(listening.split("http://", 1)[1].split()[0].rsplit(":", 1)[1])
            assert port != box.port and (given == "0" or port == int(given))
            assert f":{port}/h/" in url, (url, listening)  # on main: the configured port, where nothing answers

            async def opens(url: str) -> None:
                session, ws = await open_host_page(url)
                assert (await first(ws, ("welcome", "error")))["type"] == "welcome"
                await ws.close()
                await session.close()

            asyncio.run(opens(url))
        finally:
            stop(server, signal.SIGTERM)
    assert f":{box.port}/h/" in host_url(box)  # nothing runs: the configured port


def test_host_link_new_cuts_off_an_open_host_page(tmp_path: Path) -> None:
    """Item 10. A host page is open; ``companion host-link --new`` (another process) makes a new
    link: the open page is let go at once, told why, and only the new link opens the page."""
    box = Box(tmp_path)
    assert box.cli("new", "scotland_yard", "--setup", SETUP).returncode == 0
    server = box.serve()
    try:

        async def scenario() -> float:
            old = host_url(box)
            session, ws = await open_host_page(old)
            assert (await first(ws, ("welcome",)))["type"] == "welcome"
            await first(ws, ("host",))
            t0 = time.monotonic()
            new = await asyncio.to_thread(host_url, box, "--new")
            assert new != old
            told = await first(ws, ("error",), timeout=15)  # on main: nothing, the page kept working
            assert told["code"] == "host.replaced" and told["text"], told
            assert (await first(ws, ("never",), timeout=15))["type"] == "<CLOSE>"
            took = time.monotonic() - t0
            await session.close()
            for url, answer in ((old, "error"), (new, "welcome")):
                session, ws = await open_host_page(url)
                assert (await first(ws, ("welcome", "error")))["type"] == answer
                await ws.close()
                await session.close()
            return took

        took = asyncio.run(scenario())
        assert took < 10, took
    finally:
        stop(server, signal.SIGTERM)


HOLDER = """
import sys, time
from pathlib import Path
from companion.app.writer import WriterLock
lock = WriterLock(Path(sys.argv[1]))
assert lock.try_acquire("cli")  # what `companion import` of a long game does meanwhile
print("HOLDING", flush=True)
sys.stdin.readline()
lock.release()
"""


def hold_lock(box: Box) -> subprocess.Popen[str]:
    """A process holding the data directory's lock as an offline command does, until told (a line)."""
    env = {**box.env(), "PYTHONPATH": str(ROOT)}
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(box.data)], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "HOLDING"
    return holder


def test_the_service_waits_for_an_offline_command_instead_of_exiting(tmp_path: Path) -> None:
    """Item 11. An offline command holds the lock; ``companion serve`` started by systemd (its
    notification socket played by the test) waits — it does not exit (on main: at once, exit 2),
    tells systemd why in ``STATUS=`` and keeps its start timeout and watchdog alive — and once the
    command is done it comes up (``READY=1``) and serves."""
    box = Box(tmp_path)
    assert box.cli("new", "scotland_yard", "--setup", SETUP).returncode == 0
    holder = hold_lock(box)
    systemd = FakeSystemd(tmp_path)
    log = (tmp_path / "serve.log").open("wb")
    service_env = {**box.env(), "NOTIFY_SOCKET": str(systemd.path), "WATCHDOG_USEC": "4000000"}
    server = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve"],
        env=service_env,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=log,
    )
    try:
        waiting = systemd.wait_for("STATUS=waiting for the saved games", timeout=60)
        assert any(line.startswith("EXTEND_TIMEOUT_USEC=") for line in waiting), waiting
        assert f"process {holder.pid}" in " ".join(waiting)
        time.sleep(3)  # longer than it took main to give up
        assert server.poll() is None, (tmp_path / "serve.log").read_text()
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.wait(30) == 0
        ready = systemd.wait_for("READY=1", timeout=60)
        assert ready
        state = json.loads(box.cli("games", "--json").stdout)
        assert len(state) == 1
        assert box.cli("do", '{"kind": "sy.draw_start"}', "--as", "table").stdout  # acts through the served table
    finally:
        stop(server, signal.SIGTERM)
        if holder.poll() is None:
            holder.kill()
        log.close()
        systemd.sock.close()
    text = (tmp_path / "serve.log").read_text()
    assert "waiting for the saved games" in text  # the journal says so too


def test_a_terminal_serve_waits_for_an_offline_command_but_not_for_another_server(tmp_path: Path) -> None:
    """Outside systemd: an offline command is waited for (it ends soon); a running table is not
    (the second ``serve`` is refused at once with what to do, as before)."""
    box = Box(tmp_path)
    assert box.cli("new", "scotland_yard", "--setup", SETUP).returncode == 0
    holder = hold_lock(box)
    server = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve"],
        env=box.env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    said: list[str] = []
    try:
        # Until the server says it waits (not a fixed time: on a loaded machine its start-up alone
        # can take longer than any sleep chosen here), then the command ends.
        assert server.stdout is not None
        deadline = time.monotonic() + 60
        while not any("waiting for the saved games" in line for line in said):
            line = server.stdout.readline()
            assert line and time.monotonic() < deadline, "".join(said)  # on main: it exited at once
            said.append(line)
        assert server.poll() is None
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(30)
        threading.Thread(target=lambda: said.extend(server.stdout or ()), daemon=True).start()
        box.wait_listening(server)  # the command is done: the table came up
        second = box.cli("serve")
        assert second.returncode == 2 and "[writer.running]" in second.stderr, second
    finally:
        stop(server, signal.SIGTERM)
        if holder.poll() is None:
            holder.kill()
