"""A file system that forgets what was not flushed, as a power cut does (FUSE, through mfusepy).

    python tests/powercut/forgetfs.py DISK MOUNT [--cut-after N | --cut-at KIND:PART:K]
                                      [--mode forget|torn|pages] [--seed S] [--log FILE]

``DISK`` is the card: what survives. The mount starts as a copy of it; from then on everything
lives in this process's memory in two versions, the one programs see and the durable one:

- a file's data becomes durable when the file is flushed (``fsync``/``fdatasync``);
- a directory's entries (a create, a rename, an unlink, a ``mkdir`` in it) become durable when the
  directory itself is flushed (``fsync`` of the directory) — a rename between two directories needs
  both;
- attributes (mode, owner, times) are kept at once (the app's promises never rest on them).

The **power cut** comes before the mutating operation the command line names. ``--cut-after N``:
the N-th write, truncate, create, mknod, mkdir, unlink, rmdir, rename, fsync or directory fsync
since the mount (SQLite's ``-shm`` files not counted: they are shared memory, never read back).
``--cut-at rename:settings:2``: the second rename whose paths contain "settings" (``part$``: whose
paths end with it). Then the durable version is written to ``DISK``: as it is (``forget``); with the
last unflushed write of all kept up to a random 512-byte boundary (``torn``); or with a random half
of every file's unflushed 4 KiB pages and of the directories' unflushed entries (``pages``: the
reorderings a card's controller may make). The line ``CUT {...}`` is printed, and every later
operation fails with EIO, as on a card that lost its power. Unmounted without a cut (SIGTERM, a
clean shutdown), everything is written to ``DISK``, flushed or not.

Every mutating operation is counted and, with ``--log``, written as one JSON line (kind, path, bytes)
for the tests to count writes and flushes. Sockets and fifos made in the mount (a Unix socket) work
while mounted and are not kept on ``DISK`` (a power cut leaves no listener behind them).

Why mfusepy: a pure-Python binding (ctypes) to Debian's libfuse3 — nothing to compile, no event
loop of its own; a single-threaded loop (``nothreads``) keeps every operation in one order, which
is what a cut at "the N-th operation" needs.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import random
import shutil
import stat
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import mfusepy as fuse

SECTOR = 512
PAGE = 4096
MUTATING = ("write", "truncate", "create", "mknod", "mkdir", "unlink", "rmdir", "rename", "fsync", "fsyncdir")


@dataclass
class Node:
    mode: int
    data: bytearray = field(default_factory=bytearray)  # what programs see (files)
    durable: bytes = b""  # what survives a cut
    entries: dict[str, int] = field(default_factory=dict)  # name -> node (directories)
    durable_entries: dict[str, int] = field(default_factory=dict)
    target: str = ""  # a symbolic link's
    uid: int = 0
    gid: int = 0
    times: tuple[int, int, int] = (0, 0, 0)  # atime, mtime, ctime (ns)

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.mode)

    @property
    def is_file(self) -> bool:
        return stat.S_ISREG(self.mode)


Image = dict[int, tuple[bytes, dict[str, int]]]  # node -> its data and entries on the card


@dataclass
class Cut:
    """When the power goes: before the ``after``-th mutating operation, or before the ``nth``
    operation of ``kind`` whose paths contain ``part``."""

    after: int = 0
    kind: str = ""
    part: str = ""
    nth: int = 0

    @classmethod
    def parse(cls, after: int, at: str) -> Cut:
        if at:
            kind, part, nth = at.split(":")
            return cls(kind=kind, part=part, nth=int(nth))
        return cls(after=after)


def now_ns() -> int:
    return time.time_ns()


class ForgetFS(fuse.Operations):
    use_ns = True

    def __init__(self, disk: Path, cut: Cut, mode: str, seed: int, log: IO[str] | None) -> None:
        self.disk, self.cut, self.mode, self.log = disk, cut, mode, log
        self.rng = random.Random(seed)
        self.nodes: dict[int, Node] = {}
        self.handles: dict[int, int] = {}
        self.next_ino = self.next_fh = 1
        self.ops = 0
        self.matching = 0
        self.dead = False
        self.last_write: tuple[Node, int, bytes] | None = None  # node, offset, data of the last unflushed write
        self.root = self._load(disk)

    # -- the card ---------------------------------------------------------------------------------

    def _new(self, node: Node) -> int:
        ino = self.next_ino
        self.next_ino += 1
        t = now_ns()
        if node.times == (0, 0, 0):
            node.times = (t, t, t)
        self.nodes[ino] = node
        return ino

    def _load(self, folder: Path) -> int:
        info = folder.lstat()
        node = Node(info.st_mode, uid=info.st_uid, gid=info.st_gid)
        node.times = (info.st_atime_ns, info.st_mtime_ns, info.st_ctime_ns)
        for entry in sorted(os.scandir(folder), key=lambda e: e.name):
            path = Path(entry.path)
            st = path.lstat()
            if stat.S_ISDIR(st.st_mode):
                child = self._load(path)
            elif stat.S_ISREG(st.st_mode):
                raw = path.read_bytes()
                child = self._new(
                    Node(
                        st.st_mode,
                        bytearray(raw),
                        raw,
                        uid=st.st_uid,
                        gid=st.st_gid,
                        times=(st.st_atime_ns, st.st_mtime_ns, st.st_ctime_ns),
                    )
                )
            elif stat.S_ISLNK(st.st_mode):
                child = self._new(Node(st.st_mode, target=os.readlink(path), uid=st.st_uid, gid=st.st_gid))
            else:
                continue
            node.entries[entry.name] = child
        node.durable_entries = dict(node.entries)
        return self._new(node)

    def _survivors(self) -> Image:
        """What the card holds after the cut: each node's data and entries."""
        out: Image = {}
        torn = self.last_write if self.mode == "torn" else None
        for ino, node in self.nodes.items():
            data, entries = node.durable, dict(node.durable_entries)
            if self.mode == "pages":
                data = self._some_pages(node)
                if node.entries != node.durable_entries and self.rng.random() < 0.5:
                    entries = dict(node.entries)
            if torn is not None and torn[0] is node:
                _, offset, written = torn
                keep = SECTOR * self.rng.randrange(0, max(1, -(-len(written) // SECTOR)))
                grown = bytearray(data)
                part = written[:keep]
                if len(grown) < offset + len(part):
                    grown.extend(b"\0" * (offset + len(part) - len(grown)))
                grown[offset : offset + len(part)] = part
                data = bytes(grown)
            out[ino] = (data, entries)
        return out

    def _some_pages(self, node: Node) -> bytes:
        old, new = node.durable, bytes(node.data)
        if old == new:
            return old
        out = bytearray(old)
        for start in range(0, max(len(old), len(new)), PAGE):
            if old[start : start + PAGE] != new[start : start + PAGE] and self.rng.random() < 0.5:
                piece = new[start : start + PAGE]
                if len(out) < start + len(piece):
                    out.extend(b"\0" * (start + len(piece) - len(out)))
                out[start : start + len(piece)] = piece
                if start + PAGE >= len(new):
                    del out[len(new) :]  # the page that ends the new file ends it here too
        return bytes(out)

    def _write_disk(self, image: Image) -> None:
        """``image`` onto the card, replacing what was there."""
        fresh = self.disk.with_name(self.disk.name + ".writing")
        shutil.rmtree(fresh, ignore_errors=True)
        self._write_dir(fresh, self.root, image, set())
        shutil.rmtree(self.disk)
        os.rename(fresh, self.disk)

    def _write_dir(self, folder: Path, ino: int, image: Image, seen: set[int]) -> None:
        node = self.nodes[ino]
        folder.mkdir()
        for name, child in image[ino][1].items():
            sub = self.nodes[child]
            path = folder / name
            if sub.is_dir:
                if child in seen:
                    continue  # a directory under two names (a rename half flushed): once
                seen.add(child)
                self._write_dir(path, child, image, seen)
            elif sub.is_file:
                path.write_bytes(image[child][0])
                os.chmod(path, stat.S_IMODE(sub.mode))
                os.utime(path, ns=sub.times[:2])
            elif stat.S_ISLNK(sub.mode):
                os.symlink(sub.target, path)
        os.chmod(folder, stat.S_IMODE(node.mode))

    def power_cut(self, kind: str, paths: tuple[str, ...]) -> None:
        self._write_disk(self._survivors())
        self.dead = True
        print("CUT " + json.dumps({"op": self.ops, "kind": kind, "paths": paths, "mode": self.mode}), flush=True)

    def destroy(self, path: str) -> None:
        if not self.dead:  # unmounted whole: everything, flushed or not (a clean shutdown)
            self._write_disk({ino: (bytes(n.data), dict(n.entries)) for ino, n in self.nodes.items()})
        if self.log is not None:
            self.log.close()

    # -- bookkeeping ------------------------------------------------------------------------------

    def _op(self, kind: str, *paths: str, size: int = 0) -> None:
        """Count a mutating operation; the power goes before it when the cut says so."""
        if self.dead:
            raise OSError(errno.EIO, "the power is off")
        if not any(p.endswith("-shm") for p in paths):  # SQLite's shared memory: never the card's business
            self.ops += 1
        due = bool(self.cut.after) and self.ops >= self.cut.after
        if self.cut.kind == kind and any(self.matches(p) for p in paths):
            self.matching += 1
            due = due or self.matching == self.cut.nth
        if due:
            self.power_cut(kind, paths)
            raise OSError(errno.EIO, "the power is off")
        if self.log is not None:
            self.log.write(json.dumps({"op": self.ops, "kind": kind, "paths": paths, "bytes": size}) + "\n")
            self.log.flush()

    def matches(self, path: str) -> bool:
        """A path the cut names: ``part`` in it (``part$``: at its end); ``-shm`` only when named."""
        part = self.cut.part
        if path.endswith("-shm") and "shm" not in part:
            return False
        return path.endswith(part[:-1]) if part.endswith("$") else part in path

    def _check(self) -> None:
        if self.dead:
            raise OSError(errno.EIO, "the power is off")

    def _lookup(self, path: str) -> int:
        ino = self.root
        for part in path.strip("/").split("/"):
            if not part:
                continue
            node = self.nodes[ino]
            if not node.is_dir:
                raise OSError(errno.ENOTDIR, path)
            if part not in node.entries:
                raise OSError(errno.ENOENT, path)
            ino = node.entries[part]
        return ino

    def _parent(self, path: str) -> tuple[Node, str]:
        head, _, name = path.rstrip("/").rpartition("/")
        parent = self.nodes[self._lookup(head or "/")]
        if not parent.is_dir:
            raise OSError(errno.ENOTDIR, path)
        return parent, name

    def _node(self, path: str | None, fh: int | None = None) -> Node:
        if fh is not None and fh in self.handles:
            return self.nodes[self.handles[fh]]
        if path is None:
            raise OSError(errno.EBADF, "no file")
        return self.nodes[self._lookup(path)]

    def _handle(self, ino: int) -> int:
        fh = self.next_fh
        self.next_fh += 1
        self.handles[fh] = ino
        return fh

    def _add(self, path: str, node: Node) -> int:
        parent, name = self._parent(path)
        if name in parent.entries:
            raise OSError(errno.EEXIST, path)
        ctx = fuse.fuse_get_context()
        node.uid, node.gid = ctx[0], ctx[1]
        ino = self._new(node)
        parent.entries[name] = ino
        return ino

    # -- reading ----------------------------------------------------------------------------------

    def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
        self._check()
        node = self._node(path, fh)
        size = len(node.data) if node.is_file else len(node.target) if stat.S_ISLNK(node.mode) else 4096
        atime, mtime, ctime = node.times
        return {
            "st_mode": node.mode,
            "st_nlink": 2 if node.is_dir else 1,
            "st_size": size,
            "st_uid": node.uid,
            "st_gid": node.gid,
            "st_atime": atime,
            "st_mtime": mtime,
            "st_ctime": ctime,
            "st_blocks": -(-size // 512),
            "st_blksize": PAGE,
        }

    def readdir(self, path: str, fh: int) -> list[str]:
        self._check()
        return [".", "..", *self._node(path).entries]

    def readlink(self, path: str) -> str:
        self._check()
        return self._node(path).target

    def open(self, path: str, flags: int) -> int:
        self._check()
        return self._handle(self._lookup(path))

    def opendir(self, path: str) -> int:
        self._check()
        return self._handle(self._lookup(path))

    def read(self, path: str | None, size: int, offset: int, fh: int) -> bytes:
        self._check()
        return bytes(self._node(path, fh).data[offset : offset + size])

    def release(self, path: str | None, fh: int) -> int:
        self.handles.pop(fh, None)
        return 0

    def releasedir(self, path: str | None, fh: int) -> int:
        self.handles.pop(fh, None)
        return 0

    def statfs(self, path: str) -> dict[str, int]:
        return {"f_bsize": PAGE, "f_frsize": PAGE, "f_blocks": 1 << 20, "f_bfree": 1 << 19, "f_bavail": 1 << 19,
                "f_files": 1 << 16, "f_ffree": 1 << 15, "f_favail": 1 << 15, "f_namemax": 255}  # fmt: skip

    def access(self, path: str, amode: int) -> int:
        self._check()
        self._lookup(path)
        return 0

    def flush(self, path: str | None, fh: int) -> int:
        return 0

    # -- writing ----------------------------------------------------------------------------------

    def create(self, path: str, mode: int, flags: int = 0) -> int:
        self._op("create", path)
        return self._handle(self._add(path, Node(stat.S_IFREG | stat.S_IMODE(mode))))

    def mknod(self, path: str, mode: int, dev: int) -> int:
        self._op("mknod", path)
        self._add(path, Node(mode))
        return 0

    def mkdir(self, path: str, mode: int) -> int:
        self._op("mkdir", path)
        self._add(path, Node(stat.S_IFDIR | stat.S_IMODE(mode)))
        return 0

    def symlink(self, target: str, source: str) -> int:
        self._op("create", target)
        self._add(target, Node(stat.S_IFLNK | 0o777, target=source))
        return 0

    def write(self, path: str | None, data: bytes, offset: int, fh: int) -> int:
        node = self._node(path, fh)
        self._op("write", path or "?", size=len(data))
        if len(node.data) < offset:
            node.data.extend(b"\0" * (offset - len(node.data)))
        node.data[offset : offset + len(data)] = data
        self.last_write = (node, offset, bytes(data))
        t = now_ns()
        node.times = (node.times[0], t, t)
        return len(data)

    def truncate(self, path: str | None, length: int, fh: int | None = None) -> int:
        node = self._node(path, fh)
        self._op("truncate", path or "?")
        if length < len(node.data):
            del node.data[length:]
        else:
            node.data.extend(b"\0" * (length - len(node.data)))
        return 0

    def fsync(self, path: str | None, datasync: int, fh: int) -> int:
        node = self._node(path, fh)
        self._op("fsync", path or "?")
        node.durable = bytes(node.data)
        if self.last_write is not None and self.last_write[0] is node:
            self.last_write = None
        return 0

    def fsyncdir(self, path: str | None, datasync: int, fh: int) -> int:
        node = self._node(path, fh)
        self._op("fsyncdir", path or "?")
        node.durable_entries = dict(node.entries)
        return 0

    def unlink(self, path: str) -> int:
        self._op("unlink", path)
        parent, name = self._parent(path)
        if name not in parent.entries:
            raise OSError(errno.ENOENT, path)
        if self.nodes[parent.entries[name]].is_dir:
            raise OSError(errno.EISDIR, path)
        del parent.entries[name]
        return 0

    def rmdir(self, path: str) -> int:
        self._op("rmdir", path)
        parent, name = self._parent(path)
        node = self.nodes[self._lookup(path)]
        if not node.is_dir:
            raise OSError(errno.ENOTDIR, path)
        if node.entries:
            raise OSError(errno.ENOTEMPTY, path)
        del parent.entries[name]
        return 0

    def rename(self, old: str, new: str) -> int:
        self._op("rename", old, new)
        source, old_name = self._parent(old)
        target, new_name = self._parent(new)
        if old_name not in source.entries:
            raise OSError(errno.ENOENT, old)
        moving = source.entries[old_name]
        replaced = target.entries.get(new_name)
        if replaced is not None and self.nodes[replaced].is_dir:
            if not self.nodes[moving].is_dir:
                raise OSError(errno.EISDIR, new)
            if self.nodes[replaced].entries:
                raise OSError(errno.ENOTEMPTY, new)
        del source.entries[old_name]
        target.entries[new_name] = moving
        return 0

    def link(self, target: str, source: str) -> int:
        raise OSError(errno.EPERM, "no hard links here")

    def chmod(self, path: str | None, mode: int) -> int:
        self._check()
        node = self._node(path)
        node.mode = stat.S_IFMT(node.mode) | stat.S_IMODE(mode)
        return 0

    def chown(self, path: str | None, uid: int, gid: int) -> int:
        self._check()
        node = self._node(path)
        node.uid = uid if uid != -1 and uid != 0xFFFFFFFF else node.uid
        node.gid = gid if gid != -1 and gid != 0xFFFFFFFF else node.gid
        return 0

    def utimens(self, path: str | None, times: tuple[int, int] | None = None) -> int:
        self._check()
        node = self._node(path)
        t = now_ns()
        atime, mtime = times if times is not None else (t, t)
        node.times = (atime, mtime, t)
        return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("disk", type=Path)
    parser.add_argument("mount", type=Path)
    parser.add_argument("--cut-after", type=int, default=0)
    parser.add_argument("--cut-at", default="")
    parser.add_argument("--mode", choices=("forget", "torn", "pages"), default="forget")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log", type=Path)
    args = parser.parse_args(argv)
    log = args.log.open("a", encoding="utf-8") if args.log else None
    ops = ForgetFS(args.disk.resolve(), Cut.parse(args.cut_after, args.cut_at), args.mode, args.seed, log)
    print("MOUNTING", flush=True)
    fuse.FUSE(ops, str(args.mount), foreground=True, nothreads=True, default_permissions=True, fsname="forgetfs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
