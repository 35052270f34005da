"""One logging set-up for ``companion run`` and ``companion serve``.

Under systemd (``$JOURNAL_STREAM`` names our stderr, see systemd.exec(5)) every line starts with a
syslog priority prefix like ``<4>`` that journald turns into the entry's priority, and carries no
time stamp (the journal has its own). At a terminal lines get a time stamp instead.

No flood reaches the log (an SD card): each kind of line — its logger, level and message before
its values are filled in — is written at most :data:`BURST` times a :data:`WINDOW` (the traceback of
a repeated error once), and one summary line then says how many more there were
(:class:`Summarize`). A device that opens a thousand connections writes a dozen lines, not a
thousand.

Kivy logs only through Python's logging (``KIVY_LOG_MODE=PYTHON``): no coloured second copy of
each line on stderr and no log files under ``$KIVY_HOME/logs`` on the SD card. ``faulthandler``
prints every thread's Python stack when the process dies of SIGABRT, which is how systemd's
watchdog ends a hung app, so the journal tells where it hung.
"""

from __future__ import annotations

import atexit
import contextlib
import faulthandler
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import TextIO

BURST = 10  # lines of one kind written per window ...
WINDOW = 60.0  # ... of this many seconds; the rest are counted, then summed up in one line
KINDS = 512  # kinds of line remembered at once (the oldest windows are forgotten first)

# syslog priorities (sd-daemon(3)) for Python's levels
PRIORITY = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4, logging.INFO: 6, logging.DEBUG: 7}


def under_journal(stream: TextIO | None = None, environ: MutableMapping[str, str] | None = None) -> bool:
    """True when ``stream`` (stderr) is the journal stream systemd connected (``$JOURNAL_STREAM``)."""
    env = os.environ if environ is None else environ
    expected = env.get("JOURNAL_STREAM", "")
    if not expected:
        return False
    try:
        st = os.fstat((stream or sys.stderr).fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return expected == f"{st.st_dev}:{st.st_ino}"


class JournalFormatter(logging.Formatter):
    """``<priority>logger: message``; each extra line of a traceback keeps the same priority."""

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines() or [""])


def priority(levelno: int) -> int:
    for level in sorted(PRIORITY, reverse=True):
        if levelno >= level:
            return PRIORITY[level]
    return 7


def quiet_kivy(environ: MutableMapping[str, str] | None = None) -> None:
    """Kivy through Python logging only: no console handler of its own, no log files (before importing Kivy)."""
    env = os.environ if environ is None else environ
    env.setdefault("KIVY_LOG_MODE", "PYTHON")
    env.setdefault("KIVY_NO_FILELOG", "1")
    env.setdefault("KIVY_NO_CONSOLELOG", "1")


@dataclass
class _Kind:
    """One kind of line in its window: when the window began, lines written and held back, whether
    its traceback was written, and the last line held back."""

    start: float
    written: int = 1
    held: int = 0
    traced: bool = False
    last: logging.LogRecord | None = None


class Summarize(logging.Filter):
    """A handler's filter that writes each kind of line (logger, level, message template) at most
    ``burst`` times per ``window`` seconds — a repeated traceback only the first time — and counts
    the rest; when the window is over, one line says how many more there were. It never holds a
    line back: what it lets through is written at once, and the summary is written by a timer
    thread (or by the next line of that kind, whichever comes first)."""

    def __init__(
        self,
        handler: logging.Handler,
        burst: int = BURST,
        window: float = WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.handler = handler  # where the summary lines go
        self.burst, self.window, self.clock = burst, window, clock
        self._lock = threading.Lock()
        self._kinds: dict[tuple[str, int, str], _Kind] = {}
        self._timer: threading.Timer | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg)[:200])
        now = self.clock()
        with self._lock:
            kind = self._kinds.get(key)
            if kind is None or now - kind.start >= self.window:
                if kind is not None:
                    self._summary(key, kind)
                elif len(self._kinds) >= KINDS:
                    self._forget()
                self._kinds[key] = _Kind(now, traced=record.exc_info is not None)
                return True
            if kind.written < self.burst:
                kind.written += 1
                if record.exc_info is not None and kind.traced:  # the traceback was written once
                    record.exc_info, record.exc_text = None, None
                    record.msg = f"{record.msg} (traceback as above)"
                kind.traced = kind.traced or record.exc_info is not None
                return True
            kind.held += 1
            kind.last = record
            if self._timer is None:
                self._start_timer(kind.start + self.window - now)
            return False

    def flush(self) -> None:
        """Write the summaries of the windows that are over (the timer calls this)."""
        now = self.clock()
        with self._lock:
            self._timer = None
            later = []
            for key, kind in list(self._kinds.items()):
                if now - kind.start >= self.window:
                    self._summary(key, kind)
                    del self._kinds[key]
                elif kind.held:
                    later.append(kind.start + self.window - now)
            if later:
                self._start_timer(min(later))

    def _start_timer(self, delay: float) -> None:
        self._timer = threading.Timer(max(0.1, delay), self.flush)
        self._timer.daemon = True
        self._timer.start()

    def _summary(self, key: tuple[str, int, str], kind: _Kind) -> None:
        if not kind.held or kind.last is None:
            return
        last = kind.last
        summary = logging.LogRecord(
            key[0],
            key[1],
            last.pathname,
            last.lineno,
            "%d more like this in the last %d s, the last: %s",
            (kind.held, round(self.window), last.getMessage()),
            None,
        )
        kind.held, kind.last = 0, None
        self.handler.acquire()
        try:
            self.handler.emit(summary)  # past the filters: a summary is never held back
        finally:
            self.handler.release()

    def close(self) -> None:
        """At the end: every count still held back is summed up now."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            for key, kind in list(self._kinds.items()):
                self._summary(key, kind)
            self._kinds.clear()

    def _forget(self) -> None:
        """Too many kinds at once: the older half is summed up and forgotten."""
        for key, kind in sorted(self._kinds.items(), key=lambda item: item[1].start)[: KINDS // 2]:
            self._summary(key, kind)
            del self._kinds[key]


def setup_logging(level: int = logging.INFO, stream: TextIO | None = None) -> bool:
    """Configure the root logger for this process; returns whether it writes to the journal."""
    out = stream or sys.stderr
    journal = under_journal(out)
    handler = logging.StreamHandler(out)
    if journal:
        handler.setFormatter(JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    summarize = Summarize(handler)  # no flood of lines (the summaries bypass the filter)
    handler.addFilter(summarize)
    atexit.register(summarize.close)  # before logging's own shutdown (atexit runs the last first)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    quiet_kivy()
    if not faulthandler.is_enabled():
        with contextlib.suppress(ValueError, OSError, AttributeError):  # a stream without a file descriptor
            faulthandler.enable(out)
    return journal
