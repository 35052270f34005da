"""Inside the touchscreen app's own process, for the touchscreen benchmarks (``touchscreen.py``).

Imported before the app runs (``python -c "import ui_probe; ..."``, or through ``evening_probe.py``, which adds its
``"evening"`` mode to ``KINDS``) with ``COMPANION_BENCH_PROBE``
naming a JSON file of what to do. Once the app's first frame is on the screen, it plays on the
app's own loop, through the app's real table:

- ``"updates"`` (P9): random legal play (``tests/drivers.py``) of each named game; after every
  action, the main thread's CPU time (``time.thread_time``) from the moment the touchscreen's
  subscription gets the new snapshot to the end of the frame that shows it (the frame's layout,
  text textures and drawing included), and the part of it spent in ``GameScreen.show``;
- ``"taps"`` (P10): the same play, but wherever the table screen offers a button that acts, a
  scripted finger taps one (chosen at random): the wall time from the finger's lifting (the touch's
  end put into Kivy's input queue) to the flip of the frame that shows the result (a new snapshot
  for an action, the redrawn panel for a choice only the screen remembers).

It writes every sample as JSON (``"out"``) and stops the app. Screenshots of chosen steps
(``"shots"``) go to ``"shots_dir"``. Nothing here is part of the app: it only reads and wraps it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import re
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import ui.app as ui_app

CONFIG = json.loads(Path(os.environ["COMPANION_BENCH_PROBE"]).read_text())
_original_after_first_frame = ui_app.after_first_frame
_started: list[Any] = []

# Buttons that act at once (an intent through the table) or change only what the screen remembers
# (a figure picked, a room to tap next); those that open a dialog are left alone.
LOCAL = re.compile(r"^(sy\.figure\.[A-Z]\d|vm\.recycle\.(?!choose|cancel).+|myk\.museum|myk\.sir_brown)$")
SKIP = re.compile(
    r"(\.options|\.scores$|cancel|choose$|\.capture$|\.under$|engineer\.adjust|take_parcel|enter_patrons|"
    r"choose_start_player|link_x|sy\.place\.|sy\.tracker|henchman\.yes$|draw_start_player)"
)


def _after_first_frame(app: Any, work: Any) -> None:
    if not _started:
        _started.append(app)
        kind: Any = KINDS.get(str(CONFIG.get("mode")), Probe)  # evening_probe.py adds its "evening"
        _original_after_first_frame(app, lambda: asyncio.get_running_loop().create_task(kind(app).run()))
    _original_after_first_frame(app, work)


ui_app.after_first_frame = _after_first_frame
KINDS: dict[str, Any] = {}  # a probe by its mode, for modes a module beside this one measures


class Probe:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.samples: list[dict[str, Any]] = []
        self.open: dict[str, Any] | None = None  # the update being measured
        self.expect_seq: int | None = None
        self.flipped: asyncio.Event | None = None
        self.flip_wall = 0.0
        self.profile: Any = None
        self.gc_started = 0.0
        self.full_collections: list[float] = []  # CPU seconds of each full collection
        self.full_walls: list[tuple[float, float]] = []  # when each ran (perf_counter: start, end)
        self.swaps: list[tuple[float, float]] = []  # each buffer swap (Window.flip): perf_counter start, end
        self.gc_wall = 0.0
        # a phone on one seat of the game (its own process): when each state reached it
        self.phone: asyncio.subprocess.Process | None = None
        self.phone_reader: asyncio.Task[None] | None = None
        self.arrived: dict[tuple[int, int], float] = {}  # (game, seq) -> perf_counter at the phone
        self.submitted: dict[tuple[int, int], float] = {}  # (game, seq) -> perf_counter at submit
        if CONFIG.get("profile"):  # where an update's time goes (cProfile), for a developer
            import cProfile

            self.profile = cProfile.Profile()

    # -- measuring ------------------------------------------------------------------------------
    def install(self) -> None:
        from kivy.core.window import Window

        import ui.gamescreen

        sub = self.app._subscription
        original = sub.listener

        def listener(message: Any) -> None:
            if self.expect_seq is not None and self.open is None and message.get("type") == "state":
                self.open = {"seq": message.get("seq"), "cpu0": time.thread_time(), "show": 0.0, "listener": 0.0}
                if CONFIG.get("profile_end"):  # a fresh profile each update, kept if it ends the game
                    import cProfile

                    self.profile = cProfile.Profile(time.thread_time)  # CPU time: a busy machine reads true
                if self.profile is not None:
                    self.profile.enable()
            c0 = time.thread_time()
            original(message)
            if self.open is not None:
                self.open["listener"] += time.thread_time() - c0

        sub.listener = listener
        show = ui.gamescreen.GameScreen.show

        def timed_show(page: Any, message: Any) -> None:
            c0 = time.thread_time()
            show(page, message)
            if self.open is not None:
                self.open["show"] += time.thread_time() - c0

        ui.gamescreen.GameScreen.show = timed_show
        Window.bind(on_flip=self.on_flip)
        swap = Window.flip

        def timed_flip() -> None:  # the buffer swap: the loop waits for the GL renderer's frame
            w0 = time.perf_counter()
            swap()
            self.swaps.append((w0, time.perf_counter()))

        Window.flip = timed_flip
        gc.callbacks.append(self.on_gc)

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        """The cyclic garbage collector's time inside an update (``gc``), and its generation."""
        if phase == "start":
            self.gc_started = time.thread_time()
            self.gc_wall = time.perf_counter()
            return
        if info.get("generation") == 2 and self.gc_started:  # every full collection, in an update or not
            self.full_collections.append(time.thread_time() - self.gc_started)
            self.full_walls.append((self.gc_wall, time.perf_counter()))
        if self.open is not None and self.gc_started:
            self.open["gc"] = self.open.get("gc", 0.0) + time.thread_time() - self.gc_started
            self.open["gc_generation"] = max(self.open.get("gc_generation", 0), info.get("generation", 0))

    def on_flip(self, *_: Any) -> None:
        self.flip_wall = time.perf_counter()
        if self.flipped is not None:
            self.flipped.set()
        if self.open is not None and self.expect_seq is not None and self.app.rendered_seq >= self.expect_seq:
            self.open["frame"] = time.thread_time() - self.open["cpu0"]
            if self.profile is not None:
                self.profile.disable()
            self.open["flip_wall"] = self.flip_wall
            self.open["screen"] = self.app.screen  # "end": the game ended, not a table-screen update
            if CONFIG.get("profile_end") and self.profile is not None:
                if self.app.screen == "end":
                    self.profile.dump_stats(f"{CONFIG['profile_end']}-{self.open['seq']}.pstats")
                self.profile = None

    @staticmethod
    def overlap(spans: list[tuple[float, float]], start: float, end: float) -> float:
        """How long the ``spans`` (perf_counter start, end) lasted within [start, end]."""
        return sum(max(0.0, min(end, b) - max(start, a)) for a, b in spans)

    async def frames(self, count: int = 1) -> None:
        from ui.control import next_frames

        await next_frames(count)

    async def until(self, check: Any, timeout: float = 20.0) -> bool:
        from ui.control import next_frames

        end = time.monotonic() + timeout
        while not check():
            if time.monotonic() > end:
                return False
            await next_frames(1)
        return True

    # -- playing -------------------------------------------------------------------------------
    async def run(self) -> None:
        try:
            self.samples.append({"kind": "gc_start", "objects": len(gc.get_objects())})
            self.install()
            for spec in CONFIG["games"]:
                await self.play(spec)
        except Exception:
            self.samples.append({"error": traceback.format_exc()})
        try:
            await self.finish()
        finally:
            self.app.stop()  # whatever happened: a benchmark never hangs

    async def finish(self) -> None:
        import collections

        c0 = time.thread_time()
        freed = gc.collect()  # what the last moves left
        c1 = time.thread_time()
        gc.collect()  # nothing left to free: only the walk through what lives
        c2 = time.thread_time()
        self.samples.append({"kind": "gc_walk", "freed": freed, "freeing": c1 - c0, "walk": c2 - c1})
        kinds = collections.Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.get_objects())
        self.samples.append(
            {"kind": "gc", "objects": len(gc.get_objects()), "stats": gc.get_stats(), "top": kinds.most_common(25)}
        )
        self.samples.append({"kind": "gc_full", "seconds": self.full_collections})
        self.samples.append({"kind": "swaps", "seconds": [b - a for a, b in self.swaps]})
        await self.stop_phone()
        for sample in self.samples:
            key = (sample.get("game", -1), sample.get("seq", -1))
            if key in self.arrived and key in self.submitted:
                sample["phone"] = self.arrived[key] - self.submitted[key]
                # how much of that wait a full collection held the loop (its share of the window)
                start, end = self.submitted[key], self.arrived[key]
                sample["phone_gc"] = self.overlap(self.full_walls, start, end)
                sample["phone_swapping"] = self.overlap(self.swaps, start, end)
        Path(CONFIG["out"]).write_text(json.dumps(self.samples))
        if self.profile is not None and CONFIG.get("profile"):
            self.profile.dump_stats(CONFIG["profile"])

    async def new_game(self, spec: dict[str, Any], seed: int) -> int:
        from drivers import DRIVERS

        table = self.app.ctl.table
        _, config, _ = DRIVERS[spec["rules"]]
        game_id: int = await table.new_game(spec["rules"], spec.get("config") or config, spec["rules"], seed=seed)
        await self.until(lambda: self.app.screen == "game" and self.app.rendered_seq >= 0)
        await self.start_phone(game_id)
        await self.frames(5)
        return game_id

    async def start_phone(self, game_id: int) -> None:
        """A phone on the game's first seat, in its own process (``phone_probe.py``)."""
        await self.stop_phone()
        links = await self.app.ctl.seat_links()
        if not links:
            return
        url = self.app.ctl.link_url(links[0].token)
        script = str(Path(__file__).resolve().parent / "phone_probe.py")
        proc = await asyncio.create_subprocess_exec(
            sys.executable, script, url, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        assert proc.stdout is not None
        await proc.stdout.readline()  # connected
        self.phone = proc
        self.phone_reader = asyncio.get_running_loop().create_task(self.read_phone(proc, game_id))

    async def read_phone(self, proc: asyncio.subprocess.Process, game_id: int) -> None:
        assert proc.stdout is not None
        async for line in proc.stdout:
            seq, at = line.split()
            self.arrived.setdefault((game_id, int(seq)), float(at))

    async def stop_phone(self) -> None:
        if self.phone is None:
            return
        self.phone.kill()
        await self.phone.wait()
        if self.phone_reader is not None:
            await self.phone_reader
        self.phone, self.phone_reader = None, None

    def choose(self, spec: dict[str, Any], rng: random.Random) -> Any:
        from drivers import DRIVERS

        from companion.core.audience import Audience

        game = self.app.ctl.table.game
        _, _, choose = DRIVERS[spec["rules"]]
        turn = game.rules.table_turn(game.state, game.seed, None)
        return (turn.decide(), Audience.of_seat(turn.seat)) if turn is not None else choose(game, rng)

    async def play(self, spec: dict[str, Any]) -> None:
        from companion.core.errors import CompanionError

        table = self.app.ctl.table
        seed = int(spec.get("seed", 1))
        rng = random.Random(seed)
        game_id = await self.new_game(spec, seed)
        step = 0
        shots = {int(s) for s in spec.get("shots", [])}
        tapping = CONFIG.get("mode") == "taps"
        while step < int(spec["actions"]):
            game = table.game
            if game is None or game.outcome() is not None or self.app.screen != "game":
                seed += 1000
                game_id = await self.new_game(spec, seed)
                continue
            if step in shots and CONFIG.get("shots_dir"):
                await self.shot(spec, step)
            if tapping and await self.tap_one(spec, rng, step):
                step += 1
                continue
            choice = self.choose(spec, rng)
            if choice is None:
                seed += 1000
                game_id = await self.new_game(spec, seed)
                continue
            self.expect_seq = game.seq + 1
            self.open = None
            try:
                seat = choice[1].seat  # as that seat's phone would, or the table link
                source = f"phone:{seat}" if seat else "table_link"
                self.submitted[(game_id, game.seq + 1)] = time.perf_counter()
                await table.submit(choice[0], choice[1], game.seq, game_id=game_id, source=source)
            except CompanionError:
                self.expect_seq = None
                continue
            done = await self.until(lambda: self.open is not None and "frame" in self.open, timeout=30)
            if not done:
                print(
                    f"probe: no frame for step {step} ({self.open}, screen {self.app.screen}, "
                    f"rendered {self.app.rendered_seq}, expected {self.expect_seq})",
                    file=sys.stderr,
                    flush=True,
                )
            if not tapping and done and self.open is not None:
                sample = {k: v for k, v in self.open.items() if k != "cpu0"}
                what = {"intent": type(choice[0]).__name__, "by": source}
                self.samples.append(
                    {"rules": spec["rules"], "game": game_id, "step": step, "kind": "update", **what, **sample}
                )
            self.expect_seq, self.open = None, None
            step += 1
            await self.frames(2)

    async def shot(self, spec: dict[str, Any], step: int) -> None:
        from ui.control import Control

        await self.frames(3)
        await Control(self.app).screenshot(str(Path(CONFIG["shots_dir"]) / f"{spec['rules']}-{step:03d}.png"))

    # -- tapping -------------------------------------------------------------------------------
    def candidates(self, spec: dict[str, Any]) -> list[Any]:
        from kivy.uix.behaviors import ButtonBehavior

        from ui.control import covered, visible, walk

        prefix = spec.get("prefix", "")
        body = self.app.pages["game"].body
        found = []
        for w in walk(body):
            tid = getattr(w, "tid", "")
            if not tid or not tid.startswith(prefix) or SKIP.search(tid) or not isinstance(w, ButtonBehavior):
                continue
            if w.disabled or not visible(w) or covered(w):
                continue
            found.append(w)
        return sorted(found, key=lambda w: w.tid)

    async def tap_one(self, spec: dict[str, Any], rng: random.Random, step: int) -> bool:
        """Tap one acting button, if the screen offers one; record the tap's latency."""
        from kivy.base import EventLoop
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView

        from ui.control import ScriptedTouch, inside

        found = self.candidates(spec)
        if not found:
            return False
        widget = rng.choice(found)
        tid = widget.tid
        local = bool(LOCAL.match(tid))
        scroller = next((a for a in _ancestors(widget) if a.__class__.__name__.endswith("ScrollView")), None)
        if scroller is not None and not inside(widget, scroller):
            scroller.scroll_to(widget, padding=10, animate=False)
            await self.frames(3)
        released: list[float] = []
        widget.fbind("on_release", lambda *_: released.append(time.perf_counter()))
        before = self.app.rendered_seq
        self.expect_seq = None if local else before + 1
        self.open = None
        x, y = widget.to_window(*widget.center)
        touch = ScriptedTouch(x, y)
        EventLoop.post_dispatch_input("begin", touch)
        await self.frames(3)  # a finger rests a moment
        self.flipped = asyncio.Event()
        lifted = time.perf_counter()
        EventLoop.post_dispatch_input("end", touch)
        result: float | None = None
        end = time.monotonic() + 30
        while time.monotonic() < end:
            self.flipped.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.flipped.wait(), 2.0)
            if any(isinstance(w, ModalView) for w in Window.children):
                break  # it opened a dialog after all: not a sample
            if local and released and self.flip_wall > released[0]:
                result = self.flip_wall
                break
            if not local and self.open is not None and "flip_wall" in self.open:
                result = self.open["flip_wall"]
                break
            if released and time.perf_counter() - released[0] > 5 and self.app.rendered_seq == before:
                break  # refused (a toast says why): not a sample
        for w in list(Window.children):
            if isinstance(w, ModalView):
                w.dismiss()
        self.flipped = None
        self.expect_seq, self.open = None, None
        await self.frames(3)
        if result is None or not released:
            return False
        game_id = self.app.ctl.game_id
        if not local:
            self.submitted[(game_id, before + 1)] = lifted
        self.samples.append(
            {
                "rules": spec["rules"],
                "game": game_id,
                "seq": before + 1 if not local else None,
                "step": step,
                "kind": "tap_local" if local else "tap_action",
                "tid": tid,
                "latency": result - lifted,
                "swapping": self.overlap(self.swaps, lifted, result),  # of it, waiting in buffer swaps
                "to_release": released[0] - lifted,
            }
        )
        return True


def _ancestors(widget: Any) -> list[Any]:
    out = []
    w = widget.parent
    while w is not None and w is not w.parent:
        out.append(w)
        w = w.parent
    return out
