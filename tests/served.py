"""A data directory, its configuration file, and the real ``companion`` command run against them:
commands to completion, ``companion serve`` as a process of its own (optionally with a umask, a file
limit like the service's, or its output in a file to measure)."""

from __future__ import annotations

import contextlib
import os
import queue
import resource
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

from companion.app.chance import TEST_SEED_ENV

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def child_setup(umask: int | None = None, files: int | None = None) -> Callable[[], None] | None:
    """What a child process does before it runs: its umask, its limit of open files (soft and hard,
    like a service started with systemd's default of 1024)."""
    if umask is None and files is None:
        return None

    def setup() -> None:
        if umask is not None:
            os.umask(umask)
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    return setup


class Box:
    """A data directory and a configuration file, and the ``companion`` command run against them."""

    def __init__(self, tmp_path: Path, port: int | None = None, host: str = "127.0.0.1", data: Path | None = None):
        self.data = data or tmp_path / "data"
        self.port = port or free_port()
        self.config = tmp_path / f"companion-{self.port}.toml"
        self.config.write_text(
            f'[server]\nhost = "{host}"\nport = {self.port}\npublic_address = "127.0.0.1"\n'
            f'[table]\nlanguage = "en"\ndata_dir = "{self.data}"\n'
        )
        self.output: list[str] = []

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_") or k == TEST_SEED_ENV}
        env.update(COMPANION_CONFIG=str(self.config), PYTHONPATH=str(ROOT), KIVY_NO_ARGS="1")
        return env

    def cli(
        self, *args: str, timeout: float = 60.0, umask: int | None = None, python: str = sys.executable
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [python, "-m", "companion.cli", *args],
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
            preexec_fn=child_setup(umask),
            cwd=ROOT,
        )

    def serve(
        self, *args: str, umask: int | None = None, files: int | None = None, log: IO[bytes] | None = None
    ) -> subprocess.Popen[str]:
        """``companion serve`` up and listing its seats (its output read here, or written to ``log``)."""
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve", *args],
            env=self.env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE if log is None else log,
            stderr=subprocess.STDOUT if log is None else log,
            text=log is None,
            bufsize=1 if log is None else -1,
            preexec_fn=child_setup(umask, files),
            cwd=ROOT,
        )
        self.output = []
        if log is not None:
            self.wait_listening(proc)
            return proc
        lines: queue.Queue[str] = queue.Queue()

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.put(line)
            lines.put("")

        threading.Thread(target=read, daemon=True).start()
        self._lines = lines
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=1.0)
            except queue.Empty:
                continue
            if not line:
                break
            self.output.append(line)
            if "QR codes" in line:  # the last line of the start-up listing
                return proc
        proc.kill()
        raise AssertionError("serve did not come up:\n" + "".join(self.output))

    def wait_listening(self, proc: subprocess.Popen[str], timeout: float = 60.0) -> None:
        """Until the server answers on its port (its output goes to a file)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise AssertionError(f"serve ended with {proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"GET /static/phone.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    if s.recv(12).startswith(b"HTTP/1.1 200"):
                        return
            except OSError:
                pass
            time.sleep(0.2)
        proc.kill()
        raise AssertionError("serve did not come up")

    def rest_of_output(self, proc: subprocess.Popen[str]) -> str:
        """Everything the server printed (call after it ended)."""
        while (line := self._lines.get(timeout=10)) != "":
            self.output.append(line)
        return "".join(self.output)

    def token(self, seat: str, timeout: float = 60.0) -> str:
        """The seat's link token, once the server has issued it: `serve` listens first and issues the
        links just after (a test that waited only for the port could read before the write)."""
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.closing(sqlite3.connect(f"file:{self.data / 'companion.sqlite3'}?mode=ro", uri=True)) as db:
                row = db.execute(
                    "SELECT token FROM seat_links WHERE seat = ? ORDER BY game_id DESC", (seat,)
                ).fetchone()
            if row is not None:
                return str(row[0])
            if time.monotonic() > deadline:
                raise AssertionError(f"no link was issued for the seat {seat!r} within {timeout:.0f} s")
            time.sleep(0.1)


def stop(proc: subprocess.Popen[str], sig: int = signal.SIGKILL, timeout: float = 30.0) -> int:
    """End a server the test started (if it still runs)."""
    if proc.poll() is None:
        proc.send_signal(sig)
    return proc.wait(timeout)


class FakeSystemd:
    def __init__(self, folder: Path) -> None:
        self.path = folder / "notify.sock"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.messages: list[tuple[int, list[str]]] = []

    def wait_for(self, field: str, timeout: float = 60) -> list[str]:
        """The next message holding ``field`` (e.g. READY=1 or a STATUS= prefix)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.sock.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                data, anc, _, _ = self.sock.recvmsg(65536, socket.CMSG_SPACE(12))
            except TimeoutError:
                break
            pid = next(
                (int.from_bytes(d[:4], sys.byteorder) for _, kind, d in anc if kind == socket.SCM_CREDENTIALS), 0
            )
            lines = data.decode().split("\n")
            self.messages.append((pid, lines))
            if any(line.startswith(field) for line in lines):
                return lines
        raise AssertionError(f"no {field} in {self.messages}")
