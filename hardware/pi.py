"""Is this a Raspberry Pi? (Standard library only: asked before anything else is loaded.)"""

from __future__ import annotations

from pathlib import Path


def on_raspberry_pi(model_file: Path = Path("/proc/device-tree/model")) -> bool:
    try:
        return model_file.read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        return False
