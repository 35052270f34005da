"""The floor of P3 and P4: a bare Kivy "hello" app in an 800×480 window, nothing else.

Started by ``benchmarks/startup.py`` exactly like ``companion run`` (same display, same Kivy
environment); ``COMPANION_FIRST_FRAME=<path>`` gets the monotonic clock of its first frame, the
same way ``ui/app.py`` writes the app's.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
from kivy.config import Config

Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
Config.set("graphics", "fullscreen", "0")

from kivy.app import App  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.uix.label import Label  # noqa: E402


class Hello(App):
    def build(self) -> Label:
        return Label(text="Hello")

    def on_start(self) -> None:
        target = os.environ.get("COMPANION_FIRST_FRAME")
        if not target:
            return

        def flipped(*_: Any) -> None:
            Window.unbind(on_flip=flipped)
            Path(target).write_text(repr(time.monotonic()))

        Window.bind(on_flip=flipped)


if __name__ == "__main__":
    Hello().run()
