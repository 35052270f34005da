"""The systemd notification protocol against a real datagram socket, like systemd's own."""

from __future__ import annotations

import asyncio
import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.appliance.notify import Heartbeat, Notifier


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[str, socket.socket]]:
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(5)
    yield str(path), sock
    sock.close()


def received(sock: socket.socket) -> list[str]:
    return sock.recv(65536).decode().split("\n")


def test_ready_status_watchdog_stopping_reach_the_socket(listener: tuple[str, socket.socket]) -> None:
    address, sock = listener
    n = Notifier.from_environ({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "4000000"}, pid=os.getpid())
    assert n.enabled and n.interval == 2.0
    assert n.ready("game 1 at seq 3")
    assert received(sock) == ["READY=1", "STATUS=game 1 at seq 3"]
    n.status("two\nlines")
    assert received(sock) == ["STATUS=two lines"]  # a status never breaks the KEY=VALUE framing
    n.watchdog()
    assert received(sock) == ["WATCHDOG=1"]
    n.stopping()
    assert received(sock) == ["STOPPING=1"]
    n.close()


def test_abstract_namespace_address() -> None:
    name = f"companion-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(5)
    try:
        assert Notifier.from_environ({"NOTIFY_SOCKET": "@" + name}).ready()
        assert received(sock) == ["READY=1"]
    finally:
        sock.close()


def test_watchdog_belongs_to_the_named_process_only() -> None:
    env = {"NOTIFY_SOCKET": "/nonexistent", "WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"}
    assert Notifier.from_environ(env, pid=4242).watchdog_usec is None  # meant for another process
    assert Notifier.from_environ({**env, "WATCHDOG_PID": "4242"}, pid=4242).watchdog_usec == 1_000_000


def test_outside_systemd_nothing_is_sent_and_nothing_breaks() -> None:
    n = Notifier.from_environ({})
    assert not n.enabled and n.interval is None
    assert not n.ready() and not n.watchdog()
    assert not Notifier("/nonexistent/socket").send("READY=1")  # a vanished socket is no crash


def test_heartbeat_sends_status_only_when_it_changes(listener: tuple[str, socket.socket]) -> None:
    address, sock = listener
    texts = iter(["no game open", "no game open", "game 2"])
    beat = Heartbeat(Notifier(address, 2_000_000), lambda: next(texts))
    beat.ready()
    assert received(sock) == ["READY=1", "STATUS=no game open"]
    beat.beat()
    assert received(sock) == ["WATCHDOG=1"]
    beat.beat()
    assert received(sock) == ["WATCHDOG=1", "STATUS=game 2"]


def test_heartbeat_survives_a_failing_status(listener: tuple[str, socket.socket]) -> None:
    address, sock = listener

    def broken() -> str:
        raise RuntimeError("table gone")

    beat = Heartbeat(Notifier(address, 2_000_000), broken)
    beat.beat()
    assert received(sock) == ["WATCHDOG=1"]


def test_heartbeat_task_beats_and_says_stopping_when_cancelled(listener: tuple[str, socket.socket]) -> None:
    address, sock = listener

    messages: list[str] = []

    async def run() -> None:
        task = asyncio.create_task(Heartbeat(Notifier(address, 100_000)).run())  # every 50 ms
        # Wait for three beats rather than a fixed 0.3 s: on a loaded machine the task may beat late.
        sock.setblocking(False)
        deadline = asyncio.get_running_loop().time() + 30
        while messages.count("WATCHDOG=1") < 3 and asyncio.get_running_loop().time() < deadline:
            try:
                messages.extend(received(sock))
            except BlockingIOError:
                await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(run())
    sock.settimeout(0.5)
    while True:
        try:
            messages += received(sock)
        except TimeoutError:
            break
    assert messages.count("WATCHDOG=1") >= 3
    assert messages[-1] == "STOPPING=1"
