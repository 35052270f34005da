from __future__ import annotations

import sys
from pathlib import Path

# This test directory is called "hardware" too. pytest puts test directories on sys.path, and a
# directory without __init__.py there would shadow nothing *unless* the repository root is not
# on sys.path (pytest run from elsewhere): then ``import hardware`` would find this folder as a
# namespace package. Putting the root first makes ``hardware`` always the real package.
ROOT = Path(__file__).resolve().parents[2]
if sys.path[:1] != [str(ROOT)]:
    sys.path.insert(0, str(ROOT))
_loaded = sys.modules.get("hardware")
if _loaded is not None and getattr(_loaded, "__file__", None) is None:  # the namespace impostor
    del sys.modules["hardware"]
