"""When the phones' address may have changed: the kernel says so, and a slow poll makes sure.

A Pi boots faster than its Wi-Fi joins, a hotspot replaces the home network, a cable is plugged
in: the address in the phones' QR codes must follow without a restart. :class:`AddressWatch`
listens on a netlink socket for the kernel's address and link messages (``RTMGRP_LINK``,
``RTMGRP_IPV4_IFADDR``, ``RTMGRP_IPV6_IFADDR``; see rtnetlink(7)) on the running asyncio loop,
reads the address again a moment after each burst of them, and calls back when it differs from
the last one. A poll every ``poll`` seconds does the same where netlink cannot be opened (or a
message was lost). Standard library only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable

log = logging.getLogger(__name__)

NETLINK_ROUTE = 0
RTMGRP_LINK = 0x1
RTMGRP_IPV4_IFADDR = 0x10
RTMGRP_IPV6_IFADDR = 0x100
SETTLE = 0.3  # seconds after a netlink message before reading the address (addresses come in steps)
POLL = 15.0


def netlink_socket() -> socket.socket | None:
    """A non-blocking socket that receives the kernel's link and address changes; None if not allowed."""
    try:
        sock = socket.socket(
            socket.AF_NETLINK, socket.SOCK_RAW | socket.SOCK_NONBLOCK | socket.SOCK_CLOEXEC, NETLINK_ROUTE
        )
    except (OSError, AttributeError) as exc:
        log.info("no netlink socket (%s): the phones' address is polled every %.0f s", exc, POLL)
        return None
    try:
        sock.bind((0, RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR))
    except OSError as exc:
        sock.close()
        log.info("netlink bind failed (%s): the phones' address is polled every %.0f s", exc, POLL)
        return None
    return sock


class AddressWatch:
    """Calls ``changed(new)`` on the loop whenever ``read()`` (e.g. :func:`companion.app.qr.lan_address`)
    gives something other than before."""

    def __init__(
        self, read: Callable[[], str | None], changed: Callable[[str | None], None], poll: float = POLL
    ) -> None:
        self.read = read
        self.changed = changed
        self.poll = poll
        self.last: str | None = None
        self._sock: socket.socket | None = None
        self._settle: asyncio.TimerHandle | None = None
        self._poller: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """On the running loop: remember the address now, then watch."""
        self._loop = asyncio.get_running_loop()
        self.last = self.read()
        self._sock = netlink_socket()
        if self._sock is not None:
            self._loop.add_reader(self._sock.fileno(), self._readable)
        self._poller = self._loop.create_task(self._poll(), name="companion-address-poll")

    def _readable(self) -> None:
        assert self._sock is not None and self._loop is not None
        with contextlib.suppress(BlockingIOError, InterruptedError):
            while self._sock.recv(65536):
                pass  # what changed does not matter: the address is read again as a whole
        if self._settle is None:
            self._settle = self._loop.call_later(SETTLE, self._settled)

    def _settled(self) -> None:
        self._settle = None
        self.check()

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            self.check()

    def check(self) -> bool:
        """Read the address now; call back (and return True) when it changed."""
        try:
            now = self.read()
        except OSError:
            log.debug("reading the address failed", exc_info=True)
            return False
        if now == self.last:
            return False
        log.info("the phones' address is now %s (was %s)", now or "none (no network)", self.last or "none")
        self.last = now
        try:
            self.changed(now)
        except Exception:  # a screen's refresh must never stop the watch
            log.exception("an address change could not be shown")
        return True

    def stop(self) -> None:
        if self._settle is not None:
            self._settle.cancel()
            self._settle = None
        if self._poller is not None:
            self._poller.cancel()
            self._poller = None
        if self._sock is not None:
            if self._loop is not None:
                with contextlib.suppress(Exception):
                    self._loop.remove_reader(self._sock.fileno())
            self._sock.close()
            self._sock = None
