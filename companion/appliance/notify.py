"""The systemd notification protocol, standard library only (see sd_notify(3)).

A service of ``Type=notify`` gets ``$NOTIFY_SOCKET`` (a path, or ``@name`` for Linux's abstract
namespace) and sends it datagrams of ``KEY=VALUE`` lines: ``READY=1`` once it is up, ``STATUS=...``
for ``systemctl status``, ``STOPPING=1`` on the way out. With ``WatchdogSec=`` systemd also sets
``$WATCHDOG_USEC`` (and ``$WATCHDOG_PID``): the service must send ``WATCHDOG=1`` at least that
often, or it is killed and restarted; sd_watchdog_enabled(3) recommends every half of it.

:class:`Heartbeat` sends ``WATCHDOG=1`` (and a fresh ``STATUS=``) from the app's own loop, so a
hung loop stops the heartbeat and systemd restarts the app. Outside systemd everything here is
a no-op.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)

STATUS_INTERVAL = 5.0  # seconds between STATUS= refreshes when no watchdog asks for more


class Notifier:
    """Sends notifications to ``address`` (``None``: not under systemd, every send is dropped)."""

    def __init__(self, address: str | None, watchdog_usec: int | None = None) -> None:
        self.address = address
        self.watchdog_usec = watchdog_usec
        self._socket: socket.socket | None = None

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None, pid: int | None = None) -> Notifier:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET") or None
        usec: int | None = None
        watchdog_pid = env.get("WATCHDOG_PID", "")
        if env.get("WATCHDOG_USEC", "").isdigit() and watchdog_pid in ("", str(pid or os.getpid())):
            usec = int(env["WATCHDOG_USEC"]) or None
        return cls(address, usec)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    @property
    def interval(self) -> float | None:
        """Seconds between heartbeats: half the watchdog time, else a status refresh; None outside systemd."""
        if self.watchdog_usec:
            return self.watchdog_usec / 2_000_000
        return STATUS_INTERVAL if self.enabled else None

    def send(self, *fields: str) -> bool:
        """Send one datagram of ``KEY=VALUE`` lines; never raises, never blocks."""
        if self.address is None:
            return False
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
                self._socket.setblocking(False)
            self._socket.sendto("\n".join(fields).encode("utf-8", "replace"), target)
            return True
        except OSError as exc:
            log.debug("sd_notify to %s failed: %s", self.address, exc)
            return False

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={_one_line(text)}")

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def _one_line(text: str) -> str:
    return " ".join(text.split())


class Heartbeat:
    """Feeds the watchdog and refreshes ``STATUS=`` each time :meth:`beat` runs on the app's loop."""

    def __init__(self, notifier: Notifier, describe: Callable[[], str] | None = None) -> None:
        self.notifier = notifier
        self.describe = describe
        self._last_status: str | None = None

    @property
    def interval(self) -> float | None:
        return self.notifier.interval

    def beat(self) -> None:
        fields = ["WATCHDOG=1"] if self.notifier.watchdog_usec else []
        if self.describe is not None:
            try:
                text: str | None = _one_line(self.describe())
            except Exception:  # a status line must never stop the heartbeat
                log.debug("status text failed", exc_info=True)
                text = None
            if text is not None and text != self._last_status:
                fields.append(f"STATUS={text}")
                self._last_status = text
        if fields:
            self.notifier.send(*fields)

    def ready(self) -> None:
        """The app is up: ``READY=1`` with the first status, then keep beating."""
        text = ""
        if self.describe is not None:
            try:
                text = _one_line(self.describe())
            except Exception:
                log.debug("status text failed", exc_info=True)
        self._last_status = text
        self.notifier.ready(text)

    async def run(self) -> None:
        """Beat forever on the running asyncio loop (``companion serve``); cancelling sends ``STOPPING=1``."""
        interval = self.interval
        if interval is None:
            return
        try:
            while True:
                self.beat()
                await asyncio.sleep(interval)
        except asyncio.CancelledError:
            self.notifier.stopping()
            raise


def heartbeat(describe: Callable[[], str] | None = None) -> Heartbeat:
    """A heartbeat for this process's environment (inactive outside systemd)."""
    return Heartbeat(Notifier.from_environ(), describe)
