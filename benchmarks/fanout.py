"""P7: intent → the last of 6 phones holds the new state, against the same with 1 phone.

Two real ``companion serve`` processes on 127.0.0.1, each with the same Scotland Yard game
(Mister X and four detectives) at the detectives' turn. On one, only the table link is
connected; on the other, the table link and a phone on every seat (6 web sockets, 6 different
views). The table link moves a detective and takes it back, again and again; each sample is
the time from sending the intent (at most 8 a second, below the
server's flood limit) to the moment the last connected phone received the state it
caused. Samples alternate between the two servers.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import secrets
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from common import ROOT, Ratio
from drivers import DRIVERS

from companion.app.seats import TABLE_SEAT, SeatLinks
from companion.app.store import Store, StoredEvent
from companion.core import Game, event_codec
from companion.games import get_rules

SEQ = re.compile(r'"seq": (\d+)')
PACE = 0.12  # seconds between two intents of the acting phone
CONFIG: dict[str, Any] = {"detectives": ["Ann", "Bob", "Cyd", "Dee"], "tracker": True}


def prepare(folder: Path) -> dict[str, str]:
    """A data directory whose current game waits for the detectives; returns each seat's token."""
    _, _, choose = DRIVERS["scotland_yard"]
    game: Game[Any] = Game(get_rules("scotland_yard"), CONFIG, 11)
    rng = random.Random(11)
    while game.state.phase != "detectives":
        choice = choose(game, rng)
        assert choice is not None
        game.commit(game.decide(choice[0], choice[1], game.seq))
    codec = event_codec(game.rules)
    folder.mkdir(parents=True)
    with Store(folder / "companion.sqlite3") as store:
        game_id = store.create_game("scotland_yard", "bench", CONFIG, game.seed)
        rows = [StoredEvent(e.seq, e.action, codec.encode(e.event)) for e in game.entries]
        store.append(game_id, rows).result()
        seats = [*game.rules.seats(game.state), TABLE_SEAT]
        tokens = {link.seat: link.token for link in SeatLinks(store).ensure(game_id, seats)}
    (folder / "companion.toml").write_text(
        f'[server]\nhost = "127.0.0.1"\nport = 0\npublic_address = "127.0.0.1"\n'
        f'[table]\nlanguage = "en"\ndata_dir = "{folder}"\n'
    )
    return tokens


class Server:
    """``companion serve`` in its own process, as on a table without a touchscreen."""

    def __init__(self, folder: Path) -> None:
        self.log = folder / "serve.log"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "companion.cli", "--config", str(folder / "companion.toml"), "serve"],
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.port = self._wait_for_port()

    def _wait_for_port(self) -> int:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            text = self.log.read_text(errors="replace")
            for line in text.splitlines():
                if "serving phones on http://" in line:
                    return int(line.split("http://", 1)[1].split()[0].rsplit(":", 1)[1])
            if self.proc.poll() is not None:
                raise RuntimeError(f"companion serve exited:\n{text}")
            time.sleep(0.05)
        raise RuntimeError(f"companion serve did not come up:\n{self.log.read_text(errors='replace')}")

    def cpu_seconds(self) -> float:
        """CPU time the server process has used so far (user + system)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@dataclass
class Phone:
    seat: str
    ws: aiohttp.ClientWebSocketResponse
    state: dict[str, Any] = field(default_factory=dict)
    arrived: dict[int, float] = field(default_factory=dict)  # seq -> perf_counter when it arrived
    acks: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def listen(self, acting: bool) -> None:
        """Record when each state arrives. Only the acting phone reads its states whole (it needs
        ``legal``); the others read just the seq, so six phones in one process cost the measure
        little more than six devices would."""
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            now = time.perf_counter()
            found = SEQ.search(msg.data, 0, 300)
            if msg.data.startswith('{"type": "state"') and found and not (acting or not self.state):
                self.arrived[int(found.group(1))] = now
                self.changed.set()
                continue
            data = json.loads(msg.data)
            if data.get("type") == "state":
                self.state = data
                self.arrived[int(data["seq"])] = now
                self.changed.set()
            elif data.get("type") in ("ack", "refused"):
                self.acks.put_nowait(data)


@dataclass
class Table:
    """One server's phones, the first of them the acting table link."""

    phones: list[Phone]
    tasks: list[asyncio.Task[None]]
    next_id: int = 1
    last_sent: float = 0.0

    async def sample(self) -> float:
        """One action by the table link (a move, or taking it back); seconds until every phone has it."""
        link = self.phones[0]
        seq = int(link.state["seq"])
        if link.state.get("can_undo"):
            intent: dict[str, Any] = {"kind": "core.undo"}
        else:
            moves = link.state["legal"]["moves"]
            figure = sorted(moves)[0]
            ticket = sorted(moves[figure])[0]
            intent = {"kind": "sy.move", "figure": figure, "ticket": ticket, "station": moves[figure][ticket][0]}
        self.next_id += 1
        # A phone may send 10 messages a second (companion.net.server.RATE): keep below it.
        await asyncio.sleep(max(0.0, self.last_sent + PACE - time.monotonic()))
        self.last_sent = time.monotonic()
        message = json.dumps({"type": "intent", "id": self.next_id, "seq": seq, "intent": intent})
        t0 = time.perf_counter()
        await link.ws.send_str(message)
        answer = await asyncio.wait_for(link.acks.get(), 30)
        if answer["type"] != "ack":
            raise RuntimeError(f"the table refused the bench's intent: {answer}")
        for phone in self.phones:
            while seq + 1 not in phone.arrived:
                phone.changed.clear()
                await asyncio.wait_for(phone.changed.wait(), 30)
        return max(phone.arrived[seq + 1] for phone in self.phones) - t0

    async def close(self) -> None:
        for phone in self.phones:
            await phone.ws.close()
        for task in self.tasks:
            task.cancel()


async def connect(session: aiohttp.ClientSession, port: int, tokens: dict[str, str], seats: list[str]) -> Table:
    phones: list[Phone] = []
    for seat in seats:
        # compress=15: offer permessage-deflate, as a phone's browser does.
        ws = await session.ws_connect(f"http://127.0.0.1:{port}/ws", compress=15)
        await ws.send_str(json.dumps({"type": "hello", "token": tokens[seat], "device": secrets.token_hex(32)}))
        welcome = json.loads((await ws.receive(timeout=30)).data)
        if welcome.get("type") != "welcome":
            raise RuntimeError(f"seat {seat} was not welcomed: {welcome}")
        phones.append(Phone(seat, ws))
    tasks = [asyncio.create_task(p.listen(acting=i == 0)) for i, p in enumerate(phones)]
    for phone in phones:
        while not phone.state:
            phone.changed.clear()
            await asyncio.wait_for(phone.changed.wait(), 30)
    return Table(phones, tasks)


async def _run(folder: Path, pairs: int, ratio: Ratio) -> None:
    one_tokens = prepare(folder / "one")
    six_tokens = prepare(folder / "six")
    servers = [Server(folder / "one"), Server(folder / "six")]
    try:
        async with aiohttp.ClientSession() as session:
            seats = [TABLE_SEAT, *(s for s in six_tokens if s != TABLE_SEAT)]
            assert len(seats) == 6
            one = await connect(session, servers[0].port, one_tokens, [TABLE_SEAT])
            six = await connect(session, servers[1].port, six_tokens, seats)
            for _ in range(20):  # warm up
                await one.sample()
                await six.sample()
            cpu = [server.cpu_seconds() for server in servers]
            for i in range(pairs):
                if i % 2 == 0:
                    ratio.floor.add(await one.sample())
                    ratio.project.add(await six.sample())
                else:
                    ratio.project.add(await six.sample())
                    ratio.floor.add(await one.sample())
            used = [(server.cpu_seconds() - before) / pairs * 1000 for server, before in zip(servers, cpu, strict=True)]
            CPU_MS.append(used)
            await one.close()
            await six.close()
    finally:
        for server in servers:
            server.stop()


CPU_MS: list[list[float]] = []  # per round: the servers' CPU milliseconds per action (1 phone, 6 phones)


def measure(folder: Path, rounds: int, pairs: int) -> Ratio:
    ratio = Ratio(
        "P7",
        "intent → last of 6 phones updated (Scotland Yard, real web sockets on 127.0.0.1)",
        "intent → the 1 phone updated",
        "intent → the last of 6 phones updated",
        target_median=1.2,
    )
    for r in range(rounds):
        asyncio.run(_run(folder / f"p7-{r}", pairs, ratio))
    one, six = (sum(round_[i] for round_ in CPU_MS) / len(CPU_MS) for i in (0, 1))
    ratio.note = f"server CPU per action: {one:.2f} ms with 1 phone, {six:.2f} ms with 6"
    return ratio
