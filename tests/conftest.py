from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Shared helpers: tests/ (toy game, drivers), tests/net (real server and phones), tests/browser (Chromium).
for folder in (HERE, HERE / "net", HERE / "browser"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

# The toy game is registered for tests only.
from companion import games  # noqa: E402

games.GAMES.setdefault("toy", "toygame")
