"""The touchscreen app as the service runs it: ready only with a window, facts for the doctor, one log.

A real app under Xvfb (tests/ui/driver.py), with this test as systemd: a notification socket, a
watchdog, stderr connected as the journal stream, and Kivy left to the app's own defaults.
"""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path

from driver import AppProcess


class ServiceApp(AppProcess):
    def env(self) -> dict[str, str]:
        env = super().env()
        for key in ("KIVY_LOG_MODE", "KIVY_NO_FILELOG", "KIVY_NO_CONSOLELOG"):
            env.pop(key, None)  # what the app does by itself
        return env


def test_ready_after_the_window_with_display_facts_and_journal_lines(display: str, tmp_path: Path) -> None:
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify.sock"))
    notify.settimeout(60)
    log_path = tmp_path / "app.log"
    log_path.touch()
    st = os.stat(log_path)
    app = ServiceApp(
        display,
        tmp_path,
        extra_env={
            "NOTIFY_SOCKET": str(tmp_path / "notify.sock"),
            "WATCHDOG_USEC": "1000000",
            "JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}",
        },
    )
    app.start()
    try:
        first = notify.recv(65536).decode().split("\n")
        assert first[0] == "READY=1" and first[1] == "STATUS=no game open; 0 phones connected"
        facts = json.loads((app.data / "display.json").read_text())  # written before READY=1
        assert facts["window"] == "WindowSDL" and facts["video_driver"] == "x11"
        assert facts["size"] == [800, 480] and facts["gl_version"]
        started = time.monotonic()
        beats = 0
        while beats < 3:
            beats += notify.recv(65536).decode().split("\n").count("WATCHDOG=1")
        assert time.monotonic() - started < 20  # every 0.5 s from Kivy's clock, with room for a busy machine
        assert app.state()["screen"] == "start"
    finally:
        app.stop()
        notify.close()
    log = log_path.read_text(errors="replace")
    assert "\x1b[" not in log  # no coloured second copy of Kivy's lines
    window_lines = [line for line in log.splitlines() if "Window: Provider:" in line]
    assert len(window_lines) == 1 and window_lines[0].startswith("<6>kivy: ")
    assert "<6>companion.appliance.facts: display: WindowSDL video driver x11, 800x480" in log
    assert not (tmp_path / "kivy" / "logs").exists() or not any((tmp_path / "kivy" / "logs").iterdir())
