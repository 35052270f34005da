"""The cyclic garbage collector's full collections, moved to moments when nothing happens.

Kivy widgets hold each other in cycles (a parent and its children, bindings), so a widget that
leaves the screen is freed only by a *full* collection. Python starts one by itself whenever
enough objects have piled up — in the middle of whatever the loop is doing: on this machine a
full collection took 100–250 ms of a table-screen update (P9's worst samples, ``make bench``),
holding the touchscreen and every phone. Here instead:

- once the first frame is on the screen, everything made while starting (Kivy, the screens'
  modules, the start screen) is *frozen* (:func:`gc.freeze`): it lives as long as the app, and no
  full collection looks at it again;
- Python's own full collections are switched off (the youngest generations stay as they are:
  they take well under a millisecond);
- every :data:`EVERY` seconds, if the table has been quiet for :data:`QUIET` seconds (no snapshot
  drawn, no touch) and the younger generations have been collected at least :data:`DUE` times
  since, a full collection runs; after :data:`LATEST` seconds without a quiet moment it runs anyway.
"""

from __future__ import annotations

import gc
import time
from typing import Any

EVERY = 2.0
QUIET = 1.5
LATEST = 60.0
DUE = 10  # the second generation's default threshold: Python's own pace
NEVER = 2**31 - 1


class Collector:
    def __init__(self) -> None:
        self.last_activity = time.monotonic()
        self.last_full = time.monotonic()
        self.full = 0  # full collections run (for the benchmarks)

    def start(self) -> None:
        """Freeze what starting made and take over the full collections (on the Kivy clock)."""
        from kivy.clock import Clock
        from kivy.core.window import Window

        gc.collect()
        gc.freeze()
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, NEVER)
        Window.bind(on_touch_down=self.active, on_touch_up=self.active)
        Clock.schedule_interval(self.tick, EVERY)

    def active(self, *_: Any) -> None:
        """Something happens at the table (a snapshot drawn, a touch): not now."""
        self.last_activity = time.monotonic()

    def tick(self, _dt: float = 0.0) -> None:
        now = time.monotonic()
        quiet = now - self.last_activity >= QUIET
        if gc.get_count()[2] >= DUE and (quiet or now - self.last_full >= LATEST):
            gc.collect()
            self.full += 1
            self.last_full = time.monotonic()


collector = Collector()
