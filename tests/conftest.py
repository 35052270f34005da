from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

# The toy game is registered for tests only.
from companion import games  # noqa: E402

games.GAMES.setdefault("toy", "toygame")
