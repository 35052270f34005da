"""Waiting for the display at boot, before Kivy opens its window.

A Pi can reach ``companion run`` before its display is there: a DSI panel or an HDMI screen that
is switched on later, a desktop session whose X server (XWayland) is not up yet. Kivy's window
cannot open without one and the process would end; systemd would restart it a few times and then
give up, leaving a dark table until the next boot. Instead :func:`wait_for_display` waits, for as
long as it takes, and says so: in the log, and to systemd (``STATUS=waiting for the display ...``,
``EXTEND_TIMEOUT_USEC=`` so the start does not time out, ``WATCHDOG=1``). It looks again after 0.5 s,
then ever less often, at most every :data:`MAX_INTERVAL` seconds; systemd hears from it on a beat of
its own (every half of the watchdog's time, which it feeds), however long one look takes.

Which display: SDL's video driver (``SDL_VIDEODRIVER``) decides; without one, ``DISPLAY`` means X11
and ``WAYLAND_DISPLAY`` Wayland, else KMS/DRM. Ready means: X11, the X server answers
(``XOpenDisplay``; without libX11 a connection to its socket); Wayland, the compositor's socket
accepts a connection; KMS/DRM, a DRM device with a connected output that this user may open.

A ``DISPLAY`` (or ``WAYLAND_DISPLAY``) that is not set is not waited for: it cannot appear in a
running process (the desktop session hands it to the user's systemd, whose restart brings it).

Only a service waits: under systemd (``NOTIFY_SOCKET``) or with no terminal on standard input, or
with ``COMPANION_DISPLAY_WAIT=1``; ``COMPANION_DISPLAY_WAIT=0`` never waits. At a terminal the app
starts at once and Kivy says what is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import logging
import os
import socket
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.appliance.notify import Notifier

log = logging.getLogger(__name__)

FIRST_INTERVAL = 0.5
MAX_INTERVAL = 5.0
LOG_EVERY = 60.0  # seconds between "still waiting" lines in the log


@dataclass(frozen=True)
class Display:
    kind: str  # "x11", "wayland" or "kmsdrm"
    name: str  # what to show: ":0", "wayland-0", "/dev/dri"


def expected(environ: Mapping[str, str] | None = None) -> Display | None:
    """The display SDL will use; None when it draws to none (offscreen, dummy) or cannot be told."""
    env = os.environ if environ is None else environ
    driver = env.get("SDL_VIDEODRIVER", "").split(",")[0].strip().lower()
    if driver == "x11" or (not driver and env.get("DISPLAY")):
        return Display("x11", env.get("DISPLAY", ""))
    if driver == "wayland" or (not driver and env.get("WAYLAND_DISPLAY")):
        return Display("wayland", env.get("WAYLAND_DISPLAY", ""))
    if driver in ("kmsdrm", "kmsdrm_legacy") or (not driver and sys.platform.startswith("linux")):
        return Display("kmsdrm", "/dev/dri")
    return None


def _x11_socket(name: str) -> bool:
    """Is an X server listening for ``name`` (``:N``, ``:N.S``, ``host:N``)? Without libX11."""
    host, _, rest = name.rpartition(":")
    number = rest.split(".")[0]
    if not number.isdigit():
        return False
    if host and host != "unix":
        with contextlib.suppress(OSError), socket.create_connection((host, 6000 + int(number)), timeout=2):
            return True
        return False
    for address in (f"\0/tmp/.X11-unix/X{number}", f"/tmp/.X11-unix/X{number}"):
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(2)
            s.connect(address)
            return True
    return False


def _libx11() -> ctypes.CDLL | None:
    path = ctypes.util.find_library("X11")
    if not path:
        return None
    try:
        lib = ctypes.CDLL(path)
    except OSError:
        return None
    lib.XOpenDisplay.restype = ctypes.c_void_p
    lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    lib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    return lib


def missing(display: Display, environ: Mapping[str, str] | None = None, dri: Path = Path("/dev/dri"),
            drm: Path = Path("/sys/class/drm")) -> str:  # fmt: skip
    """Why ``display`` cannot be drawn to now; "" when it can."""
    env = os.environ if environ is None else environ
    if display.kind == "x11":
        if not display.name:
            return "DISPLAY is not set"
        lib = _libx11()
        if lib is None:
            return "" if _x11_socket(display.name) else f"no X server answers on {display.name}"
        handle = lib.XOpenDisplay(display.name.encode())
        if not handle:
            return f"no X server answers on {display.name}"
        lib.XCloseDisplay(handle)
        return ""
    if display.kind == "wayland":
        if not display.name:
            return "WAYLAND_DISPLAY is not set"
        path = (
            display.name if display.name.startswith("/") else os.path.join(env.get("XDG_RUNTIME_DIR", ""), display.name)
        )
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(2)
            s.connect(path)
            return ""
        return f"no Wayland compositor on {path}"
    cards = sorted(dri.glob("card*")) if dri.is_dir() else []
    if not cards:
        return f"no DRM device in {dri} (no KMS driver yet: dtoverlay=vc4-kms-v3d)"
    connected = [p.parent.name for p in sorted(drm.glob("card*-*/status")) if _read(p) == "connected"]
    if not connected:
        return "no display connected to any output (" + ", ".join(c.name for c in cards) + ")"
    if not any(os.access(c, os.R_OK | os.W_OK) for c in cards):
        return f"no permission to open {cards[0]} (the group video)"
    return ""


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


def should_wait(environ: Mapping[str, str] | None = None, interactive: bool | None = None) -> bool:
    env = os.environ if environ is None else environ
    forced = env.get("COMPANION_DISPLAY_WAIT", "").strip()
    if forced in ("0", "1"):
        return forced == "1"
    if env.get("NOTIFY_SOCKET"):
        return True
    if interactive is None:
        try:
            interactive = sys.stdin is not None and sys.stdin.isatty()
        except (ValueError, OSError):
            interactive = False
    return not interactive


async def wait_for_display(environ: Mapping[str, str] | None = None, notifier: Notifier | None = None) -> float:
    """Return once the display can be drawn to (at once when it can, or when this process should
    not wait: see :func:`should_wait`); the seconds it waited."""
    display = expected(environ)
    if display is None or not should_wait(environ):
        return 0.0
    if display.kind in ("x11", "wayland") and not display.name:
        # Set when the process starts or never: the session's service manager gets it a moment
        # later (companion-desktop-start), and systemd's restart brings it.
        log.error("no display to wait for: %s is not set", "DISPLAY" if display.kind == "x11" else "WAYLAND_DISPLAY")
        return 0.0
    why = await asyncio.to_thread(missing, display, environ)
    if not why:
        return 0.0
    notifier = notifier if notifier is not None else Notifier.from_environ(environ)
    started = time.monotonic()
    log.warning("waiting for the display (%s): %s", display.kind, why)
    # systemd hears from us on its own beat, however long one look at the display takes: the
    # watchdog (if any) every half of its time, and the start timeout extended each time.
    beat = min(MAX_INTERVAL, notifier.watchdog_usec / 2_000_000) if notifier.watchdog_usec else MAX_INTERVAL

    async def tell_systemd() -> None:
        logged = time.monotonic()
        while True:
            waited = time.monotonic() - started
            fields = [f"STATUS=waiting for the display ({display.kind}): {why}; {waited:.0f} s"]
            fields.append(f"EXTEND_TIMEOUT_USEC={int((beat + 60) * 1_000_000)}")
            if notifier.watchdog_usec:
                fields.append("WATCHDOG=1")
            notifier.send(*fields)
            if time.monotonic() - logged >= LOG_EVERY:
                log.warning("still waiting for the display after %.0f s: %s", waited, why)
                logged = time.monotonic()
            await asyncio.sleep(beat)

    teller = asyncio.get_running_loop().create_task(tell_systemd(), name="companion-display-wait")
    interval = FIRST_INTERVAL
    try:
        while why:
            await asyncio.sleep(interval)
            interval = min(MAX_INTERVAL, interval * 2)
            why = await asyncio.to_thread(missing, display, environ)
    finally:
        teller.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await teller
    waited = time.monotonic() - started
    log.info("the display is there (%s %s) after %.0f s", display.kind, display.name, waited)
    notifier.status(f"the display is there after {waited:.0f} s; starting")
    return waited
