"""The cyclic garbage collector: no full collection during play, the rest after a frame.

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
  last), the young generations are collected right after the next frame that shows a snapshot is
  on the screen — the table's result is seen first — or, with no snapshot coming, once the table
  has been quiet (no snapshot drawn, no touch) for :data:`QUIET` seconds, and what survives them is
  frozen: during play no collection walks the long-lived objects of the app and the game (a full
  one walked 100,000–300,000 of them and freed 90,000–170,000: 1–2 s on a Pi 4 core);
- a Kivy widget is a reference cycle of its own (every ``on_<property>`` handler is a bound method
  kept in the widget's properties), so a widget that leaves the screen once frozen stays until
  everything is thawed and collected: once a game's first frame is on the screen
  (:meth:`game_opened`: a new game, or a saved one reopened), when the table has been quiet for
  :data:`THAW_QUIET` seconds, and when more than :data:`MOST` objects were frozen since the last
  time, at the next quiet moment. That one long collection frees the screens of the game before;
  it comes with a game's start, not during play.

``benchmarks/evening.py`` records every pause of the loop with its cause (docs/performance.md).
"""

from __future__ import annotations

import gc
import time
from typing import Any

EVERY = 1.0  # seconds between looks at the quiet table
QUIET = 1.5
DUE = 1  # middle-generation collections before the survivors are frozen
LATEST = 10
MOST = 600_000  # objects frozen since the last thaw before one is made at the next quiet moment
THAW_QUIET = 30.0  # seconds of a quiet table before everything frozen since a game's start is collected
NEVER = 2**31 - 1


class Collector:
    def __init__(self) -> None:
        self.last_activity = time.monotonic()
        self.started = False
        self.after_frame = False  # a collection waits for the next frame
        self.full = 0  # full collections run (for the benchmarks)
        self.thawed = 0  # of them, collections of everything (a game's start, a long quiet)
        self.thaw_due = False  # everything is collected once the next frame is shown
        self.frozen_at_thaw = 0
        self.mark = 0  # middle-generation collections counted at the last collection here

    def start(self) -> None:
        """Freeze what starting made and take over the full collections (on the Kivy clock)."""
        from kivy.clock import Clock
        from kivy.core.window import Window

        gc.collect()
        gc.freeze()
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, NEVER)
        self.frozen_at_thaw = gc.get_freeze_count()
        Window.bind(on_touch_down=self.touched, on_touch_up=self.touched, on_flip=self.flipped)
        Clock.schedule_interval(self.tick, EVERY)
        self.started = True

    def game_opened(self) -> None:
        """A game was opened (new or saved): once its first frame is shown, everything is collected."""
        if self.started:
            self.thaw_due = self.after_frame = True

    def touched(self, *_: Any) -> None:
        self.last_activity = time.monotonic()

    def drawn(self) -> None:
        """A snapshot was drawn: if a full collection is due, it runs once its frame is shown."""
        self.last_activity = time.monotonic()
        if self.started and self.due() >= DUE:
            self.after_frame = True

    def flipped(self, *_: Any) -> None:
        if self.after_frame:
            from kivy.clock import Clock

            self.after_frame = False
            Clock.schedule_once(lambda _dt: self.collect(), 0)  # after this frame's own work

    def tick(self, _dt: float = 0.0) -> None:
        due = self.due()
        idle = time.monotonic() - self.last_activity
        grown = gc.get_freeze_count() - self.frozen_at_thaw
        if (idle >= THAW_QUIET and grown > 0) or (idle >= QUIET and grown > MOST):
            self.thaw_due = True
            self.collect()
        elif (due >= DUE and idle >= QUIET) or due >= LATEST:
            self.collect()

    def due(self) -> int:
        """Middle-generation collections since the last collection here."""
        return gc.get_count()[2] - self.mark

    def collect(self) -> None:
        """The young generations collected and what survives them frozen (a thaw due: everything
        collected, then frozen)."""
        thaw, self.thaw_due = self.thaw_due, False
        if thaw:
            gc.unfreeze()
        gc.collect(2 if thaw else 1)
        gc.freeze()
        self.mark = gc.get_count()[2]
        self.full += 1
        if thaw:
            self.thawed += 1
            self.frozen_at_thaw = gc.get_freeze_count()

    def report(self) -> dict[str, int]:
        """For the benchmarks: collections run, of them thaws (full ones), objects frozen now."""
        return {"full": self.full, "thawed": self.thawed, "frozen": gc.get_freeze_count()}


collector = Collector()
