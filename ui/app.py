"""``companion run``: the touchscreen app.

One asyncio loop runs everything: the table (the single writer), the phone server (aiohttp) and
the Kivy app (``App.async_run``). Kivy widgets are only touched from that loop.

Screen: full screen on a Raspberry Pi (``/proc/device-tree/model`` says "Raspberry Pi"), a window
of 800×480 (the official 7" display) elsewhere. ``COMPANION_FULLSCREEN=1``/``0`` overrides the
detection. Kivy's own environment variables (``KIVY_NO_ARGS``, ``KIVY_HOME``, ``KIVY_WINDOW``,
``KIVY_GL_BACKEND``, ...) are respected; ``KIVY_NO_ARGS`` defaults to 1 so Kivy never reads the
``companion`` command line.

For tests only: ``COMPANION_UI_CONTROL=<path>`` opens the local control socket described in
``ui/control.py`` (scripted taps on widgets, screenshots). For the benchmark only:
``COMPANION_FIRST_FRAME=<path>`` writes the system's monotonic clock there when the first frame
after the start is shown (``benchmarks/startup.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from pathlib import Path
from typing import Any

from companion.app.config import Config
from companion.app.writer import WriterLock
from companion.core.errors import CompanionError
from hardware.system import on_raspberry_pi

log = logging.getLogger(__name__)
WIDTH, HEIGHT = 800, 480


def fullscreen_wanted() -> bool:
    forced = os.environ.get("COMPANION_FULLSCREEN", "").strip().lower()
    if forced in ("1", "true", "yes", "on"):
        return True
    if forced in ("0", "false", "no", "off"):
        return False
    return on_raspberry_pi()


def prepare_kivy(fullscreen: bool) -> None:
    """Configure Kivy before its window exists (only in memory; the user's config file is untouched)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.config import Config as KivyConfig

    KivyConfig.set("kivy", "exit_on_escape", "0")  # Escape must never end a game night
    KivyConfig.set("graphics", "width", str(WIDTH))
    KivyConfig.set("graphics", "height", str(HEIGHT))
    KivyConfig.set("graphics", "minimum_width", str(WIDTH))
    KivyConfig.set("graphics", "minimum_height", str(HEIGHT))
    if fullscreen:
        KivyConfig.set("graphics", "fullscreen", "auto")
        KivyConfig.set("graphics", "show_cursor", "0")
        # the Pi's touch panel also arrives as a mouse: ignore the mouse while touches come in
        KivyConfig.set("input", "mouse", "mouse,multitouch_on_demand,disable_on_activity")
        KivyConfig.set("kivy", "keyboard_mode", "systemanddock")
    else:
        KivyConfig.set("graphics", "fullscreen", "0")
        KivyConfig.set("graphics", "resizable", "1")
        KivyConfig.set("input", "mouse", "mouse,multitouch_on_demand")


def note_first_frame(app: Any, path: Path) -> None:
    """Write ``time.monotonic()`` to ``path`` when the first frame after ``on_start`` is flipped."""
    from kivy.core.window import Window

    def flipped(*_: Any) -> None:
        Window.unbind(on_flip=flipped)
        path.write_text(repr(time.monotonic()))

    app.fbind("on_start", lambda *_: Window.bind(on_flip=flipped))


async def run(config: Config, fullscreen: bool = False, lock: WriterLock | None = None) -> int:
    from companion.app.autoplay import TablePlayer
    from companion.app.seats import SeatLinks
    from companion.app.store import Store
    from companion.app.table import Table
    from companion.app.writer import CommandServer
    from companion.net.server import PhoneServer
    from ui.controller import Controller

    lock = lock if lock is not None else WriterLock(config.data_dir).acquire("run")
    store = Store(config.store_path)
    table = Table(store)
    await table.start()
    commands = CommandServer(table, lock)  # the command line's writing commands act through us
    await commands.start()
    player = TablePlayer(table, config.ai_thinking, config.ai_cpu_budget)  # e.g. Mister X played by the table
    player.start()
    links = SeatLinks(store)
    ctl = Controller(config, store, table, links)
    await ctl.load()
    server = PhoneServer(table, links, language=lambda: ctl.lang)
    ctl.language_changed.append(server.language_changed)  # every phone that follows the table, at once
    from companion.net.host import Host

    # The host page and the landing page (room codes) on the same server, with the touchscreen's
    # preferences: a change on either is the other's too.
    ctl.host = Host(
        server,
        store,
        table,
        links,
        config.data_dir,
        base=lambda: (ctl.phones.address, ctl.phones.port),
        pref=ctl.pref,
        set_pref=ctl.set_pref,
        language=lambda: ctl.lang,
    )
    runner: Any = None
    try:
        runner, port = await server.start(config.host, config.port)
        ctl.phones.server, ctl.phones.port = server, port
    except OSError as exc:  # e.g. the port is taken on a desktop: phones on any free port
        log.warning("phone server: port %s unavailable (%s); using a free port", config.port, exc)
        try:
            runner, port = await server.start(config.host, 0)
            ctl.phones.server, ctl.phones.port = server, port
            ctl.phones.problem = f"port {config.port}: {exc.strerror or exc}"
        except OSError as again:
            ctl.phones.problem = str(again)

    inputs: Any = None
    try:  # buttons, lights and tag readers from [hardware]: real on a Pi, simulated twins elsewhere
        from hardware.router import Box

        inputs = Box.open(table, config, language=lambda: ctl.lang)
    except Exception as exc:  # a broken [hardware] section must not keep the touchscreen dark
        log.exception("hardware could not start")
        ctl.hardware_problem = ctl.error(exc) if isinstance(exc, CompanionError) else f"{type(exc).__name__}: {exc}"
    ctl.inputs = inputs

    # These import Kivy: after prepare_kivy().
    from ui.gamescreen import EndScreen, GameScreen
    from ui.historyscreen import HistoryScreen
    from ui.pages import DiagnosticsScreen, NewGameScreen, SavedScreen, SettingsScreen, StartScreen
    from ui.seatscreen import SeatsScreen
    from ui.shell import CompanionApp

    screens = (StartScreen, NewGameScreen, SavedScreen, SettingsScreen, DiagnosticsScreen, SeatsScreen, HistoryScreen)
    app = CompanionApp(ctl, (*screens, GameScreen, EndScreen), fullscreen=fullscreen, on_pi=on_raspberry_pi())
    from companion.appliance.hooks import attach_to_kivy_app
    from companion.appliance.status import status_line

    attach_to_kivy_app(app, config.data_dir, lambda: status_line(table, ctl.phones.server))
    first_frame = os.environ.get("COMPANION_FIRST_FRAME")
    if first_frame:
        note_first_frame(app, Path(first_frame))
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, app.stop)
    control = None
    control_path = os.environ.get("COMPANION_UI_CONTROL")
    if control_path:
        from ui.control import serve_control

        control = await serve_control(app, control_path)
    try:
        await app.async_run(async_lib="asyncio")
    finally:
        if control is not None:
            control.close()
        await app.shutdown()
        if inputs is not None:
            await inputs.aclose()
        if runner is not None:
            await runner.cleanup()
        await commands.close()
        await player.stop()
        await table.stop()
        store.close()
    return 0


def main(config: Config) -> int:
    # First of all, before any window: one writer per data directory (a second one is refused).
    lock = WriterLock(config.data_dir).acquire("run")
    try:
        from companion.appliance.logs import setup_logging

        setup_logging()  # before Kivy: Python logging only (to the journal under systemd), no Kivy log files
        fullscreen = fullscreen_wanted()
        prepare_kivy(fullscreen)
        return asyncio.run(run(config, fullscreen, lock))
    finally:
        lock.release()
