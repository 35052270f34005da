"""The last frame reaches a KMS/DRM display (found by `make pi-boot`, deploy/README.md).

Booted for real (systemd, the unit, SDL's ``kmsdrm`` driver on a virtio-gpu DRM device), the table
stayed black after READY=1 on both releases until something was drawn again: the display showed
the frame before the last one flipped, and Kivy draws only when something changes. Redrawing each
last frame once more made the start screen and every later change show at once there (checked
in the booted guest). This test runs the same hook on Kivy's real window and clock (under Xvfb,
in a process of its own) and counts the flips: each change is drawn twice, an idle table not at
all, and frames that come anyway get no echo of their own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json
from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.label import Label
from ui.app import last_frame_shown

flips = []
marks = {}


class Probe(App):
    def build(self):
        self.label = Label(text="start")
        return self.label

    def on_start(self):
        last_frame_shown(Window, Clock)
        Window.bind(on_flip=lambda *_: flips.append(Clock.frames))
        Clock.schedule_once(self.idle_then_change, 1.0)

    def idle_then_change(self, _dt):
        marks["idle_start"] = len(flips)
        Clock.schedule_once(self.change, 1.0)

    def change(self, _dt):
        marks["before_change"] = len(flips)
        self.label.text = "one change"
        Clock.schedule_once(self.burst, 1.0)

    def burst(self, _dt):
        marks["after_change"] = len(flips)
        self.steps = 0
        Clock.schedule_interval(self.step, 0)

    def step(self, _dt):
        self.steps += 1
        self.label.text = f"frame {self.steps}"
        if self.steps == 10:
            Clock.schedule_once(self.done, 1.0)
            return False

    def done(self, _dt):
        marks["after_burst"] = len(flips)
        print(json.dumps(marks))
        self.stop()


Probe().run()
"""


def test_each_change_is_flipped_twice_and_an_idle_table_not_at_all(display: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "SDL_"))}
    env.update(
        DISPLAY=display, KIVY_HOME=str(tmp_path), KIVY_NO_ARGS="1", KIVY_LOG_MODE="PYTHON",
        KIVY_WINDOW="sdl2", PYTHONPATH=str(ROOT),
    )  # fmt: skip
    script = tmp_path / "probe.py"  # a file: Kivy's App looks for its source
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script)], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    marks = json.loads(done.stdout.strip().splitlines()[-1])
    # idle for a second: nothing drawn, so nothing echoed
    assert marks["before_change"] == marks["idle_start"]
    # one change: its frame, then that frame once more
    assert marks["after_change"] - marks["before_change"] == 2
    # ten frames in a row: the echoes join the real frames, then one last echo
    assert marks["after_burst"] - marks["after_change"] <= 10 + 2
