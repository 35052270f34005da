"""Simulated reader modules: software that speaks each module's real byte protocol.

The simulated twin of a tag reader is the *same* reader thread and parser as on the Pi,
opened on a :class:`SimulatedPort` instead of a serial port. The device model behind it
sends what the module would send: an RDM6300 repeats its frame while a tag lies on it, an
ID-12LA sends one frame per placement, a PN532 answers each command with an ACK and a
response. A desktop run, a diagnostics screen ("simulate a tag") and the tests drive it with
:meth:`SimulatedTagDevice.place` / :meth:`~SimulatedTagDevice.remove` /
:meth:`~SimulatedTagDevice.unplug` / :meth:`~SimulatedTagDevice.plug`.
"""

from __future__ import annotations

import errno
import threading
import time

from hardware import pn532
from hardware.frames import id12_frame, normalize_uid, rdm6300_frame

TYPES = ("rdm6300", "id12la", "id20la", "pn532")


class SimulatedTagDevice:
    """One simulated reader module (thread-safe)."""

    def __init__(self, type_name: str, *, repeat: float = 0.1) -> None:
        if type_name not in TYPES:
            raise ValueError(f"unknown reader type {type_name!r}")
        self.type_name = type_name
        self.repeat = repeat  # RDM6300: seconds between repeated frames
        self._cond = threading.Condition()
        self._plugged = True
        self._generation = 0  # bumped on unplug: ports opened before are dead
        self._uid: str | None = None
        self._next_frame = 0.0
        self._out = bytearray()
        self._parser = pn532.Pn532Parser()
        self.commands: list[int] = []  # PN532 command codes received, for diagnostics and tests

    # ------------------------------------------------------------ the outside world
    @property
    def present(self) -> str | None:
        return self._uid

    @property
    def plugged(self) -> bool:
        return self._plugged

    def place(self, uid: str) -> None:
        """Put a tag on the reader (replacing any tag already there)."""
        uid = normalize_uid(uid)
        if self.type_name != "pn532" and len(uid) != 10:
            raise ValueError("a 125 kHz tag uid has 5 bytes (10 hex digits)")
        if self.type_name == "pn532" and len(uid) not in (8, 14, 20):
            raise ValueError("an NFC tag uid has 4, 7 or 10 bytes")
        with self._cond:
            self._uid = uid
            self._next_frame = time.monotonic()
            if self.type_name in ("id12la", "id20la"):
                self._out += id12_frame(uid)
            self._cond.notify_all()

    def remove(self) -> None:
        with self._cond:
            self._uid = None
            self._cond.notify_all()

    def unplug(self) -> None:
        with self._cond:
            self._plugged = False
            self._generation += 1
            self._out.clear()
            self._cond.notify_all()

    def plug(self) -> None:
        with self._cond:
            self._plugged = True
            self._cond.notify_all()

    # ------------------------------------------------------------ the port side
    def open(self) -> SimulatedPort:
        with self._cond:
            if not self._plugged:
                raise FileNotFoundError(errno.ENOENT, "simulated reader unplugged")
            self._out.clear()
            self._parser = pn532.Pn532Parser()
            return SimulatedPort(self, self._generation)

    def _check(self, generation: int) -> None:
        if generation != self._generation or not self._plugged:
            raise OSError(errno.EIO, "simulated reader unplugged")

    def _due_frames(self) -> None:
        if self.type_name == "rdm6300" and self._uid is not None:
            now = time.monotonic()
            if now >= self._next_frame:
                self._out += rdm6300_frame(self._uid)
                self._next_frame = max(self._next_frame + self.repeat, now)

    def _read(self, generation: int, size: int, timeout: float | None) -> bytes:
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while True:
                self._check(generation)
                self._due_frames()
                if self._out:
                    data = bytes(self._out[:size])
                    del self._out[:size]
                    return data
                now = time.monotonic()
                if deadline is not None and now >= deadline:
                    return b""
                wake = deadline
                if self.type_name == "rdm6300" and self._uid is not None:
                    wake = self._next_frame if wake is None else min(wake, self._next_frame)
                self._cond.wait(None if wake is None else max(0.0, wake - now))

    def _in_waiting(self, generation: int) -> int:
        with self._cond:
            self._check(generation)
            self._due_frames()
            return len(self._out)

    def _write(self, generation: int, data: bytes) -> int:
        with self._cond:
            self._check(generation)
            if self.type_name == "pn532":
                for item in self._parser.feed(data):
                    if isinstance(item, pn532.Frame) and item.tfi == pn532.HOST and item.data:
                        self._answer(item.data)
                self._cond.notify_all()
            return len(data)

    def _answer(self, command: bytes) -> None:
        code = command[0]
        self.commands.append(code)
        self._out += pn532.ACK_BYTES
        if code == pn532.IN_LIST_PASSIVE_TARGET:
            self._out += pn532.target_response([self._uid] if self._uid else [])
        elif code == pn532.GET_FIRMWARE_VERSION:
            self._out += pn532.frame(bytes([code + 1, 0x32, 0x01, 0x06, 0x07]), pn532.CHIP)
        elif code in (pn532.SAM_CONFIGURATION, pn532.RF_CONFIGURATION):
            self._out += pn532.frame(bytes([code + 1]), pn532.CHIP)
        else:
            self._out += pn532.frame(b"", pn532.ERROR_TFI)

    def _reset_input(self, generation: int) -> None:
        with self._cond:
            self._check(generation)
            self._out.clear()


class SimulatedPort:
    """What :meth:`SimulatedTagDevice.open` returns: the :class:`~hardware.readers.Port` surface."""

    def __init__(self, device: SimulatedTagDevice, generation: int, timeout: float | None = 0.05) -> None:
        self._device = device
        self._generation = generation
        self.timeout = timeout
        self._closed = False

    def _live(self) -> None:
        if self._closed:
            raise OSError(errno.EBADF, "port closed")

    def read(self, size: int = 1) -> bytes:
        self._live()
        return self._device._read(self._generation, size, self.timeout)

    def write(self, data: bytes, /) -> int:
        self._live()
        return self._device._write(self._generation, data)

    @property
    def in_waiting(self) -> int:
        self._live()
        return self._device._in_waiting(self._generation)

    def reset_input_buffer(self) -> None:
        self._live()
        self._device._reset_input(self._generation)

    def close(self) -> None:
        self._closed = True
