"""What the machine says about itself: storage, power, display.

- :func:`storage`: the data directory's file system, free space, and whether it is *volatile*
  (tmpfs/ramfs, or an overlay whose writable layer lies in RAM, as raspi-config's "Overlay File
  System" sets up with ``overlayroot=tmpfs`` on the kernel command line): saved games there are
  lost at power-off.
- :func:`throttled`: ``vcgencmd get_throttled`` decoded (under-voltage now / since boot, ...).
- :func:`display`: the DRM devices and connected outputs, the display-related environment, and
  what the running app recorded about its window and OpenGL (``display.json`` in the data
  directory, written by :func:`record_kivy_display` once the window is up).
"""

from __future__ import annotations

import ctypes
import json
import logging
import os
import shutil
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.files import STORE_FILE, write_atomic

log = logging.getLogger(__name__)

DISPLAY_FILE = "display.json"
VOLATILE_TYPES = {"tmpfs", "ramfs"}

# vcgencmd get_throttled bits (Raspberry Pi documentation, "get_throttled")
THROTTLED_BITS = {
    0: "under-voltage now",
    1: "ARM frequency capped now",
    2: "throttled now",
    3: "soft temperature limit now",
    16: "under-voltage since boot",
    17: "ARM frequency capped since boot",
    18: "throttled since boot",
    19: "soft temperature limit since boot",
}


# --------------------------------------------------------------------------- storage


@dataclass(frozen=True)
class Mount:
    point: str
    fstype: str
    source: str
    options: str  # per-superblock options (overlay: lowerdir=...,upperdir=...)


def _unescape(field: str) -> str:
    """mountinfo escapes space, tab, newline and backslash as octal (\\040)."""
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and i + 3 < len(field) and field[i + 1 : i + 4].isdigit():
            out.append(chr(int(field[i + 1 : i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def parse_mountinfo(text: str) -> list[Mount]:
    """The mounts of /proc/self/mountinfo (proc(5)), in mount order."""
    mounts = []
    for line in text.splitlines():
        left, sep, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if not sep or len(fields) < 5 or len(tail) < 2:
            continue
        mounts.append(Mount(_unescape(fields[4]), tail[0], _unescape(tail[1]), tail[2] if len(tail) > 2 else ""))
    return mounts


def mount_of(path: Path | str, mounts: list[Mount]) -> Mount | None:
    """The mount ``path`` lies on: the last-mounted one with the longest matching mount point."""
    target = os.path.abspath(path)
    best: Mount | None = None
    for m in mounts:
        point = m.point.rstrip("/") or "/"
        if (target == point or target.startswith(point + "/") or point == "/") and (
            best is None or len(point) >= len(best.point.rstrip("/") or "/")
        ):
            best = m
    return best


def _option(options: str, key: str) -> str:
    for item in options.split(","):
        name, _, value = item.partition("=")
        if name == key:
            return value
    return ""


def volatile_reason(path: Path | str, mounts: list[Mount], cmdline: str = "") -> str:
    """Why files under ``path`` vanish at power-off, or "" when they do not."""
    m = mount_of(path, mounts)
    if m is None:
        return ""
    if m.fstype in VOLATILE_TYPES:
        return f"{m.point} is a {m.fstype} (in memory)"
    if m.fstype == "overlay":
        if "overlayroot=tmpfs" in cmdline.split() and m.point == "/":
            return "the root file system is raspi-config's overlay (overlayroot=tmpfs): writes stay in memory"
        upper = _option(m.options, "upperdir")
        below = mount_of(upper, [x for x in mounts if x is not m]) if upper else None
        if below is not None and below.fstype in VOLATILE_TYPES:
            return f"{m.point} is an overlay whose writable layer ({upper}) is a {below.fstype} (in memory)"
    return ""


def _read(path: str) -> str:
    try:
        return Path(path).read_text("utf-8", errors="replace")
    except OSError:
        return ""


def storage(data_dir: Path) -> dict[str, Any]:
    """Where ``data_dir`` lies, how much room is left, and whether it survives a power cut."""
    probe = Path(data_dir)
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    mounts = parse_mountinfo(_read("/proc/self/mountinfo"))
    m = mount_of(probe, mounts)
    facts: dict[str, Any] = {
        "data_dir": str(data_dir),
        "exists": Path(data_dir).is_dir(),
        "mount": m.point if m else "",
        "fstype": m.fstype if m else "",
        "volatile": volatile_reason(probe, mounts, _read("/proc/cmdline")),
    }
    try:
        usage = shutil.disk_usage(probe)
        facts.update(free_bytes=usage.free, total_bytes=usage.total)
    except OSError:
        pass
    store = Path(data_dir) / STORE_FILE
    try:  # a data directory this user may not enter (0750 companion) has a size nobody here can tell
        if store.is_file():
            facts["store_bytes"] = sum(
                p.stat().st_size for p in Path(data_dir).glob("companion.sqlite3*") if p.is_file()
            )
    except PermissionError:
        facts["unreadable"] = True
    return facts


# --------------------------------------------------------------------------- power


def decode_throttled(value: int) -> list[str]:
    return [text for bit, text in sorted(THROTTLED_BITS.items()) if value & (1 << bit)]


def parse_throttled(output: str) -> int:
    """``throttled=0x50005`` → 0x50005; ValueError for anything else."""
    name, sep, value = output.strip().partition("=")
    if name != "throttled" or not sep:
        raise ValueError(f"unexpected vcgencmd output: {output.strip()[:80]!r}")
    return int(value.strip(), 0)


def throttled() -> dict[str, Any] | None:
    """``vcgencmd get_throttled`` decoded; None where there is no vcgencmd (not a Pi)."""
    exe = shutil.which("vcgencmd")
    if exe is None:
        return None
    try:
        done = subprocess.run([exe, "get_throttled"], capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {"error": str(exc)}
    try:
        value = parse_throttled(done.stdout)
    except ValueError:
        said = (done.stderr or done.stdout).strip()[:200] or "no answer"
        return {"error": f"{said} (the user needs the group video for /dev/vcio)"}
    return {"value": hex(value), "flags": decode_throttled(value)}


# --------------------------------------------------------------------------- display

DISPLAY_ENV = ("SDL_VIDEODRIVER", "KIVY_WINDOW", "KIVY_GL_BACKEND", "WAYLAND_DISPLAY", "DISPLAY", "XDG_SESSION_TYPE")


def drm_outputs(root: Path = Path("/sys/class/drm")) -> list[dict[str, str]]:
    """Every display connector the kernel knows (e.g. DSI-1, HDMI-A-1), its status and first mode."""
    outputs = []
    try:
        entries = sorted(root.iterdir())
    except OSError:
        return []
    for entry in entries:
        status = _read(str(entry / "status")).strip()
        if not status or "-" not in entry.name:
            continue
        modes = _read(str(entry / "modes")).split()
        outputs.append({"connector": entry.name.partition("-")[2], "status": status, "mode": modes[0] if modes else ""})
    return outputs


def dri_devices(root: Path = Path("/dev/dri")) -> list[dict[str, Any]]:
    """The DRM device nodes and whether this user may open them (group video/render)."""
    try:
        nodes = sorted(p for p in root.iterdir() if p.name.startswith(("card", "renderD")))
    except OSError:
        return []
    return [{"node": str(p), "usable": os.access(p, os.R_OK | os.W_OK)} for p in nodes]


def display(data_dir: Path | None, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    env = os.environ if environ is None else environ
    facts: dict[str, Any] = {
        "environment": {k: env[k] for k in DISPLAY_ENV if k in env},
        "dri": dri_devices(),
        "outputs": drm_outputs(),
    }
    if data_dir is not None:
        try:
            facts["app"] = json.loads((Path(data_dir) / DISPLAY_FILE).read_text("utf-8"))
        except (OSError, ValueError):
            facts["app"] = None
    return facts


def sdl_video_driver() -> str:
    """The SDL video driver of this process (``kmsdrm``, ``x11``, ``wayland``); "" when SDL is not loaded."""
    for line in _read("/proc/self/maps").splitlines():
        path = line.split(maxsplit=5)[-1] if line.count(" ") >= 5 else ""
        if "/libSDL2-2" in path or path.endswith("/libSDL2-2.0.so.0"):
            try:
                sdl = ctypes.CDLL(path)
                sdl.SDL_GetCurrentVideoDriver.restype = ctypes.c_char_p
                name = sdl.SDL_GetCurrentVideoDriver()
                return name.decode() if name else ""
            except (OSError, AttributeError):
                return ""
    return ""


def kivy_display_facts() -> dict[str, Any]:
    """What Kivy's window and OpenGL say about themselves (call once the window is up)."""
    from kivy.core.window import Window
    from kivy.graphics import opengl

    def gl(name: str) -> str:
        try:
            value = opengl.glGetString(getattr(opengl, name))
            return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
        except Exception:
            return ""

    try:
        from kivy.graphics.cgl import cgl_get_backend_name

        backend = str(cgl_get_backend_name())
    except Exception:
        backend = ""
    return {
        "window": type(Window).__name__,
        "video_driver": sdl_video_driver(),
        "size": list(Window.system_size),
        "fullscreen": str(Window.fullscreen),
        "rotation": int(Window.rotation),
        "gl_backend": backend,
        "gl_vendor": gl("GL_VENDOR"),
        "gl_renderer": gl("GL_RENDERER"),
        "gl_version": gl("GL_VERSION"),
        "recorded": time.strftime("%Y-%m-%d %H:%M:%S"),
        "pid": os.getpid(),
    }


def record_kivy_display(data_dir: Path) -> dict[str, Any]:
    """Write :func:`kivy_display_facts` to the data directory for ``companion doctor``; log them."""
    facts = kivy_display_facts()
    log.info(
        "display: %s video driver %s, %s, OpenGL %s (%s)",
        facts["window"],
        facts["video_driver"] or "?",
        "x".join(str(n) for n in facts["size"]),
        facts["gl_version"] or "?",
        facts["gl_renderer"] or "?",
    )
    try:
        write_atomic(Path(data_dir) / DISPLAY_FILE, json.dumps(facts, indent=1) + "\n")
    except OSError as exc:
        log.warning("display facts not written: %s", exc)
    return facts


def warn_if_volatile(data_dir: Path) -> str:
    """Log a warning when saved games would not survive a power cut; return the reason."""
    reason = storage(data_dir)["volatile"]
    if reason:
        log.warning("saved games in %s are lost at power-off: %s", data_dir, reason)
    return str(reason)


# --------------------------------------------------------------------------- GPIO and serial ports


def board_model() -> str:
    """``Raspberry Pi 5 Model B Rev 1.0``; "" off a Pi."""
    return _read("/proc/device-tree/model").rstrip("\0").strip()


def _module_version(name: str) -> dict[str, Any]:
    """Whether a Python module is there, its version and where it comes from (venv or Debian),
    without importing it: lgpio makes its notification pipes in the working directory on import."""
    import importlib.metadata
    import importlib.util

    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError) as exc:
        spec, error = None, f"{type(exc).__name__}: {exc}"[:200]
    else:
        error = f"no module named {name}"
    if spec is None:
        return {"module": name, "ok": False, "error": error}
    try:
        version = importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        version = "?"
    return {"module": name, "ok": True, "version": version, "path": str(spec.origin or "")}


def gpio(dev: Path = Path("/dev")) -> dict[str, Any]:
    """The GPIO chips and whether this user may open them, and gpiozero's pin factories here: on a
    Pi 5 only lgpio works (from PyPI on Python 3.11, from Raspberry Pi OS's python3-lgpio on 3.13)."""
    chips = sorted(dev.glob("gpiochip*"))
    return {
        "model": board_model(),
        "chips": [{"node": str(c), "usable": os.access(c, os.R_OK | os.W_OK)} for c in chips],
        "pin_factory": os.environ.get("GPIOZERO_PIN_FACTORY", ""),
        "modules": [_module_version(name) for name in ("gpiozero", "lgpio")],
    }


SERIAL_PATTERNS = ("serial0", "serial1", "ttyAMA*", "ttyS0", "ttyUSB*", "ttyACM*")


def serial_ports(dev: Path = Path("/dev"), boot: Path = Path("/boot/firmware")) -> dict[str, Any]:
    """The serial ports a tag reader may be on (``serial0`` names the GPIO UART), whether this user
    may open them (the group dialout), and whether the kernel's console holds the UART."""
    ports = []
    seen: set[Path] = set()
    for pattern in SERIAL_PATTERNS:
        for node in sorted(dev.glob(pattern)):
            if node in seen:
                continue
            seen.add(node)
            target = os.path.realpath(node) if node.is_symlink() else ""
            ports.append({"node": str(node), "target": target, "usable": os.access(node, os.R_OK | os.W_OK)})
    cmdline = _read(str(boot / "cmdline.txt")) or _read("/proc/cmdline")
    console = [word for word in cmdline.split() if word.startswith("console=") and "tty1" not in word]
    config = _read(str(boot / "config.txt"))
    uart = [line.strip() for line in config.splitlines() if "uart" in line and not line.strip().startswith("#")]
    return {"ports": ports, "serial_console": console, "config_txt_uart": uart}
