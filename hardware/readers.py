"""Tag readers on a serial port: one thread each, reconnecting on its own.

A reader opens its port through an *opener* (pyserial's ``serial_for_url`` for a real port,
a :class:`~hardware.simulated.SimulatedTagDevice` for the simulated twin), turns frames into
:class:`TagSeen` / :class:`TagGone` events and reports its connection as :class:`ReaderStatus`
(only when it changes). Nothing it reads can crash it: bad bytes are counted and dropped,
a lost port is reopened with exponential backoff.

How a placement ends (``TagGone``):

- RDM6300: it repeats its frame while a tag is in the field; the tag is gone after a quiet
  period (``gone_after``) without frames.
- ID-12LA/ID-20LA: they report a tag once per placement. The placement ends after the same
  quiet period; a later frame of the same tag is a new placement (lifted and put back).
- PN532: polled; a tag absent from ``gone_after_polls`` consecutive polls is gone.
- Any type: a reader that loses its port or stops answering ends every placement it knew of
  (``TagGone`` for each, then the ``ReaderStatus``). Only a connected reader vouches for a tag.
- The 125 kHz readers see one tag at a time: a different tag ends the previous placement.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Literal, Protocol, TypedDict, Unpack

from hardware import pn532
from hardware.events import HardwareEvent, ReaderState, ReaderStatus, TagGone, TagSeen
from hardware.frames import CRLF, AsciiFrameParser

log = logging.getLogger(__name__)

try:  # pyserial lets termios errors through from tcflush & co. on a vanished device
    import termios

    PORT_ERRORS: tuple[type[Exception], ...] = (OSError, termios.error)
except ImportError:  # pragma: no cover - not on a POSIX system
    PORT_ERRORS = (OSError,)

Clock = Callable[[], float]
Deliver = Callable[[HardwareEvent], None]


class Port(Protocol):
    """The part of a pyserial ``Serial`` the readers use."""

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    @property
    def in_waiting(self) -> int: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


Opener = Callable[[], Port]


def serial_opener(url: str, baudrate: int, timeout: float = 0.05) -> Opener:
    """Open ``url`` (a device path or any pyserial URL) with a short read timeout.

    Plain device paths are opened exclusively, so a second program (the CLI while the app
    runs) gets a clear "port busy" instead of stealing half of the bytes.
    """

    def open_port() -> Port:
        import serial  # type: ignore[import-untyped]

        if "://" in url:
            port: Port = serial.serial_for_url(url, baudrate=baudrate, timeout=timeout, write_timeout=1.0)
        else:
            port = serial.serial_for_url(url, baudrate=baudrate, timeout=timeout, write_timeout=1.0, exclusive=True)
        return port

    return open_port


class ReaderOptions(TypedDict, total=False):
    """Options every reader type takes (see :class:`SerialTagReader`)."""

    port_label: str
    type_label: str
    simulated: bool
    clock: Clock
    wallclock: Clock
    backoff: tuple[float, float]


class DeviceSilent(Exception):
    """The port is open but the device does not answer (or answers nonsense)."""


@dataclass(frozen=True)
class ReaderInfo:
    """A plain snapshot for diagnostics."""

    name: str
    type: str
    port: str
    simulated: bool
    status: ReaderState | Literal["starting", "stopped"]
    detail: str
    last_uid: str | None
    last_seen_at: float | None  # wall clock (time.time()) of the last valid read
    last_seen_ago: float | None  # seconds before the snapshot
    present: tuple[str, ...]
    frames: int
    bad_frames: int
    dropped_bytes: int
    connects: int


def describe(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


class SerialTagReader:
    """Base of the three reader types: the thread, reconnects, presence and status."""

    type_name: ClassVar[str] = "?"

    def __init__(
        self,
        name: str,
        opener: Opener,
        deliver: Deliver,
        *,
        port_label: str = "",
        type_label: str = "",
        simulated: bool = False,
        clock: Clock = time.monotonic,
        wallclock: Clock = time.time,
        backoff: tuple[float, float] = (0.1, 5.0),
    ) -> None:
        self.name = name
        self.port_label = port_label
        self.type_label = type_label or self.type_name
        self.simulated = simulated
        self._opener = opener
        self._deliver = deliver
        self._clock = clock
        self._wallclock = wallclock
        self._backoff = backoff
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._status: ReaderState | Literal["starting", "stopped"] = "starting"
        self._detail = ""
        self._present: dict[str, float] = {}  # uid -> monotonic time of last sighting
        self._misses: dict[str, int] = {}
        self._last_uid: str | None = None
        self._last_seen_mono: float | None = None
        self._last_seen_wall: float | None = None
        self._connects = 0

    # ----------------------------------------------------------------- lifecycle
    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name=f"reader-{self.name}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout)
        with self._lock:
            self._status = "stopped"

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # ----------------------------------------------------------------- diagnostics
    def info(self) -> ReaderInfo:
        frames, bad, dropped = self._counters()
        now = self._clock()
        with self._lock:
            return ReaderInfo(
                name=self.name,
                type=self.type_label,
                port=self.port_label,
                simulated=self.simulated,
                status=self._status,
                detail=self._detail,
                last_uid=self._last_uid,
                last_seen_at=self._last_seen_wall,
                last_seen_ago=None if self._last_seen_mono is None else max(0.0, now - self._last_seen_mono),
                present=tuple(self._present),
                frames=frames,
                bad_frames=bad,
                dropped_bytes=dropped,
                connects=self._connects,
            )

    def _counters(self) -> tuple[int, int, int]:
        raise NotImplementedError

    # ----------------------------------------------------------------- the thread
    def _run(self) -> None:
        delay = self._backoff[0]
        while not self._stopping.is_set():
            try:
                port = self._opener()
            except Exception as exc:  # any failure to open is "not there yet"
                self._set_status("disconnected", describe(exc))
                self._stopping.wait(delay)
                delay = min(delay * 2, self._backoff[1])
                continue
            connects_before = self._connects
            try:
                self._session(port)
            except PORT_ERRORS as exc:  # pyserial's SerialException is an OSError too
                self._lose("disconnected", describe(exc))
            except DeviceSilent as exc:
                self._lose("error", describe(exc))
            except Exception as exc:
                if not self._stopping.is_set():
                    log.exception("reader %s: unexpected failure", self.name)
                self._lose("error", describe(exc))
            finally:
                with contextlib.suppress(Exception):  # closing a dead port may fail
                    port.close()
            if self._stopping.is_set():
                break
            if self._connects != connects_before:
                delay = self._backoff[0]
            self._stopping.wait(delay)
            delay = min(delay * 2, self._backoff[1])

    def _session(self, port: Port) -> None:
        raise NotImplementedError

    # ----------------------------------------------------------------- events
    def _emit(self, event: HardwareEvent) -> None:
        try:
            self._deliver(event)
        except Exception:
            log.exception("reader %s: deliver failed for %r", self.name, event)

    def _set_status(self, status: ReaderState, detail: str = "") -> None:
        """Record the state; an event only when the state itself changes (retries do not spam)."""
        with self._lock:
            changed = self._status != status
            self._status, self._detail = status, detail
            if changed and status == "connected":
                self._connects += 1
        if changed:
            self._emit(ReaderStatus(self.name, status, detail))

    def _lose(self, status: ReaderState, detail: str) -> None:
        """The reader can no longer vouch for anything: end every placement, then say why."""
        if self._stopping.is_set():
            return  # shutting down: nobody is listening any more
        for uid in list(self._present):
            self._gone(uid)
        self._set_status(status, detail)

    def _sighting(self, uid: str, now: float) -> None:
        with self._lock:
            self._last_uid = uid
            self._last_seen_mono = now
            self._last_seen_wall = self._wallclock()
            is_new = uid not in self._present
            self._present[uid] = now
            self._misses[uid] = 0
        if is_new:
            self._emit(TagSeen(self.name, uid))

    def _gone(self, uid: str) -> None:
        with self._lock:
            known = self._present.pop(uid, None) is not None
            self._misses.pop(uid, None)
        if known:
            self._emit(TagGone(self.name, uid))


class AsciiTagReader(SerialTagReader):
    """RDM6300 and ID-12LA/ID-20LA: transmit-only modules sending ASCII frames."""

    trailer: ClassVar[bytes] = b""

    def __init__(
        self, name: str, opener: Opener, deliver: Deliver, *, gone_after: float = 0.5, **options: Unpack[ReaderOptions]
    ) -> None:
        super().__init__(name, opener, deliver, **options)
        self.gone_after = gone_after
        self.parser = AsciiFrameParser(self.trailer)

    def _counters(self) -> tuple[int, int, int]:
        stats = self.parser.stats
        return stats.frames, stats.bad_checksum, stats.dropped

    def _session(self, port: Port) -> None:
        self.parser.reset()  # a frame cut by the last disconnect must not merge with new bytes
        self._set_status("connected", self.port_label)
        while not self._stopping.is_set():
            waiting = port.in_waiting
            data = port.read(waiting if waiting > 0 else 1)
            now = self._clock()
            for uid in self.parser.feed(data):
                for other in [u for u in self._present if u != uid]:
                    self._gone(other)  # one tag at a time in a 125 kHz field
                self._sighting(uid, now)
            for uid, last in list(self._present.items()):
                if now - last >= self.gone_after:
                    self._gone(uid)


class Rdm6300Reader(AsciiTagReader):
    type_name = "rdm6300"
    trailer = b""


class Id12Reader(AsciiTagReader):
    type_name = "id12la"
    trailer = CRLF


class Pn532Reader(SerialTagReader):
    """PN532 over HSU: wake, SAMConfiguration, MaxRetries, then InListPassiveTarget polls."""

    type_name = "pn532"

    def __init__(
        self,
        name: str,
        opener: Opener,
        deliver: Deliver,
        *,
        poll_interval: float = 0.05,
        gone_after_polls: int = 2,
        ack_timeout: float = 0.25,
        response_timeout: float = 0.5,
        failures_before_reinit: int = 3,
        **options: Unpack[ReaderOptions],
    ) -> None:
        super().__init__(name, opener, deliver, **options)
        self.poll_interval = poll_interval
        self.gone_after_polls = gone_after_polls
        self.ack_timeout = ack_timeout
        self.response_timeout = response_timeout
        self.failures_before_reinit = failures_before_reinit
        self.parser = pn532.Pn532Parser()
        self.firmware = ""
        self.polls = 0
        self.bad_responses = 0
        self._items: collections.deque[pn532.Item] = collections.deque()

    def _counters(self) -> tuple[int, int, int]:
        stats = self.parser.stats
        return stats.frames, stats.bad_checksum + self.bad_responses, stats.dropped

    def _session(self, port: Port) -> None:
        self._command(port, pn532.sam_configuration(), wake=True)
        self._command(port, pn532.rf_max_retries())
        try:
            self.firmware = pn532.parse_firmware(self._command(port, pn532.get_firmware_version()))
        except ValueError:
            self.firmware = "PN532"
        self._set_status("connected", f"{self.port_label} {self.firmware}".strip())
        failures = 0
        while not self._stopping.is_set():
            try:
                response = self._command(port, pn532.in_list_passive_target())
            except DeviceSilent as exc:
                failures += 1
                if failures >= self.failures_before_reinit:
                    raise DeviceSilent(f"stopped answering ({exc})") from None
                continue
            failures = 0
            self.polls += 1
            try:
                uids = pn532.parse_targets(response)
            except ValueError:
                self.bad_responses += 1  # garbled: this poll tells nothing either way
            else:
                self._observe(uids)
            self._stopping.wait(self.poll_interval)

    def _observe(self, uids: list[str]) -> None:
        now = self._clock()
        for uid in uids:
            self._sighting(uid, now)
        for uid in [u for u in self._present if u not in uids]:
            with self._lock:
                self._misses[uid] = self._misses.get(uid, 0) + 1
                missing = self._misses[uid] >= self.gone_after_polls
            if missing:
                self._gone(uid)

    def _command(self, port: Port, request: bytes, *, wake: bool = False) -> bytes:
        """Send one command frame; wait for its ACK, then for its response. Returns the response data."""
        code = request[6]
        port.reset_input_buffer()
        self.parser.reset()
        self._items.clear()
        port.write((pn532.WAKEUP if wake else b"") + request)
        self._await(port, lambda item: isinstance(item, (pn532.Ack, pn532.Nack)), self.ack_timeout, "no ACK")
        response = self._await(
            port,
            lambda item: isinstance(item, pn532.Frame) and (item.answers(code) or item.is_error),
            self.response_timeout,
            "no response",
        )
        assert isinstance(response, pn532.Frame)
        if response.is_error:
            raise DeviceSilent("error frame from the chip")
        return response.data

    def _await(self, port: Port, wanted: Callable[[pn532.Item], bool], timeout: float, what: str) -> pn532.Item:
        deadline = self._clock() + timeout
        while True:
            while self._items:
                item = self._items.popleft()
                if isinstance(item, pn532.Nack):
                    raise DeviceSilent("NACK (the chip got a damaged frame)")
                if wanted(item):
                    return item
            if self._stopping.is_set():
                raise DeviceSilent("stopping")
            if self._clock() >= deadline:
                raise DeviceSilent(f"{what} within {timeout:g} s")
            waiting = port.in_waiting
            self._items.extend(self.parser.feed(port.read(waiting if waiting > 0 else 1)))


READER_CLASSES: dict[str, type[SerialTagReader]] = {
    "rdm6300": Rdm6300Reader,
    "id12la": Id12Reader,
    "id20la": Id12Reader,
    "pn532": Pn532Reader,
}
