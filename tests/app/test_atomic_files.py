"""Power cuts outside SQLite (issue 26, item 12): every file the app writes besides the database —
the configuration it edits, the host token, the tag table, the display facts, an exported game — is
replaced whole: a temporary file beside it is written and flushed, renamed over the old one, and the
directory flushed. A real child process running each writer is SIGKILLed at every step of the
replacement in turn; each time the file is found whole, the old one or the new one. (The app's
preferences, the "remembered settings", live in the SQLite database.)

On main the configuration and the display facts were renamed without being flushed (a power cut
could leave an empty file under the old name), and no writer flushed the directory."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.savedgame import export_game
from companion.app.store import Store

CHILD = Path(__file__).with_name("atomic_child.py")
ROOT = Path(__file__).resolve().parents[2]


def child(writer: str, target: Path, kill_at: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(CHILD), writer, str(target), str(kill_at)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def prepare(writer: str, folder: Path) -> Path:
    """The file as it was before the write (for ``export``: a saved game, and an older export)."""
    folder.mkdir(mode=0o700)
    target = folder / NAMES[writer]
    if writer == "host-token":
        target.write_text("O" * 32 + "\n")
    elif writer == "tags":
        target.write_text('{"format": "companion.tags", "version": 1, "tags": []}\n')
    elif writer == "config":
        target.write_text('[table]\nlanguage = "de"\n\n[hotspot]\nssid = "Table-old"\npassword = "old-secret"\n')
        os.chmod(target, 0o640)
    elif writer == "display":
        target.write_text('{"window": "old"}\n')
    else:
        (folder / "data").mkdir()
        saved = folder.parent / "saved.sqlite3"  # one saved game for every run: the same export
        if not saved.exists():
            with Store(saved) as store:
                store.create_game("toy", "Export me", {"rounds": 3}, 5)
        shutil.copyfile(saved, folder / "data" / "companion.sqlite3")
        target.write_text('{"old": "export"}\n')
    return target


NAMES = {
    "host-token": "host-token",
    "tags": "tags.json",
    "config": "companion.toml",
    "display": "display.json",
    "export": "export.json",
}
WRITERS = list(NAMES)


@pytest.mark.parametrize("writer", WRITERS)
def test_a_crash_at_any_step_leaves_the_old_file_or_the_new_one_whole(tmp_path: Path, writer: str) -> None:
    # The whole write, once, to learn its steps and the new file.
    done = child(writer, prepare(writer, tmp_path / "clean"), 0)
    assert done.returncode == 0, done.stderr
    steps = done.stdout.splitlines()[-1].split()
    written = tmp_path / "clean" / NAMES[writer]
    new = written.read_bytes()
    # Flushed before the rename, and the directory after it: what a power cut needs.
    assert steps.index("fsync") < steps.index("replace") < len(steps) - 1 - steps[::-1].index("fsync"), steps
    assert steps[steps.index("replace") + 1 :][:2] == ["open", "fsync"], steps  # the directory's flush
    for at in range(1, len(steps) + 1):
        folder = tmp_path / f"killed-at-{at}"
        target = prepare(writer, folder)
        old = target.read_bytes()
        killed = child(writer, target, at)
        assert killed.returncode == -signal.SIGKILL, (at, killed.stderr)
        assert target.read_bytes() in (old, new), f"{writer}: a torn file after a crash at step {at} ({steps[at - 1]})"
    # The new file is private, or (the configuration) keeps the mode the old one had.
    assert written.stat().st_mode & 0o777 == (0o640 if writer == "config" else 0o600)


def test_the_export_is_the_saved_game(tmp_path: Path) -> None:
    """The export the crash test writes is the real thing (not an empty file that would pass it)."""
    target = prepare("export", tmp_path / "box")
    assert child("export", target, 0).returncode == 0
    with Store(tmp_path / "box" / "data" / "companion.sqlite3") as store:
        assert json.loads(target.read_text("utf-8")) == export_game(store, 1)
