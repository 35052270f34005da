"""The durable log: one SQLite file holds every game of a table.

- WAL mode with ``synchronous=FULL``: a commit that returned survives a power cut.
- One writer thread owns the connection; callers get ``concurrent.futures.Future`` objects,
  so the event loop (touchscreen, phones) never waits on a slow SD card.
- All events of one action go into one transaction: a crash never leaves half a double move.
- The schema is versioned with ``PRAGMA user_version`` and upgraded by :data:`MIGRATIONS`.
"""

from __future__ import annotations

import concurrent.futures
import datetime as _dt
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from companion.core.errors import CompanionError
from companion.core.jsonvalue import JSON, JSONObject, dumps, loads
from companion.files import private_file, restrict, set_aside

log = logging.getLogger(__name__)

T = TypeVar("T")


class StoreError(CompanionError):
    default_code = "store"


def _closed() -> StoreError:
    return StoreError("store.closed", "the saved games are closed: the app is stopping")


def _v1(db: sqlite3.Connection) -> None:
    # Statement by statement: executescript() would commit the migration's transaction early.
    db.execute(
        "CREATE TABLE games ("
        " id INTEGER PRIMARY KEY, rules TEXT NOT NULL, title TEXT NOT NULL, config TEXT NOT NULL,"
        " seed INTEGER NOT NULL, created TEXT NOT NULL, updated TEXT NOT NULL,"
        " status TEXT NOT NULL DEFAULT 'playing')"
    )
    db.execute(
        "CREATE TABLE events ("
        " game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
        " seq INTEGER NOT NULL, action INTEGER NOT NULL, body TEXT NOT NULL,"
        " PRIMARY KEY (game_id, seq)) WITHOUT ROWID"
    )
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")


def _v2(db: sqlite3.Connection) -> None:
    # Table preferences (language, remembered Secret Service start levels, ...) live with the games.
    db.execute("CREATE TABLE preferences (key TEXT PRIMARY KEY, value TEXT NOT NULL)")


def _v3(db: sqlite3.Connection) -> None:
    # Phone links: one row per seat of a game; the device hash binds the first phone that joined.
    db.execute(
        "CREATE TABLE seat_links ("
        " game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE, seat TEXT NOT NULL,"
        " token TEXT NOT NULL UNIQUE, device TEXT, issued TEXT NOT NULL, PRIMARY KEY (game_id, seat))"
    )


def _v4(db: sqlite3.Connection) -> None:
    # Where an action came from ("phone:d2", "touchscreen", ...), on its first event: for the undo
    # question ("Undo: D2 taxi 53 → 69 (from D2's phone)?") also after a restart.
    db.execute("ALTER TABLE events ADD COLUMN source TEXT")


def _v5(db: sqlite3.Connection) -> None:
    # Checkpoints: the state before some actions (a cache of the fold; ``version``: the fold it is
    # valid for, see companion/core/checkpoint.py), so opening a long game folds a few events.
    db.execute(
        "CREATE TABLE checkpoints ("
        " game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE, action INTEGER NOT NULL,"
        " version TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (game_id, action)) WITHOUT ROWID"
    )


# Index i upgrades a file from user_version i to i + 1. Append only; never edit a released step.
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1, _v2, _v3, _v4, _v5]
SCHEMA_VERSION = len(MIGRATIONS)


@dataclass(frozen=True)
class GameHeader:
    id: int
    rules: str
    title: str
    config: JSONObject
    seed: int
    created: str
    updated: str
    status: str
    events: int = 0
    actions: int = 0  # the actions that wrote them (a move, a draw, an undo): what a player counts


@dataclass(frozen=True)
class GameRows:
    """One game as read for opening it."""

    header: GameHeader
    events: list[tuple[int, int, str, str | None]]  # (seq, action, body as JSON text, source)
    checkpoints: list[tuple[int, str, str]]  # (action, version, sealed state)


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    action: int
    body: JSONObject
    source: str = ""  # where the action came from (on its first event; "" when not known)


SQLITE_CORRUPT, SQLITE_NOTADB = 11, 26  # SQLite's (primary) result codes for a damaged file
SQLITE_DAMAGED = (SQLITE_CORRUPT, SQLITE_NOTADB)
TOUCH_EVERY = 10.0  # seconds between two writes of a game's "last played" time while it is played


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def connect(path: Path | str) -> sqlite3.Connection:
    """Open (and upgrade) a store file with the durability settings; used by the writer thread.
    The file is its owner's alone (0600, whatever the umask; an older one is made so), and so are
    SQLite's ``-wal`` and ``-shm`` beside it (SQLite gives them the database file's mode).

    A file SQLite finds damaged (not a database, or corrupt: what a card may do to a file it was
    writing when the power went, though every commit was flushed) is never repaired: it is set
    aside with its ``-wal`` as ``companion.sqlite3.damaged-...`` (see ``files.set_aside``; the
    start screen, the host page and ``companion status`` say so while the copy is there) and the
    table starts with a new, empty file. After a stop that was not clean (a ``-wal`` file is
    left), ``PRAGMA quick_check`` looks at every page first; a clean stop leaves nothing to check."""
    why = _damage(path) if str(path) != ":memory:" and Path(f"{path}-wal").exists() else None
    if why is None:
        try:
            return _connect(path)
        except sqlite3.DatabaseError as exc:
            if not _damaged(exc):
                raise
            why = str(exc)
    copy = set_aside(path, "-wal", "-shm")
    log.error("the saved games could not be read (%s): kept as %s, a new file is started", why, copy)
    return _connect(path)


def _damaged(exc: sqlite3.DatabaseError) -> bool:
    return (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF in SQLITE_DAMAGED


def _damage(path: Path | str) -> str | None:
    """What ``PRAGMA quick_check`` finds wrong with the file, through a read-only connection (which
    never checkpoints the WAL into a damaged file, nor removes the WAL, when it closes); None if it
    is whole, or if it cannot be looked at for another reason (then the open says why)."""
    try:
        db = sqlite3.connect(f"{Path(path).absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        verdict = db.execute("PRAGMA quick_check(1)").fetchall()
    except sqlite3.DatabaseError as exc:
        return str(exc) if _damaged(exc) else None
    finally:
        db.close()
    return None if verdict == [("ok",)] else f"quick_check: {verdict[0][0] if verdict else '?'}"


def _connect(path: Path | str) -> sqlite3.Connection:
    if str(path) != ":memory:" and Path(path).parent.is_dir():
        private_file(path)
        for suffix in ("-wal", "-shm", "-journal"):
            restrict(Path(f"{path}{suffix}"))  # left by an older version
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=True)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        migrate(db)
    except BaseException:
        db.close()
        raise
    return db


def migrate(db: sqlite3.Connection) -> None:
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise StoreError("store.too_new", "this file was written by a newer Companion", version=version)
    for step in range(version, SCHEMA_VERSION):
        db.execute("BEGIN IMMEDIATE")
        try:
            MIGRATIONS[step](db)
            db.execute(f"PRAGMA user_version = {step + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise


class Store:
    """All games of one table in one SQLite file, written by one thread."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._jobs: queue.SimpleQueue[tuple[Callable[[sqlite3.Connection], Any], concurrent.futures.Future[Any]] | None]
        self._jobs = queue.SimpleQueue()  # the C queue: a job reaches the writer sooner
        # game id -> (monotonic time, status) of the last write of its games row (writer thread only)
        self._touched: dict[int, tuple[float, str | None]] = {}
        # A job given after close() would never run and its caller would wait forever (a request
        # handler's thread at a stop): it is refused instead, under the lock close() takes too.
        self._closing = threading.Lock()
        self._closed = False
        ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._run, args=(ready,), name="companion-store", daemon=True)
        self._thread.start()
        ready.result()

    # -- the writer thread -------------------------------------------------
    def _run(self, ready: concurrent.futures.Future[None]) -> None:
        try:
            db = connect(self.path)
        except BaseException as exc:  # report the failure to the constructor
            ready.set_exception(exc)
            return
        ready.set_result(None)
        try:
            while (job := self._jobs.get()) is not None:
                work, fut = job
                if not fut.set_running_or_notify_cancel():
                    continue
                try:
                    fut.set_result(work(db))
                except BaseException as exc:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                    fut.set_exception(exc)
        finally:
            db.close()
            while True:  # nothing can be left behind the end marker (see _submit); never wait for it
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is not None and job[1].set_running_or_notify_cancel():
                    job[1].set_exception(_closed())

    def _submit(self, work: Callable[[sqlite3.Connection], T]) -> concurrent.futures.Future[T]:
        fut: concurrent.futures.Future[T] = concurrent.futures.Future()
        with self._closing:
            if self._closed or not self._thread.is_alive():
                fut.set_exception(_closed())
            else:
                self._jobs.put((work, fut))
        return fut

    def _call(self, work: Callable[[sqlite3.Connection], T]) -> T:
        return self._submit(work).result()

    def call(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` on the writer thread (for app modules with their own tables)."""
        return self._call(work)

    def close(self) -> None:
        with self._closing:
            first = not self._closed
            self._closed = True
            if first:
                self._jobs.put(None)  # the jobs given before it still run
        if self._thread.is_alive():
            self._thread.join()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -------------------------------------------------------------
    def append(
        self,
        game_id: int,
        events: Sequence[StoredEvent],
        status: str | None = None,
        committing: Callable[[], None] | None = None,
        checkpoint: tuple[int, str, str] | None = None,
    ) -> concurrent.futures.Future[None]:
        """Commit the events of one action atomically (and the game's status with them).

        The game's status is written whenever it changes; its "last played" time at most every
        :data:`TOUCH_EVERY` seconds (so a power cut may leave it that much behind): a row of the
        games table less to write on most commits.

        ``committing`` is called on the writer thread once the rows are in place and the commit
        (the wait for the disk) begins — or the write failed before it: the caller may use that
        wait (a SQLite commit holds no Python lock) but learns the outcome only from the future.
        ``checkpoint``: (action, version, state) written with them (see :meth:`put_checkpoints`)."""
        rows = [(game_id, e.seq, e.action, dumps(e.body), e.source or None) for e in events]

        def work(db: sqlite3.Connection) -> None:
            last = self._touched.get(game_id)  # (when, status) of this store's last write of the row
            known = None if last is None else last[1]
            now = time.monotonic()
            touch = last is None or now - last[0] >= TOUCH_EVERY or status not in (None, known)
            try:
                db.execute("BEGIN IMMEDIATE")
                db.executemany("INSERT INTO events (game_id, seq, action, body, source) VALUES (?, ?, ?, ?, ?)", rows)
                if touch and status is None:
                    db.execute("UPDATE games SET updated = ? WHERE id = ?", (_now(), game_id))
                elif touch:
                    db.execute("UPDATE games SET updated = ?, status = ? WHERE id = ?", (_now(), status, game_id))
                if checkpoint is not None:
                    db.execute("INSERT OR REPLACE INTO checkpoints VALUES (?, ?, ?, ?)", (game_id, *checkpoint))
            finally:
                if committing is not None:
                    committing()
            db.execute("COMMIT")
            if touch:
                self._touched[game_id] = (now, known if status is None else status)

        return self._submit(work)

    def create_game(self, rules: str, title: str, config: JSONObject, seed: int, make_current: bool = True) -> int:
        def work(db: sqlite3.Connection) -> int:
            now = _now()
            db.execute("BEGIN IMMEDIATE")
            cur = db.execute(
                "INSERT INTO games (rules, title, config, seed, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                (rules, title, dumps(config), seed, now, now),
            )
            game_id = int(cur.lastrowid or 0)
            if make_current:
                _set_meta(db, "current_game", str(game_id))
            db.execute("COMMIT")
            return game_id

        return self._call(work)

    def import_game(
        self,
        rules: str,
        title: str,
        config: JSONObject,
        seed: int,
        events: Sequence[StoredEvent],
        status: str,
        checkpoints: tuple[str, Sequence[tuple[int, str]]] | None = None,
        make_current: bool = False,
    ) -> int:
        """A whole game at once — header, events, status and checkpoints (version, states) — in one
        transaction: what cannot be stored leaves nothing behind (no empty game in the list)."""
        rows = [(e.seq, e.action, dumps(e.body), e.source or None) for e in events]

        def work(db: sqlite3.Connection) -> int:
            now = _now()
            db.execute("BEGIN IMMEDIATE")
            cur = db.execute(
                "INSERT INTO games (rules, title, config, seed, created, updated, status) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (rules, title, dumps(config), seed, now, now, status),
            )
            game_id = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT INTO events (game_id, seq, action, body, source) VALUES (?, ?, ?, ?, ?)",
                [(game_id, *row) for row in rows],
            )
            if checkpoints is not None:
                version, states = checkpoints
                db.executemany(
                    "INSERT INTO checkpoints VALUES (?, ?, ?, ?)", [(game_id, a, version, st) for a, st in states]
                )
            if make_current:
                _set_meta(db, "current_game", str(game_id))
            db.execute("COMMIT")
            return game_id

        return self._call(work)

    def set_current(self, game_id: int | None) -> None:
        def work(db: sqlite3.Connection) -> None:
            if game_id is None:
                db.execute("DELETE FROM meta WHERE key = 'current_game'")
            else:
                if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                    raise StoreError("store.no_game", "no such game", game=game_id)
                _set_meta(db, "current_game", str(game_id))

        self._call(work)

    def delete(self, game_id: int) -> None:
        def work(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            if db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount == 0:
                db.execute("ROLLBACK")
                raise StoreError("store.no_game", "no such game", game=game_id)
            if _get_meta(db, "current_game") == str(game_id):
                db.execute("DELETE FROM meta WHERE key = 'current_game'")
            db.execute("COMMIT")
            self._touched.pop(game_id, None)

        self._call(work)

    def set_preference(self, key: str, value: JSON) -> None:
        text = dumps(value)
        self._call(
            lambda db: db.execute(
                "INSERT INTO preferences (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, text),
            )
        )

    # -- reading -------------------------------------------------------------
    def current(self) -> int | None:
        value = self._call(lambda db: _get_meta(db, "current_game"))
        return int(value) if value is not None else None

    def header(self, game_id: int) -> GameHeader:
        def work(db: sqlite3.Connection) -> GameHeader:
            row = db.execute(_HEADER_SQL + " WHERE g.id = ? GROUP BY g.id", (game_id,)).fetchone()
            if row is None:
                raise StoreError("store.no_game", "no such game", game=game_id)
            return _header(row)

        return self._call(work)

    def games(self) -> list[GameHeader]:
        return self._call(
            lambda db: [_header(r) for r in db.execute(_HEADER_SQL + " GROUP BY g.id ORDER BY g.updated DESC, g.id")]
        )

    def events(self, game_id: int) -> list[StoredEvent]:
        def work(db: sqlite3.Connection) -> list[StoredEvent]:
            out = []
            for seq, action, body, source in db.execute(
                "SELECT seq, action, body, source FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ):
                data = loads(body)
                assert isinstance(data, dict)
                out.append(StoredEvent(seq, action, data, source or ""))
            return out

        return self._call(work)

    def game_rows(self, game_id: int) -> GameRows:
        """A game's header, its events as stored — (seq, action, JSON text, source) — and its checkpoints
        — (action, version, state) — in one read, for :func:`companion.app.savedgame.load_game`."""

        def work(db: sqlite3.Connection) -> GameRows:
            db.execute("BEGIN")  # one snapshot of the file for every read
            try:
                # The header without counting the events (a second pass over every row): they are read next.
                row = db.execute(_GAME_SQL, (game_id,)).fetchone()
                if row is None:
                    raise StoreError("store.no_game", "no such game", game=game_id)
                rows = db.execute(
                    "SELECT seq, action, body, source FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
                ).fetchall()
                row = (*row, len(rows), len({r[1] for r in rows}))
                checkpoints = db.execute(
                    "SELECT action, version, state FROM checkpoints WHERE game_id = ?", (game_id,)
                ).fetchall()
            finally:
                db.execute("COMMIT")
            return GameRows(_header(row), rows, checkpoints)

        return self._call(work)

    def put_checkpoints(self, game_id: int, version: str, states: Sequence[tuple[int, str]]) -> None:
        """Keep the states before these actions (sealed for the fold ``version``); those of other versions go."""
        self.submit_checkpoints(game_id, version, states).result()

    def submit_checkpoints(
        self, game_id: int, version: str, states: Sequence[tuple[int, str]]
    ) -> concurrent.futures.Future[None]:
        """:meth:`put_checkpoints` without waiting for it."""

        def work(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM checkpoints WHERE game_id = ? AND version != ?", (game_id, version))
            db.executemany(
                "INSERT OR REPLACE INTO checkpoints VALUES (?, ?, ?, ?)",
                [(game_id, action, version, state) for action, state in states],
            )
            db.execute("COMMIT")

        return self._submit(work)

    def sources(self, game_id: int) -> dict[int, str]:
        """Where each action of a game came from, by the seq of its first event (where known)."""
        return self._call(
            lambda db: {
                int(seq): str(source)
                for seq, source in db.execute(
                    "SELECT seq, source FROM events WHERE game_id = ? AND source IS NOT NULL", (game_id,)
                )
            }
        )

    def preferences(self) -> dict[str, JSON]:
        return self._call(lambda db: {k: loads(v) for k, v in db.execute("SELECT key, value FROM preferences")})


_HEADER_SQL = (
    "SELECT g.id, g.rules, g.title, g.config, g.seed, g.created, g.updated, g.status, COUNT(e.seq),"
    " COUNT(DISTINCT e.action) "
    "FROM games g LEFT JOIN events e ON e.game_id = g.id"
)


_GAME_SQL = "SELECT id, rules, title, config, seed, created, updated, status FROM games WHERE id = ?"


def _header(row: tuple[Any, ...]) -> GameHeader:
    config = loads(row[3])
    assert isinstance(config, dict)
    return GameHeader(row[0], row[1], row[2], config, row[4], row[5], row[6], row[7], row[8], row[9])


def _get_meta(db: sqlite3.Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def _set_meta(db: sqlite3.Connection, key: str, value: str) -> None:
    db.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, value),
    )
