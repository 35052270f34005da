"""The phone server under hostile and unlucky clients (issue 12, item 7): the throttle never raises
and never locks out a valid link; every malformed hello gets a documented code; a phone that
vanishes mid-send is let go quietly while everyone else plays on."""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import logging
import os
import socket
import struct
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from harness import Rig, rig

from companion.core import TABLE
from companion.net import server as server_module

LOOPBACK = "127.0.0.1"


def run(coro) -> None:  # type: ignore[no-untyped-def]
    asyncio.run(coro)


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


async def start_toy(r: Rig) -> None:
    from toygame import Draw

    await r.table.submit(Draw(), TABLE, 0, game_id=r.table.current.header.id)  # type: ignore[union-attr]


async def hello(r: Rig, text: str) -> dict[str, Any]:
    ws = await r.session.ws_connect(r.base + "/ws")
    try:
        await ws.send_str(text)
        msg = await asyncio.wait_for(ws.receive(), 30)
        return json.loads(msg.data)  # type: ignore[no-any-return]
    finally:
        await ws.close()


def good_hello(token: str, device: str = "ab" * 32) -> str:
    return json.dumps({"type": "hello", "token": token, "device": device})


def test_a_thousand_failures_neither_break_the_throttle_nor_lock_out_a_valid_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """On main, 1,027 failures made ``Failures.delay`` raise ``OverflowError`` on every later hello
    from that address: the slow-down was gone and a valid link could not join any more."""
    monkeypatch.setattr(server_module, "MAX_DELAY", 0.3)  # the cap, shortened for the test

    async def scenario() -> None:
        async with rig(tmp_path, "toy", {}) as r:
            await start_toy(r)
            token = r.tokens(["a"])["a"]
            for _ in range(1100):
                r.server.failures.failed(LOOPBACK)
            assert r.server.failures.delay(LOOPBACK) == pytest.approx(0.3)

            # Every hello of this address is read in its turn, one at a time, each after the wait.
            seen: list[float] = []
            claim = r.links.claim

            def timed_claim(token: object, device: object) -> Any:
                seen.append(time.monotonic())
                return claim(token, device)

            monkeypatch.setattr(r.links, "claim", timed_claim)
            guesses = [hello(r, good_hello("G" * 30 + str(i))) for i in range(5)]
            answers = await asyncio.gather(*guesses, hello(r, good_hello(token)))
            assert [a["code"] for a in answers[:5]] == ["link.invalid"] * 5
            assert answers[5]["type"] == "welcome" and answers[5]["seat"] == "a"  # the valid link joined
            gaps = [b - a for a, b in itertools.pairwise(seen)]
            assert len(seen) == 6 and min(gaps) >= 0.25, gaps  # never two guesses in one wait
            assert r.server.failures.delay(LOOPBACK) == 0.0  # a valid link clears its address
        no_tracebacks(caplog)

    run(scenario())


def test_more_waiting_hellos_than_allowed_are_told_busy_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_module, "MAX_DELAY", 30.0)  # a waiting hello's turn: far beyond the wait below

    async def scenario() -> None:
        async with rig(tmp_path, "toy", {}) as r:
            for _ in range(10):
                r.server.failures.failed(LOOPBACK)
            sockets = [await r.session.ws_connect(r.base + "/ws") for _ in range(server_module.MAX_WAITING + 3)]
            for ws in sockets:
                await ws.send_str(good_hello("G" * 32))
            started = time.monotonic()

            async def first_answer(ws: aiohttp.ClientWebSocketResponse) -> str | None:
                try:
                    msg = await asyncio.wait_for(ws.receive(), 10.0)  # "at once", even on a loaded machine
                except TimeoutError:
                    return None  # waiting for its turn
                return str(json.loads(msg.data)["code"]) if msg.type.name == "TEXT" else None

            answers = await asyncio.gather(*(first_answer(ws) for ws in sockets))
            # The three over the limit are told at once; the others are still waiting for their turn.
            assert answers.count("link.busy") >= 3 and time.monotonic() - started < 25
            for ws in sockets:
                await ws.close()
            gone = time.monotonic()
        # The waiting phones left: each gave up its turn at once, so the server stopped without
        # sitting out their waits (before, 8 turns of 30 s: 4 minutes).
        assert time.monotonic() - gone < 20

    run(scenario())


def test_every_malformed_hello_gets_a_documented_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A lone surrogate is legal JSON; on main it raised ``UnicodeEncodeError`` in the token lookup."""
    monkeypatch.setattr(server_module, "HELLO_TIMEOUT", 0.5)
    monkeypatch.setattr(server_module, "MAX_DELAY", 0.2)
    documented = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")

    async def scenario() -> None:
        async with rig(tmp_path, "toy", {}) as r:
            token = r.tokens(["a"])["a"]
            codes = []
            for text in [
                '{"type": "hello", "token": "\\ud800' + "a" * 20 + '", "device": "' + "ab" * 32 + '"}',
                '{"type": "hello", "token": "' + token + '", "device": "\\udfff' + "a" * 40 + '"}',
                '{"type": "hello", "token": ' + json.dumps(token) + ', "device": 5}',
                '{"type": "hello", "token": ["x"], "device": "' + "ab" * 32 + '"}',
                '{"type": "hello", "token": "' + "é" * 30 + '", "device": "' + "ab" * 32 + '"}',
                "[" * 100_0 + "]" * 100_0,
                "\x00",
                "",
            ]:
                codes.append((await hello(r, text))["code"])
            assert set(codes) == {"link.invalid"}
            ws = await r.session.ws_connect(r.base + "/ws")
            await ws.send_bytes(b"\x00\x01")
            assert json.loads((await ws.receive()).data)["code"] == "link.invalid"
            await ws.close()
            ws = await r.session.ws_connect(r.base + "/ws")  # says nothing
            silent = json.loads((await asyncio.wait_for(ws.receive(), 30)).data)
            assert silent["code"] == "hello.timeout" and silent["text"]
            await ws.close()
            for code in ("link.invalid", "hello.timeout", "link.busy"):
                assert f"`{code}`" in documented or f'"{code}"' in documented, code
            # The real link still works from this address (after its wait).
            assert (await hello(r, good_hello(token)))["type"] == "welcome"
        no_tracebacks(caplog)

    run(scenario())


def raw_phone(port: int, token: str) -> socket.socket:
    """A phone as bytes on a TCP socket (so the test can vanish without a goodbye): the web socket
    handshake, then a masked hello frame. A tiny receive buffer fills up quickly."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((LOOPBACK, port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: {LOOPBACK}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    payload = good_hello(token, "cd" * 32).encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    sock.sendall(bytes([0x81, 0x80 | 126]) + struct.pack("!H", len(payload)) + mask + masked)
    response = b""
    while b"\r\n\r\n" not in response:
        response += sock.recv(1)
    assert b" 101 " in response, response
    return sock


def test_a_phone_that_vanishes_mid_send_is_let_go_quietly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """On main the sender's ``ConnectionResetError`` escaped the handler as a logged traceback."""
    from harness import lift_flood_limit
    from toygame import Add

    lift_flood_limit(monkeypatch)
    caplog.set_level(logging.INFO)

    async def scenario() -> None:
        async with rig(tmp_path, "toy", {}) as r:
            # A long title makes every state big: the unread ones fill the buffers and the sender
            # waits in the middle of a send when the phone vanishes.
            game_id = await r.table.new_game("toy", {"target": 10**9}, "Friday " * 20_000)
            await start_toy(r)
            tokens = r.tokens(["a", "b"])
            b = (await r.connect_all(["b"]))["b"]
            vanishing = await asyncio.to_thread(raw_phone, r.port, tokens["a"])
            for turn in range(120):  # states pile up unread in the vanishing phone's small buffer
                seat = "a" if turn % 2 == 0 else "b"
                from companion.core import Audience

                await r.table.submit(Add(seat, 1), Audience.of_seat(seat), None, game_id=game_id)
                if turn == 60:  # gone without a goodbye: the next send meets a reset connection
                    vanishing.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    vanishing.close()
            deadline = time.monotonic() + 30
            while any(c.claim.seat == "a" for c in r.server.connections) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert not any(c.claim.seat == "a" for c in r.server.connections), "the vanished phone is let go"
            assert (await b.until("state", seq=r.table.seq))["seq"] == r.table.seq  # b plays on
        no_tracebacks(caplog)

    run(scenario())


def test_a_send_that_fails_closes_the_socket_so_the_page_reconnects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26, item 5. Whatever makes a send fail (on main: a lone surrogate that UTF-8 cannot
    carry), the phone must not be left "connected" and deaf: its socket is closed (1011), and the
    page reconnects by itself. On main the sender died and the socket stayed open, silent."""
    from toygame import Add

    from companion.core import Audience

    async def scenario() -> None:
        async with rig(tmp_path, "toy", {}) as r:
            await start_toy(r)
            a = (await r.connect_all(["a"]))["a"]
            (conn,) = r.server.connections

            def broken(message: Any) -> str:
                raise ValueError("cannot be written")

            monkeypatch.setattr(conn, "state_text", broken)
            game_id = r.table.current.header.id  # type: ignore[union-attr]
            await r.table.submit(Add("a", 1), Audience.of_seat("a"), None, game_id=game_id)
            closed = await a.recv(timeout=30)
            assert closed == {"type": "<CLOSE>", "code": 1011}, closed
            again = await r.phone(r.tokens(["a"])["a"], a.device)  # the page reconnects: the seat plays on
            assert (await again.recv())["type"] == "welcome"
            await r.table.submit(Add("b", 1), Audience.of_seat("b"), None, game_id=game_id)
            assert (await again.until("state", seq=r.table.seq))["seq"] == r.table.seq

    run(scenario())


def test_every_frame_is_encodable(tmp_path: Path) -> None:
    """Issue 26, item 5: a text UTF-8 cannot carry (a lone surrogate) is sent escaped, the same JSON."""
    from companion.net.server import _send

    async def scenario() -> None:
        async with rig(tmp_path, "toy", {}) as r:
            a = (await r.connect_all(["a"]))["a"]
            (conn,) = r.server.connections
            await _send(conn.ws, {"type": "refused", "id": None, "code": "x", "params": {"kind": "\ud800"}, "text": ""})
            got = await a.recv()
            assert got["params"] == {"kind": "\ud800"}

    run(scenario())
