"""Run the real touchscreen app in a real X window and drive it like a finger.

- :func:`xvfb` starts ``Xvfb -screen 0 800x480x24`` on a display number the server picks itself
  (``-displayfd``), so parallel runs never collide.
- :class:`AppProcess` starts ``python -m companion.cli run`` in a subprocess (Kivy's global state
  never enters pytest) with ``DISPLAY``, ``KIVY_NO_ARGS=1``, a temporary ``KIVY_HOME``,
  ``KIVY_WINDOW=sdl2``, a temporary data directory and a configuration that binds the phone server
  to 127.0.0.1 on a free port. ``COMPANION_UI_CONTROL`` turns on the app's local control socket
  (``ui/control.py``): taps are real touch events dispatched through Kivy's input pipeline.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.app.chance import TEST_SEED_ENV

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
# Waits are upper bounds for a loaded machine (two suites at once on two cores): a test never fails
# by being slow, only by never getting there.
WAIT = 30.0


@contextmanager
def xvfb(width: int = 800, height: int = 480) -> Iterator[str]:
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp", "-noreset"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    try:
        number = b""
        deadline = time.monotonic() + 20
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            chunk = os.read(read_fd, 16)
            if not chunk:
                break
            number += chunk
        if not number.strip():
            raise RuntimeError("Xvfb did not start")
        yield f":{number.decode().strip()}"
    finally:
        os.close(read_fd)
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class AppProcess:
    """One run of the app; ``kill()`` is a SIGKILL (a power cut), ``start()`` a new boot."""

    def __init__(
        self,
        display: str,
        home: Path,
        extra_env: dict[str, str] | None = None,
        extra_config: str = "",
        language: str = "en",
        plugins: tuple[str, ...] = (),
        public_address: str = "127.0.0.1",
        command_prefix: tuple[str, ...] = (),
    ) -> None:
        """``plugins``: modules imported before the app runs (``toygame`` registers the test game);
        ``public_address`` "": the address is detected, as on a Pi; ``command_prefix``: the app's
        command line starts with it (e.g. ``unshare --net``)."""
        self.command_prefix = command_prefix
        self.display = display
        self.plugins = plugins
        self.home = home
        self.data = home / "data"
        self.socket_path = home / "control.sock"
        self.log_path = home / "app.log"
        self.extra_env = extra_env or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.conn: socket.socket | None = None
        self.buffer = b""
        config = home / "companion.toml"
        self.port = free_port()  # fixed across restarts, like 8080 on a Pi, so phone links stay valid
        # The table's voice: the stand-in that records what would be said, one JSON line each (see said())
        self.speech_path = home / "said.jsonl"
        config.write_text(
            f'[speech]\nvoice = "record"\nrecord = "{self.speech_path}"\n'
            f'[server]\nhost = "127.0.0.1"\nport = {self.port}\npublic_address = "{public_address}"\n'
            f'[table]\nlanguage = "{language}"\ndata_dir = "{self.data}"\n' + extra_config
        )
        self.config = config

    def env(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("KIVY_", "SDL_", "COMPANION_")) or k == TEST_SEED_ENV
        }
        (self.home / "kivy").mkdir(exist_ok=True)
        env.update(
            DISPLAY=self.display,
            KIVY_NO_ARGS="1",
            KIVY_HOME=str(self.home / "kivy"),
            KIVY_WINDOW="sdl2",
            KIVY_LOG_MODE="PYTHON",
            COMPANION_CONFIG=str(self.config),
            COMPANION_UI_CONTROL=str(self.socket_path),
            COMPANION_FULLSCREEN="0",
            PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]),
        )
        env.update(self.extra_env)
        return env

    def start(self, timeout: float = 2 * WAIT) -> None:
        if self.socket_path.exists():
            self.socket_path.unlink()
        log = self.log_path.open("ab")
        command = [sys.executable, "-m", "companion.cli", "run"]
        if self.plugins:
            loads = "; ".join(f"import {name}" for name in self.plugins)
            command = [
                sys.executable,
                "-c",
                f"import sys; {loads}; from companion.cli import main; sys.exit(main(['run']))",
            ]
        self.proc = subprocess.Popen([*self.command_prefix, *command], cwd=ROOT, env=self.env(), stdout=log, stderr=log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the app exited with {self.proc.returncode}:\n{self.log()}")
            if self.socket_path.exists():
                try:
                    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    conn.connect(str(self.socket_path))
                    self.conn = conn
                    self.buffer = b""
                    self.wait(lambda s: s["screen"] in ("start", "game", "end", "seats"), timeout=WAIT)
                    return
                except OSError:
                    time.sleep(0.1)
                    continue
            time.sleep(0.1)
        raise RuntimeError(f"the app did not come up:\n{self.log()}")

    def said(self) -> list[dict[str, Any]]:
        """Everything the table's voice said so far (``{"text", "lang", "volume"}``), oldest first."""
        if not self.speech_path.exists():
            return []
        return [json.loads(raw) for raw in self.speech_path.read_text("utf-8").splitlines() if raw.strip()]

    def wait_said(
        self, predicate: Callable[[list[dict[str, Any]]], bool], timeout: float = WAIT, what: str = ""
    ) -> list[dict[str, Any]]:
        """Wait until what the table said so far satisfies ``predicate`` (it speaks on its own thread)."""
        deadline = time.monotonic() + timeout
        while not predicate(said := self.said()):
            if time.monotonic() > deadline:
                raise AssertionError(f"the table never said {what or predicate}: {[s['text'] for s in said]}")
            time.sleep(0.05)
        return said

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-6000:] if self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL, like pulling the plug: nothing gets to clean up."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def stop(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    # -- the control socket -----------------------------------------------------------------------
    def call(self, request: dict[str, Any], timeout: float = 2 * WAIT) -> dict[str, Any]:
        assert self.conn is not None, "the app is not running"
        self.conn.settimeout(timeout)
        self.conn.sendall(json.dumps(request).encode() + b"\n")
        while b"\n" not in self.buffer:
            chunk = self.conn.recv(1 << 16)
            if not chunk:
                raise RuntimeError(f"the app closed the control socket:\n{self.log()}")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def state(self) -> dict[str, Any]:
        return self.call({"cmd": "state"})

    def info(self) -> dict[str, Any]:
        return self.call({"cmd": "info"})

    def tap(self, tid: str, timeout: float = WAIT) -> None:
        """Tap a widget; waits (up to ``timeout``) for it to appear first."""
        self.wait(lambda s: tid in s["tids"] and not s["tids"][tid]["disabled"], timeout=timeout, what=f"widget {tid}")
        reply = self.call({"cmd": "tap", "tid": tid})
        if not reply.get("ok"):
            raise AssertionError(f"tap {tid}: {reply.get('error')}")

    def wait(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = WAIT, what: str = ""
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        state = self.state()
        while not predicate(state):
            if time.monotonic() > deadline:
                shown = {k: v for k, v in state.items() if k not in ("texts",)}
                raise AssertionError(
                    f"timed out waiting for {what or predicate}: {json.dumps(shown)[:3000]}\n"
                    f"texts: {state.get('texts')}"
                )
            time.sleep(0.05)
            state = self.state()
        return state

    def wait_screen(self, name: str, timeout: float = WAIT) -> dict[str, Any]:
        return self.wait(lambda s: s["screen"] == name and not s["dialog"], timeout, what=f"screen {name}")

    def wait_text(self, fragment: str, timeout: float = WAIT) -> dict[str, Any]:
        return self.wait(lambda s: any(fragment in t for t in s["texts"]), timeout, what=f"text {fragment!r}")

    def wait_seq(self, seq: int, timeout: float = WAIT) -> dict[str, Any]:
        return self.wait(lambda s: s["seq"] >= seq, timeout, what=f"seq {seq}")

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"ui-{name}.png"
        reply = self.call({"cmd": "screenshot", "path": str(path)})
        assert reply.get("ok"), reply
        assert reply["size"] == [800, 480], reply
        return path

    def clipped(self) -> list[dict[str, Any]]:
        """Every visible text on screen that does not fit its place (ui/control.py: overflow)."""
        reply = self.call({"cmd": "clipped"})
        assert reply.get("ok"), reply
        found: list[dict[str, Any]] = reply["clipped"]
        return found

    def type(self, tid: str, text: str) -> None:
        """Type into a text field (as its on-screen keyboard would)."""
        self.wait(lambda s: tid in s["tids"], what=f"text field {tid}")
        reply = self.call({"cmd": "type", "tid": tid, "text": text})
        assert reply.get("ok"), reply

    def submit(self, intent: dict[str, Any]) -> None:
        reply = self.call({"cmd": "submit", "intent": intent})
        assert reply.get("ok"), reply
