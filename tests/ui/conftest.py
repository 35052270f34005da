"""One Xvfb server for the whole ui test directory; each test starts its own app process."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from driver import AppProcess, xvfb  # noqa: E402


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    if shutil.which("Xvfb") is None:
        pytest.fail("Xvfb is missing: install the Debian package xvfb (make test does)")
    with xvfb() as name:
        yield name


@pytest.fixture
def app(display: str, tmp_path: Path) -> Iterator[AppProcess]:
    proc = AppProcess(display, tmp_path)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()
