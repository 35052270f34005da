"""The game night uses the touchscreen driver of tests/ui (and tests/browser's Chromium, via tests/conftest.py)."""

from __future__ import annotations

import sys
from pathlib import Path

UI = Path(__file__).resolve().parents[1] / "ui"
if str(UI) not in sys.path:
    sys.path.insert(0, str(UI))
