"""Saved games are their owner's alone (issue 26, item 1). On main, with the usual umask 022, the data
directory was 0755 and ``companion.sqlite3`` 0644: user ``nobody`` ran ``companion show --as mrx``
and read Mister X's station and every seat's token. Now the data directory is 0700 and every file in
it 0600 (SQLite's ``-wal`` and ``-shm`` too) whatever the umask, and an older directory is fixed
when the app starts. Real processes: the command line and ``companion serve`` as root, the reader
as ``nobody`` (``runuser``, with Debian's own Python so it needs nothing of root's)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from served import ROOT, Box, stop

SETUP = '{"mister_x": "Xavier", "detectives": ["Dora"]}'
SYSTEM_PYTHON = "/usr/bin/python3"
RUNUSER = shutil.which("runuser") or "/usr/sbin/runuser"

needs_root = pytest.mark.skipif(
    os.getuid() != 0 or not Path(RUNUSER).exists() or not Path(SYSTEM_PYTHON).exists(),
    reason="needs root, runuser and /usr/bin/python3 to act as another user",
)


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder every user may enter (pytest's own temporary folders are root's alone, which would
    hide the data directory whatever its mode)."""
    folder = Path(tempfile.mkdtemp(prefix="companion-private-", dir="/tmp"))
    os.chmod(folder, 0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def modes(folder: Path) -> dict[str, int]:
    return {p.name: mode(p) for p in sorted(folder.iterdir())}


def as_nobody(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [RUNUSER, "-u", "nobody", "--", *command],
        capture_output=True,
        text=True,
        timeout=120,
        cwd="/",
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": "/nonexistent", "LANG": "C.UTF-8"},
    )


def nobody_reads(box: Box) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    """``companion show --as mrx`` and a plain SQLite read of the seats' tokens, both as ``nobody``."""
    show = as_nobody(SYSTEM_PYTHON, "-m", "companion.cli", "--data-dir", str(box.data), "show", "--as", "mrx")
    query = (
        "import sqlite3, sys; db = sqlite3.connect(f'file:{sys.argv[1]}?mode=ro', uri=True); "
        "print(db.execute('SELECT seat, token FROM seat_links').fetchall())"
    )
    read = as_nobody(SYSTEM_PYTHON, "-c", query, str(box.data / "companion.sqlite3"))
    return show, read


@needs_root
@pytest.mark.parametrize("umask", [0o022, 0o000])
def test_saved_games_are_private_whatever_the_umask(open_folder: Path, umask: int) -> None:
    box = Box(open_folder, data=open_folder / "data")
    assert box.cli("new", "scotland_yard", "--setup", SETUP, umask=umask).returncode == 0
    assert box.cli("do", '{"kind": "sy.draw_start"}', "--as", "table", umask=umask).returncode == 0
    secret = box.cli("show", "--as", "mrx").stdout  # Mister X's own screen, his secret station on it
    assert "Mister X" in secret
    server = box.serve(umask=umask)
    try:
        # The running table holds the database open: SQLite's -wal and -shm are there, and private.
        files = modes(box.data)
        assert {"companion.sqlite3", "companion.sqlite3-wal", "companion.sqlite3-shm", "companion.lock"} <= set(files)
        assert mode(box.data) == 0o700
        assert all(m == 0o600 for m in files.values()), {k: oct(v) for k, v in files.items()}
        show, read = nobody_reads(box)
    finally:
        stop(server)
    assert show.returncode != 0 and "Permission denied" in show.stderr, show
    assert show.stdout == ""
    assert read.returncode != 0 and "token" not in read.stdout.lower(), read


@needs_root
def test_an_older_data_directory_is_made_private_when_the_app_starts(open_folder: Path) -> None:
    """A data directory as main left it (0755, files 0644, a -wal and -shm left by a power cut) is
    readable by anyone until the table starts; from then on it is its owner's alone."""
    box = Box(open_folder, data=open_folder / "data")
    assert box.cli("new", "scotland_yard", "--setup", SETUP).returncode == 0
    assert box.cli("do", '{"kind": "sy.draw_start"}', "--as", "table").returncode == 0
    secret = box.cli("show", "--as", "mrx").stdout  # Mister X's own screen, his station on it
    # What an older version with umask 022 left behind.
    with sqlite3.connect(box.data / "companion.sqlite3") as db:  # a reader that holds the file open
        db.execute("PRAGMA journal_mode=WAL").fetchall()
        db.execute("SELECT count(*) FROM games").fetchall()
        for name in ("companion.sqlite3", "companion.sqlite3-wal", "companion.sqlite3-shm"):
            os.chmod(box.data / name, 0o644)
        (box.data / "host-token").write_text("t" * 32 + "\n")
        (box.data / "tags.json").write_text('{"format": "companion.tags", "version": 1, "tags": []}\n')
        for path in box.data.iterdir():
            os.chmod(path, 0o644)
        os.chmod(box.data, 0o755)
        show, _ = nobody_reads(box)
        assert show.returncode == 0 and show.stdout == secret  # what main allowed: the reason for this test
        server = box.serve(umask=0o022)
        try:
            assert mode(box.data) == 0o700
            assert all(m == 0o600 for m in modes(box.data).values()), modes(box.data)
            show, read = nobody_reads(box)
        finally:
            stop(server)
    assert show.returncode != 0 and show.stdout == "" and "Permission denied" in show.stderr, show
    assert read.returncode != 0 and "token" not in read.stdout.lower(), read
