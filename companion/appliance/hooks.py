"""The appliance's small hooks into ``companion run`` (Kivy) and ``companion serve`` (asyncio).

Both tell systemd when they are up (``READY=1``), what they are doing (``STATUS=``, e.g.
"game 3 scotland_yard at seq 41; 2 phones connected") and that their loop still turns
(``WATCHDOG=1``); both warn in the log when saved games would not survive a power cut. The
touchscreen app also records which window and OpenGL came up for ``companion doctor``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.appliance import facts
from companion.appliance.notify import Heartbeat, Notifier, heartbeat

log = logging.getLogger(__name__)


def attach_to_kivy_app(
    app: Any, data_dir: Path, describe: Callable[[], str], after_first_frame: Callable[[Any, Callable[[], Any]], None]
) -> Heartbeat:
    """Once the app's first frame is on the screen (``after_first_frame(app, work)``, the entry
    point's own): record the display, warn about volatile storage, ready + heartbeat on Kivy's clock."""
    beat = heartbeat(describe)

    def started() -> None:
        from kivy.clock import Clock

        try:
            facts.record_kivy_display(data_dir)
        except Exception:  # facts for the doctor must never keep the table dark
            log.exception("could not read the display facts")
        facts.warn_if_volatile(data_dir)
        beat.ready()
        if beat.interval is not None:
            # Kivy's clock runs on the app's own loop: a hung frame stops the heartbeat.
            Clock.schedule_interval(lambda _dt: beat.beat(), beat.interval)

    after_first_frame(app, started)
    app.fbind("on_stop", lambda *_: beat.notifier.stopping())
    return beat


def start_heartbeat(data_dir: Path, describe: Callable[[], str]) -> asyncio.Task[None] | None:
    """For ``companion serve`` (on the running loop): ready now, then beat until cancelled."""
    facts.warn_if_volatile(data_dir)
    beat = heartbeat(describe)
    beat.ready()
    if beat.interval is None:
        return None
    return asyncio.get_running_loop().create_task(beat.run())


def lock_waiting() -> tuple[Callable[[str], None] | None, bool]:
    """For ``run`` and ``serve`` waiting for the data directory's lock (see
    :meth:`companion.app.writer.WriterLock.acquire_waiting`): under systemd, a function that tells
    it why (``STATUS=``, shown by ``systemctl status`` and ``companion status``) and keeps its
    start timeout and watchdog from running out, and ``True`` — a service waits for whoever holds
    the lock instead of exiting (each exit is a restart, and systemd gives up after a few). Outside
    systemd: nothing to tell, and only an offline command is waited for."""
    notifier = Notifier.from_environ()
    if not notifier.enabled:
        return None, False

    def tell(text: str) -> None:
        fields = [f"STATUS={text}", f"EXTEND_TIMEOUT_USEC={int(LOCK_WAIT_EXTEND * 1_000_000)}"]
        notifier.send(*fields, *(["WATCHDOG=1"] if notifier.watchdog_usec else []))

    return tell, True


LOCK_WAIT_EXTEND = 30.0  # seconds of start-up time asked for at each look at the lock (every second)
