"""The forgetting file system (``forgetfs.py``) mounted for a test, in its own process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FS = Path(__file__).with_name("forgetfs.py")


def fuse_problem() -> str:
    """Why a FUSE mount cannot work here ("" when it can)."""
    if not Path("/dev/fuse").exists():
        return "no /dev/fuse"
    if os.geteuid() != 0 and shutil.which("fusermount3") is None:
        return "no fusermount3 (Debian's fuse3)"
    try:
        import mfusepy  # noqa: F401
    except (ImportError, OSError) as exc:  # OSError: no libfuse3
        return f"mfusepy: {exc}"
    return ""


@dataclass
class Mount:
    disk: Path
    path: Path
    log: Path
    proc: subprocess.Popen[str]
    cut: dict[str, Any] | None = None
    lines: list[str] = field(default_factory=list)

    def ops(self) -> list[dict[str, Any]]:
        """Every mutating operation so far (kind, paths, bytes), in order."""
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]

    def wait_cut(self, timeout: float = 60.0) -> dict[str, Any] | None:
        """The cut's line, once the file system printed it (None: it has not come by then)."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        os.set_blocking(self.proc.stdout.fileno(), False)
        while self.cut is None and time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.02)
                continue
            self.lines.append(line)
            if line.startswith("CUT "):
                self.cut = json.loads(line[4:])
        return self.cut


def unmount(path: Path) -> None:
    command = ["umount", "-l", str(path)] if os.geteuid() == 0 else ["fusermount3", "-u", "-z", str(path)]
    subprocess.run(command, check=False, capture_output=True)


@contextmanager
def mounted(
    disk: Path, path: Path, *, cut_after: int = 0, cut_at: str = "", mode: str = "forget", seed: int = 0
) -> Iterator[Mount]:
    """``disk`` mounted at ``path`` until the block ends; then unmounted (after a cut, ``disk`` holds
    what survived it; without one, everything). Whoever uses files in it must be gone by then."""
    disk.mkdir(parents=True, exist_ok=True)
    path.mkdir(parents=True, exist_ok=True)
    log = path.with_name(path.name + ".ops.jsonl")
    log.unlink(missing_ok=True)
    args = [sys.executable, str(FS), str(disk), str(path), "--mode", mode, "--seed", str(seed), "--log", str(log)]
    if cut_after:
        args += ["--cut-after", str(cut_after)]
    if cut_at:
        args += ["--cut-at", cut_at]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not os.path.ismount(path):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"forgetfs did not mount: {proc.communicate()[1][-2000:]}")
        time.sleep(0.02)
    mount = Mount(disk, path, log, proc)
    try:
        yield mount
    finally:
        mount.wait_cut(timeout=0)
        unmount(path)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        assert proc.stdout is not None
        os.set_blocking(proc.stdout.fileno(), True)
        for line in proc.stdout:
            mount.lines.append(line)
            if line.startswith("CUT "):
                mount.cut = json.loads(line[4:])
