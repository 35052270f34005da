"""A Pi from boot, on the real app: the network comes later than the app, so does the display.

- The app starts in a network namespace of its own with nothing but loopback (a Pi whose Wi-Fi has
  not joined yet): the start screen and a seat's code say "no network yet" instead of offering a
  code no phone can use. Then the network comes up (a veth pair with an address, in that namespace)
  and, without a restart, the start screen and the seat's QR code carry the new address.
- The app starts as systemd starts it (``NOTIFY_SOCKET``, a watchdog) with ``DISPLAY`` naming an X
  server that does not exist yet; it waits and says so (``STATUS=``) for 60 s, then the X server
  starts on that display and the app comes up: ``READY=1``, the start screen.

Both need what a Pi has and a test machine may not: the first root (network namespaces), both Xvfb.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from driver import AppProcess
from looking import decode_qr

from companion.app.chance import TEST_SEED_ENV

ROOT = Path(__file__).resolve().parents[2]
ADDRESS = "192.0.2.10"  # TEST-NET-1 (RFC 5737): an address no other machine has; nothing is sent to it
NO_DISPLAY_SECONDS = float(os.environ.get("COMPANION_TEST_NO_DISPLAY_SECONDS", "60"))


def can_make_network_namespaces() -> str:
    """ "" when this process may run a program in a new network namespace, else why not."""
    if shutil.which("unshare") is None or shutil.which("nsenter") is None or shutil.which("ip") is None:
        return "needs unshare, nsenter (util-linux) and ip (iproute2)"
    done = subprocess.run(["unshare", "--net", "true"], capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        return f"cannot make a network namespace here (root needed): {done.stderr.strip()}"
    return ""


def in_namespace(pid: int, *command: str) -> None:
    done = subprocess.run(["nsenter", f"--target={pid}", "--net", *command], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, f"{command}: {done.stderr}"


def new_game(app: AppProcess) -> None:
    env = {**app.env(), "COMPANION_UI_CONTROL": ""}
    made = subprocess.run(
        [sys.executable, "-m", "companion.cli", "new", "scotland_yard", "--setup", '{"detectives": ["Dora"]}'],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr


def test_the_phones_address_appears_when_the_network_comes_up_after_the_app(display: str, tmp_path: Path) -> None:
    why = can_make_network_namespaces()
    if why:
        pytest.skip(why)
    # No [server] public_address: the address is detected, as on a Pi.
    app = AppProcess(display, tmp_path, public_address="", command_prefix=("unshare", "--net", "--"))
    new_game(app)
    app.start(timeout=60)
    try:
        assert app.info()["address"] is None  # only loopback in here
        app.tap("game.home")
        state = app.wait_screen("start")
        assert state["tids"]["start.network"]["text"].startswith("No network yet")
        app.screenshot("boot_no_network_start")
        app.tap("start.resume")
        app.wait_screen("game")
        app.tap("game.seats")
        app.wait_screen("seats")
        app.tap("seats.show.mrx")
        state = app.wait(lambda s: "seats.no_network" in s["tids"], what="no network yet, instead of a code")
        assert "seats.qr" not in state["tids"] and "seats.qr.url" not in state["tids"]
        app.screenshot("boot_no_network_seat")

        # The Wi-Fi joins 5 s later: an address on an interface in the app's namespace.
        time.sleep(5)
        assert app.proc is not None
        pid = app.proc.pid  # unshare exec()s the app: the same process
        in_namespace(pid, "ip", "link", "add", "pi0", "type", "veth", "peer", "name", "pi1")
        in_namespace(pid, "ip", "address", "add", f"{ADDRESS}/24", "dev", "pi0")
        in_namespace(pid, "ip", "link", "set", "pi0", "up")
        in_namespace(pid, "ip", "link", "set", "pi1", "up")
        started = time.monotonic()
        state = app.wait(lambda s: "seats.qr" in s["tids"], timeout=30, what="the seat's QR code with the new address")
        seconds = time.monotonic() - started
        port = app.info()["port"]
        assert app.info()["address"] == ADDRESS
        url = decode_qr(app.screenshot("boot_network_seat"))
        assert url.startswith(f"http://{ADDRESS}:{port}/s/"), url
        assert state["tids"]["seats.qr.code"]["text"].endswith(f"http://{ADDRESS}:{port}/")
        app.tap("seats.back")
        app.wait_screen("game")
        app.tap("game.home")
        state = app.wait_screen("start")
        assert f"http://{ADDRESS}:{port}" in state["tids"]["start.network"]["text"]
        print(f"the new address was on screen {seconds:.1f} s after it was set")
    finally:
        app.stop()


class FakeSystemd:
    """systemd's side of $NOTIFY_SOCKET (as in tests/appliance/test_service_process.py)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "notify.sock"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))
        self.lines: list[str] = []
        self.watchdogs: list[float] = []  # when each WATCHDOG=1 arrived

    def listen(self, seconds: float) -> None:
        """Read what comes for ``seconds``, noting when each watchdog ping arrives."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except TimeoutError:
                return
            lines = data.decode().split("\n")
            self.lines += lines
            if "WATCHDOG=1" in lines:
                self.watchdogs.append(time.monotonic())

    def wait_for(self, prefix: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.lines:
                if line.startswith(prefix):
                    return line
            self.sock.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                data = self.sock.recv(65536)
            except TimeoutError:
                break
            self.lines += data.decode().split("\n")
        raise AssertionError(f"no {prefix} in {self.lines[-20:]}")


@contextlib.contextmanager
def reserved_display() -> Iterator[int]:
    """A display number no X server uses, reserved while the test runs. Two suites at once on one
    machine both saw :200 free, both waited their minute, and the second one's Xvfb could not start
    while the first one's ran: the app waited for a display that never came. A lock on a file per
    number (``flock``, released when the test ends or its process dies) keeps each number to one
    test at a time, whichever suite or worker asks."""
    for number in range(200, 400):
        reservation = open(f"/tmp/companion-test-display-{number}.lock", "a")  # noqa: SIM115 (held while it yields)
        try:
            fcntl.flock(reservation, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            reservation.close()
            continue
        if Path(f"/tmp/.X11-unix/X{number}").exists() or Path(f"/tmp/.X{number}-lock").exists():
            reservation.close()
            continue
        try:
            yield number
        finally:
            reservation.close()
        return
    raise AssertionError("no free display number")


@pytest.fixture
def spare_display() -> Iterator[int]:
    with reserved_display() as number:
        yield number


def test_no_display_for_a_minute_then_one_the_app_waits_and_comes_up(tmp_path: Path, spare_display: int) -> None:
    if shutil.which("Xvfb") is None:
        pytest.fail("Xvfb is missing: install the Debian package xvfb (make test does)")
    number = spare_display
    systemd = FakeSystemd(tmp_path)
    app = AppProcess(f":{number}", tmp_path)
    env = app.env()
    env.update(NOTIFY_SOCKET=str(systemd.path), WATCHDOG_USEC="4000000")
    assert env[TEST_SEED_ENV]
    log = app.log_path.open("ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
        stdout=log, stderr=log,
    )  # fmt: skip
    xserver: subprocess.Popen[bytes] | None = None
    try:
        waiting = systemd.wait_for("STATUS=waiting for the display", timeout=60)
        assert f"no X server answers on :{number}" in waiting
        started = time.monotonic()
        while time.monotonic() - started < NO_DISPLAY_SECONDS:
            assert proc.poll() is None, f"the app ended without a display:\n{app.log()}"
            systemd.listen(1.0)
        assert not any(line == "READY=1" for line in systemd.lines)
        # The watchdog (WATCHDOG_USEC: 4 s) was fed all along: systemd would not have killed it.
        pings = [started, *systemd.watchdogs, time.monotonic()]
        assert max(b - a for a, b in itertools.pairwise(pings)) < 4.0, systemd.watchdogs
        assert any(line.startswith("EXTEND_TIMEOUT_USEC=") for line in systemd.lines)  # no start timeout
        # The display arrives.
        xserver = subprocess.Popen(
            ["Xvfb", f":{number}", "-screen", "0", "800x480x24", "-nolisten", "tcp", "-noreset"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        systemd.wait_for("READY=1", timeout=60)
        assert proc.poll() is None
        # The same process: the control socket answers and shows the start screen.
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(str(app.socket_path))
        app.proc, app.conn = proc, conn
        app.wait_screen("start", timeout=30)
        assert "the display is there (x11" in app.log_path.read_text()
    finally:
        app.stop()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if xserver is not None:
            xserver.terminate()
            xserver.wait(10)
        log.close()
        systemd.sock.close()
