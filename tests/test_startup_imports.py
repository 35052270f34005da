"""What ``companion run`` loads before its first frame stays small: the command line, the store,
the table, the texts, the touchscreen's controller, the phone server's listening sockets. None of
them loads the phone server (aiohttp), a game's rules, gpiozero or the QR code maker: those come
after the first frame (ui/app.py, ``Services``) or when first used. (Speed itself is measured by
``make bench``, P3/P4; this checks only what is loaded, in a fresh interpreter.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BEFORE_THE_FIRST_FRAME = """
import json, sys
import companion.cli as cli
cli.build_parser(just_run=cli._runs_the_app(["run"])).parse_args(["run"])  # as `companion run` parses
from companion.app.config import Config
from companion.app.i18n import text
from companion.app.store import Store
from companion.app.table import Table
from companion.net.listen import bind
import hardware.pi, ui.controller
for code in ("game.scotland_yard", "game.victorian_masterminds", "game.mykerinos", "ui.start.new"):
    assert text(code, {}, "de", ("ui",)) != code, code
print(json.dumps(sorted(sys.modules)))
"""

LATER = ("aiohttp", "gpiozero", "qrcode", "PIL", "serial", "companion.net.server", "companion.net.host", "hardware.cli")


def test_what_runs_before_the_first_frame_loads_no_server_no_game_and_no_gpio() -> None:
    out = subprocess.run(
        [sys.executable, "-c", BEFORE_THE_FIRST_FRAME], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    loaded = json.loads(out)
    assert "companion.app.table" in loaded and "companion.games" in loaded  # the registry, not a game
    early = [m for m in loaded if m.startswith(LATER) or m.startswith("companion.games.")]
    assert early == []
