"""Inside the touchscreen app's own process, for the evening benchmark (``evening.py``): a whole
evening at the table, and every pause of the app's loop with what it was.

Run by ``ui_probe.py`` when its probe file says ``"mode": "evening"``. Once the first frame is on
the screen it plays, through the app's real table, its phone server and its screens:

- the games named (``"games"``), one after another, each from its own seed, ``"actions"`` actions
  each: where the table screen offers a button that acts a scripted finger taps one (``tap_one``,
  P10's taps → frame), else the seat whose turn it is acts — from its phone (a real web socket,
  ``phone_probe.py --act``, in its own process) for the seats that have one, else as that seat's
  phone would through the table;
- along the way: the language switched and back, the history screen opened and closed, the first
  game of a round opened again from the store after the others (a saved game reopened) and played
  on, and the host page open all evening (its own process, ``phone_probe.py`` with the host link);
- ``"rounds"``: the same evening again, in the same process (the soak: ``"every"`` games, the
  process's memory, open files, threads, objects, textures, widgets and clock events).

The pauses: a Kivy clock callback every frame notes when it runs; a gap between two runs longer
than :data:`FRAME` is a pause of the loop by ``gap - FRAME``. Every piece of work that could take
the loop is recorded as a span (start, end, cause): each garbage collection (``gc.callbacks``: its
generation, the objects it freed), each screen change (``CompanionApp.go``), each snapshot drawn
(``show_message``), the views for the phones (``Table._prepare``, ``Table.message``), the
publishing (``Table._publish``), each buffer swap (``Window.flip``), a game's start (from asking
for it to its first frame), the language switch, the reopening. A pause's causes are the spans
within its gap, longest first.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import secrets
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ui_probe import CONFIG, KINDS, Probe

FRAME = 1 / 60  # Kivy's frame time (maxfps 60): a tick later than this is a pause
KEEP = 0.034  # pauses shorter than two frames are only counted
HERE = Path(__file__).resolve().parent


class Evening(Probe):
    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.spans: list[tuple[float, float, str]] = []
        self.pauses: list[dict[str, Any]] = []
        self.ticks = 0
        self.short_gaps = 0
        self.last_tick = 0.0
        self.gc_span: tuple[float, int] | None = None
        self.phones: dict[str, asyncio.subprocess.Process] = {}
        self.devices: dict[str, str] = {}  # a seat link's token -> its phone's device secret
        self.host: asyncio.subprocess.Process | None = None
        self.soak: list[dict[str, Any]] = []
        self.games_played = 0
        self.sent = 0
        self.windows: list[tuple[float, float, str]] = []  # game starts: (start, end, what)
        self.opening = ""  # the game start under way, if any

    # -- recording -----------------------------------------------------------------------------
    def span(self, start: float, cause: str) -> None:
        self.spans.append((start, time.perf_counter(), cause))

    def timed(self, obj: Any, name: str, cause: Callable[..., str] | str) -> None:
        original = getattr(obj, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.span(t0, cause(*args, **kwargs) if callable(cause) else cause)

        setattr(obj, name, wrapper)

    def install(self) -> None:
        from kivy.clock import Clock
        from kivy.core.window import Window

        super().install()
        app, table = self.app, self.app.ctl.table
        self.timed(app, "go", lambda name, *a, **k: f"screen change to {name}")
        self.timed(app, "show_message", "snapshot drawn (show_message)")
        self.timed(table, "_prepare", "views built while committing (Table._prepare)")
        self.timed(table, "_publish", "publishing to every screen (Table._publish)")
        self.timed(table, "message", "a view built (Table.message)")
        swap = Window.flip

        def flip() -> None:
            t0 = time.perf_counter()
            swap()
            self.span(t0, "buffer swap (Window.flip)")

        Window.flip = flip
        gc.callbacks.append(self.on_collection)
        self.last_tick = time.perf_counter()
        Clock.schedule_interval(self.tick, 0)

    def on_collection(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.gc_span = (time.perf_counter(), info["generation"])
            return
        if self.gc_span is not None:
            t0, generation = self.gc_span
            self.span(t0, f"gc generation {generation}, {info.get('collected', 0)} objects freed")
            self.gc_span = None

    def tick(self, _dt: float) -> None:
        now = time.perf_counter()
        gap, self.last_tick = now - self.last_tick, now
        self.ticks += 1
        pause = gap - FRAME
        if pause <= 0:
            return
        if gap < KEEP:
            self.short_gaps += 1
            return
        start = now - gap
        causes: dict[str, float] = {}
        swapping = 0.0
        for a, b, cause in self.spans:
            inside = min(now, b) - max(start, a)
            if inside > 0:
                causes[cause] = causes.get(cause, 0.0) + inside
                if cause.startswith("buffer swap"):
                    swapping += inside
        window = next((w for a, b, w in self.windows if a <= now and b >= start), self.opening)
        self.pauses.append(
            {
                "at": start,
                "pause": pause,
                "swapping": swapping,
                "causes": sorted(causes.items(), key=lambda kv: -kv[1])[:4],
                "window": window,
                "screen": self.app.screen,
            }
        )
        self.spans = [s for s in self.spans if s[1] >= now - 0.001]  # older ones can explain no later gap

    # -- the phones and the host page -----------------------------------------------------------
    async def spawn(self, url: str, *flags: str) -> asyncio.subprocess.Process:
        t0 = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(HERE / "phone_probe.py"),
            url,
            *flags,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert proc.stdout is not None
        self.span(t0, "the benchmark starting a phone's process")
        await proc.stdout.readline()  # connected
        asyncio.get_running_loop().create_task(self.drain(proc))
        return proc

    async def drain(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        async for _line in proc.stdout:
            pass

    async def phones_on(self, seats: int) -> None:
        await self.phones_off()
        for link in (await self.app.ctl.seat_links())[:seats]:
            url = self.app.ctl.link_url(link.token)
            if url:
                device = self.devices.setdefault(link.token, secrets.token_hex(32))  # the same phone again
                self.phones[link.seat] = await self.spawn(url, "--act", f"--device={device}")

    async def phones_off(self) -> None:
        for proc in self.phones.values():
            with contextlib.suppress(ProcessLookupError):  # gone already: its game was closed
                proc.kill()
            await proc.wait()
        self.phones = {}

    # -- the evening ---------------------------------------------------------------------------
    async def run(self) -> None:
        import traceback

        try:
            self.samples.append({"kind": "startup", **await self.startup()})
            self.install()
            url = await self.app.ctl.host_url()
            if url:
                self.host = await self.spawn(url)
            self.sample_soak()
            for round_ in range(int(CONFIG.get("rounds", 1))):
                await self.round(round_)
        except Exception:
            self.samples.append({"error": traceback.format_exc()})
        try:
            await self.phones_off()
            if self.host is not None:
                self.host.kill()
                await self.host.wait()
            self.samples.append({"kind": "pauses", "pauses": self.pauses, "ticks": self.ticks})
            self.samples.append({"kind": "soak", "rows": self.soak})
            from ui.memory import collector

            report = getattr(collector, "report", lambda: {"full": collector.full})
            self.samples.append({"kind": "collector", **report()})
            Path(CONFIG["out"]).write_text(json.dumps(self.samples))
        finally:
            self.app.stop()

    async def startup(self) -> dict[str, float]:
        """Process start → first frame → a phone's request answered by the phone server."""
        import aiohttp

        first = time.perf_counter()
        spawned = float(CONFIG.get("spawned", first))
        async with aiohttp.ClientSession() as session:
            while True:
                port = self.app.ctl.phones.port
                if port and self.app.ctl.phones.server is not None:
                    try:
                        async with session.get(f"http://127.0.0.1:{port}/", timeout=aiohttp.ClientTimeout(5)) as r:
                            if r.status < 500:
                                break
                    except (aiohttp.ClientError, TimeoutError):
                        pass
                await asyncio.sleep(0.01)
        return {"first_frame": first - spawned, "phones_can_join": time.perf_counter() - spawned}

    async def round(self, number: int) -> None:
        from ui.controller import PREF_LANGUAGE

        games = CONFIG["games"]
        actions = int(CONFIG.get("actions", 40))
        first_id: int | None = None
        for i, rules in enumerate(games):
            seed = 1000 * number + 17 * i + 1
            game_id = await self.start(rules, seed)
            first_id = first_id if first_id is not None else game_id
            half = actions // 2
            await self.moves(rules, half, seed)
            if i == 0:  # the language switched and back, mid-game
                lang = self.app.ctl.lang
                t0 = time.perf_counter()
                await self.app.ctl.set_pref(PREF_LANGUAGE, "de" if lang != "de" else "en")
                self.span(t0, "language switch")
                await self.frames(10)
                t0 = time.perf_counter()
                await self.app.ctl.set_pref(PREF_LANGUAGE, lang)
                self.span(t0, "language switch back")
                await self.frames(10)
            if i == 1:  # the history screen, and back to the game
                self.app.go("history")
                await self.frames(30)
                self.app.go("game")
                await self.frames(10)
            await self.moves(rules, actions - half, seed + 1)
            self.games_played += 1
            if self.games_played % int(CONFIG.get("every", 10)) == 0:
                self.sample_soak()
        if first_id is not None and len(games) > 1:  # the round's first game, saved, opened again
            t0 = time.perf_counter()
            self.opening = "a saved game reopened (to its first frame, its phones joining)"
            await self.app.ctl.table.open_game(first_id)
            await self.until(lambda: self.app.screen in ("game", "end") and self.app.message.get("game_id") == first_id)
            await self.phones_on(2)
            await self.frames(3)
            self.windows.append((t0, time.perf_counter(), self.opening))
            self.opening = ""
            await self.moves(games[0], max(4, actions // 4), 7 + number)
            await self.phones_off()

    async def start(self, rules: str, seed: int) -> int:
        from drivers import DRIVERS

        _, config, _ = DRIVERS[rules]
        t0 = time.perf_counter()
        self.opening = f"a game's start ({rules}: to its first frame, its phones joining)"
        game_id: int = await self.app.ctl.table.new_game(rules, config, rules, seed=seed)
        await self.until(lambda: self.app.screen == "game" and self.app.message.get("game_id") == game_id)
        await self.frames(3)
        await self.phones_on(2)  # this process starts their processes: a fork of the app, under its cap
        await self.frames(3)
        self.windows.append((t0, time.perf_counter(), self.opening))
        self.opening = ""
        return game_id

    async def moves(self, rules: str, count: int, seed: int) -> None:
        from companion.core.errors import CompanionError

        rng = random.Random(seed)
        table = self.app.ctl.table
        prefix = {"scotland_yard": "sy.", "victorian_masterminds": "vm.", "mykerinos": "myk."}.get(rules, "")
        spec = {"rules": rules, "prefix": prefix}
        for step in range(count):
            game = table.game
            if game is None or game.outcome() is not None or self.app.screen != "game":
                return
            if step % 3 == 0 and await self.tap_one(spec, rng, step):
                continue
            choice = self.choose(spec, rng)
            if choice is None:
                return
            intent, actor = choice
            before = game.seq
            phone = self.phones.get(actor.seat) if actor.seat else None
            if phone is not None and phone.returncode is None and phone.stdin is not None:
                self.sent += 1
                body = {"type": "intent", "id": self.sent, "seq": before, "intent": table.intent_codec().encode(intent)}
                phone.stdin.write((json.dumps(body) + "\n").encode())
                await phone.stdin.drain()
            else:
                try:
                    source = f"phone:{actor.seat}" if actor.seat else "table_link"
                    await table.submit(intent, actor, before, game_id=self.app.ctl.game_id, source=source)
                except CompanionError:
                    continue
            await self.until(lambda b=before: self.app.rendered_seq > b, timeout=30)
            await self.frames(2)

    # -- weeks without a restart -----------------------------------------------------------------
    def sample_soak(self) -> None:
        from kivy.cache import Cache
        from kivy.clock import Clock
        from kivy.uix.widget import Widget

        status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
        from kivy.core.window import Window

        objects = gc.get_objects()
        widgets = sum(1 for root in Window.children for w in root.walk() if isinstance(w, Widget))
        widgets += sum(1 for page in self.app.pages.values() if page.parent is None for _ in page.walk())
        cache = getattr(Cache, "_objects", {})
        log = Path(CONFIG["out"]).parent / "app.log"
        self.soak.append(
            {
                "games": self.games_played,
                "rss_kb": int(status["VmRSS"].split()[0]),
                "fds": len(os.listdir("/proc/self/fd")),
                "threads": int(status["Threads"]),
                "python_threads": threading.active_count(),
                "gc_objects": len(objects) + gc.get_freeze_count(),
                "gc_frozen": gc.get_freeze_count(),
                "widgets": widgets,
                "textures": len(cache.get("kv.texture", {})),
                "clock_events": len(Clock.get_events()),
                "subscriptions": len(self.app.ctl.table._subscriptions),
                "log_bytes": log.stat().st_size if log.exists() else 0,
            }
        )
        del objects


KINDS["evening"] = Evening  # touchscreen.run_app imports this module for an evening; ui_probe asks KINDS
