"""End to end: a Victorian Masterminds game played with the box — agent discs and building
miniatures on simulated readers (real byte protocols through the real reader threads), "end turn"
and "confirm" on mock GPIO buttons — against the same game played by taps (the same intents
submitted directly). Both logs must fold to the same state and show every screen the same.

The hardware game is built exactly as ``companion serve`` builds it (``hardware.router.Box.open``) and
also checks the lights, the buzzer and the bar graph, and that refusals change nothing.
"""

from __future__ import annotations

import asyncio
import json
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.app.config import Config
from companion.app.store import Store
from companion.app.table import Table
from companion.core import TABLE, Audience, Intent
from companion.core.jsonvalue import JSONObject
from companion.games.victorian_masterminds.events import (
    Adjust,
    Capture,
    ChooseBuilding,
    EndTurn,
    EngineerDone,
    Place,
    Start,
)
from companion.games.victorian_masterminds.model import AGENTS
from hardware import router
from hardware.enrollment import Piece, TagTable

GAME = "victorian_masterminds"
P1, P2 = Audience.of_seat("p1"), Audience.of_seat("p2")
SETUP: JSONObject = {
    "players": [
        {"seat": "p1", "colour": "red", "machine": 1, "lab_cells": 4},
        {"seat": "p2", "colour": "blue", "machine": 2, "lab_cells": 4},
    ],
    "secret_service_start": 10,
}
SEED = 20240607

EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "companion.example.toml"
with EXAMPLE.open("rb") as _fh:
    _BOX = tomllib.load(_fh)["hardware"]
# The example box's buttons (confirm, undo, next, done-p1, done-p2), seat lights, buzzer and
# Secret Service bar graph, simulated; a reader at each seat instead of the example's readers.
HARDWARE: dict[str, Any] = {
    **{key: _BOX[key] for key in ("buttons", "seat_lights", "buzzer", "tracks")},
    "mode": "simulated",
    "readers": [
        {"name": "p1", "type": "rdm6300", "port": "simulated", "seat": "p1", "gone_after_ms": 120},
        {"name": "p2", "type": "pn532", "port": "simulated", "seat": "p2", "poll_ms": 20},
    ],
}

# Each reader reads its own kind of tag: 125 kHz stickers for p1's RDM6300, NFC for p2's PN532.
# A piece may carry both (the Moscow factory and the red Number Two are tried on both readers).
TAGS = {
    "p1": {
        "agent:red:gunner": "0A00000001",
        "agent:red:number_two": "0A00000002",
        "agent:red:engineer": "0A00000003",
        "building:paris:monument": "0A00000010",
        "building:moscow:factory": "0A00000011",
    },
    "p2": {
        "agent:blue:saboteur": "B0000001",
        "agent:blue:gunner": "B0000002",
        "agent:red:number_two": "B0000003",
        "building:moscow:factory": "B0000011",
        "building:london:monument": "B0000012",
    },
}
UNKNOWN_TAG = "0A000000FF"


@dataclass(frozen=True)
class Step:
    """One step: how the box does it (``hw``), and the same step by taps (``tap``; None: a
    hardware input the rules refuse, which must change nothing, with the notice code it gives)."""

    hw: tuple[Any, ...]
    tap: tuple[Intent, Audience] | None
    refused: str | None = None


def tap(intent: Intent, actor: Audience = TABLE) -> Step:
    return Step(("tap", intent, actor), (intent, actor))


GAME_STEPS = [
    tap(Start()),
    tap(Adjust("scientists", 3, "p1")),
    tap(Adjust("scientists", 3, "p2")),
    tap(Adjust("firepower", 10, "p1")),
    tap(Adjust("firepower", 11, "p2")),
    # p1 scans its Gunner, the touchscreen places it in Moscow; the Eiffel Tower on p1's reader
    # is the Capture scientist action (the turn then ends by itself: 1 scientist left).
    Step(("scan", "p1", "agent:red:gunner"), None),
    Step(("place", "p1", "moscow"), (Place("p1", "moscow", "gunner"), TABLE)),
    Step(("scan", "p1", UNKNOWN_TAG), None, "input.unknown_tag"),
    Step(("scan", "p1", "building:paris:monument"), (Capture("p1", "paris", "monument"), P1)),
    # p2 places its Saboteur in London and ends the turn with the "next" button.
    Step(("scan", "p2", "agent:blue:saboteur"), None),
    Step(("place", "p2", "london"), (Place("p2", "london", "saboteur"), TABLE)),
    Step(("press", "next"), (EndTurn("p2"), TABLE)),
    # p1's Number Two on p2's reader is refused; on its own reader it is recorded.
    Step(("scan", "p2", "agent:red:number_two"), None, "vm.input.agent_other_seat"),
    Step(("scan", "p1", "agent:red:number_two"), None),
    Step(("place", "p1", "moscow"), (Place("p1", "moscow", "number_two"), TABLE)),
    # Moscow resolves: p1's Gunner may capture. The factory on p2's reader is not p1's choice.
    Step(("scan", "p2", "building:moscow:factory"), None, "vm.not_your_seat"),
    Step(("scan", "p1", "building:moscow:factory"), (ChooseBuilding("factory"), P1)),
    # Level 12: the final round. p2's Gunner in London captures Big Ben; p2's own button ends the turn.
    Step(("scan", "p2", "agent:blue:gunner"), None),
    Step(("place", "p2", "london"), (Place("p2", "london", "gunner"), TABLE)),
    Step(("scan", "p2", "building:london:monument"), (ChooseBuilding("monument"), P2)),
    Step(("press", "done-p1"), None, "vm.not_your_turn"),
    Step(("press", "done-p2"), (EndTurn("p2"), P2)),
    # p1's last turn: its Engineer in Rome; the final resolution waits for it; "confirm" finishes it.
    Step(("scan", "p1", "agent:red:engineer"), None),
    Step(("place", "p1", "rome"), (Place("p1", "rome", "engineer"), TABLE)),
    Step(("press", "confirm"), (EngineerDone(), TABLE)),
]


async def until(condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


class Box:
    """The hardware game: a table with the box's inputs, driven like a person at the table."""

    def __init__(self, table: Table, inputs: router.Box) -> None:
        self.table = table
        self.inputs = inputs
        self.router = inputs.router
        self.hw = inputs.hardware
        self.messages: list[JSONObject] = []
        self.router.listen(self.messages.append)

    def notices(self) -> list[str]:
        return [str(m["code"]) for m in self.messages if m["type"] == "notice"]

    async def _settle(self, count: int, what: str) -> None:
        await until(lambda: len(self.router.recent) > count, what)
        await self.router.idle()

    async def scan(self, reader: str, piece: str) -> None:
        uid = TAGS[reader].get(piece, piece)
        count = len(self.router.recent)
        self.hw.simulator(reader).place(uid)
        await self._settle(count, f"{piece} on {reader}")
        self.hw.simulator(reader).remove()
        await until(lambda: not self.hw.readers[reader].info().present, f"{piece} gone from {reader}")

    async def press(self, button: str) -> None:
        count = len(self.router.recent)
        self.hw.press(button)
        await self._settle(count, f"button {button}")
        self.hw.release(button)
        bank = self.hw.buttons
        assert bank is not None
        await until(lambda: not any(s.pressed for s in bank.states() if s.name == button), "release")

    async def place(self, seat: str, city: str) -> None:
        """The touchscreen's city tap, completed by the router as ui/app.py does it."""
        intent = self.router.complete_intent(
            {"kind": "vm.place", "seat": seat, "city": city, "agent": None, "recycle": False}
        )
        await self.table.submit_json(
            {"seq": self.table.seq, "intent": intent}, TABLE, game_id=self.table.current.header.id
        )

    async def do(self, step: Step) -> None:
        kind, *args = step.hw
        before, notices = self.table.seq, len(self.notices())
        if kind == "tap":
            await self.table.submit(args[0], args[1], self.table.seq, game_id=self.table.current.header.id)
        elif kind == "scan":
            await self.scan(*args)
        elif kind == "press":
            await self.press(*args)
        else:
            await self.place(*args)
        if step.refused is not None:
            assert self.table.seq == before, f"{step.hw} changed the game"
            assert self.notices()[notices:][-1:] == [step.refused], self.messages[-3:]
        elif step.tap is not None:
            assert self.table.seq > before, f"{step.hw} did nothing: {self.messages[-3:]}"
        else:  # an agent disc: remembered for the placement, nothing submitted
            assert self.table.seq == before and self.notices()[-1] == "vm.input.agent_recorded"


def enroll(path: Path) -> None:
    table = TagTable(path)
    for uids in TAGS.values():
        for piece, uid in uids.items():
            table.enroll(uid, Piece(GAME, piece, piece.replace(":", " ")))


async def play_with_the_box(tmp_path: Path) -> tuple[Table, dict[str, Any]]:
    enroll(tmp_path / "box" / "tags.json")
    config = Config(data_dir=tmp_path / "box", hardware=HARDWARE)
    table = Table(Store(tmp_path / "box" / "companion.sqlite3"))
    await table.start()
    inputs = router.Box.open(table, config)
    box = Box(table, inputs)
    indicators = inputs.hardware.indicators
    try:
        await until(lambda: all(r.info().status == "connected" for r in box.hw.readers.values()), "readers")
        # Nothing is open yet: a scan is reported and nothing is submitted.
        await box.scan("p1", "building:paris:monument")
        assert box.notices()[-1] == "input.no_game"
        await table.new_game(GAME, SETUP, "with the box", seed=SEED)  # the same piles in both games
        lights: list[tuple[str, ...]] = []
        for step in GAME_STEPS:
            await box.do(step)
            lights.append(indicators.turns)
        assert table.game is not None and table.game.outcome() is not None
        # The lights followed the turn (public view only); the buzzer sounded what became public.
        assert lights[0] == ("p1",) and lights[11] == ("p1",)  # after Start; after "next" ended p2's turn
        assert ("p2",) in lights and lights[-1] == ()
        assert indicators.seat_lights is not None and indicators.seat_lights.states() == {"p1": False, "p2": False}
        bar = indicators.tracks["secret_service"]
        assert (bar.value, bar.lit) == (12, 4)
        assert indicators.buzzer is not None and indicators.buzzer.wait_idle(5.0)
        played = list(indicators.buzzer.played)
        assert {"capture", "reveal", "end", "error"} <= set(played) and played[-1] == "end"
        # A recorded agent never reached a screen: the messages name seats, never agents.
        for message in box.messages:
            if message["type"] == "remembered" or message.get("code") == "vm.input.agent_recorded":
                assert not any(agent in json.dumps(message) for agent in AGENTS), message
        assert box.router.remembered_seats == ()
        snapshots = {a.label(): table.game.snapshot(a) for a in (TABLE, P1, P2)}
        return table, snapshots
    finally:
        await inputs.aclose()
        await table.stop()
        table.store.close()


async def play_by_taps(tmp_path: Path) -> tuple[Table, dict[str, Any]]:
    table = Table(Store(tmp_path / "taps.sqlite3"))
    await table.start()
    try:
        await table.new_game(GAME, SETUP, "by taps", seed=SEED)
        for step in GAME_STEPS:
            if step.tap is not None:
                intent, actor = step.tap
                await table.submit(intent, actor, table.seq, game_id=table.current.header.id)
        assert table.game is not None
        return table, {a.label(): table.game.snapshot(a) for a in (TABLE, P1, P2)}
    finally:
        await table.stop()
        table.store.close()


def test_a_game_with_the_box_equals_the_same_game_by_taps(tmp_path: Path) -> None:
    box, box_views = asyncio.run(play_with_the_box(tmp_path))
    taps, tap_views = asyncio.run(play_by_taps(tmp_path))
    assert box.game is not None and taps.game is not None
    assert box.game.seed == taps.game.seed == SEED
    assert [(e.seq, e.action, e.event) for e in box.game.entries] == [
        (e.seq, e.action, e.event) for e in taps.game.entries
    ]
    assert box.game.state == taps.game.state
    assert box_views == tap_views
    outcome = box.game.outcome()
    assert outcome is not None and outcome.winners == ("p1",)
    # The logs on disk fold to the same state as well (a restart changes nothing).
    from companion.app.savedgame import load_game

    with Store(tmp_path / "box" / "companion.sqlite3") as one, Store(tmp_path / "taps.sqlite3") as two:
        assert load_game(one, box.current.header.id).game.state == load_game(two, taps.current.header.id).game.state  # type: ignore[union-attr]
