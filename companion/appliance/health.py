"""Warnings about the Pi itself, for the touchscreen's start screen and the host page.

Three things lose a table's evening without a word in the game: saved games kept in RAM (an
overlay file system, raspi-config's "Overlay File System", or a tmpfs), a power supply too weak for
the Pi (under-voltage: SD card corruption, readers that drop out) and a Pi slowed down by heat or
power (throttling), and the phones' own Wi-Fi (``companion hotspot on``) set up but not up. A
file the app found damaged and set aside (``companion.files.set_aside``:
the saved games, the tag table, the host token) is a fourth, said until the host removes the copy.
:func:`warnings` turns :mod:`.facts` into message codes with parameters (texts
in this package's catalogue, every language); :class:`HealthWatch` reads them again every
``interval`` seconds off the event loop (``vcgencmd`` is a process) and calls back when they change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.appliance import facts, hotspot
from companion.files import DAMAGED, STORE_FILE, damaged_copies

log = logging.getLogger(__name__)

Warning_ = tuple[str, dict[str, Any]]
INTERVAL = 30.0


def warnings(
    data_dir: Path, throttled: dict[str, Any] | None = None, storage: dict[str, Any] | None = None
) -> list[Warning_]:
    """The Pi's warnings now, most urgent first: ``(code, params)`` for the appliance catalogue."""
    storage = facts.storage(data_dir) if storage is None else storage
    found: list[Warning_] = []
    if storage.get("volatile"):
        found.append(("appliance.health.volatile", {}))
    flags = set((throttled or {}).get("flags", []))
    if "under-voltage now" in flags:
        found.append(("appliance.health.under_voltage_now", {}))
    elif "under-voltage since boot" in flags:
        found.append(("appliance.health.under_voltage_boot", {}))
    if flags & {"throttled now", "ARM frequency capped now", "soft temperature limit now"}:
        found.append(("appliance.health.throttled_now", {}))
    elif flags & {"throttled since boot", "ARM frequency capped since boot", "soft temperature limit since boot"}:
        found.append(("appliance.health.throttled_boot", {}))
    return [*damaged(data_dir, games=True), *found, *damaged(data_dir, games=False)]


def damaged(data_dir: Path, games: bool | None = None) -> list[Warning_]:
    """A warning for each file found damaged and set aside (``files.set_aside``): the saved games'
    (``games`` True: only those, False: only the others, None: all)."""
    out: list[Warning_] = []
    for copy in damaged_copies(data_dir):
        name = copy.name.partition(DAMAGED)[0]
        if name == STORE_FILE and games is not False:
            out.append(("appliance.health.damaged_games", {"copy": copy.name}))
        elif name != STORE_FILE and games is not True:
            out.append(("appliance.health.damaged_file", {"name": name, "copy": copy.name}))
    return out


def read(data_dir: Path) -> list[Warning_]:
    """:func:`warnings` from this machine, and the hotspot set up but down (blocking: run it off
    the loop)."""
    down = hotspot.quiet_failure()
    off = [("appliance.health.hotspot_down", down)] if down is not None else []
    return [*warnings(data_dir, facts.throttled(), facts.storage(data_dir)), *off]


class HealthWatch:
    """Reads :func:`read` now and every ``interval`` seconds (and at once after :meth:`poke`), with
    the running app's own warnings from ``extra`` (the voice that cannot be heard; blocking, run off
    the loop like the rest) after the Pi's; ``changed(warnings)`` on a change."""

    def __init__(
        self,
        data_dir: Path,
        changed: Callable[[list[Warning_]], None],
        interval: float = INTERVAL,
        extra: Callable[[], list[Warning_]] | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.changed = changed
        self.interval = interval
        self.extra = extra
        self.last: list[Warning_] | None = None
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._poked = asyncio.Event()

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._task = self._loop.create_task(self._run(), name="companion-health")

    def poke(self) -> None:
        """Read again now (from any thread): something the warnings say may have changed."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._poked.set)

    def _read(self) -> list[Warning_]:
        return [*read(self.data_dir), *(self.extra() if self.extra is not None else [])]

    async def _run(self) -> None:
        while True:
            self._poked.clear()
            try:
                now = await asyncio.to_thread(self._read)
            except Exception:  # a fact that cannot be read must not end the watch
                log.exception("the Pi's health could not be read")
                now = self.last or []
            if now != self.last:
                self.last = now
                for code, params in now:
                    log.warning("%s %s", code, params)
                try:
                    self.changed(now)
                except Exception:
                    log.exception("a health warning could not be shown")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), self.interval)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
