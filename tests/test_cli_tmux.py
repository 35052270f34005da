"""A short Scotland Yard game typed into a real terminal (tmux), in words only, and its BG Stats
QR code drawn in that terminal read back with zbar.

Rulebook (basic game): "Mister X ist gefasst, wenn ein Detektiv auf das Feld zieht, auf dem sich
Mister X befindet" – Mister X is caught when a detective moves onto his station: here D1 takes
the underground from 13 onto his station 67 in round 1.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from PIL import Image, ImageDraw
from pyzbar.pyzbar import decode

from companion.app import bgstats

TMUX = shutil.which("tmux")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(TMUX is None, reason="tmux is not installed (make apt)")]
PROMPT = "READY>"


class Terminal:
    """A shell in a detached tmux session of its own (private server socket)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.server = f"companion-test-{uuid.uuid4().hex[:8]}"
        self.env = env
        self.tmux("new-session", "-d", "-x", "220", "-y", "150", "-s", "t", "bash", "--norc", "--noprofile")
        self.tmux("set-option", "-g", "history-limit", "5000")
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        self.type(f"export {exports}; export PS1='{PROMPT}'; clear")
        self.wait_prompt()

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        done = subprocess.run([TMUX, "-L", self.server, *args], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def type(self, line: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", line)
        self.tmux("send-keys", "-t", "t", "Enter")

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "t")

    def wait_prompt(self, after: str = "", timeout: float = 60) -> str:
        """The screen once a prompt stands at its end (after the line ``after`` was typed)."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen().rstrip()
            if text.endswith(PROMPT) and (not after or PROMPT + after in text[: -len(PROMPT)]):
                return text
            assert time.monotonic() < deadline, f"no prompt after {timeout} s:\n{text}"
            time.sleep(0.1)

    def run(self, command: str) -> str:
        """Type a command, wait for it to finish, return what it printed."""
        self.tmux("clear-history", "-t", "t")
        self.type("clear")
        self.wait_prompt()
        self.type(command)
        text = self.wait_prompt(after=command)
        body = text.split(PROMPT + command, 1)[-1]
        return body.rsplit(PROMPT, 1)[0].strip("\n")

    def close(self) -> None:
        subprocess.run([TMUX or "tmux", "-L", self.server, "kill-server"], capture_output=True, timeout=30)


def qr_from_text(text: str) -> Image.Image:
    """Half-block characters as pixels: '█' both light, '▀' top light, '▄' bottom light, ' ' dark."""
    rows = [line for line in text.splitlines() if line and set(line) <= {"█", "▀", "▄", " "}]
    width = max(len(r) for r in rows)
    scale, border = 6, 4
    image = Image.new("L", ((width + 2 * border) * scale, (2 * len(rows) + 2 * border) * scale), 255)
    draw = ImageDraw.Draw(image)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row.ljust(width, "█")):
            top_dark, bottom_dark = {"█": (False, False), "▀": (False, True), "▄": (True, False), " ": (True, True)}[ch]
            for dy, dark in ((0, top_dark), (1, bottom_dark)):
                if dark:
                    x0, y0 = (x + border) * scale, (2 * y + dy + border) * scale
                    draw.rectangle((x0, y0, x0 + scale - 1, y0 + scale - 1), fill=0)
    return image


def test_a_short_game_typed_into_a_terminal(tmp_path: Path) -> None:
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "companion").write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m companion.cli "$@"\n')
    (bindir / "companion").chmod(0o755)
    env = {
        "PATH": f"{bindir}:{os.environ['PATH']}",
        "COMPANION_DATA_DIR": str(tmp_path / "data"),
        "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
    }
    term = Terminal(env)
    try:
        # Plain `companion` over SSH to a machine with no screen: it says so at once, holding nothing.
        out = term.run("env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER companion")
        assert "There is no screen here" in out and "companion serve" in out and "[cli.no_display]" in out
        out = term.run("companion shwo --as table")
        assert out.startswith("companion: There is no command shwo — did you mean show?"), out
        out = term.run("companion new scotland_yard")
        assert "detectives missing" in out and "detectives=Dora,Emil" in out
        out = term.run("companion new scotland_yard mister_x=Xavier detectives=Dora --title Friday")
        assert out == "Game 1 started; it is the open game now."
        out = term.run("companion legal --as table")
        assert "sy.place_detectives stations=<text>:<number>,…" in out
        out = term.run("companion do sy.place_detectives stations=D1:13,D2:26,B1:29,B2:34 --as table")
        assert out.startswith("ok: The detectives' start stations are set.")
        out = term.run("companion do sy.place_x station=51 --as mrx")
        assert "Now: Round 1/22 · Mister X moves" in out
        out = term.run("companion legal --as mrx")
        assert "single: taxi 38, 39, 52, 67, 68;" in out  # from 51 by taxi (the printed map)
        out = term.run("companion do sy.x_move ticket=taxi station=67 --as mrx")
        assert out.splitlines() == [
            "ok: Mister X went by Taxi to 67. (game 1, step 3)",
            "Now: Round 1/22 · the detectives move (still to move: D1, D2, B1, B2)",
        ]
        out = term.run("companion show --as d1")
        assert "Travel log: 1 Taxi" in out and "67" not in out
        out = term.run("companion do sy.move figure=D1 ticket=underground station=67 --as d1")
        assert "D1 went by Underground to 67." in out
        assert "Now: Scotland Yard · game over: Mister X has been caught – the detectives win!" in out
        out = term.run("companion show --as table | head -4")
        assert "Travel log: 1 Taxi → 67" in out
        out = term.run("companion history")
        assert "Friday: Mister X has been caught" in out and "Dora ★" in out
        out = term.run("companion history --bgstats 1 --qr")
        link = out.splitlines()[-1]
        data = bgstats.decode(link)
        assert isinstance(data, dict)
        assert data["players"] == [
            {"name": "Xavier", "sourcePlayerId": "xavier", "startPlayer": True, "winner": False, "role": "Mister X"},
            {"name": "Dora", "sourcePlayerId": "dora", "startPlayer": False, "winner": True, "role": "Detective"},
        ]
        read = [d.data.decode("utf-8") for d in decode(qr_from_text(out))]
        assert read == [link], "the QR code drawn in the terminal does not read back"
        out = term.run("companion history --json | head -c 60")
        assert out.startswith('{"format":"companion-history"')
        assert json.loads(term.run("companion games --json"))[0]["status"] == "finished"
    finally:
        term.close()


def test_serve_at_a_terminal_shows_the_host_link_once_and_room_codes(tmp_path: Path) -> None:
    """`companion serve` at a terminal: the host link (and its QR code) once at the start, then a
    seat's QR code with its room code, which the landing page trades for that seat's link."""
    import socket
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = tmp_path / "companion.toml"
    config.write_text(f'[server]\nhost = "127.0.0.1"\nport = {port}\npublic_address = "127.0.0.1"\n')
    env = {
        "COMPANION_DATA_DIR": str(tmp_path / "data"),
        "COMPANION_CONFIG": str(config),
        "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
    }
    python = shlex.quote(sys.executable)
    subprocess.run(
        [sys.executable, "-m", "companion.cli", "new", "scotland_yard", "detectives=Dora"],
        env={**os.environ, **env},
        check=True,
        capture_output=True,
    )
    term = Terminal(env)
    try:
        term.type(f"{python} -m companion.cli serve")
        deadline = time.monotonic() + 60
        while "Press Enter to show the QR code for mrx" not in (screen := term.screen()):
            assert time.monotonic() < deadline, screen
            time.sleep(0.2)
        assert screen.count("The host page") == 1
        host_part = screen.split("The host page", 1)[1].split("Game 1", 1)[0]
        (host_url,) = [d.data.decode() for d in decode(qr_from_text(host_part))]
        assert host_url.startswith(f"http://127.0.0.1:{port}/h/") and host_url in host_part
        term.tmux("send-keys", "-t", "t", "Enter")
        # The QR code, link and room code come in one print that may reach the pane in pieces:
        # its last line says it is all there (else the code read below could be cut short).
        while "Press Enter when the phone has joined." not in (screen := term.screen()):
            assert time.monotonic() < deadline, screen
            time.sleep(0.2)
        seat_part = screen.split("only that player should look.", 1)[1]
        (seat_url,) = [d.data.decode() for d in decode(qr_from_text(seat_part))]
        code = seat_part.split("or type the room code ", 1)[1].split()[0]
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/join",
            data=json.dumps({"code": code}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=20) as answer:
            assert json.loads(answer.read()) == {"link": seat_url.removeprefix(f"http://127.0.0.1:{port}")}
        term.tmux("send-keys", "-t", "t", "C-c")
    finally:
        term.close()
