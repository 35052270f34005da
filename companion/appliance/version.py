"""``companion --version``: the package version and, on an installed Pi, which checkout it came from.

``deploy/install-pi.sh`` writes ``build.json`` next to this module in the copy it installs (the
checkout's ``git describe`` and the install time), so ``companion --version`` on the Pi tells which
commit is running. A development checkout has no such file.
"""

from __future__ import annotations

import importlib.resources
import json
from typing import Any

from companion import __version__

BUILD_FILE = "build.json"


def build_info() -> dict[str, Any]:
    try:
        data = json.loads(importlib.resources.files("companion.appliance").joinpath(BUILD_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def version_text() -> str:
    info = build_info()
    extra = []
    if info.get("commit"):
        extra.append(f"git {info['commit']}")
    if info.get("installed"):
        extra.append(f"installed {info['installed']}")
    return f"companion {__version__}" + (f" ({', '.join(extra)})" if extra else "")
