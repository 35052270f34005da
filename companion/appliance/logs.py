"""One logging set-up for ``companion run`` and ``companion serve``.

Under systemd (``$JOURNAL_STREAM`` names our stderr, see systemd.exec(5)) every line starts with a
syslog priority prefix like ``<4>`` that journald turns into the entry's priority, and carries no
time stamp (the journal has its own). At a terminal lines get a time stamp instead.

Kivy logs only through Python's logging (``KIVY_LOG_MODE=PYTHON``): no coloured second copy of
each line on stderr and no log files under ``$KIVY_HOME/logs`` on the SD card. ``faulthandler``
prints every thread's Python stack when the process dies of SIGABRT, which is how systemd's
watchdog ends a hung app, so the journal tells where it hung.
"""

from __future__ import annotations

import contextlib
import faulthandler
import logging
import os
import sys
from collections.abc import MutableMapping
from typing import TextIO

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


def setup_logging(level: int = logging.INFO, stream: TextIO | None = None) -> bool:
    """Configure the root logger for this process; returns whether it writes to the journal."""
    out = stream or sys.stderr
    journal = under_journal(out)
    handler = logging.StreamHandler(out)
    if journal:
        handler.setFormatter(JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
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
