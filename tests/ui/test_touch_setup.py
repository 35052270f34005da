"""One press per touch: the input providers Kivy builds from the app's set-up, on a Pi's devices.

Kivy issue 8494: on a Pi, Kivy reads the touch panel itself (``probesysfs``) *and* gets SDL's mouse
copy of every touch, so each tap presses twice. The app picks one source per display (see
``ui.app.touch_setup``): under KMS/DRM (Lite) Kivy's own reader with SDL told to make no mouse of a
touch; under a window system (Desktop) SDL's events alone, which the compositor has already turned
with the screen. There is no /dev/uinput here to make a synthetic panel, so Kivy's real provider
set-up runs (``kivy.base._runTouchApp_prepare``, in a process of its own) on the device list of a
Pi with the official display, a USB mouse and a keyboard (sysfs entries written by the test and
handed to probesysfs through its device cache).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ui.app import touch_setup

ROOT = Path(__file__).resolve().parents[2]
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0, 1, 47, 53, 54, 57
TOUCH_AXES = (ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID)

SCRIPT = r"""
import json, os, sys
from ui.app import prepare_kivy
prepare_kivy(fullscreen=True)
from kivy.config import Config
from kivy.input.providers import probesysfs
probesysfs.get_inputs(sys.argv[1])  # Kivy caches the device list: this Pi's devices
from kivy.base import EventLoop, _runTouchApp_prepare
_runTouchApp_prepare()  # Kivy's own provider set-up from Config's [input]
print(json.dumps({
    "config": dict(Config.items("input")),
    "providers": [[type(p).__name__, getattr(p, "input_fn", None) or str(p.device)] for p in EventLoop.input_providers],
    "sdl_touch_mouse": os.environ.get("SDL_TOUCH_MOUSE_EVENTS"),
    "rotation": Config.get("graphics", "rotation"),
}))
"""


def pi_devices(folder: Path) -> Path:
    """/sys/class/input of a Pi with the 7" display (ft5x06), a USB mouse and a keyboard."""
    devices = {
        "event0": ("generic ft5x06 (79)", sum(1 << bit for bit in TOUCH_AXES)),
        "event1": ("Logitech USB Optical Mouse", 0),
        "event2": ("Logitech USB Keyboard", 0),
    }
    for event, (name, axes) in devices.items():
        device = folder / event / "device"
        (device / "capabilities").mkdir(parents=True)
        (device / "name").write_text(name + "\n")
        (device / "capabilities" / "abs").write_text(f"{axes:x}\n")
    return folder


def providers(tmp_path: Path, video: str, rotation: str = "", **extra: str) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "SDL_", "KCFG_", "DISPLAY"))}
    (tmp_path / "kivy").mkdir()
    env.update(
        SDL_VIDEODRIVER=video, KIVY_HOME=str(tmp_path / "kivy"), KIVY_NO_ARGS="1", KIVY_LOG_MODE="PYTHON",
        PYTHONPATH=str(ROOT),
    )  # fmt: skip
    if video == "x11":
        env["DISPLAY"] = ":0"
    if rotation:
        env["KCFG_GRAPHICS_ROTATION"] = rotation
    env.update(extra)
    # Kivy's first start writes its defaults (probesysfs among them) to config.ini: start once so
    # that file exists, as on every Pi after the first boot.
    subprocess.run([sys.executable, "-c", "import kivy.config"], env=env, cwd=ROOT, timeout=60, check=True)
    assert "probesysfs" in (tmp_path / "kivy" / "config.ini").read_text()
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(pi_devices(tmp_path / "input"))],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_set_up_for_each_display() -> None:
    kms_inputs, kms_hints = touch_setup("kmsdrm", fullscreen=True)
    assert [v.split(",")[0] for v in kms_inputs.values()] == ["mouse", "probesysfs"]
    assert kms_hints == {"SDL_TOUCH_MOUSE_EVENTS": "0"}  # SDL makes no mouse of the panel's touches
    for display in ("x11", "wayland", None):
        inputs, hints = touch_setup(display, fullscreen=True)
        assert [v.split(",")[0] for v in inputs.values()] == ["mouse"]  # the compositor's events alone
        assert hints == {"SDL_TOUCH_MOUSE_EVENTS": "1"}


def test_lite_reads_the_panel_once_and_turns_it_with_the_picture(tmp_path: Path) -> None:
    """KMS/DRM: one reader for the touch panel (mtdev), none for the mouse or keyboard (SDL has
    them), SDL's mouse copy of a touch off; Kivy's rotation applies to these touches too."""
    found = providers(tmp_path, "kmsdrm", rotation="180")
    assert found["sdl_touch_mouse"] == "0"
    assert found["rotation"] == "180"
    kinds = [name for name, _ in found["providers"]]  # type: ignore[attr-defined]
    assert kinds.count("MouseMotionEventProvider") == 1
    readers = [(name, device) for name, device in found["providers"] if name != "MouseMotionEventProvider"]  # type: ignore[attr-defined]
    assert readers == [("MTDMotionEventProvider", "/dev/input/event0")], found


def test_desktop_uses_the_compositors_events_only(tmp_path: Path) -> None:
    """XWayland: no direct reader (it would press twice and ignore the screen's rotation)."""
    found = providers(tmp_path, "x11")
    assert found["sdl_touch_mouse"] == "1"
    assert [name for name, _ in found["providers"]] == ["MouseMotionEventProvider"]  # type: ignore[attr-defined]
    assert list(found["config"]) == ["mouse"]  # type: ignore[call-overload]


@pytest.mark.parametrize("video", ["kmsdrm", "x11"])
def test_a_unit_can_still_override_the_sdl_hint(tmp_path: Path, video: str) -> None:
    env_hint = "1" if video == "kmsdrm" else "0"
    found = providers(tmp_path, video, SDL_TOUCH_MOUSE_EVENTS=env_hint)
    assert found["sdl_touch_mouse"] == env_hint  # Environment= in a drop-in wins (setdefault)
