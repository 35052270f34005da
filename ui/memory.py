"""The cyclic garbage collector's full collections: after a frame, or when nothing happens.

Kivy widgets hold each other in cycles (a parent and its children, bindings), so a widget that
leaves the screen is freed only by a *full* collection, and freeing thousands of widgets takes
long: on this machine 100–300 ms. Python starts a full collection by itself once enough objects
have piled up — in the middle of whatever the loop is doing, often while the touchscreen draws a
new snapshot (P9's worst samples, ``make bench``). Here instead:

- once the first frame is on the screen, everything made while starting (Kivy, the screens'
  modules, the start screen) is *frozen* (:func:`gc.freeze`): no full collection looks at it again;
- Python's own full collections are switched off (the younger generations are collected as
  always: well under a millisecond each);
- when Python would have started one (the middle generation collected :data:`DUE` times since the
  last), it runs right after the next frame that shows a snapshot is on the screen — the table's
  result is seen first — or, with no snapshot coming, once the table has been quiet (no snapshot
  drawn, no touch) for :data:`QUIET` seconds; never later than :data:`LATEST` middle-generation
  collections, so memory stays bounded however busy the table is.

The screens that update in place (:mod:`ui.parts`) leave little garbage, so these collections
come seldom and are short.
"""

from __future__ import annotations

import gc
import time
from typing import Any

EVERY = 1.0  # seconds between looks at the quiet table
QUIET = 1.5
DUE = 10  # Python's own pace: the oldest generation's default threshold
LATEST = 5 * DUE
NEVER = 2**31 - 1


class Collector:
    def __init__(self) -> None:
        self.last_activity = time.monotonic()
        self.started = False
        self.after_frame = False  # a collection waits for the next frame
        self.full = 0  # full collections run (for the benchmarks)

    def start(self) -> None:
        """Freeze what starting made and take over the full collections (on the Kivy clock)."""
        from kivy.clock import Clock
        from kivy.core.window import Window

        gc.collect()
        gc.freeze()
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, NEVER)
        Window.bind(on_touch_down=self.touched, on_touch_up=self.touched, on_flip=self.flipped)
        Clock.schedule_interval(self.tick, EVERY)
        self.started = True

    def touched(self, *_: Any) -> None:
        self.last_activity = time.monotonic()

    def drawn(self) -> None:
        """A snapshot was drawn: if a full collection is due, it runs once its frame is shown."""
        self.last_activity = time.monotonic()
        if self.started and gc.get_count()[2] >= DUE:
            self.after_frame = True

    def flipped(self, *_: Any) -> None:
        if self.after_frame:
            from kivy.clock import Clock

            self.after_frame = False
            Clock.schedule_once(lambda _dt: self.collect(), 0)  # after this frame's own work

    def tick(self, _dt: float = 0.0) -> None:
        due = gc.get_count()[2]
        quiet = time.monotonic() - self.last_activity >= QUIET
        if (due >= DUE and quiet) or due >= LATEST:
            self.collect()

    def collect(self) -> None:
        gc.collect()
        self.full += 1


collector = Collector()
