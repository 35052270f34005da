from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Shared helpers: tests/ (toy game, drivers), tests/net (real server and phones), tests/browser (Chromium).
for folder in (HERE, HERE / "net", HERE / "browser"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

# The test game registers itself when imported, with the same register() call as the boxed games.
import toygame  # noqa: E402, F401
