"""``companion run``: the touchscreen app.

One asyncio loop runs everything: the table (the single writer), the phone server (aiohttp) and
the Kivy app (``App.async_run``). Kivy widgets are only touched from that loop.

Screen: full screen on a Raspberry Pi (``/proc/device-tree/model`` says "Raspberry Pi"), a window
of 800×480 (the official 7" display) elsewhere. ``COMPANION_FULLSCREEN=1``/``0`` overrides the
detection. Kivy's own environment variables (``KIVY_NO_ARGS``, ``KIVY_HOME``, ``KIVY_WINDOW``,
``KIVY_GL_BACKEND``, ...) are respected; ``KIVY_NO_ARGS`` defaults to 1 so Kivy never reads the
``companion`` command line.

Start-up: before the first frame only what it shows is made — the store, the table (with the open
game, if any), the command line's socket, the phone server's listening sockets (so the start screen
shows the phones' address) and the first screen. Right after that frame (:class:`Services`) come the
phone server on those sockets, the host page, the box's buttons, lights and tag readers and the
table's voice (``[speech]``, :func:`hardware.router.open_speech`); every
other screen is built (and its code loaded) when it is first shown.

For tests only: ``COMPANION_UI_CONTROL=<path>`` opens the local control socket described in
``ui/control.py`` (scripted taps on widgets, screenshots). For the benchmark only:
``COMPANION_FIRST_FRAME=<path>`` writes the system's monotonic clock there when the first frame
after the start is shown (``benchmarks/startup.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import os
import signal
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.app.config import Config
from companion.app.writer import WriterLock
from companion.core.errors import CompanionError
from hardware.pi import on_raspberry_pi
from ui.memory import collector

if TYPE_CHECKING:  # imported when used: the window's modules load Kivy
    from companion.app.autoplay import TablePlayer
    from companion.app.netwatch import AddressWatch
    from companion.app.store import Store
    from companion.app.table import Table
    from companion.app.writer import CommandServer
    from companion.appliance.health import HealthWatch
    from ui.controller import Controller
    from ui.shell import CompanionApp

log = logging.getLogger(__name__)
WIDTH, HEIGHT = 800, 480


def fullscreen_wanted() -> bool:
    forced = os.environ.get("COMPANION_FULLSCREEN", "").strip().lower()
    if forced in ("1", "true", "yes", "on"):
        return True
    if forced in ("0", "false", "no", "off"):
        return False
    return on_raspberry_pi()


def touch_setup(display: str | None, fullscreen: bool) -> tuple[dict[str, str], dict[str, str]]:
    """Kivy's ``[input]`` providers and SDL's hints for the display SDL draws to, so that one touch
    is one press (Kivy issue 8494: the panel read directly *and* SDL's mouse copy of each touch
    press everything twice) and the touch turns with the picture.

    - ``kmsdrm`` (Lite): nothing turns the picture but Kivy (``KCFG_GRAPHICS_ROTATION``), so Kivy
      reads the touch panel itself (``probesysfs``: every device with multitouch axes, through
      mtdev) and turns its touches with the drawing; SDL, which reads the same panel, makes no
      mouse events of its touches (``SDL_TOUCH_MOUSE_EVENTS=0``); a real mouse still works.
    - a window system (Desktop: XWayland; X11 anywhere; ``None``: offscreen): the compositor owns
      the panel and turns it with the screen (Screen Configuration), so only SDL's events count:
      the ``mouse`` provider, no direct reader (it would press twice and ignore the rotation).
    """
    if display == "kmsdrm":
        return (
            {"mouse": "mouse,multitouch_on_demand,disable_on_activity", "touch_%(name)s": "probesysfs,provider=mtdev"},
            {"SDL_TOUCH_MOUSE_EVENTS": "0"},
        )
    return {"mouse": "mouse,multitouch_on_demand"}, {"SDL_TOUCH_MOUSE_EVENTS": "1"}


def _no_cut_buffer_complaint(record: logging.LogRecord) -> bool:
    """Drops the one complaint that no cut buffer was found (none is wanted: :func:`prepare_kivy`)."""
    return not str(record.msg).startswith("Cutbuffer: Unable to find any valuable Cutbuffer provider")


def prepare_kivy(fullscreen: bool) -> None:
    """Configure Kivy before its window exists (only in memory; the user's config file is untouched)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from companion.appliance.display import expected

    display = expected()
    inputs, hints = touch_setup(display.kind if display is not None else None, fullscreen)
    for name, value in hints.items():  # read by SDL when it starts (a unit's Environment= wins)
        os.environ.setdefault(name, value)
    import kivy
    from kivy.config import Config as KivyConfig
    from kivy.logger import Logger

    # The clipboard a text field uses: SDL's own, which works on the KMS/DRM display and under X
    # alike (xclip and xsel need an X server and are not installed). No cut buffer (X's middle-click
    # selection: nothing at a touchscreen pastes that way), so Kivy neither looks for one nor logs a
    # CRITICAL traceback at the first tap on a text field because it found none.
    kivy.kivy_options["clipboard"] = ("sdl2", "dummy")
    kivy.kivy_options["cutbuffer"] = ()
    Logger.addFilter(_no_cut_buffer_complaint)

    KivyConfig.set("kivy", "exit_on_escape", "0")  # Escape must never end a game night
    KivyConfig.set("graphics", "width", str(WIDTH))
    KivyConfig.set("graphics", "height", str(HEIGHT))
    KivyConfig.set("graphics", "minimum_width", str(WIDTH))
    KivyConfig.set("graphics", "minimum_height", str(HEIGHT))
    # Exactly these input providers: Kivy's defaults (and a config.ini's) would add a second reader.
    for option in KivyConfig.options("input"):
        KivyConfig.remove_option("input", option)
    for name, value in inputs.items():
        KivyConfig.set("input", name, value)
    if fullscreen:
        KivyConfig.set("graphics", "fullscreen", "auto")
        KivyConfig.set("graphics", "show_cursor", "0")
        KivyConfig.set("kivy", "keyboard_mode", "systemanddock")
    else:
        KivyConfig.set("graphics", "fullscreen", "0")
        KivyConfig.set("graphics", "resizable", "1")


def after_first_frame(app: Any, work: Callable[[], Any]) -> None:
    """Call ``work`` once the first frame after ``on_start`` is on the screen."""
    from kivy.core.window import Window

    def flipped(*_: Any) -> None:
        Window.unbind(on_flip=flipped)
        work()

    app.fbind("on_start", lambda *_: Window.bind(on_flip=flipped))


def note_first_frame(app: Any, path: Path) -> None:
    """Write ``time.monotonic()`` to ``path`` when the first frame after ``on_start`` is flipped."""
    after_first_frame(app, lambda: path.write_text(repr(time.monotonic())))


def screens() -> dict[str, Callable[[Any], Any]]:
    """Every screen by name: the start screen's module now (it is the first frame), the others'
    when they are first shown."""
    from ui.pages import StartScreen

    def later(module: str, name: str) -> Callable[[Any], Any]:
        return lambda app: getattr(importlib.import_module(module), name)(app)

    return {
        "start": StartScreen,
        "new": later("ui.pages", "NewGameScreen"),
        "saved": later("ui.pages", "SavedScreen"),
        "settings": later("ui.pages", "SettingsScreen"),
        "diagnostics": later("ui.pages", "DiagnosticsScreen"),
        "seats": later("ui.seatscreen", "SeatsScreen"),
        "history": later("ui.historyscreen", "HistoryScreen"),
        "game": later("ui.gamescreen", "GameScreen"),
        "end": later("ui.gamescreen", "EndScreen"),
    }


def bind_phones(config: Config, ctl: Any) -> list[socket.socket]:
    """The phone server's sockets, bound now (its port shows on the first frame); on a taken port,
    any free one. None bound: the screens say why."""
    from companion.net.listen import bind, port_of

    try:
        sockets = bind(config.host, config.port)
    except OSError as exc:  # e.g. the port is taken on a desktop: phones on any free port
        log.warning("phone server: port %s unavailable (%s); using a free port", config.port, exc)
        try:
            sockets = bind(config.host, 0)
        except OSError as again:
            ctl.phones.problem = str(again)
            return []
        ctl.phones.problem = f"port {config.port}: {exc.strerror or exc}"
    ctl.phones.port = port_of(sockets)
    return sockets


def _box_has_parts(config: Config) -> bool:
    """Does ``[hardware]`` name any part? (A section that does not read is the box's to report.)"""
    from hardware.config import parse_hardware

    try:
        return parse_hardware(config.hardware).has_parts
    except Exception:
        return True


class Services:
    """What the first frame does not show, started right after it: the phone server (on the
    sockets bound before), the host page, the box's buttons, lights and tag readers (when
    ``[hardware]`` names any)."""

    def __init__(self, config: Config, ctl: Any, sockets: list[socket.socket]) -> None:
        self.config, self.ctl, self.sockets = config, ctl, sockets
        self.runner: Any = None
        self.task: asyncio.Task[None] | None = None

    def start(self, app: Any) -> None:
        self.task = asyncio.get_running_loop().create_task(self._start(app), name="companion-services")

    async def _start(self, app: Any) -> None:
        config, ctl = self.config, self.ctl
        if self.sockets:
            try:
                await self._phones()
            except Exception as exc:  # the touchscreen plays on without phones
                log.exception("phone server could not start")
                ctl.phones.port, ctl.phones.problem = 0, str(exc)
        try:  # buttons, lights and tag readers from [hardware]: real on a Pi, simulated twins elsewhere
            if not _box_has_parts(config):
                app.services_ready()  # nothing to listen to: the diagnostics say no hardware is configured
                return
            from hardware.router import Box

            await asyncio.sleep(0)  # a frame between the two (each loads its code on this loop)
            ctl.inputs = Box.open(ctl.table, config, language=lambda: ctl.lang)
            ctl.inputs.router.status_changed = lambda: ctl.health_poke()  # a reader unplugged: said at once
        except Exception as exc:  # a broken [hardware] section must not keep the touchscreen dark
            log.exception("hardware could not start")
            ctl.hardware_problem = ctl.error(exc) if isinstance(exc, CompanionError) else f"{type(exc).__name__}: {exc}"
        app.services_ready()

    async def _phones(self) -> None:
        from companion.net.host import Host
        from companion.net.server import PhoneServer

        config, ctl = self.config, self.ctl
        server = PhoneServer(ctl.table, ctl.links, language=lambda: ctl.lang)
        ctl.language_changed.append(server.language_changed)  # every phone that follows the table, at once
        # The host page and the landing page (room codes) on the same server, with the touchscreen's
        # preferences: a change on either is the other's too.
        ctl.host = Host(
            server,
            ctl.store,
            ctl.table,
            ctl.links,
            config.data_dir,
            # the address of the network now (without one, the host page is on this machine only)
            base=lambda: (ctl.phones.address or "127.0.0.1", ctl.phones.port),
            pref=ctl.pref,
            set_pref=ctl.set_pref,
            language=lambda: ctl.lang,
            warnings=ctl.health_words,  # the Pi's own, as on the start screen
        )
        ctl.health_changed.append(ctl.host.refresh)
        self.runner = await server.serve(self.sockets)
        ctl.phones.server = server

    async def close(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self.ctl.inputs is not None:
            await self.ctl.inputs.aclose()
        if self.runner is not None:
            await self.runner.cleanup()
        for sock in self.sockets:  # never served (a stop before the first frame): closed here
            with contextlib.suppress(OSError):
                sock.close()


async def _until_stopped(work: Any) -> bool:
    """Await ``work`` unless SIGINT or SIGTERM comes first (then cancel it): did it finish?"""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    signals = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
            signals.append(sig)
    task = asyncio.ensure_future(work)
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)
        stopped.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    if task.cancelled():
        return False
    task.result()  # its exception, if any
    return True


def open_window(config: Config, ctl: Controller, table: Table, fullscreen: bool) -> CompanionApp:
    """The touchscreen's app with its hooks (systemd's readiness and status, the first frame's
    note for tests). These import Kivy (ui.shell opens the window): after prepare_kivy() and the
    display."""
    from companion.appliance.hooks import attach_to_kivy_app
    from companion.appliance.status import status_line
    from ui.shell import CompanionApp

    app = CompanionApp(ctl, screens(), fullscreen=fullscreen, on_pi=on_raspberry_pi())
    attach_to_kivy_app(app, config.data_dir, lambda: status_line(table, ctl.phones.server), after_first_frame)
    first_frame = os.environ.get("COMPANION_FIRST_FRAME")
    if first_frame:
        note_first_frame(app, Path(first_frame))
    from companion.appliance.display import expected

    display = expected()
    if display is not None and display.kind == "kmsdrm":
        from kivy.clock import Clock
        from kivy.core.window import Window

        last_frame_shown(Window, Clock)
    return app


def last_frame_shown(window: Any, clock: Any) -> None:
    """On KMS/DRM, draw each frame once more one tick later, unless another comes anyway.

    Found by the real boot (``make pi-boot``, deploy/README.md): drawn through SDL's ``kmsdrm``
    driver (Mesa on the DRM device, no compositor), the display showed the frame *before* the last
    one flipped. Kivy draws only when something changed, so the last change stayed off the
    screen until the next: after boot the table stayed black (READY=1 sent, the start screen
    drawn) until someone touched it, and a phone's move would show only with the next change. An
    echo of each last frame costs one redraw of an unchanged canvas per change, and none while
    frames come anyway (the echo joins the next real frame)."""
    echo = {"pending": False}

    def again(_dt: float) -> None:
        window.canvas.ask_update()

    def flipped(*_: Any) -> None:
        if echo["pending"]:  # this flip is the echo (or a real frame that took its place)
            echo["pending"] = False
            return
        echo["pending"] = True
        clock.schedule_once(again, 0)

    window.bind(on_flip=flipped)


def stop_on_signals(stop: Callable[[], Any]) -> None:
    """Ctrl-C and systemd's stop (SIGTERM) end the app cleanly."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop)


async def open_control(app: CompanionApp) -> asyncio.AbstractServer | None:
    """For tests only: the local control socket ``COMPANION_UI_CONTROL`` names (ui/control.py)."""
    control_path = os.environ.get("COMPANION_UI_CONTROL")
    if not control_path:
        return None
    from ui.control import serve_control

    return await serve_control(app, control_path)


class TableParts:
    """What the window runs around: the store, the table, the command line's socket, the table's own
    player, the controller and the services after the first frame, the address and health watches;
    started in this order (:meth:`open`), stopped in the reverse one (:meth:`stop`)."""

    store: Store
    table: Table
    commands: CommandServer
    player: TablePlayer
    ctl: Controller
    services: Services
    watch: AddressWatch
    health: HealthWatch

    def __init__(self, config: Config, lock: WriterLock) -> None:
        self.config, self.lock = config, lock

    @classmethod
    async def open(cls, config: Config, lock: WriterLock) -> TableParts:
        from companion.app.autoplay import TablePlayer
        from companion.app.seats import SeatLinks
        from companion.app.store import Store
        from companion.app.table import Table
        from companion.app.writer import CommandServer
        from ui.controller import Controller

        parts = cls(config, lock)
        parts.store = Store(config.store_path)
        parts.table = table = Table(parts.store)
        await table.start()
        parts.commands = CommandServer(table, lock)  # the command line's writing commands act through us
        await parts.commands.start()
        parts.player = TablePlayer(table, config.ai_thinking, config.ai_cpu_budget)  # e.g. Mister X played by the table
        parts.ctl = ctl = Controller(config, parts.store, table, SeatLinks(parts.store))
        await ctl.load()
        parts.services = Services(config, ctl, bind_phones(config, ctl))
        # companion status: the phones and warnings of the running table
        parts.commands.phones = lambda: ctl.phones.server.connected_seats() if ctl.phones.server else set()
        parts.commands.warnings = lambda: list(ctl.health)
        if ctl.phones.port:
            lock.announce_port(ctl.phones.port)  # `companion host-link` prints the port phones really reach
        from companion.app.netwatch import AddressWatch
        from companion.appliance.health import HealthWatch

        # The phones' address follows the network (a Pi on Wi-Fi boots before its Wi-Fi is up).
        parts.watch = AddressWatch(lambda: ctl.phones.address, lambda _address: ctl.network_changed())
        parts.watch.start()
        # overlay file system, under-voltage, throttling, and the voice that cannot be heard
        parts.health = HealthWatch(
            config.data_dir,
            ctl.set_health,
            extra=lambda: [
                *(ctl.announcer.warnings() if ctl.announcer else []),
                *(ctl.inputs.router.warnings() if ctl.inputs else []),
            ],
        )
        ctl.health_poke = parts.health.poke
        return parts

    def after_the_first_frame(self, app: CompanionApp) -> None:
        self.services.start(app)
        self.player.start()  # it builds the open game's view (loading its rules) and may think: not before
        collector.start()  # full garbage collections only while the table is quiet (ui/memory.py)
        self.health.start()

        from companion.app.preferences import PREF_SPEECH
        from hardware.router import open_speech

        # the table's voice ([speech]; on/off and volume are the table's settings), on its own thread
        ctl = self.ctl
        ctl.announcer = open_speech(self.table, self.config, language=lambda: ctl.lang, pref=ctl.pref)
        ctl.pref_changed.append(ctl.announcer.setting_changed)
        health = self.health  # a voice that fails, or is switched on, is checked again at once
        ctl.announcer.speaker.trouble_changed = lambda _trouble: health.poke()
        ctl.pref_changed.append(lambda key: health.poke() if key == PREF_SPEECH else None)
        health.poke()

    async def stop(self) -> None:
        """The parts the table needs stop in the reverse order they started: the phone and host
        servers, the command line's socket, the table's own player, its voice, the table, then the
        store."""
        self.watch.stop()  # stopping it twice is harmless
        await self.services.close()
        await self.commands.close()
        await self.player.stop()
        if self.ctl.announcer is not None:  # the table's voice (started after the first frame)
            await asyncio.to_thread(self.ctl.announcer.close)
        await self.table.stop()
        self.store.close()


async def run(config: Config, fullscreen: bool = False, lock: WriterLock | None = None) -> int:
    lock = lock if lock is not None else WriterLock(config.data_dir).acquire("run")
    parts = await TableParts.open(config, lock)
    from companion.appliance.display import wait_for_display

    # A service waits for its display rather than ending (a panel or an X server that comes later);
    # a stop meanwhile (systemctl stop, Ctrl-C) ends it cleanly.
    if not await _until_stopped(wait_for_display()):
        await parts.stop()
        return 0

    app = open_window(config, parts.ctl, parts.table, fullscreen)
    after_first_frame(app, lambda: parts.after_the_first_frame(app))
    stop_on_signals(app.stop)
    control = await open_control(app)
    try:
        await app.async_run(async_lib="asyncio")
    finally:
        parts.watch.stop()  # first: no network change reaches a screen being closed
        await parts.health.stop()
        if control is not None:
            control.close()
        await app.shutdown()
        await parts.stop()
    return 0


def main(config: Config) -> int:
    from companion.appliance.hooks import lock_waiting
    from companion.appliance.logs import setup_logging

    setup_logging()  # before Kivy: Python logging only (to the journal under systemd), no Kivy log files
    # First of all, before any window: one writer per data directory (a second one is refused; an
    # offline command, or under systemd anyone, is waited for: see WriterLock.acquire_waiting).
    waiting, always = lock_waiting()
    lock = WriterLock(config.data_dir).acquire_waiting("run", waiting, always)
    try:
        fullscreen = fullscreen_wanted()
        prepare_kivy(fullscreen)
        return asyncio.run(run(config, fullscreen, lock))
    finally:
        lock.release()
