"""The one thing a driver thread may do with an event: hand it to the app's event loop."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from hardware.events import HardwareEvent

Deliver = Callable[[HardwareEvent], None]


def to_loop(loop: asyncio.AbstractEventLoop, handler: Callable[[HardwareEvent], object]) -> Deliver:
    """A ``deliver`` callable for driver threads: schedules ``handler(event)`` on ``loop``.

    It never blocks and never runs ``handler`` in the calling thread. Events that arrive while
    the loop is shutting down are dropped (there is nobody left to act on them).
    """

    def deliver(event: HardwareEvent) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed
            loop.call_soon_threadsafe(handler, event)

    return deliver


def to_queue(loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[HardwareEvent]) -> Deliver:
    """Like :func:`to_loop`, putting events on an unbounded ``asyncio.Queue`` owned by ``loop``."""
    return to_loop(loop, queue.put_nowait)
