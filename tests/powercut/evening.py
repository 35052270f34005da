"""An evening on a card that loses its power: ``companion serve`` with its data directory and its
configuration on the forgetting file system (``forgetfs.py``), phones playing the three games
through real web sockets, and the power cut at a chosen operation, again and again.

Each **session** mounts what the last cut left, starts the server (a start is itself cut now and
then), opens the host page, makes a game when none is open (the three games in turn), and plays:
every phone's and the table link's moves come from the random legal players of ``tests/drivers.py``,
decided on a copy of the game kept here and sent by the seat that makes them; now and then the
host page switches the table's language, a game is exported and imported again with the
command line (through the server's socket), and a tag is enrolled (``companion enroll``). The cut
comes before a mutating operation chosen from
what the previous sessions did: any operation, a rename (between a temporary file's write and its
rename), a WAL flush (inside a commit) or a write of the database file (inside a checkpoint, on a
stop). Then the server is killed, the card unmounted, and what survived is **checked**:

- every action whose acknowledgement reached a phone (or the host page) is there, and the log is
  the one played (no half action);
- ``PRAGMA integrity_check`` is ok; every other file is parseable JSON or TOML; the tag table
  holds every enrolled tag (and at most the one being enrolled); the app set no file aside as
  damaged;
- the next session's start shows the same game, and its phones are welcomed back with its state.

``python tests/powercut/evening.py --cuts 300`` (``make power-cut``) prints one line per cut and,
last, ``power cuts: N, acked actions: A, lost: L, corrupt: C, failed starts: F``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for folder in (ROOT, ROOT / "tests", HERE):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import aiohttp  # noqa: E402
from drivers import DRIVERS  # noqa: E402
from mount import Mount, mounted  # noqa: E402

from companion.app.chance import TEST_SEED_ENV  # noqa: E402
from companion.core import TABLE, Game  # noqa: E402
from companion.core.game import intent_codec  # noqa: E402
from companion.files import damaged_copies  # noqa: E402

GAMES = ("scotland_yard", "victorian_masterminds", "mykerinos")
SETUPS: dict[str, dict[str, Any]] = {  # what the host page's form sends
    "scotland_yard": {"mister_x": "Xavier", "detectives": ["Ann", "Bob"]},
    "victorian_masterminds": {
        "players": [
            {"seat": "p1", "colour": "red", "machine": 1, "name": "Rita"},
            {"seat": "p2", "colour": "blue", "machine": 2, "name": "Ben"},
        ],
        "secret_service_start": 4,
    },
    "mykerinos": {"seats": ["blue", "red"], "layout": "line4", "names": {"blue": "Bea", "red": "Rob"}},
}
WAIT = 60.0  # a loaded machine: an upper bound, never part of a result


class PowerOff(Exception):
    """The card lost its power in the middle of what the session was doing."""


@dataclass
class Tally:
    cuts: int = 0
    acked: int = 0
    lost: int = 0
    corrupt: int = 0
    failed_starts: int = 0
    problems: list[str] = field(default_factory=list)
    where: dict[str, int] = field(default_factory=dict)  # what the cuts interrupted

    def line(self) -> str:
        return (
            f"power cuts: {self.cuts}, acked actions: {self.acked}, lost: {self.lost}, "
            f"corrupt: {self.corrupt}, failed starts: {self.failed_starts}"
        )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def shm(op: dict[str, Any]) -> bool:
    """An operation on SQLite's shared memory file (the WAL's index, rebuilt from the WAL)."""
    return any(p.endswith("-shm") for p in op["paths"])


def device(seat: str) -> str:
    """A phone's own id, the same after every cut (its browser keeps it): it claims its seat again."""
    return hashlib.sha256(f"phone of {seat}".encode()).hexdigest()


class Client:
    """One web socket (a phone, the table link or the host page) that reads in the background."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self._read())
        self.next_id = 1
        self.seq = -1  # of the last state it was sent

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                data = json.loads(msg.data)
                if data.get("type") == "state":
                    self.seq = int(data["seq"])
                await self.inbox.put(data)
        await self.inbox.put({"type": "<closed>"})

    async def until(self, *kinds: str, ident: int | None = None, timeout: float = WAIT) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            try:
                msg = await asyncio.wait_for(self.inbox.get(), max(0.01, end - time.monotonic()))
            except TimeoutError:
                raise PowerOff(f"no {kinds} within {timeout:.0f} s") from None
            if msg["type"] == "<closed>":
                raise PowerOff("the connection closed")
            if msg["type"] in kinds and (ident is None or msg.get("id") in (ident, None)):
                return msg

    async def send(self, message: dict[str, Any]) -> int:
        ident = self.next_id
        self.next_id += 1
        await self.ws.send_str(json.dumps({**message, "id": ident} if "id" in message else message))
        return ident

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(Exception):
            await self.ws.close()


class Evening:
    """One data directory played over many power cuts."""

    def __init__(self, work: Path, seed: int) -> None:
        self.work = work
        self.disk, self.mnt = work / "disk", work / "mnt"
        self.rng = random.Random(seed)
        self.seed = seed
        self.port = free_port()
        self.tally = Tally()
        self.acked: dict[int, int] = {}  # game id -> the highest seq acknowledged to a phone
        self.open_game: int | None = None  # the game the last acknowledged switch opened
        self.mirror: Game[Any] | None = None  # the open game, as played here
        self.mirror_id: int | None = None
        self.made = 0  # games made, to take the three in turn
        self.refused = 0  # moves the rules refused (nothing changed)
        self.tags: set[str] = set()  # tags whose enrollment the command said was done
        self.enrolling: str | None = None  # the one being enrolled when the power went, if any
        self.samples: list[dict[str, Any]] = []  # per action: kind, actor, bytes written, fsyncs
        self.kinds: dict[str, int] = {}  # operations of the last uncut session, for choosing a cut
        self.ops_per_action = 40.0
        self.start_ops = 200
        self.disk.mkdir(parents=True, exist_ok=True)
        (self.disk / "data").mkdir(exist_ok=True)
        (self.disk / "companion.toml").write_text(
            f'[server]\nhost = "127.0.0.1"\nport = {self.port}\npublic_address = "127.0.0.1"\n'
            f'[table]\nlanguage = "en"\ndata_dir = "{self.mnt / "data"}"\n'
            f'[speech]\nvoice = "record"\nrecord = "{self.work / "said.jsonl"}"\n'
        )

    # -- processes ------------------------------------------------------------------------------------

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
        env.update(
            COMPANION_CONFIG=str(self.mnt / "companion.toml"),
            PYTHONPATH=str(ROOT),
            KIVY_NO_ARGS="1",
            **{TEST_SEED_ENV: str(self.seed + self.tally.cuts)},
        )
        return env

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "companion.cli", *args],
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=WAIT,
            stdin=subprocess.DEVNULL,
            cwd=ROOT,
        )

    def serve(self) -> subprocess.Popen[bytes]:
        log = (self.work / "serve.log").open("ab")
        return subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve"],
            env=self.env(),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            cwd=ROOT,
        )

    def listening(self, proc: subprocess.Popen[bytes], mount: Mount) -> None:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if mount.wait_cut(timeout=0):
                raise PowerOff("cut while starting")
            if proc.poll() is not None:
                if mount.wait_cut(timeout=1):
                    raise PowerOff("cut while starting")
                raise StartFailed(f"serve ended with {proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"GET /static/phone.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    if s.recv(12).startswith(b"HTTP/1.1 200"):
                        return
            except OSError:
                pass
            time.sleep(0.1)
        raise StartFailed("serve did not come up")

    def live(self, query: str, *params: Any) -> list[Any]:
        """Read the live database (read only; the server writes it)."""
        try:
            db = sqlite3.connect(f"file:{self.mnt / 'data' / 'companion.sqlite3'}?mode=ro", uri=True, timeout=WAIT)
            try:
                return db.execute(query, params).fetchall()
            finally:
                db.close()
        except sqlite3.Error as exc:  # the card has no power any more
            raise PowerOff(f"the live database: {exc}") from None

    def token(self, game_id: int, seat: str, mount: Mount) -> str:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if mount.wait_cut(timeout=0):
                raise PowerOff("cut while the links were issued")
            rows = self.live("SELECT token FROM seat_links WHERE game_id = ? AND seat = ?", game_id, seat)
            if rows:
                return str(rows[0][0])
            time.sleep(0.1)
        raise AssertionError(f"no link for {seat} of game {game_id}")

    # -- one session ----------------------------------------------------------------------------------

    def choose_cut(self, session: int) -> dict[str, Any]:
        """Where the next power cut comes: any operation of the session, or a chosen kind of one."""
        kind = self.rng.choice(("any", "any", "rename", "wal", "stop"))
        mode = ("forget", "torn", "pages")[session % 3]
        seed = self.rng.randrange(1 << 30)
        if kind == "rename" and self.kinds.get("rename"):
            return {"cut_at": f"rename::{self.rng.randint(1, self.kinds['rename'])}", "mode": mode, "seed": seed}
        if kind == "wal" and self.kinds.get("walsync"):
            return {"cut_at": f"fsync:-wal:{self.rng.randint(1, self.kinds['walsync'])}", "mode": mode, "seed": seed}
        if kind == "stop":  # inside the checkpoint a stop makes (the database file is written then)
            return {"cut_at": "write:companion.sqlite3$:1", "mode": mode, "seed": seed, "stop": True}
        total = int(self.start_ops + 12 * self.ops_per_action)
        return {"cut_after": self.rng.randint(1, max(2, total)), "mode": mode, "seed": seed}

    def session(self, cut: dict[str, Any] | None, actions: int = 12) -> None:
        """Mount, start, play ``actions`` actions (or until the cut), kill, unmount, check."""
        options = {k: v for k, v in (cut or {}).items() if k in ("cut_after", "cut_at", "mode", "seed")}
        proc: subprocess.Popen[bytes] | None = None
        started = True
        with mounted(self.disk, self.mnt, **options) as mount:
            try:
                proc = self.serve()
                self.listening(proc, mount)
                asyncio.run(self.play(mount, actions))
                if cut is None or cut.get("stop"):
                    proc.send_signal(signal.SIGTERM)  # a clean stop: its checkpoint
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        proc.wait(WAIT)
            except PowerOff as exc:
                if mount.wait_cut(timeout=5) is None:
                    self.tally.problems.append(f"session {self.tally.cuts}: stopped without a power cut: {exc}")
            except StartFailed as exc:
                started = False
                self.tally.problems.append(f"session {self.tally.cuts}: {exc}")
            except AssertionError as exc:  # what a phone was shown after the last cut is not what was kept
                self.tally.corrupt += 1
                self.tally.problems.append(f"session {self.tally.cuts}: {exc!r}")
            finally:
                if proc is not None and proc.poll() is None:
                    proc.kill()  # the power is off: the program too
                if proc is not None:
                    proc.wait()
            if cut is None:
                self.learn(mount)
        if mount.cut is not None:
            self.tally.cuts += 1
            where = f"{mount.cut['kind']} {' '.join(Path(p).name for p in mount.cut['paths'])}"
            self.tally.where[where] = self.tally.where.get(where, 0) + 1
        if not started:
            self.tally.failed_starts += 1
        self.check()

    def learn(self, mount: Mount) -> None:
        """What an uncut session wrote: the operations of its start and per action, for choosing cuts."""
        ops = mount.ops()
        self.kinds = {
            "rename": sum(op["kind"] == "rename" for op in ops),
            "walsync": sum(op["kind"] == "fsync" and any(p.endswith("-wal") for p in op["paths"]) for op in ops),
        }
        if self.samples:
            self.ops_per_action = max(1.0, len(ops) / max(1, len(self.samples)))

    async def play(self, mount: Mount, actions: int) -> None:
        session = aiohttp.ClientSession()
        clients: list[Client] = []
        try:
            host = await self.host(session, mount)
            clients.append(host)
            if self.rng.random() < 0.25:
                await self.switch_language(host, mount)
            game_id = await self.ensure_game(host, mount)
            phones = await self.phones(session, game_id, mount)
            clients += phones.values()
            for _ in range(actions):
                if self.mirror is None or self.mirror.outcome() is not None:
                    game_id = await self.new_game(host, mount)
                    for phone in phones.values():
                        await phone.close()
                    phones = await self.phones(session, game_id, mount)
                    clients += phones.values()
                    continue
                if self.rng.random() < 0.04:
                    await asyncio.to_thread(self.export_and_import, mount)
                    continue
                if self.rng.random() < 0.03:
                    await asyncio.to_thread(self.enroll, mount)
                    continue
                await self.act(phones, mount)
        finally:
            for client in clients:
                await client.close()
            await session.close()

    async def host(self, session: aiohttp.ClientSession, mount: Mount) -> Client:
        made = await asyncio.to_thread(self.cli, "host-link")
        if made.returncode != 0:
            if mount.wait_cut(timeout=1):
                raise PowerOff("cut while the host link was made")
            raise AssertionError(f"host-link: {made.stderr}")
        url = made.stdout.strip().splitlines()[-1]
        token = url.rsplit("/h/", 1)[1]
        host = Client(await session.ws_connect(f"http://127.0.0.1:{self.port}/host/ws"))
        await host.ws.send_str(json.dumps({"type": "hello", "token": token}))
        await host.until("welcome")
        return host

    async def do(self, host: Client, op: str, args: dict[str, Any], mount: Mount) -> Any:
        ident = await host.send({"type": "do", "id": 0, "op": op, "args": args})
        answer = await host.until("done", "refused", ident=ident)
        if answer["type"] != "done":
            if mount.wait_cut(timeout=1):
                raise PowerOff(f"cut during {op}")
            raise AssertionError(f"{op}: {answer}")
        return answer["result"]

    async def switch_language(self, host: Client, mount: Mount) -> None:
        await self.do(host, "setting", {"key": "language", "value": self.rng.choice(("de", "fr", "es", "en"))}, mount)

    async def ensure_game(self, host: Client, mount: Mount) -> int:
        rows = await asyncio.to_thread(self.live, "SELECT value FROM meta WHERE key = 'current_game'")
        current = int(rows[0][0]) if rows else None
        if self.open_game is not None and current != self.open_game:
            # the switch to it was acknowledged, or the next one was written as the power went
            later = [g for g in await asyncio.to_thread(self.live, "SELECT id FROM games") if g[0] > self.open_game]
            assert current is not None and [current] == [g[0] for g in later][-1:], (current, self.open_game)
        if current is not None:
            self.open_game = current
            self.load_mirror(current)
            if self.mirror is not None and self.mirror.outcome() is None:
                return current
        return await self.new_game(host, mount)

    async def new_game(self, host: Client, mount: Mount) -> int:
        rules = GAMES[self.made % len(GAMES)]
        self.made += 1
        result = await self.do(
            host, "new_game", {"rules": rules, "setup": SETUPS[rules], "title": f"Game {self.made}"}, mount
        )
        game_id = int(result["game_id"])
        self.acked.setdefault(game_id, 0)
        self.open_game = game_id
        self.load_mirror(game_id)
        return game_id

    def load_mirror(self, game_id: int, again: bool = False) -> None:
        """The game as the server has it now (a copy of the live database, made with SQLite's backup):
        once, and ``again`` when the table itself has moved (e.g. a draw it makes by itself)."""
        if self.mirror_id == game_id and self.mirror is not None and not again:
            return
        from companion.app.savedgame import load_game
        from companion.app.store import Store

        copy = self.work / "mirror.sqlite3"
        copy.unlink(missing_ok=True)
        try:
            src = sqlite3.connect(f"file:{self.mnt / 'data' / 'companion.sqlite3'}?mode=ro", uri=True, timeout=WAIT)
            dst = sqlite3.connect(copy)
            try:
                src.backup(dst)
            finally:
                src.close()
                dst.close()
        except sqlite3.Error as exc:  # the card has no power any more
            raise PowerOff(f"the live database: {exc}") from None
        with Store(copy) as store:
            self.mirror = load_game(store, game_id).game
        self.mirror_id = game_id

    async def phones(self, session: aiohttp.ClientSession, game_id: int, mount: Mount) -> dict[str, Client]:
        assert self.mirror is not None
        seats = [*self.mirror.rules.seats(self.mirror.state), "@table"]
        phones: dict[str, Client] = {}
        for seat in seats:
            token = await asyncio.to_thread(self.token, game_id, seat, mount)
            phone = Client(await session.ws_connect(f"http://127.0.0.1:{self.port}/ws"))
            await phone.ws.send_str(json.dumps({"type": "hello", "token": token, "device": device(seat)}))
            await phone.until("welcome")
            state = await phone.until("state")
            # after a cut: the game the table had open, at the state that survived
            assert state["game_id"] == game_id and state["seq"] == self.mirror.seq, (state["seq"], self.mirror.seq)
            phones[seat] = phone
        return phones

    async def act(self, phones: dict[str, Client], mount: Mount) -> None:
        assert self.mirror is not None and self.mirror_id is not None
        if phones["@table"].seq != self.mirror.seq:  # the table moved by itself
            await asyncio.sleep(0.2)
            await asyncio.to_thread(self.load_mirror, self.mirror_id, True)
        game = self.mirror
        choose = DRIVERS[game.rules.name][2]
        choice = choose(game, self.rng)
        if choice is None:
            return
        intent, actor = choice
        phone = phones["@table" if actor == TABLE else str(actor.seat)]
        body = intent_codec(game.rules).encode(intent)
        before = mount.ops()
        ident = await phone.send({"type": "intent", "id": 0, "seq": game.seq, "intent": body})
        answer = await phone.until("ack", "refused", ident=ident)
        if answer["type"] == "refused":
            if answer.get("code") in ("flood", "stale"):  # too fast, or the table moved meanwhile
                await asyncio.sleep(1.0)
                await asyncio.to_thread(self.load_mirror, self.mirror_id, True)
                return
            if mount.wait_cut(timeout=1):
                raise PowerOff("cut during an action")
            prefix = str(body.get("kind", "")).split(".")[0] + "."
            if str(answer.get("code", "")).startswith(prefix):  # the rules said no (the random player does
                self.refused += 1  # not know what a seat's open phone changes): nothing changed
                await asyncio.to_thread(self.load_mirror, self.mirror_id, True)
                return
            raise AssertionError(f"refused {body} from {actor}: {answer}")
        self.acked[self.mirror_id] = int(answer["seq"])
        # The game as the server has it, acknowledged: what must survive (decided there, not here —
        # a seat's phone being open changes what the table knows, e.g. who keeps a pile)
        await asyncio.to_thread(self.load_mirror, self.mirror_id, True)
        assert self.mirror.seq >= answer["seq"], (answer, self.mirror.seq)
        self.tally.acked += 1
        await asyncio.sleep(0.12)  # a phone's pace: under the server's flood limit
        after = mount.ops()[len(before) :]
        self.samples.append(
            {
                "game": game.rules.name,
                "from": "table" if actor == TABLE else "phone",
                "bytes": sum(op["bytes"] for op in after if op["kind"] == "write" and not shm(op)),
                "shm": sum(op["bytes"] for op in after if op["kind"] == "write" and shm(op)),
                "fsyncs": sum(op["kind"] in ("fsync", "fsyncdir") for op in after),
                "files": sorted({Path(p).name for op in after if op["kind"] == "write" for p in op["paths"]}),
            }
        )

    def export_and_import(self, mount: Mount) -> None:
        """A game written to a file on the card and read back as a new game (through the server)."""
        if self.mirror_id is None:
            return
        folder = self.mnt / "exports"
        with contextlib.suppress(FileExistsError, OSError):
            folder.mkdir()
        path = folder / f"game-{self.mirror_id}.json"
        out = self.cli("export", str(self.mirror_id), str(path))
        if out.returncode != 0:
            if mount.wait_cut(timeout=1):
                raise PowerOff("cut during an export")
            raise AssertionError(f"export: {out.stderr}")
        back = self.cli("import", str(path))
        if back.returncode != 0:
            if mount.wait_cut(timeout=1):
                raise PowerOff("cut during an import")
            raise AssertionError(f"import: {back.stderr}")
        imported = max(int(r[0]) for r in self.live("SELECT id FROM games"))
        self.acked.setdefault(imported, 0)

    def enroll(self, mount: Mount) -> None:
        """A tag enrolled with the command line (``companion enroll``: the tag table, written whole)."""
        uid = f"04{self.rng.randrange(16**8):08X}"
        piece = self.rng.choice(("merchant:red", "merchant:blue", "building:paris:monument"))
        self.enrolling = uid
        out = self.cli("enroll", "--game", "mykerinos", "--piece", piece, "--uid", uid, "--replace")
        if out.returncode != 0:
            if mount.wait_cut(timeout=1):
                raise PowerOff("cut during an enrollment")
            raise AssertionError(f"enroll: {out.stderr}")
        self.tags.add(uid)
        self.enrolling = None

    # -- what survived --------------------------------------------------------------------------------

    def check(self) -> None:
        """What the card holds now (a copy of it: the next start must see it untouched)."""
        copy = self.work / "check"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(self.disk, copy, symlinks=True)
        problems: list[str] = []
        db_path = copy / "data" / "companion.sqlite3"
        corrupt = False
        for path in sorted(copy.rglob("*")):
            if path.is_file() and path.suffix == ".json":
                try:
                    json.loads(path.read_text("utf-8"))
                except (ValueError, UnicodeDecodeError) as exc:
                    problems.append(f"{path.relative_to(copy)} is torn: {exc}")
                    corrupt = True
            elif path.is_file() and path.suffix == ".toml":
                try:
                    tomllib.loads(path.read_text("utf-8"))
                except (ValueError, UnicodeDecodeError) as exc:
                    problems.append(f"{path.relative_to(copy)} is torn: {exc}")
                    corrupt = True
        for damaged in damaged_copies(copy / "data"):  # the app found a file damaged and set it aside
            problems.append(f"{damaged.name}: the app found it damaged")
            corrupt = True
        tags = copy / "data" / "tags.json"
        with contextlib.suppress(FileNotFoundError, ValueError, UnicodeDecodeError, KeyError, TypeError):
            kept = {t["uid"] for t in json.loads(tags.read_text("utf-8"))["tags"]}
            if not self.tags <= kept <= self.tags | ({self.enrolling} if self.enrolling else set()):
                problems.append(f"tags.json: enrolled {sorted(self.tags)}, kept {sorted(kept)}")
                corrupt = True
            self.tags = kept  # (the one being enrolled may have been kept)
        if self.tags and not tags.exists():
            problems.append("tags.json is gone")
            corrupt = True
        self.enrolling = None
        lost = 0
        if db_path.exists():
            db = sqlite3.connect(db_path)
            try:
                verdict = db.execute("PRAGMA integrity_check").fetchall()
                if verdict != [("ok",)]:
                    problems.append(f"integrity_check: {verdict}")
                    corrupt = True
                have = dict(db.execute("SELECT game_id, COUNT(*) FROM events GROUP BY game_id").fetchall())
                games = {r[0] for r in db.execute("SELECT id FROM games")}
            finally:
                db.close()
            for game_id, seq in self.acked.items():
                if game_id not in games:
                    problems.append(f"game {game_id} is gone")
                    lost += max(1, seq)
                elif have.get(game_id, 0) < seq:
                    problems.append(f"game {game_id}: acknowledged seq {seq}, kept {have.get(game_id, 0)}")
                    lost += seq - have.get(game_id, 0)
        elif self.acked:
            problems.append("the database is gone")
            lost += sum(self.acked.values()) or 1
        if lost == 0 and not corrupt and self.mirror_id is not None and db_path.exists():
            problems += self.same_log(db_path)
        self.tally.lost += lost
        self.tally.corrupt += corrupt
        self.tally.problems += [f"cut {self.tally.cuts}: {p}" for p in problems]

    def same_log(self, db_path: Path) -> list[str]:
        """The open game's kept log is the one played here: what was acknowledged, and at most the
        one action more that was written when the power went."""
        from companion.app.savedgame import load_game
        from companion.app.store import Store

        assert self.mirror is not None and self.mirror_id is not None
        with Store(db_path) as store:
            kept = load_game(store, self.mirror_id).game
        mine = self.mirror.entries
        if kept.entries[: len(mine)] != mine:
            pairs = enumerate(zip(kept.entries, mine, strict=False))
            at = next((i for i, (a, b) in pairs if a != b), len(kept.entries))
            theirs = kept.entries[at] if at < len(kept.entries) else None
            ours = mine[at] if at < len(mine) else None
            return [f"game {self.mirror_id}: the kept log differs from the played one at {at}: {theirs} != {ours}"]
        extra = kept.entries[len(mine) :]
        if extra and any(e.action != extra[0].action for e in extra):
            return [f"game {self.mirror_id}: more than the one action being written survived"]
        self.mirror = kept  # the table goes on from here
        return []


class StartFailed(Exception):
    """The server did not come up on what the card held (no cut during the start)."""


def writes(samples: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Bytes written and flushes per action, by game and by who acted (the table link or a phone):
    the mean over the actions played."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for sample in samples:
        groups.setdefault(f"{sample['game']} from the {sample['from']}", []).append(sample)
    return {
        name: {
            "actions": len(group),
            "bytes": round(sum(s["bytes"] for s in group) / len(group)),
            "shm": round(sum(s["shm"] for s in group) / len(group)),
            "fsyncs": round(sum(s["fsyncs"] for s in group) / len(group), 2),
        }
        for name, group in sorted(groups.items())
    }


def evening(work: Path, cuts: int, seed: int, echo: bool = False) -> Evening:
    """Play until ``cuts`` power cuts have happened (an uncut session first, to learn the writes)."""
    night = Evening(work, seed)
    night.session(None, actions=20)
    session = 1
    while night.tally.cuts < cuts and session < 3 * cuts + 10:
        before, told = night.tally.cuts, len(night.tally.problems)
        night.session(night.choose_cut(session))
        session += 1
        if echo and night.tally.cuts != before:
            for problem in night.tally.problems[told:]:  # at once: a long run may be stopped
                print(f"  {problem}", flush=True)
            print(f"cut {night.tally.cuts}: {night.tally.line()}", flush=True)
    return night


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cuts", type=int, default=300)
    parser.add_argument("--seed", type=int, default=20261206)
    parser.add_argument("--keep", type=Path, help="a folder for the run (default: a temporary one)")
    args = parser.parse_args(argv)
    work = args.keep or Path(tempfile_dir())
    night = evening(work, args.cuts, args.seed, echo=True)
    for problem in night.tally.problems:
        print(problem)
    print("cuts interrupted:", json.dumps(night.tally.where, sort_keys=True))
    for name, numbers in writes(night.samples).items():
        done = f"{numbers['bytes']} bytes, {numbers['fsyncs']} flushes ({numbers['actions']} actions)"
        print(f"per action, {name}: {done}")
    print(night.tally.line())
    return 0 if not (night.tally.lost or night.tally.corrupt or night.tally.failed_starts) else 1


def tempfile_dir() -> str:
    import tempfile

    return tempfile.mkdtemp(prefix="companion-power-cut-")


if __name__ == "__main__":
    sys.exit(main())
