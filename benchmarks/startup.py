"""P3 and P4: ``companion run`` from the process start to its first frame, and its peak memory
on the start screen, against a bare Kivy "hello" app (``hello_kivy.py``) on the same Xvfb display
(800×480), started alternately.

Time: from just before the process is started to the first frame after the app's start (both
write the system's monotonic clock when that frame is flipped). Memory: the peak resident set
(``VmHWM``) a fixed while after that frame. The app starts with a data directory that holds
saved games but no open one, so it shows the start screen. The project's modules are compiled to
bytecode first, as an install does.
"""

from __future__ import annotations

import compileall
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from common import ROOT, Ratio

HERE = Path(__file__).resolve().parent
SETTLE = 1.5  # seconds after the first frame before the peak memory is read


def peak_rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM")


class Starter:
    def __init__(self, folder: Path, display: str) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.display = display
        self.data = folder / "data"
        self.config = folder / "companion.toml"
        self.config.write_text(
            f'[server]\nhost = "127.0.0.1"\nport = 0\npublic_address = "127.0.0.1"\n'
            f'[table]\nlanguage = "en"\ndata_dir = "{self.data}"\n'
        )

    def env(self, kind: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "SDL_", "COMPANION_"))}
        home = self.folder / f"kivy-{kind}"
        home.mkdir(exist_ok=True)
        env.update(
            DISPLAY=self.display,
            KIVY_NO_ARGS="1",
            KIVY_HOME=str(home),
            KIVY_WINDOW="sdl2",
            KIVY_LOG_MODE="PYTHON",
            COMPANION_CONFIG=str(self.config),
            COMPANION_FULLSCREEN="0",
            PYTHONPATH=str(ROOT),
        )
        return env

    def start(self, kind: str) -> tuple[float, int]:
        """One cold start of ``kind`` ("app" or "hello"): (seconds to the first frame, peak RSS bytes)."""
        mark = self.folder / f"first-frame-{kind}"
        mark.unlink(missing_ok=True)
        env = {**self.env(kind), "COMPANION_FIRST_FRAME": str(mark)}
        if kind == "app":
            argv = [sys.executable, "-m", "companion.cli", "run"]
        else:
            argv = [sys.executable, str(HERE / "hello_kivy.py")]
        with (self.folder / f"{kind}.log").open("ab") as log:
            t0 = time.monotonic()
            proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        try:
            deadline = t0 + 120
            while not mark.exists():
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{kind} did not show a frame; see {self.folder / (kind + '.log')}")
                time.sleep(0.005)
            while True:  # the file is written in one go, but may be seen before it is
                text = mark.read_text()
                if text:
                    break
                time.sleep(0.001)
            elapsed = float(text) - t0
            time.sleep(SETTLE)
            memory = peak_rss(proc.pid)
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        return elapsed, memory


def prepare_saved_games(data: Path) -> None:
    """Three saved games on file (one per game), none open: the app comes up on the start screen."""
    from workloads import full_game

    from companion.app.store import Store, StoredEvent
    from companion.core import event_codec

    data.mkdir(parents=True, exist_ok=True)
    with Store(data / "companion.sqlite3") as store:
        for name, seed in (("scotland_yard", 3), ("victorian_masterminds", 4), ("mykerinos", 5)):
            played = full_game(name, 400, seed).game
            codec = event_codec(played.rules)
            game_id = store.create_game(name, name, played.config, played.seed, make_current=False)
            rows = [StoredEvent(e.seq, e.action, codec.encode(e.event)) for e in played.entries]
            store.append(game_id, rows).result()
        store.set_current(None)


def measure(folder: Path, pairs: int) -> tuple[Ratio, Ratio]:
    sys.path.insert(0, str(ROOT / "tests" / "ui"))
    from driver import xvfb

    time_ratio = Ratio(
        "P3",
        "`companion run` cold start → first frame (Xvfb 800×480)",
        "a bare Kivy hello app, same display",
        "companion run, start screen",
        target_median=1.3,
    )
    rss_ratio = Ratio(
        "P4",
        "peak RSS on the start screen",
        "a bare Kivy hello app",
        "companion run, start screen",
        target_median=1.15,
        unit="MB",
    )
    starter = Starter(folder, "")
    prepare_saved_games(starter.data)
    # As installed (pip compiles every module when it installs the app on a Pi): the project's
    # modules start from bytecode, like Kivy's in the floor, even where the environment says not
    # to write any (PYTHONDONTWRITEBYTECODE).
    for package in ("companion", "ui", "hardware"):
        compileall.compile_dir(str(ROOT / package), quiet=1)
    with xvfb() as display:
        starter.display = display
        starter.start("hello")  # Kivy writes its configuration on a first start: not measured
        starter.start("app")
        for i in range(pairs):
            order = ("hello", "app") if i % 2 == 0 else ("app", "hello")
            for kind in order:
                elapsed, memory = starter.start(kind)
                (time_ratio.floor if kind == "hello" else time_ratio.project).add(elapsed)
                (rss_ratio.floor if kind == "hello" else rss_ratio.project).add(memory)
    return time_ratio, rss_ratio
