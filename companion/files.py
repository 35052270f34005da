"""The files Companion writes besides its database: private, and replaced whole.

- :func:`private_dir` makes the data directory (saved games with every secret, the host token, the
  tag table) and keeps it its owner's alone: the directory 0700 and the files directly in it 0600,
  whatever the umask, and an existing directory made before (0755, files 0644) is fixed when the app
  or a command opens it.
- :func:`write_atomic` replaces a file so that a power cut at any moment leaves the old file or the
  new one, whole: the new text goes to a temporary file beside it, which is flushed to the disk
  (``fsync``), renamed over the old one, and the directory flushed too (the rename itself is then
  on the disk). Every writer of a file the app keeps uses it: the configuration it edits, the host
  token, the tag table, the display facts and exported games.

- :func:`set_aside` is what a reader does with a file it finds damaged (torn by a card that lost
  its power, or not the app's): the file is renamed, never repaired or overwritten, to
  ``NAME.damaged-YYYYMMDD-HHMMSS`` beside it, and the app starts without it; :func:`damaged_copies`
  finds such copies, so the start screen, the host page and ``companion status`` say so until the
  host removes them.

SQLite keeps its own promises for ``companion.sqlite3`` (WAL, ``synchronous=FULL``); it gives its
``-wal`` and ``-shm`` files the mode of the database file, made 0600 here before SQLite opens it.
Standard library only: every part may use it.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import stat
import tempfile
import time
from pathlib import Path

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600
STALE_TEMPORARY = 3600.0  # seconds after which a temporary file left by a crash is removed
STORE_FILE = "companion.sqlite3"  # the saved games (every part that opens or names it: this name)
DAMAGED = ".damaged-"  # what a damaged file's copy has between its name and the time it was found


def private_dir(path: Path | str) -> Path:
    """Make ``path`` (and its parents) if missing; make it and the files directly in it private
    (0700 and 0600). What this user may not change (another user's directory) is left as it is."""
    folder = Path(path)
    folder.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
    restrict(folder, PRIVATE_DIR)
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_file(follow_symlinks=False):
                restrict(Path(entry.path), PRIVATE_FILE)
    return folder


def private_file(path: Path | str) -> Path:
    """Make ``path`` exist as a file only its owner may read (0600; an existing one made so), e.g.
    a database before SQLite opens it, so SQLite's own files beside it are born private too."""
    target = Path(path)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, PRIVATE_FILE))
    restrict(target, PRIVATE_FILE)
    return target


def restrict(path: Path, mode: int = PRIVATE_FILE) -> None:
    """Take group and other permissions from ``path`` if it exists (never add any): ``mode`` is the
    most allowed. A link, a missing file or another user's file is left as it is."""
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode) or not stat.S_IMODE(st.st_mode) & ~mode & 0o777:
            return
        os.chmod(path, stat.S_IMODE(st.st_mode) & mode)
    except OSError:  # not ours to change (or gone meanwhile): a reading command goes on
        pass


def write_atomic(
    path: Path | str, data: str | bytes, *, mode: int = PRIVATE_FILE, owner: tuple[int, int] | None = None
) -> None:
    """Replace ``path`` with ``data`` (text is written as UTF-8) so that a crash or a power cut at
    any step leaves the old file or the new one whole: a temporary file in the same directory
    (``mode``, and ``owner`` when given and allowed) is written and flushed, renamed over
    ``path``, and the directory is flushed. On an error the old file stays and the temporary goes."""
    target = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    folder = target.parent
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        try:
            os.fchmod(fd, mode)
            if owner is not None and os.geteuid() == 0:
                os.fchown(fd, *owner)
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    sync_dir(folder)
    _remove_stale(folder, target.name)


def sync_dir(folder: Path | str) -> None:
    """Flush a directory's entries (a rename in it) to the disk; a file system that cannot is let be."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):  # e.g. EINVAL on file systems without directory fsync
            os.fsync(fd)
    finally:
        os.close(fd)


def _remove_stale(folder: Path, name: str) -> None:
    """Temporary files of ``name`` that a crash left behind (old enough not to be another writer's)."""
    now = time.time()
    with contextlib.suppress(OSError):
        for left in folder.glob(f".{name}.*.tmp"):
            with contextlib.suppress(OSError):
                if now - left.lstat().st_mtime > STALE_TEMPORARY:
                    left.unlink()


def set_aside(path: Path | str, *companions: str) -> Path:
    """Rename a damaged ``path`` (and its ``companions``, suffixes of files that belong to it, such as
    SQLite's ``-wal``) to ``NAME.damaged-YYYYMMDD-HHMMSS`` beside it and flush the directory: the
    bytes are kept as found for whoever wants to look, and a fresh file may take the name. Returns
    the copy's path."""
    target = Path(path)
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%d-%H%M%S")
    copy = target.with_name(f"{target.name}{DAMAGED}{stamp}")
    n = 1
    while copy.exists():  # a second damaged file within the same second
        n += 1
        copy = target.with_name(f"{target.name}{DAMAGED}{stamp}-{n}")
    os.replace(target, copy)
    for suffix in companions:
        with contextlib.suppress(FileNotFoundError):
            os.replace(f"{target}{suffix}", f"{copy}{suffix}")
    sync_dir(target.parent)
    return copy


def damaged_copies(folder: Path | str) -> list[Path]:
    """The copies :func:`set_aside` left in ``folder`` (not their companions), oldest name first."""
    try:
        found = [p for p in Path(folder).glob(f"*{DAMAGED}*") if not p.name.endswith(("-wal", "-shm", "-journal"))]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.name)
