"""Test kit for the hardware tests: an event recorder, a fake clock, a pseudo-terminal that
plays a reader module, and a PN532 written from the datasheet (independently of
``hardware.pn532``) that answers on the far end of the pty.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
import tty
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from hardware.events import HardwareEvent, ReaderStatus, TagGone, TagSeen

WAIT = 30.0  # generous: a loaded 2-core machine must never fail a test by being slow


def wait_until(condition: Callable[[], bool], timeout: float = WAIT, interval: float = 0.01) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        if condition():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)


def brief(event: object) -> str:
    """A reader event in a word or two, for comparing whole sequences."""
    if isinstance(event, ReaderStatus):
        return event.status
    if isinstance(event, TagSeen):
        return "seen " + event.uid
    assert isinstance(event, TagGone)
    return "gone " + event.uid


class Recorder:
    """A thread-safe ``deliver``: keeps every event, lets the test wait for some."""

    def __init__(self) -> None:
        self.events: list[HardwareEvent] = []
        self._cond = threading.Condition()
        self.threads: set[str] = set()

    def __call__(self, event: HardwareEvent) -> None:
        with self._cond:
            self.events.append(event)
            self.threads.add(threading.current_thread().name)
            self._cond.notify_all()

    def wait_for(self, predicate: Callable[[list[HardwareEvent]], bool], timeout: float = WAIT) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self.events), timeout)

    def wait_event(self, event: HardwareEvent, count: int = 1, timeout: float = WAIT) -> None:
        ok = self.wait_for(lambda evs: evs.count(event) >= count, timeout)
        assert ok, f"never saw {event!r} x{count}; got {self.events!r}"

    def snapshot(self) -> list[HardwareEvent]:
        with self._cond:
            return list(self.events)

    def tags(self) -> list[HardwareEvent]:
        return [e for e in self.snapshot() if isinstance(e, TagSeen | TagGone)]

    def statuses(self) -> list[str]:
        return [e.status for e in self.snapshot() if isinstance(e, ReaderStatus)]

    def clear(self) -> None:
        with self._cond:
            self.events.clear()


class FakeClock:
    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds


class PtyDevice:
    """The module's side of a serial line: the driver opens ``path`` with pyserial."""

    def __init__(self, link: Path | None = None) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo, no line editing before pyserial configures the line
        self.tty_path = os.ttyname(self.slave)
        self.link = link
        if link is not None:
            os.symlink(self.tty_path, link)
        self.closed = False

    @property
    def path(self) -> str:
        return str(self.link) if self.link is not None else self.tty_path

    def write(self, data: bytes, chunks: Iterable[int] | None = None, pause: float = 0.0) -> None:
        """Write ``data``, optionally cut into pieces of the given sizes (the rest in one piece)."""
        pos = 0
        for size in chunks or ():
            if pos >= len(data):
                break
            os.write(self.master, data[pos : pos + size])
            pos += size
            if pause:
                time.sleep(pause)
        if pos < len(data):
            os.write(self.master, data[pos:])

    def read_available(self, timeout: float = 0.05) -> bytes:
        out = b""
        while True:
            ready, _, _ = select.select([self.master], [], [], timeout)
            if not ready:
                return out
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                return out
            if not chunk:
                return out
            out += chunk
            timeout = 0.0

    def vanish(self) -> None:
        """Unplug: the link disappears and the line hangs up."""
        if self.link is not None and self.link.is_symlink():
            self.link.unlink()
        self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            for fd in (self.master, self.slave):
                with contextlib.suppress(OSError):
                    os.close(fd)


# ---------------------------------------------------------------- a PN532, from the datasheet


def pn532_frame(data: bytes, tfi: int = 0xD5) -> bytes:
    body = bytes([tfi]) + data
    length = len(body)
    return bytes([0x00, 0x00, 0xFF, length, (0x100 - length) & 0xFF]) + body + bytes([(0x100 - sum(body)) & 0xFF, 0x00])


PN532_ACK = bytes([0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00])
SPEC_SAM = bytes.fromhex("0000FF05FBD41401000017 00".replace(" ", ""))
SPEC_IN_LIST = bytes.fromhex("0000FF04FCD44A0100E100")


def target_answer(uid: str | None) -> bytes:
    if uid is None:
        return pn532_frame(bytes([0x4B, 0x00]))
    raw = bytes.fromhex(uid)
    sens, sel = (b"\x00\x44", 0x00) if len(raw) == 7 else (b"\x00\x04", 0x08)
    return pn532_frame(bytes([0x4B, 0x01, 0x01]) + sens + bytes([sel, len(raw)]) + raw)


class FakePn532(threading.Thread):
    """Reads commands from the pty master and answers like a PN532 would.

    ``mode``: "normal"; "silent" (never answers); "ack_only" (ACK, then nothing).
    ``split``: a function cutting each answer into (bytes, pause) pieces.
    ``noise``: bytes sent before every ACK and between ACK and response.
    """

    def __init__(self, pty: PtyDevice, mode: str = "normal") -> None:
        super().__init__(daemon=True, name="fake-pn532")
        self.pty = pty
        self.mode = mode
        self.uid: str | None = None
        self.split: Callable[[bytes], list[tuple[bytes, float]]] | None = None
        self.noise = b""
        self.corrupt_next_response = 0
        self.raw = bytearray()  # everything the driver sent
        self.commands: list[bytes] = []  # command data after TFI D4, in order
        self._buf = bytearray()
        self._halt = threading.Event()
        self._lock = threading.Lock()

    def command_codes(self) -> list[int]:
        with self._lock:
            return [c[0] for c in self.commands]

    def stop(self) -> None:
        self._halt.set()
        self.join(5)

    def _send(self, data: bytes) -> None:
        pieces = self.split(data) if self.split else [(data, 0.0)]
        for piece, pause in pieces:
            try:
                os.write(self.pty.master, piece)
            except OSError:
                return
            if pause:
                time.sleep(pause)

    def _answer(self, command: bytes) -> None:
        if self.mode == "silent":
            return
        code = command[0]
        self._send(self.noise + PN532_ACK)
        if self.mode == "ack_only":
            return
        if code == 0x14:
            response = pn532_frame(b"\x15")
        elif code == 0x32:
            response = pn532_frame(b"\x33")
        elif code == 0x02:
            response = pn532_frame(bytes([0x03, 0x32, 0x01, 0x06, 0x07]))
        elif code == 0x4A:
            response = target_answer(self.uid)
        else:
            response = bytes.fromhex("0000FF01FF7F8100")
        if self.corrupt_next_response:
            self.corrupt_next_response -= 1
            response = response[:-2] + bytes([response[-2] ^ 0x5A, 0x00])
        self._send(self.noise + response)

    def run(self) -> None:
        while not self._halt.is_set():
            if self.pty.closed:
                return
            try:
                ready, _, _ = select.select([self.pty.master], [], [], 0.05)
                if not ready:
                    continue
                chunk = os.read(self.pty.master, 4096)
            except (OSError, ValueError):
                return
            with self._lock:
                self.raw += chunk
            self._buf += chunk
            for command in self._commands():
                with self._lock:
                    self.commands.append(command)
                self._answer(command)

    def _commands(self) -> list[bytes]:
        found: list[bytes] = []
        while True:
            start = self._buf.find(b"\x00\xff")
            if start < 0 or len(self._buf) < start + 4:
                return found
            length, lcs = self._buf[start + 2], self._buf[start + 3]
            if (length + lcs) & 0xFF or length == 0:
                del self._buf[: start + 2]
                continue
            end = start + 4 + length + 1
            if len(self._buf) < end:
                return found
            body = bytes(self._buf[start + 4 : start + 4 + length])
            ok = (sum(body) + self._buf[end - 1]) & 0xFF == 0 and body[0] == 0xD4
            del self._buf[:end]
            if ok:
                found.append(body[1:])


def in_pieces(sizes: list[int], pause: float) -> Callable[[bytes], list[tuple[bytes, float]]]:
    def split(data: bytes) -> list[tuple[bytes, float]]:
        out, pos, i = [], 0, 0
        while pos < len(data):
            size = sizes[i % len(sizes)]
            out.append((data[pos : pos + size], pause))
            pos += size
            i += 1
        return out

    return split


def stop_all(*things: Any) -> None:
    for thing in things:
        with contextlib.suppress(Exception):
            thing.stop()
