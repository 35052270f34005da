"""``companion serve`` as a real process under hostile and unlucky clients (issue 26, items 3, 4, 5,
8 and 10). Several loopback addresses (127.0.0.2, 127.0.0.3, ... all reach the server on Linux) tell
"one device" from "the other phones".

- 3: one address opens 1,100 half-open HTTP requests against a server with the service's default
  limit of 1024 open files; on main no new phone joined for 60 s and the log grew by 215 MB.
- 4: wrong room codes from several addresses never get a right code refused; on main, after 30
  wrong codes in a minute from anyone, every right code was answered ``room.busy``.
- 5: a lone surrogate echoed back in a refusal killed a phone's (or the host page's) sender: the page
  showed "connected" and received nothing more.
- 8: Ctrl-C with phones open stopped ``serve`` after about 30 s; now within 2 s, every phone told
  "going away" (1001), and the phones reconnect to the next program.
- 10: a host hello refused during a flood was told ``host.invalid`` (the page gave up) instead of busy.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import secrets
import signal
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from harness import close_code
from served import ROOT, Box, stop

SETUP = '{"mister_x": "Xavier", "detectives": ["Dora", "Emil", "Fay"]}'
SEATS = ["mrx", "d1", "d2", "d3"]


def addresses_work() -> bool:
    try:
        with socket.socket() as s:
            s.bind(("127.0.0.9", 0))
        return True
    except OSError:
        return False


pytestmark = pytest.mark.skipif(not addresses_work(), reason="needs the whole 127/8 on loopback (Linux)")


@contextlib.asynccontextmanager
async def session_from(address: str) -> AsyncIterator[aiohttp.ClientSession]:
    connector = aiohttp.TCPConnector(local_addr=(address, 0), force_close=True)
    async with aiohttp.ClientSession(connector=connector) as session:
        yield session


class Phone:
    def __init__(self, session: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.session, self.ws = session, ws

    async def recv(self, timeout: float = 30.0) -> dict[str, Any]:
        msg = await asyncio.wait_for(self.ws.receive(), timeout)
        if msg.type != aiohttp.WSMsgType.TEXT:
            return {"type": f"<{msg.type.name}>", "code": close_code(msg, self.ws)}
        return json.loads(msg.data)  # type: ignore[no-any-return]

    async def until(self, kind: str, timeout: float = 30.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            msg = await self.recv(max(0.01, end - time.monotonic()))
            if msg["type"] == kind or msg["type"].startswith("<"):
                return msg

    async def close(self) -> None:
        await self.ws.close()
        await self.session.close()


async def phone(port: int, token: str, address: str, device: str | None = None) -> Phone:
    """A phone from ``address`` that joined its seat and holds the state."""
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0)))
    ws = await session.ws_connect(f"http://127.0.0.1:{port}/ws")
    await ws.send_json({"type": "hello", "token": token, "device": device or "ab" * 32})
    joined = Phone(session, ws)
    welcome = await joined.recv()
    assert welcome["type"] == "welcome", welcome
    await joined.until("state")
    return joined


def game(box: Box) -> None:
    assert box.cli("new", "scotland_yard", "--setup", SETUP).returncode == 0


def tokens(box: Box) -> dict[str, str]:
    return {seat: box.token(seat) for seat in [*SEATS, "@table"]}


def enough_files(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"this test opens {wanted} sockets; the limit is {hard}")
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def test_half_open_requests_from_one_address_block_no_other_phone(tmp_path: Path) -> None:
    """Item 3. One device, 1,100 half-open requests (its request headers never finished), against a
    server with systemd's default file limit (1024): three phones from other addresses still join
    at once, the device's own connections are closed after the request timeout, and the log holds
    a few lines — one per kind, and a summary — not one line or traceback per connection."""
    enough_files(1400)
    box = Box(tmp_path)
    game(box)
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        server = box.serve(files=1024, log=log)
        half_open: list[socket.socket] = []
        try:
            links = tokens(box)
            for _ in range(1100):
                s = socket.socket()
                s.bind(("127.0.0.2", 0))
                s.settimeout(10)
                try:
                    s.connect(("127.0.0.1", box.port))
                    s.sendall(b"GET /s/x HTTP/1.1\r\nHost: table\r\nX-Slow: ")  # and never more
                except OSError:
                    s.close()
                    continue
                half_open.append(s)
            assert len(half_open) >= 1000  # the kernel took them: the server had to deal with them

            async def others_join() -> list[float]:
                async def one(seat: str, address: str) -> float:
                    t0 = time.monotonic()
                    joined = await asyncio.wait_for(phone(box.port, links[seat], address), 15)
                    await joined.close()
                    return time.monotonic() - t0

                return await asyncio.gather(*(one(s, f"127.0.0.{3 + k}") for k, s in enumerate(SEATS[:3])))

            waits = asyncio.run(others_join())
            assert max(waits) < 5, waits  # on main: none of them within 60 s
            # The device's own connections: at most a few dozen held, each closed by the server once
            # its request is overdue (a phone from that address can then come in too).
            alive = _still_open(half_open, deadline=time.monotonic() + 60)
            assert alive == 0, f"{alive} half-open connections still held"
            joined = asyncio.run(asyncio.wait_for(phone(box.port, links["d3"], "127.0.0.2"), 15))
            asyncio.run(joined.close())
        finally:
            for s in half_open:
                s.close()
            stop(server, signal.SIGTERM)
    text = log_path.read_text("utf-8", "replace")
    assert "Too many open files" not in text and "Traceback" not in text, text[-3000:]
    assert len(text) < 20_000 and text.count("\n") < 80, (len(text), text[-3000:])
    assert "more like this" in text  # the refusals, summed up in one line
    for unit in ("companion.service", "companion-desktop.service"):  # and the service has room to begin with
        limits = [line for line in (ROOT / "deploy" / unit).read_text().splitlines() if line.startswith("LimitNOFILE=")]
        assert limits and int(limits[0].split("=")[1]) >= 4096, unit
    print(f"\n1,100 half-open from one address: phones joined in {max(waits):.2f} s; log {len(text)} bytes")


def _still_open(sockets: list[socket.socket], deadline: float) -> int:
    """How many of these connections the server has not closed by ``deadline``."""
    remaining = list(sockets)
    while remaining and time.monotonic() < deadline:
        still = []
        for s in remaining:
            s.settimeout(0.0)
            try:
                if s.recv(1024) == b"":
                    continue  # closed by the server
            except BlockingIOError:
                still.append(s)
                continue
            except OSError:
                continue  # reset by the server
        remaining = still
        if remaining:
            time.sleep(0.5)
    return len(remaining)


async def host_page(port: int, token: str, address: str = "127.0.0.1") -> tuple[aiohttp.ClientSession, Any]:
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0)))
    ws = await session.ws_connect(f"http://127.0.0.1:{port}/host/ws")
    await ws.send_json({"type": "hello", "token": token})
    return session, ws


async def host_recv(ws: Any, kind: str, ident: int | None = None, timeout: float = 30.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        msg = await asyncio.wait_for(ws.receive(), max(0.01, end - time.monotonic()))
        if msg.type != aiohttp.WSMsgType.TEXT:
            return {"type": f"<{msg.type.name}>", "code": close_code(msg, ws)}
        data: dict[str, Any] = json.loads(msg.data)
        if data["type"] in (kind, "error") and (ident is None or data.get("id") in (ident, None)):
            return data


def host_token(box: Box) -> str:
    made = box.cli("host-link")
    assert made.returncode == 0, made.stderr
    return made.stdout.strip().rsplit("/h/", 1)[1]


def test_wrong_room_codes_never_refuse_a_right_one_and_guessing_stays_bounded(tmp_path: Path) -> None:
    """Item 4. Twelve addresses type wrong codes as fast as they are answered (three times what the
    bound lets through: most of them wait for their turn); after 16 s of that a player types the
    right code shown on the host page, six times over (a code per seat, the seat released and
    shown again): every time it opens the seat, after one turn at most. Over the whole attack the
    server looked at no more codes than its bound (5 at once, then 30 a minute)."""
    box = Box(tmp_path)
    game(box)
    server = box.serve()
    try:
        asyncio.run(_room_codes(box))
    finally:
        stop(server, signal.SIGTERM)


async def _room_codes(box: Box) -> None:
    session, page = await host_page(box.port, host_token(box))
    await host_recv(page, "host")
    answers: list[tuple[float, int]] = []  # (when, status) of the attackers' codes

    async def attacker(address: str) -> None:
        async with session_from(address) as s:
            while True:
                code = "".join(secrets.choice("ABCDEFGHJKMNPQRSTWXY") for _ in range(5))
                async with s.post(f"http://127.0.0.1:{box.port}/join", json={"code": code}) as r:
                    answers.append((time.monotonic(), r.status))
                    await r.read()

    started = time.monotonic()
    attackers = [asyncio.create_task(attacker(f"127.0.1.{k}")) for k in range(1, 13)]
    waits = []
    try:
        await asyncio.sleep(16)  # the attack is under way (each address has guessed wrong by now)
        ident = 0
        for turn in range(6):
            seat = SEATS[turn % len(SEATS)]
            ident += 1
            await page.send_json({"type": "do", "id": ident, "op": "show_seat", "args": {"seat": seat}})
            shown = await host_recv(page, "done", ident)
            assert shown["type"] == "done", shown
            t0 = time.monotonic()
            async with (
                session_from("127.0.0.20") as player,
                player.post(f"http://127.0.0.1:{box.port}/join", json={"code": shown["result"]["code"]}) as r,
            ):
                answer = await r.json()
                assert r.status == 200 and answer["link"].startswith("/s/"), (turn, r.status, answer)
            waits.append(time.monotonic() - t0)
            ident += 1
            await page.send_json({"type": "do", "id": ident, "op": "release_seat", "args": {"seat": seat}})
            assert (await host_recv(page, "done", ident))["type"] == "done"
        await asyncio.sleep(max(0.0, started + 30 - time.monotonic()))
    finally:
        elapsed = time.monotonic() - started
        for task in attackers:
            task.cancel()
        await asyncio.gather(*attackers, return_exceptions=True)
        await page.close()
        await session.close()
    looked_at = sum(1 for _, status in answers if status == 403) + len(waits)
    busy = sum(1 for _, status in answers if status == 429)
    assert looked_at <= 5 + elapsed / 2 + 1, (looked_at, elapsed)  # 30 a minute, after a burst of 5
    assert max(waits) < 10, waits  # one turn (2 s) at most, on a loaded machine a little more
    print(
        f"\nroom codes: {len(answers)} wrong tries in {elapsed:.0f} s, {looked_at} looked at, {busy} told busy;"
        f" the right code opened its seat 6 of 6 times, waiting {min(waits):.1f}-{max(waits):.1f} s"
    )


def test_a_lone_surrogate_never_silences_a_phone_or_the_host_page(tmp_path: Path) -> None:
    """Item 5. A phone sends an intent whose kind is a lone surrogate; the host page a request whose
    op is one. Each is answered, and each socket goes on receiving: the phone the state the table's
    next action leads to, the host page its answers."""
    box = Box(tmp_path)
    game(box)
    server = box.serve()
    try:

        async def scenario() -> None:
            mrx = await phone(box.port, box.token("mrx"), "127.0.0.2")
            await mrx.ws.send_str('{"type": "intent", "id": 1, "seq": 0, "intent": {"kind": "\\ud800"}}')
            refused = await mrx.until("refused")
            assert refused["type"] == "refused" and refused["code"].startswith("malformed"), refused
            session, page = await host_page(box.port, host_token(box))
            await host_recv(page, "host")
            await page.send_str('{"type": "do", "id": 1, "op": "\\udfff", "args": {"x": "\\ud800"}}')
            assert (await host_recv(page, "refused", 1))["type"] == "refused"
            # The table acts (through the running app): the phone hears it, the page still answers.
            done = await asyncio.to_thread(box.cli, "do", '{"kind": "sy.draw_start"}', "--as", "table")
            assert done.returncode == 0, done.stderr
            state = await mrx.until("state")
            assert state["type"] == "state" and state["seq"] == 2, state
            await page.send_json({"type": "do", "id": 2, "op": "history", "args": {}})
            assert (await host_recv(page, "done", 2))["type"] == "done"
            await mrx.close()
            await page.close()
            await session.close()

        asyncio.run(scenario())
    finally:
        stop(server, signal.SIGTERM)


def test_ctrl_c_with_phones_open_stops_at_once_and_the_phones_come_back(tmp_path: Path) -> None:
    """Item 8. Four phones and the host page open; Ctrl-C (SIGINT) on ``serve``: it ends within 2 s
    (on main: about 30 s, and meanwhile a new ``serve`` was refused as "already running"), every
    socket closed with 1001 "going away"; the next ``serve`` takes the phones back."""
    box = Box(tmp_path)
    game(box)
    server = box.serve()
    links = tokens(box)
    stopped = 0.0
    try:

        async def scenario() -> float:
            phones = [
                await phone(box.port, links[s], f"127.0.0.{2 + k}", device=f"{k:02d}" * 32) for k, s in enumerate(SEATS)
            ]
            session, page = await host_page(box.port, host_token(box))
            await host_recv(page, "host")
            t0 = time.monotonic()
            server.send_signal(signal.SIGINT)
            # Each page reads (as a page does), and so answers the server's close at once.
            closes = await asyncio.gather(*(p.until("<CLOSE>") for p in phones), host_recv(page, "<CLOSE>"))
            assert [c["code"] for c in closes] == [1001] * 5, closes
            await asyncio.to_thread(server.wait, 30)
            took = time.monotonic() - t0
            for p in phones:
                await p.close()
            await session.close()
            return took

        stopped = asyncio.run(scenario())
        assert server.returncode == 0, box.rest_of_output(server)
        assert stopped <= 5.0, stopped  # (2 s is the aim: the bound is generous for a loaded machine)
        # The next program: the phones' pages reconnect with their links and devices.
        server = box.serve()

        async def back() -> None:
            for k, s in enumerate(SEATS):
                p = await phone(box.port, links[s], f"127.0.0.{2 + k}", device=f"{k:02d}" * 32)
                await p.close()

        asyncio.run(back())
    finally:
        stop(server, signal.SIGTERM)
    print(f"\nCtrl-C with 4 phones and the host page open: serve ended in {stopped:.2f} s")


def test_a_host_hello_refused_during_a_flood_is_told_busy(tmp_path: Path) -> None:
    """Item 10. One address has more hellos waiting than allowed (after wrong guesses): its host
    page is told ``link.busy`` — the page tries again — not ``host.invalid`` (the page gave up)."""
    box = Box(tmp_path)
    game(box)
    server = box.serve()
    try:

        async def scenario() -> None:
            token = host_token(box)
            wrong = []
            for _ in range(4):  # three free failures, then that address is slowed
                session, ws = await host_page(box.port, "x" * 32, "127.0.0.5")
                assert (await host_recv(ws, "welcome"))["code"] == "host.invalid"
                await session.close()
            for _ in range(10):  # hellos that wait their turn
                wrong.append(await host_page(box.port, "x" * 32, "127.0.0.5"))
            session, ws = await host_page(box.port, token, "127.0.0.5")
            answer = await host_recv(ws, "welcome")
            assert answer["type"] == "error" and answer["code"] == "link.busy", answer
            for s, w in [*wrong, (session, ws)]:
                await w.close()
                await s.close()

        asyncio.run(scenario())
    finally:
        stop(server, signal.SIGTERM)
