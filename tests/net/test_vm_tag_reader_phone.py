"""An agent disc scanned on a seat's tag reader and placed by the table, for a seat whose player
has a phone: that phone is told which agent the table placed for it, never left to find it out
(issue 30, item 2, for tag readers as for the touchscreen).

Real parts: an RDM6300 reader driven through a pseudo-terminal with its byte protocol, the box's
router built as ``companion serve`` builds it, the phone server on a loopback port and real web
socket phones. The table's screen places as the touchscreen and the table's browser screen do:
the router fills in the scanned agent, and nothing says whether the seat has a phone — the table
itself knows whose phone holds its link.

Rulebook (Victorian Masterminds): "The active player takes the top agent of their pile and places
it face down on top of the agent stack of any city."
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path

from harness import Phone, rig

from companion.app.config import Config
from companion.core import TABLE
from companion.core.jsonvalue import JSONObject, as_object
from companion.games.victorian_masterminds.model import AGENTS
from hardware import router
from hardware.enrollment import Piece, TagTable
from hardware.frames import rdm6300_frame

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hardware"))
from hwkit import PtyDevice, wait_until

GAME = "victorian_masterminds"
SETUP: JSONObject = {
    "players": [
        {"seat": "p1", "colour": "red", "machine": 1},
        {"seat": "p2", "colour": "blue", "machine": 2},
    ],
    "secret_service_start": 4,
}
SEED = 30


def uid_of(agent: str) -> str:
    """The 10-hex-digit tag of p1's (red) disc of ``agent``."""
    return f"0A000000{AGENTS.index(agent):02X}"


async def until_async(condition: Callable[[], bool], what: str) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + 30.0
    while not condition():
        assert loop.time() < end, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def state_of(phone: Phone, seq: int) -> JSONObject:
    """The phone's state message at ``seq`` (among those received, or read until it arrives)."""
    for raw in phone.received:
        msg = as_object(json.loads(raw))
        if msg.get("type") == "state" and msg.get("seq") == seq:
            return msg
    while True:
        msg = await phone.until("state")
        if msg["seq"] == seq:
            return msg


async def scan_and_place(tmp_path: Path) -> None:
    pty = PtyDevice()
    tags = TagTable(tmp_path / "box" / "tags.json")
    for agent in AGENTS:
        tags.enroll(uid_of(agent), Piece(GAME, f"agent:red:{agent}", f"red {agent}"))
    hardware = {"mode": "real", "readers": [{"name": "p1", "type": "rdm6300", "port": pty.path, "seat": "p1"}]}
    async with rig(tmp_path, GAME, SETUP, seed=SEED) as r:
        inputs = router.Box.open(r.table, Config(data_dir=tmp_path / "box", hardware=hardware))
        try:
            game_id = r.table.current.header.id if r.table.current is not None else 0
            await r.table.submit_json({"seq": r.table.seq, "intent": {"kind": "vm.start"}}, TABLE, game_id=game_id)
            (p1,) = (await r.connect_all(["p1"])).values()  # p1's player has a phone; p2's has none
            mine = as_object(as_object((await state_of(p1, r.table.seq))["view"]).get("pile"))
            top = str(mine["top"])
            assert wait_until(lambda: inputs.hardware.readers["p1"].info().status == "connected")
            # p1 lays its top disc on its reader: remembered (secretly) for its next placement
            pty.write(rdm6300_frame(uid_of(top)))
            await until_async(lambda: inputs.router.remembered_seats == ("p1",), "the scan remembered")
            # the table's screen places for p1 in Paris: the router fills in the scanned disc
            intent = inputs.router.complete_intent(
                {"kind": "vm.place", "seat": "p1", "city": "paris", "agent": None, "recycle": False}
            )
            assert intent["agent"] == top
            before = r.table.seq
            await r.table.submit_json({"seq": before, "intent": intent}, TABLE, game_id=game_id)
            assert r.table.seq > before
            view = as_object((await state_of(p1, r.table.seq))["view"])
            # p1's phone is told which agent the table placed for it, and only p1's phone
            assert view["told"] == {"city": "paris", "agent": top}
            assert r.table.game is not None
            assert "told" not in as_object(r.table.game.snapshot(TABLE)["view"])
            await p1.close()
        finally:
            await inputs.aclose()
            pty.close()


def test_a_scanned_agent_placed_by_the_table_is_told_to_the_seats_phone(tmp_path: Path) -> None:
    asyncio.run(scan_and_place(tmp_path))
