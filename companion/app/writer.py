"""One writer per data directory, across processes.

``companion run`` and ``companion serve`` hold an exclusive lock on ``<data dir>/companion.lock``
for as long as they run (``flock``: the kernel lets go when the process ends, even by SIGKILL or a
power cut). A second ``run``/``serve`` on the same saved games is refused with a message saying
what to do. The command line's writing commands (``new``, ``do``, ``undo``, ``open``, ``delete``,
``import``) take the same lock while they work when nothing runs; while the app runs they act
**through it**: they send their request over a local Unix socket that only the same user can open
(mode 0600, and the peer's user id is checked), and the running table decides it like any other
input. When that is not possible (another user's service), they refuse with a message.

The lock file (0600) holds one JSON line ``{"pid", "role", "socket", "port"}`` describing its holder
(``port``: where it serves phones, for ``companion host-link``). ``run`` and ``serve`` wait for the
lock while an offline command holds it, and as a service for whoever holds it
(:meth:`WriterLock.acquire_waiting`). The socket
speaks one JSON object per line each way:

- ``{"op": "status", "language"?}`` → ``{"ok": true, "pid", "role", "game_id", "rules", "title", "seq",
  "phones": [{"seat", "name"}], "warnings": [[code, params]]}`` (``companion status``)
- ``{"op": "new", "rules", "setup", "title"}`` → ``{"ok": true, "game_id"}``
- ``{"op": "do", "actor", "intent" (null: undo), "seq" (null: now), "game_id" (null: the open game)}``
  → ``{"ok": true, "game_id", "seq"}``
- ``{"op": "open" | "delete", "game_id"}``, ``{"op": "import", "data", "open"}`` → ``{"ok": true, ...}``
- any refusal → ``{"ok": false, "code", "params", "message"}`` (a :class:`CompanionError`)
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import hashlib
import json
import logging
import os
import socket
import struct
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from companion.app.savedgame import MAX_FILE, MIB, check_title, import_game
from companion.app.table import Table
from companion.core.audience import Audience
from companion.core.errors import CompanionError, MalformedInput
from companion.core.events import Undo
from companion.core.jsonvalue import JSON, JSONObject, has_lone_surrogate
from companion.files import private_dir

log = logging.getLogger(__name__)

LOCK_NAME = "companion.lock"
SOCKET_NAME = "companion.sock"
MAX_REQUEST = 3 * MAX_FILE  # one request line: a game file (at most 16 MiB) as compact JSON, with room
SOCKET_PATH_MAX = 100  # AF_UNIX paths are limited to 107 bytes on Linux
LOCK_POLL = 1.0  # seconds between two tries for a lock another process holds


class AppRunning(CompanionError):
    """Another process is the writer of these saved games."""

    default_code = "writer.running"


class WriterLock:
    """The data directory's writer lock (``acquire`` to hold it, ``holder`` to see who does)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / LOCK_NAME
        self._fd: int | None = None
        self.role = ""
        self._socket: str | None = None
        self._port: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def try_acquire(self, role: str) -> bool:
        """Take the lock if nobody holds it; ``False`` if another process does."""
        try:
            private_dir(self.data_dir)  # the saved games are this user's alone (0700, files 0600)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except PermissionError:
            # Another user's directory (e.g. the service's): we cannot write here, so we cannot be the writer.
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return False
            raise
        self._fd, self.role = fd, role
        self._write_holder()
        return True

    def acquire(self, role: str) -> WriterLock:
        """Take the lock or raise :class:`AppRunning` naming the holder and what to do."""
        if not self.try_acquire(role):
            raise running_error(self.holder())
        return self

    def acquire_waiting(
        self, role: str, waiting: Callable[[str], None] | None = None, always: bool = False
    ) -> WriterLock:
        """Take the lock, waiting for it while an offline command (``companion import`` of a long
        game, ...) holds it — or, with ``always`` (the app run as a service), whoever holds it —
        instead of exiting: a service that exits is restarted, and after a few restarts in a row
        systemd gives up on it. ``waiting(text)`` is told why, about every second (the service's
        status, its watchdog); another ``run``/``serve`` at a terminal is still refused at once."""
        said = ""
        while not self.try_acquire(role):
            holder = self.holder()
            if not always and holder.get("role") != "cli":
                raise running_error(holder)
            text = waiting_text(holder)
            if text != said:
                log.warning("%s", text)
                said = text
            if waiting is not None:
                waiting(text)
            time.sleep(LOCK_POLL)
        return self

    def announce(self, socket_path: Path) -> None:
        """Tell other commands where the running app listens."""
        self._socket = str(socket_path)
        self._write_holder()

    def announce_port(self, port: int) -> None:
        """Tell other commands the port the running app serves phones on (``companion host-link``)."""
        self._port = port
        self._write_holder()

    def running_port(self) -> int | None:
        """The phone port of the app holding this lock now (``None``: nothing runs, or it does not say)."""
        if not self.held_elsewhere():
            return None
        port = self.holder().get("port")
        return port if isinstance(port, int) and not isinstance(port, bool) else None

    def held_elsewhere(self) -> bool:
        """Whether another process holds the lock (read only: nothing is made or taken)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return True
        finally:
            os.close(fd)  # (a shared lock taken here goes with the descriptor)
        return False

    def holder(self) -> JSONObject:
        """What the lock file says about its holder (``{}`` if it cannot be read)."""
        try:
            data = json.loads(self.path.read_text("utf-8") or "{}")
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing the descriptor lets go of the lock
            self._fd = None

    def __enter__(self) -> WriterLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def _write_holder(self) -> None:
        holder: JSONObject = {"pid": os.getpid(), "role": self.role, "socket": self._socket}
        if self._port is not None:
            holder["port"] = self._port
        self._write(holder)

    def _write(self, data: JSONObject) -> None:
        assert self._fd is not None
        raw = (json.dumps(data) + "\n").encode("utf-8")
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, raw, 0)


def running_error(holder: JSONObject) -> AppRunning:
    pid = holder.get("pid")
    role = holder.get("role")
    return AppRunning(
        "writer.running",
        f"Companion already runs for these saved games (`companion {role or 'run'}`, process {pid or '?'})",
        pid=str(pid) if isinstance(pid, int) else "?",  # a process id, never digit-grouped
        command=f"companion {role}" if isinstance(role, str) and role else "companion",
    )


def waiting_text(holder: JSONObject) -> str:
    """What a service waiting for the lock says (``systemctl status``, ``companion status``)."""
    pid = holder.get("pid")
    role = holder.get("role")
    command = f"companion {role}" if isinstance(role, str) and role and role != "cli" else "a companion command"
    who = f"process {pid}" if isinstance(pid, int) else "another process"
    return f"waiting for the saved games: {command} ({who}) is using them"


def socket_path_for(data_dir: Path) -> Path:
    """Where the app listens: in the data directory, or (a path too long for a Unix socket) in a
    private folder of this user's under the temporary directory."""
    direct = Path(data_dir).resolve() / SOCKET_NAME
    if len(os.fsencode(direct)) <= SOCKET_PATH_MAX:
        return direct
    private = Path(tempfile.gettempdir()) / f"companion-{os.getuid()}"
    private.mkdir(mode=0o700, exist_ok=True)
    info = private.lstat()
    if info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise CompanionError("writer.socket_dir", f"{private} is not a private folder of this user", path=str(private))
    digest = hashlib.sha256(os.fsencode(Path(data_dir).resolve())).hexdigest()[:20]
    return private / f"{digest}.sock"


# -- the running app's side ------------------------------------------------------------------------


class CommandServer:
    """The running app's local socket: the command line's writing commands, decided by the table."""

    def __init__(self, table: Table, lock: WriterLock) -> None:
        self.table = table
        self.lock = lock
        # what ``companion status`` shows of the running table, set by the entry point once it has them:
        # the phones connected ((game id, seat) pairs) and the running app's warnings ((code, params))
        self.phones: Callable[[], set[tuple[int, str]]] = set
        self.warnings: Callable[[], list[tuple[str, dict[str, Any]]]] = list
        self._server: asyncio.AbstractServer | None = None
        self.problem = ""
        try:
            self.path: Path | None = socket_path_for(lock.data_dir)
        except CompanionError as exc:  # the app still runs; the command line will say it cannot reach it
            self.path, self.problem = None, exc.message

    async def start(self) -> None:
        """Listen; where no Unix socket can be made (e.g. a data directory on a FAT stick) the app
        runs on without it, and the command line says it cannot reach the table."""
        if self.path is None:
            log.warning("no local command socket (%s): the command line cannot act through this app", self.problem)
            return
        try:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()  # a socket left by a process that was killed (we hold the lock now)
            old = os.umask(0o177)  # born 0600: nobody else can connect, not even between bind and chmod
            try:
                self._server = await asyncio.start_unix_server(self._client, path=str(self.path), limit=MAX_REQUEST)
            finally:
                os.umask(old)
            os.chmod(self.path, 0o600)
        except OSError as exc:
            log.warning("no local command socket (%s): the command line cannot act through this app", exc)
            return
        self.lock.announce(self.path)
        log.info("commands from this user's terminal are taken on %s", self.path)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None
            if self.path is not None:
                with contextlib.suppress(FileNotFoundError):
                    self.path.unlink()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            if not _same_user(writer):
                log.warning("refused a local command from another user")
                return
            try:
                line = await reader.readline()
            except (asyncio.LimitOverrunError, ValueError):  # more than a request may be: say so
                too_big = MalformedInput("import.too_big", "the request is too large", limit=MAX_FILE // MIB)
                line, reply = b"", {"ok": False, **too_big.to_json(), "message": too_big.message}
            else:
                reply = await self.answer(line)
            writer.write((json.dumps(reply, ensure_ascii=False) + "\n").encode("utf-8"))
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            pass  # the terminal went away or sent too much: nothing was done
        except Exception:
            log.exception("a local command failed")
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def answer(self, line: bytes) -> JSONObject:
        try:
            try:
                request = json.loads(line)
            except (ValueError, RecursionError):
                raise MalformedInput("malformed.json", "a request is one JSON object per line") from None
            if has_lone_surrogate(request):  # no database can hold it: refused before anything
                raise MalformedInput("malformed.json", "a request holds text that cannot be stored")
            if not isinstance(request, dict):
                raise MalformedInput("malformed.envelope", "a request is a JSON object")
            return {"ok": True, **(await self._do(request))}
        except CompanionError as exc:
            return {"ok": False, **exc.to_json(), "message": exc.message}

    async def _do(self, request: dict[str, Any]) -> JSONObject:
        table = self.table
        op = request.get("op")
        if op == "status":
            current = table.current
            game_id = current.header.id if current else None
            phones: list[JSON] = []
            if current is not None:
                from companion.app.names import seat_names
                from companion.app.readable import param

                lang = request.get("language") if isinstance(request.get("language"), str) else "en"
                view = current.game.rules.view(current.game.state, Audience.table())
                names = seat_names(current.header.rules, view)
                for seat in sorted(seat for gid, seat in self.phones() if gid == game_id):
                    name = names.get(seat)
                    phones.append({"seat": seat, "name": param(name, str(lang)) if name is not None else seat})
            return {
                "pid": os.getpid(),
                "role": self.lock.role,
                "game_id": game_id,
                "rules": current.header.rules if current else None,
                "title": current.header.title if current else None,
                "seq": table.seq if current else None,
                "phones": phones,
                "warnings": [[code, params] for code, params in self.warnings()],
            }
        if op == "new":
            rules, setup, title = request.get("rules"), request.get("setup"), request.get("title", "")
            if not isinstance(rules, str) or not isinstance(setup, dict) or not isinstance(title, str):
                raise MalformedInput("malformed.envelope", "new needs rules, setup and title")
            return {"game_id": await table.new_game(rules, setup, check_title(title))}
        if op == "do":
            return await self._submit(request)
        if op in ("open", "delete"):
            game_id = _int(request.get("game_id"), "game_id")
            await (table.open_game(game_id) if op == "open" else table.delete_game(game_id))
            return {"game_id": game_id}
        if op == "import":
            make_current = request.get("open") is True
            game_id = await asyncio.to_thread(import_game, table.store, request.get("data"), False, table.seeds)
            if make_current:
                await table.open_game(game_id)
            return {"game_id": game_id}
        raise MalformedInput("malformed.unknown_kind", "unknown request", field="op")

    async def _submit(self, request: dict[str, Any]) -> JSONObject:
        actor_label = request.get("actor")
        if not isinstance(actor_label, str) or not actor_label:
            raise MalformedInput("malformed.field", "actor must be a string", field="actor", expected="string")
        actor = Audience.parse(actor_label)
        given = request.get("game_id")
        current = self.table.current
        game_id = _int(given, "game_id") if given is not None else (current.header.id if current else 0)
        seq = request.get("seq")
        seq = None if seq is None else _int(seq, "seq")
        data = request.get("intent")
        intent = Undo() if data is None else self.table.decode_intent(data, game_id)
        ack = await self.table.submit(intent, actor, seq, game_id=game_id, source="cli")
        return {"game_id": ack.game_id, "seq": ack.seq}


def _int(value: JSON, field: str) -> int:
    """An integer SQLite can hold (ids and seqs; a larger one names nothing either)."""
    if isinstance(value, bool) or not isinstance(value, int) or not -(2**63) <= value < 2**63:
        raise MalformedInput("malformed.field", f"{field} must be an integer", field=field, expected="integer")
    return value


def _same_user(writer: asyncio.StreamWriter) -> bool:
    sock = writer.get_extra_info("socket")
    if sock is None or not hasattr(socket, "SO_PEERCRED"):
        return False
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", raw)
    return bool(uid == os.getuid())


# -- the command line's side --------------------------------------------------------------------------


def ask_running_app(lock: WriterLock, request: JSONObject, timeout: float = 60.0) -> JSONObject:
    """Send one request to the app holding ``lock``; raise its refusal as a :class:`CompanionError`,
    or :class:`AppRunning` (``writer.unreachable``) when it cannot be asked from here."""
    holder = lock.holder()
    path = holder.get("socket")
    if not isinstance(path, str) or not path:
        path = str(socket_path_for(lock.data_dir))
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect(path)
            sock.sendall((json.dumps(request, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8"))
            stream: TextIO = sock.makefile("r", encoding="utf-8")
            line = stream.readline()
    except (OSError, ValueError) as exc:
        pid = holder.get("pid")
        log.debug("the running app cannot be reached: %s", exc)
        raise AppRunning(
            "writer.unreachable",
            "the table is running and takes no commands from here",
            pid=str(pid) if isinstance(pid, int) else "?",
        ) from None
    try:
        reply = json.loads(line)
    except ValueError:
        reply = None
    if not isinstance(reply, dict):
        raise AppRunning("writer.unreachable", "the running table did not answer", pid=str(holder.get("pid") or "?"))
    if reply.get("ok") is not True:
        params = reply.get("params")
        raise CompanionError(
            str(reply.get("code") or "error"),
            str(reply.get("message") or ""),
            **(params if isinstance(params, dict) else {}),
        )
    return reply


def running_status(data_dir: Path, language: str = "en") -> dict[str, Any] | None:
    """What the running app says of itself (its game, the phones connected, its warnings), asked
    through its local socket as the command line's other commands are; ``None`` when no app runs,
    ``{"unreachable": why}`` when one runs that this user cannot ask (another user's service)."""
    if not data_dir.is_dir():
        return None
    lock = WriterLock(data_dir)
    try:
        if not lock.held_elsewhere():
            return None
        reply = ask_running_app(lock, {"op": "status", "language": language}, timeout=5)
    except CompanionError as exc:
        return {"unreachable": exc.message}
    except OSError as exc:
        return {"unreachable": str(exc)}
    return {k: v for k, v in reply.items() if k != "ok"}
