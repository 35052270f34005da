"""The forgetting file system forgets what a power cut forgets, and keeps what was flushed.

It is the ground the power-cut test stands on (``test_power_cuts.py``), so each of its promises is
checked with real system calls through a real FUSE mount: an unflushed write is gone after a cut, a
flushed one is there; a new file or a rename is kept only once its directory was flushed; a torn
write is cut at a 512-byte boundary; "pages" keeps some unflushed pages and not others; and
unmounted without a cut, everything is kept (a clean shutdown).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from mount import fuse_problem, mounted

pytestmark = pytest.mark.skipif(bool(fuse_problem()), reason=fuse_problem() or "FUSE works")


def fsync(path: Path) -> None:
    flags = os.O_RDONLY | (os.O_DIRECTORY if path.is_dir() else 0)
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def cut_now(m: Path) -> None:
    """Any mutating operation after the armed one: here the power goes (the next create)."""
    with pytest.raises(OSError):
        (m / "the-cut").write_text("")


def test_unflushed_writes_are_gone_flushed_ones_stay(tmp_path: Path) -> None:
    disk, m = tmp_path / "disk", tmp_path / "mnt"
    disk.mkdir()
    (disk / "old.txt").write_text("before")
    with mounted(disk, m, cut_at="create:the-cut:1") as mount:
        (m / "old.txt").write_text("after, not flushed")
        assert (m / "old.txt").read_text() == "after, not flushed"  # programs see it
        (m / "kept.txt").write_text("flushed")
        fsync(m / "kept.txt")
        fsync(m)  # its name too
        (m / "lost.txt").write_text("never flushed")
        cut_now(m)
    assert mount.cut is not None and mount.cut["kind"] == "create"
    assert (disk / "old.txt").read_text() == "before"
    assert (disk / "kept.txt").read_text() == "flushed"
    assert not (disk / "lost.txt").exists() and not (disk / "the-cut").exists()


def test_a_new_file_or_a_rename_needs_its_directory_flushed(tmp_path: Path) -> None:
    disk, m = tmp_path / "disk", tmp_path / "mnt"
    disk.mkdir()
    (disk / "settings.toml").write_text("old = 1\n")
    with mounted(disk, m, cut_at="create:the-cut:1"):
        new = m / ".settings.toml.tmp"
        new.write_text("new = 2\n")
        fsync(new)  # the data is on the card, its name is not
        os.replace(new, m / "settings.toml")  # the rename is not either: the directory was not flushed
        (m / "orphan").write_text("data flushed, name not")
        fsync(m / "orphan")
        cut_now(m)
    assert (disk / "settings.toml").read_text() == "old = 1\n"
    assert sorted(p.name for p in disk.iterdir()) == ["settings.toml"]
    with mounted(disk, m, cut_at="create:the-cut:1"):
        new = m / ".settings.toml.tmp"
        new.write_text("new = 2\n")
        fsync(new)
        os.replace(new, m / "settings.toml")
        fsync(m)  # now the rename is kept
        cut_now(m)
    assert sorted(p.name for p in disk.iterdir()) == ["settings.toml"]
    assert (disk / "settings.toml").read_text() == "new = 2\n"


def test_a_torn_write_is_cut_at_a_sector(tmp_path: Path) -> None:
    disk, m = tmp_path / "disk", tmp_path / "mnt"
    disk.mkdir()
    (disk / "big").write_bytes(b"o" * 8192)
    kept = set()
    for seed in range(6):
        with mounted(disk, m, cut_at="create:the-cut:1", mode="torn", seed=seed):
            with (m / "big").open("r+b") as f:
                f.write(b"n" * 8192)  # one write, never flushed
            cut_now(m)
        data = (disk / "big").read_bytes()
        assert len(data) == 8192
        new = data.index(b"o") if b"o" in data else 8192
        assert new % 512 == 0 and data == b"n" * new + b"o" * (8192 - new), "a prefix of whole sectors"
        kept.add(new)
        (disk / "big").write_bytes(b"o" * 8192)
    assert len(kept) > 1, f"the tear falls at different sectors: {kept}"


def test_pages_keeps_some_unflushed_pages_and_not_others(tmp_path: Path) -> None:
    disk, m = tmp_path / "disk", tmp_path / "mnt"
    disk.mkdir()
    (disk / "pages").write_bytes(b"o" * 4096 * 16)
    with mounted(disk, m, cut_at="create:the-cut:1", mode="pages", seed=3):
        with (m / "pages").open("r+b") as f:
            for page in range(16):
                f.seek(page * 4096)
                f.write(b"n" * 4096)
        cut_now(m)
    data = (disk / "pages").read_bytes()
    pages = [data[i * 4096 : (i + 1) * 4096] for i in range(16)]
    assert all(p in (b"n" * 4096, b"o" * 4096) for p in pages), "every page is whole, old or new"
    assert 0 < sum(p == b"n" * 4096 for p in pages) < 16


def test_unmounted_without_a_cut_everything_stays_and_fsyncs_are_logged(tmp_path: Path) -> None:
    disk, m = tmp_path / "disk", tmp_path / "mnt"
    with mounted(disk, m) as mount:
        (m / "sub").mkdir()
        (m / "sub" / "file").write_text("clean shutdown")
        db = sqlite3.connect(m / "sub" / "games.sqlite3")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE t (x)")
        with db:
            db.execute("INSERT INTO t VALUES (1)")
        db.close()
        ops = mount.ops()
    assert mount.cut is None
    assert (disk / "sub" / "file").read_text() == "clean shutdown"
    assert sqlite3.connect(disk / "sub" / "games.sqlite3").execute("SELECT x FROM t").fetchall() == [(1,)]
    kinds = [op["kind"] for op in ops]
    assert "fsync" in kinds and "mkdir" in kinds and "write" in kinds
    assert sum(op["bytes"] for op in ops if op["kind"] == "write") >= len("clean shutdown")
