"""Child process for the atomic-file test: one of the app's file writers replaces its file, and
this process SIGKILLs itself at the ``kill_at``-th step of the replacement (each system call
``companion.files`` makes: write, flush, close, rename, directory flush...). With ``kill_at`` 0 it
runs to the end and prints every step it made, in order.

    python atomic_child.py WRITER TARGET KILL_AT
"""

from __future__ import annotations

import os
import signal
import sys
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import companion.files as files_module

STEPS = ("fchmod", "fchown", "write", "fsync", "close", "replace", "open", "unlink")
NEW_TOKEN = "N" * 32


def watch(kill_at: int) -> list[str]:
    """Route ``companion.files``' system calls through a counter that kills the process at one."""
    real = files_module.os
    seen: list[str] = []
    proxy = types.SimpleNamespace(**{name: getattr(real, name) for name in dir(real) if not name.startswith("__")})

    def counted(name: str) -> Any:
        call = getattr(real, name)

        def step(*args: Any, **kwargs: Any) -> Any:
            seen.append(name)
            if len(seen) == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return call(*args, **kwargs)

        return step

    for name in STEPS:
        setattr(proxy, name, counted(name))
    files_module.os = proxy  # type: ignore[assignment]
    return seen


def write(writer: str, target: Path) -> None:
    if writer == "host-token":
        import secrets

        from companion.app.hostlink import HostLink

        secrets.token_urlsafe = lambda n=None: NEW_TOKEN  # type: ignore[assignment]  # known new text
        HostLink(target.parent).rotate()
    elif writer == "tags":
        from hardware.enrollment import Piece, TagTable

        table = TagTable.load(target)
        table.enroll("04a1b2c3", Piece("scotland_yard", "mrx", "Mister X"), replace=True)
        table.save()
    elif writer == "config":
        from companion.appliance import configfile

        configfile.update(target, "hotspot", {"ssid": "Table-new", "password": "new-secret-1"})
    elif writer == "display":
        from companion.appliance import facts

        shown = {"window": "new", "video_driver": "kmsdrm", "size": [800, 480], "gl_version": "3", "gl_renderer": "V3D"}
        facts.kivy_display_facts = lambda: shown  # type: ignore[assignment]
        facts.record_kivy_display(target.parent)
    elif writer == "export":
        from companion.cli import main

        assert main(["--data-dir", str(target.parent / "data"), "export", "1", str(target)]) == 0
    else:
        raise SystemExit(f"unknown writer {writer}")


if __name__ == "__main__":
    name, path, at = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    steps = watch(at)
    write(name, path)
    print(" ".join(steps))
