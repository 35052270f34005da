from __future__ import annotations

import os
import sys
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

HERE = Path(__file__).resolve().parent
# Shared helpers: tests/ (toy game, drivers), tests/net (real server and phones), tests/browser (Chromium).
for folder in (HERE, HERE / "net", HERE / "browser"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

# The test game registers itself when imported, with the same register() call as the boxed games.
import toygame  # noqa: E402, F401

from companion.app.chance import TEST_SEED_ENV  # noqa: E402

# Property tests repeat exactly: the same examples on every run, no example database between runs;
# and no timing checks (a deadline per example, "too slow" data generation), which fail by chance on
# a loaded machine — speed is the benchmarks' business.
settings.register_profile(
    "repeatable", derandomize=True, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("repeatable")
# A seed for what starts before any test does (a module's server or app process); each test then
# sets its own (below).
os.environ.setdefault(TEST_SEED_ENV, "20261128")


@pytest.fixture(autouse=True)
def _test_seed(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game a test starts has a seed the test chose (``companion/app/chance.py``): its name.

    Set in the environment, so the app processes, commands and servers a test starts inherit it
    (their environments keep ``COMPANION_TEST_SEED`` when they drop the rest of ``COMPANION_*``)."""
    monkeypatch.setenv(TEST_SEED_ENV, str(zlib.crc32(request.node.nodeid.encode())))
