"""Bindings and the input router: buttons on gpiozero's MockFactory (single, bouncing, long, two at
once) become exactly the expected intents on the table; tags become intents, selections or
notices; lights follow the public view only; the data files and the configuration are strict."""

from __future__ import annotations

import ast
import asyncio
import json
import sys
import threading
import tomllib
from collections.abc import Awaitable, Callable, Collection
from pathlib import Path
from typing import Any

import pytest

from companion.app.bindings import BindingsError, load_bindings, parse_bindings
from companion.app.config import Config
from companion.app.i18n import catalogue
from companion.app.store import Store
from companion.app.table import Table
from companion.core import TABLE, Audience, Undone
from companion.core.hardware import Input, Notice, Submit
from companion.core.jsonvalue import JSONObject
from companion.games.victorian_masterminds.events import (
    Adjust,
    Capture,
    ChooseBuilding,
    Place,
    Start,
    TurnEnded,
)
from companion.games.victorian_masterminds.hardware import building as vm_building
from hardware.config import HardwareConfigError, parse_hardware
from hardware.enrollment import EnrollmentSession, Piece, TagTable
from hardware.events import ButtonPressed, ReaderState, ReaderStatus, TagSeen
from hardware.loop import to_loop
from hardware.router import InputRouter, check_seat_maps
from hardware.system import Hardware, build

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "hardware"))
from hwkit import FakeClock  # noqa: E402  (the hardware tests' fake clock)

VM = "victorian_masterminds"
VM_SETUP: JSONObject = {
    "players": [
        {"seat": "p1", "colour": "red", "machine": 1, "lab_cells": 4},
        {"seat": "p2", "colour": "blue", "machine": 2, "lab_cells": 4},
    ],
    "secret_service_start": 4,
}
EXAMPLE = ROOT / "deploy" / "companion.example.toml"
with EXAMPLE.open("rb") as _fh:
    BUTTONS: dict[str, Any] = {"mode": "simulated", "buttons": tomllib.load(_fh)["hardware"]["buttons"]}
BOUNCE, HOLD = 0.02, 1.5  # the example's bounce_ms (default 20) and the undo button's hold_ms


class Lights:
    """A stand-in for the indicator panel that records every call."""

    def __init__(self) -> None:
        self.turns: list[tuple[str, ...]] = []
        self.sounds: list[str] = []
        self.tracks: dict[str, int] = {}

    def show_turns(self, seats: Collection[str]) -> None:
        self.turns.append(tuple(seats))

    def signal(self, pattern: str) -> None:
        self.sounds.append(pattern)

    def show_track(self, track: str, value: int) -> None:
        self.tracks[track] = value


class Rig:
    """A started table, a router on it, and everything the router said."""

    def __init__(self, table: Table, router: InputRouter, lights: Lights) -> None:
        self.table = table
        self.router = router
        self.lights = lights
        self.messages: list[JSONObject] = []
        router.listen(self.messages.append)

    @property
    def seq(self) -> int:
        return self.table.seq

    def notices(self) -> list[str]:
        return [str(m["code"]) for m in self.messages if m["type"] == "notice"]

    def submitted(self) -> list[tuple[Any, ...]]:
        return [
            (e.get("kind"), e.get("actor"), e.get("outcome"), e.get("code")) for e in self.router.recent if "kind" in e
        ]

    def events(self) -> list[Any]:
        assert self.table.game is not None
        undone = {e.event.target for e in self.table.game.entries if isinstance(e.event, Undone)}
        return [e.event for e in self.table.game.entries if e.action not in undone]

    async def settle(self) -> None:
        for _ in range(5):
            await asyncio.sleep(0)
        await self.router.idle()

    async def tag(self, reader: str, uid: str) -> None:
        self.router.handle(TagSeen(reader, uid))
        await self.settle()


def run(
    tmp_path: Path,
    scenario: Callable[[Rig], Awaitable[None]],
    *,
    tags: TagTable | None = None,
    hardware: dict[str, Any] | None = None,
) -> None:
    async def main() -> None:
        table = Table(Store(tmp_path / "t.sqlite3"))
        await table.start()
        lights = Lights()
        router = InputRouter(table, tags, config=parse_hardware(hardware or {}), indicators=lights)
        router.start()
        try:
            await scenario(Rig(table, router, lights))
        finally:
            router.close()
            await table.stop()
            table.store.close()

    asyncio.run(main())


async def vm_after_placing(rig: Rig) -> None:
    """A Victorian Masterminds game where p1 has placed and may still act (4 scientists)."""
    t = rig.table
    await t.new_game(VM, VM_SETUP, "")
    await t.submit(Start(), TABLE, t.seq, game_id=t.current.header.id)
    await t.submit(Adjust("scientists", 3, "p1"), TABLE, t.seq, game_id=t.current.header.id)
    await t.submit(Place("p1", "london", "gunner"), TABLE, t.seq, game_id=t.current.header.id)


# ------------------------------------------------------------------------------ buttons (MockFactory)


class Buttons:
    """The box's buttons on mock pins with a fake clock, delivering to the router via the loop."""

    def __init__(self, rig: Rig) -> None:
        self.rig = rig
        self.clock = FakeClock()
        deliver = to_loop(asyncio.get_running_loop(), rig.router.handle)
        self.hw: Hardware = build(BUTTONS, deliver, mode="simulated", clock=self.clock, autotick=False)

    def pin(self, name: str) -> Any:
        assert self.hw.buttons is not None
        return self.hw.buttons.device(name).pin

    async def at(self, dt: float) -> None:
        self.clock.advance(dt)
        assert self.hw.buttons is not None
        self.hw.buttons.tick()
        await self.rig.settle()

    async def tap(self, *names: str, down: float = 0.1) -> None:
        for name in names:
            self.pin(name).drive_low()
        await self.at(BOUNCE + 0.001)
        await self.at(down)
        for name in names:
            self.pin(name).drive_high()
        await self.at(BOUNCE + 0.001)

    def close(self) -> None:
        self.hw.close()


def with_buttons(tmp_path: Path, body: Callable[[Rig, Buttons], Awaitable[None]]) -> None:
    """Run ``body`` on a Victorian Masterminds game where p1 has placed, with the example's buttons."""

    async def scenario(rig: Rig) -> None:
        await vm_after_placing(rig)
        buttons = Buttons(rig)
        try:
            await body(rig, buttons)
        finally:
            buttons.close()

    run(tmp_path, scenario)


def test_a_single_press_of_next_ends_the_active_turn(tmp_path: Path) -> None:
    async def body(rig: Rig, buttons: Buttons) -> None:
        before = rig.seq
        await buttons.tap("next")
        assert rig.submitted() == [("vm.end_turn", "table", "accepted", None)]
        assert rig.events()[-1] == TurnEnded("p1") and rig.seq == before + 1

    with_buttons(tmp_path, body)


def test_a_bouncing_press_is_one_intent(tmp_path: Path) -> None:
    async def body(rig: Rig, buttons: Buttons) -> None:
        pin = buttons.pin("next")
        for level in (0, 1, 0, 1, 0):  # five edges within 8 ms, ticks in between see nothing settled
            (pin.drive_high if level else pin.drive_low)()
            await buttons.at(0.002)
        await buttons.at(BOUNCE)
        await buttons.at(0.2)
        for level in (1, 0, 1):  # the release bounces too
            (pin.drive_high if level else pin.drive_low)()
            await buttons.at(0.003)
        await buttons.at(BOUNCE)
        assert rig.submitted() == [("vm.end_turn", "table", "accepted", None)]
        assert sum(isinstance(e, TurnEnded) for e in rig.events()) == 1

    with_buttons(tmp_path, body)


def test_undo_needs_a_long_press(tmp_path: Path) -> None:
    async def body(rig: Rig, buttons: Buttons) -> None:
        await buttons.tap("next")
        assert rig.events()[-1] == TurnEnded("p1")
        before = rig.seq
        await buttons.tap("undo", down=HOLD / 3)  # short: nothing happens, the screen says hold it
        assert rig.seq == before and rig.notices()[-1] == "input.hold_needed"
        buttons.pin("undo").drive_low()
        await buttons.at(BOUNCE + 0.001)
        await buttons.at(HOLD / 2)
        assert rig.seq == before
        await buttons.at(HOLD / 2)  # held: undo, once, while still down
        assert rig.seq == before + 1 and isinstance(rig.table.game.entries[-1].event, Undone)  # type: ignore[union-attr]
        await buttons.at(1.0)
        buttons.pin("undo").drive_high()
        await buttons.at(BOUNCE + 0.001)
        assert [s[0] for s in rig.submitted()] == ["vm.end_turn", "core.undo"]
        assert not any(isinstance(e, TurnEnded) for e in rig.events())  # p1's turn again

    with_buttons(tmp_path, body)


def test_two_buttons_at_once_are_two_intents_and_the_rules_sort_them_out(tmp_path: Path) -> None:
    async def body(rig: Rig, buttons: Buttons) -> None:
        await buttons.tap("next", "done-p1")  # both mean "p1's turn is over": one counts
        assert rig.submitted() == [
            ("vm.end_turn", "table", "accepted", None),
            ("vm.end_turn", "p1", "refused", "vm.not_your_turn"),
        ]
        assert [e for e in rig.events() if isinstance(e, TurnEnded)] == [TurnEnded("p1")]
        assert rig.notices()[-1] == "vm.not_your_turn"
        assert rig.lights.sounds[-1] == "error"
        await buttons.tap("confirm", "done-p2")  # confirm is the screen's; p2 has not placed yet
        assert {"type": "button", "role": "confirm", "button": "confirm"} in rig.messages
        assert rig.submitted()[-1] == ("vm.end_turn", "p2", "refused", "vm.not_placed_yet")

    with_buttons(tmp_path, body)


def test_buttons_with_no_game_or_no_binding_are_reported(tmp_path: Path) -> None:
    async def scenario(rig: Rig) -> None:
        rig.router.handle(ButtonPressed("next", "next"))
        assert rig.notices() == ["input.no_game"]
        await rig.table.new_game("scotland_yard", {}, "")
        rig.router.handle(ButtonPressed("next", "next"))  # Scotland Yard has no "next"
        rig.router.handle(ButtonPressed("p9", "seat:p9"))
        await rig.settle()
        assert rig.notices()[1:] == ["input.unbound_button", "input.unbound_button"]
        assert rig.seq == 0 and rig.submitted() == []

    run(tmp_path, scenario)


# ------------------------------------------------------------------------------ tags


def enrolled() -> TagTable:
    table = TagTable()
    for uid, game, piece in [
        ("0A00000010", VM, "building:paris:monument"),
        ("0A00000011", VM, "building:london:factory"),
        ("0A00000020", VM, "agent:red:saboteur"),
        ("0A00000021", VM, "agent:saboteur"),
        ("0A00000022", VM, "agent:green:engineer"),
        ("0A00000030", VM, "building:paris:castle"),
        ("0A00000040", "scotland_yard", "figure:D1"),
        ("0A00000041", "scotland_yard", "figure:D2"),
        ("0A00000042", "scotland_yard", "figure:X"),
        ("0A00000050", "mykerinos", "patron:lady_violet"),
        ("0A00000051", "mykerinos", "patron:mrs_blackmore"),
        ("0A00000052", "mykerinos", "patron:sir_brown"),
    ]:
        table.enroll(uid, Piece(game, piece, piece.split(":")[-1]))
    return table


READERS: dict[str, Any] = {
    "readers": [
        {"name": "table", "type": "rdm6300", "port": "simulated"},
        {"name": "r1", "type": "rdm6300", "port": "simulated", "seat": "p1"},
        {"name": "r2", "type": "pn532", "port": "simulated", "seat": "p2"},
        {"name": "r3", "type": "pn532", "port": "simulated", "seat": "p3"},
    ],
    "seats": {"scotland_yard": {"p1": "mrx", "p2": "d1"}, "mykerinos": {"p1": "blue", "p2": "red"}},
}


def test_unknown_tags_other_games_and_no_game_are_reported_and_nothing_is_submitted(tmp_path: Path) -> None:
    async def scenario(rig: Rig) -> None:
        await rig.tag("r1", "0A00000010")
        assert rig.notices() == ["input.no_game"]
        await vm_after_placing(rig)
        before = rig.seq
        for uid in ("0A000000FF", "0A00000040", "0A00000030"):
            await rig.tag("r1", uid)
        await rig.tag("r3", "0A00000010")  # a reader at a place nobody sits at in this game
        await rig.tag("table", "0A00000021")  # a colourless agent on the table's reader: whose?
        await rig.tag("r1", "0A00000022")  # nobody plays green
        assert rig.notices()[1:] == [
            "input.unknown_tag",
            "input.other_game",
            "input.bad_piece",
            "input.no_seat",
            "vm.input.agent_needs_seat",
            "vm.input.agent_colour",
        ]
        unknown = next(m for m in rig.messages if m.get("code") == "input.unknown_tag")
        assert unknown["params"] == {"uid": "0A000000FF", "reader": "r1"} and "0A000000FF" in str(unknown["text"])
        other = next(m for m in rig.messages if m.get("code") == "input.other_game")
        assert other["params"] == {"label": "D1", "game": "scotland_yard"}
        assert rig.seq == before and rig.submitted() == []
        assert rig.lights.sounds == ["error"] * 6  # every input that did nothing clicks at the box
        assert [e["outcome"] for e in rig.router.recent][-6:] == ["notice"] * 6

    run(tmp_path, scenario, tags=enrolled(), hardware=READERS)


def test_vm_buildings_capture_and_agents_are_remembered_secretly(tmp_path: Path) -> None:
    async def scenario(rig: Rig) -> None:
        await vm_after_placing(rig)  # p1 in London, 4 scientists
        await rig.tag("table", "0A00000010")  # the table's reader: for the active player, as the table
        assert rig.submitted() == [("vm.capture", "table", "accepted", None)]
        assert Capture("p1", "paris", "monument") == Capture("p1", "paris", "monument")
        assert rig.lights.sounds[-1] == "capture"
        # p2's turn: p1's red Saboteur disc on p1's reader is remembered for p1, not placed.
        before = rig.seq
        await rig.tag("r1", "0A00000020")
        assert rig.seq == before and rig.router.remembered_seats == ("p1",)
        rig.router.forget("p1")  # the screen's "cancel": scan again
        assert rig.router.remembered_seats == () and rig.messages[-1] == {"type": "remembered", "seats": []}
        await rig.tag("r1", "0A00000020")
        assert {"type": "remembered", "seats": ["p1"]} in rig.messages
        assert all("saboteur" not in json.dumps(m) for m in rig.messages)
        # the screen's placement for p1 names it; the screen for p2 gets nothing filled in
        intent: JSONObject = {"kind": "vm.place", "seat": "p2", "city": "rome", "agent": None, "recycle": False}
        assert rig.router.complete_intent(intent) == intent
        await rig.table.submit_json({"seq": rig.seq, "intent": intent}, TABLE, game_id=rig.table.current.header.id)
        mine = rig.router.complete_intent({**intent, "seat": "p1", "city": "london"})
        assert mine["agent"] == "saboteur"
        await rig.table.submit_json(
            {"seq": rig.seq, "intent": mine}, TABLE, game_id=rig.table.current.header.id
        )  # London is full and resolves
        assert not rig.router.remembered_seats  # used up by the placement
        assert rig.messages[-1] == {"type": "remembered", "seats": []}
        assert rig.lights.sounds[-1] == "reveal"  # the stack turned over
        assert rig.table.game is not None and rig.table.game.state.players[0].discard == ("gunner", "saboteur")

    run(tmp_path, scenario, tags=enrolled(), hardware=READERS)


def test_a_building_during_a_gunner_choice_is_that_choice() -> None:
    waiting: JSONObject = {"kind": "gunner", "seat": "p1", "by": ["table", "p1"]}
    view: JSONObject = {"phase": "resolution", "active": "p2", "resolution": {"city": "moscow", "waiting": waiting}}
    here = Input({"view": view}, "p1", "p1", "factory")
    assert vm_building(here, ["moscow", "factory"]) == Submit(ChooseBuilding("factory"), Audience.of_seat("p1"))
    # a building of another city is the Capture action (the rules refuse it while the stack resolves)
    assert vm_building(here, ["paris", "factory"]) == Submit(Capture("p1", "paris", "factory"), Audience.of_seat("p1"))
    table = Input({"view": view}, None)
    assert vm_building(table, ["moscow", "factory"]) == Submit(ChooseBuilding("factory"), TABLE)
    assert vm_building(here, ["moscow"]) == Notice("input.bad_piece", {"label": "factory"})


def test_scotland_yard_pawns_select_a_figure(tmp_path: Path) -> None:
    async def scenario(rig: Rig) -> None:
        t = rig.table
        await t.new_game("scotland_yard", {"detectives": ["Ben", "Cleo"]}, "", seed=1)
        await t.submit_json({"seq": t.seq, "intent": {"kind": "sy.draw_start"}}, TABLE, game_id=t.current.header.id)
        assert rig.lights.turns[-1] == ("p1",)  # Mister X (place p1) moves first
        assert t.game is not None
        x: Any = t.game.snapshot(Audience.of_seat("mrx"))["legal"]["x"]["single"]  # type: ignore[index,call-overload]
        ticket = sorted(x)[0]
        await t.submit_json(
            {"seq": t.seq, "intent": {"kind": "sy.x_move", "ticket": ticket, "station": x[ticket][0]}},
            Audience.of_seat("mrx"),
            game_id=t.current.header.id,
        )
        assert set(rig.lights.turns[-1]) == {"p2", "d2"}  # d1 sits at p2; d2 is not mapped
        before = rig.seq
        await rig.tag("table", "0A00000040")
        moves: Any = t.game.snapshot(TABLE)["legal"]["moves"]["D1"]  # type: ignore[index,call-overload]
        assert rig.router.selection == {
            "game": "scotland_yard",
            "kind": "figure",
            "figure": "D1",
            "seat": None,
            "moves": moves,
        }
        assert {"type": "selection", "selection": rig.router.selection} in rig.messages
        await rig.tag("r2", "0A00000041")  # D2 on d1's reader
        await rig.tag("r1", "0A00000042")  # Mister X's pawn
        assert rig.notices()[-2:] == ["sy.input.not_your_figure", "sy.input.mister_x"]
        assert rig.seq == before and rig.router.selection is not None
        line = sorted(moves)[0]
        await t.submit_json(
            {"seq": t.seq, "intent": {"kind": "sy.move", "figure": "D1", "ticket": line, "station": moves[line][0]}},
            TABLE,
            game_id=t.current.header.id,
        )
        assert rig.router.selection is None  # D1 has moved: the selection went by itself
        assert {"type": "selection", "selection": None} in rig.messages
        await rig.tag("table", "0A00000040")
        assert rig.notices()[-1] == "sy.input.cannot_move" and rig.router.selection is None

    run(tmp_path, scenario, tags=enrolled(), hardware=READERS)


def test_mykerinos_patron_cards_are_their_use(tmp_path: Path) -> None:
    async def scenario(rig: Rig) -> None:
        t = rig.table
        await t.new_game("mykerinos", {"seats": ["blue", "red", "green"]}, "")

        async def table_does(intent: JSONObject) -> None:
            await t.submit_json({"seq": t.seq, "intent": intent}, TABLE, game_id=t.current.header.id)

        await table_does({"kind": "myk.choose_start_player", "seat": "blue"})
        await table_does(
            {
                "kind": "myk.enter_patrons",
                "order": ["lady_violet", "lord_lemon", "sir_brown", "mrs_blackmore", "colonel_tangerine"],
            }
        )
        await rig.tag("r1", "0A00000050")  # season 1: the rules say why not
        assert rig.submitted() == [("myk.excavate", "blue", "refused", "myk.patron_too_early")]
        for seat in ("blue", "red", "green"):
            await table_does({"kind": "myk.pass", "seat": seat})
        for seat in ("blue", "red", "green"):
            for patron in ("lady_violet", "mrs_blackmore", "sir_brown"):
                await table_does({"kind": "myk.correct_cards", "seat": seat, "patron": patron, "delta": 1})
        for seat in ("green", "blue", "red"):
            await table_does({"kind": "myk.excavate", "seat": seat, "action": "start", "patron": None})
        # green's turn: Lady Violet can start or extend: the touchscreen asks
        await rig.tag("table", "0A00000050")
        selection: Any = rig.router.selection
        assert selection is not None and selection["seat"] == "green" and selection["patron"] == "lady_violet"
        assert selection["intents"] == [
            {"kind": "myk.excavate", "seat": "green", "action": a, "patron": "lady_violet"} for a in ("start", "extend")
        ]
        await table_does(selection["intents"][1])
        assert rig.router.selection is None
        # blue's turn: Mrs. Blackmore only starts: sent at once, acting as blue (its reader)
        await rig.tag("r1", "0A00000051")
        assert rig.submitted()[-1] == ("myk.excavate", "blue", "accepted", None)
        # red's turn: Sir Brown on blue's reader cannot be used by blue now
        await rig.tag("r1", "0A00000052")
        assert rig.notices()[-1] == "myk.input.patron_not_now"
        assert rig.lights.turns[-1] == ("p2",)  # red sits at p2
        rig.router.handle(ButtonPressed("done-p2", "seat:p2"))  # red is done: passes
        await rig.settle()
        assert rig.submitted()[-1] == ("myk.pass", "red", "accepted", None)

    run(tmp_path, scenario, tags=enrolled(), hardware=READERS)


def test_an_enrollment_takes_the_scan_instead_of_the_game(tmp_path: Path) -> None:
    async def scenario(rig: Rig) -> None:
        await vm_after_placing(rig)
        seen: list[object] = []
        stop = rig.router.watch(seen.append)
        before = rig.seq
        eiffel = Piece(VM, "building:paris:monument", "Eiffel Tower")
        rig.router.enroll(EnrollmentSession(rig.router.tags, "r1", eiffel))
        await rig.tag("r2", "0A00000099")  # another reader still plays (here: an unknown tag)
        await rig.tag("r1", "0A00000099")
        assert rig.messages[-1] == {
            "type": "enrollment",
            "status": "recorded",
            "uid": "0A00000099",
            "label": "Eiffel Tower",
            "previous": None,
        }
        assert rig.router.tags.lookup("0A00000099") == eiffel and rig.seq == before
        await rig.tag("r1", "0A00000099")  # the session is over: now it captures for p1
        assert rig.submitted() == [("vm.capture", "p1", "accepted", None)]
        stop()
        await rig.tag("r1", "0A00000099")
        assert [e.uid for e in seen if isinstance(e, TagSeen)] == ["0A00000099"] * 3
        assert rig.notices()[0] == "input.unknown_tag"

    run(tmp_path, scenario, tags=TagTable(), hardware=READERS)


def test_reader_status_changes_are_notices(tmp_path: Path) -> None:
    """A reader unplugged is a notice at the moment, and a warning (start screen, host page,
    ``companion status``) for as long as it stays away; each change asks the warnings to be read
    again at once."""

    async def scenario(rig: Rig) -> None:
        told: list[list[tuple[str, dict[str, Any]]]] = []
        rig.router.status_changed = lambda: told.append(rig.router.warnings())
        statuses: list[ReaderState] = ["connected", "connected", "disconnected", "connected", "error"]
        for status in statuses:
            rig.router.handle(ReaderStatus("r1", status))
        rig.router.handle(ReaderStatus("r2", "disconnected"))
        assert rig.notices() == [
            "input.reader.disconnected",
            "input.reader.connected",
            "input.reader.error",
            "input.reader.disconnected",
        ]
        assert rig.lights.sounds == []
        assert rig.router.status()["readers"] == {"r1": "error", "r2": "disconnected"}
        assert told == [
            [],  # r1 connected
            [("input.reader.disconnected", {"reader": "r1"})],
            [],
            [("input.reader.error", {"reader": "r1"})],
            [("input.reader.error", {"reader": "r1"}), ("input.reader.disconnected", {"reader": "r2"})],
        ]

    run(tmp_path, scenario)


def test_vm_lights_and_bar_follow_the_public_table_view(tmp_path: Path) -> None:
    async def scenario(rig: Rig) -> None:
        await rig.table.new_game(VM, VM_SETUP, "")
        assert rig.lights.turns[-1] == ()  # not started
        await rig.table.submit(Start(), TABLE, rig.seq, game_id=rig.table.current.header.id)
        assert rig.lights.turns[-1] == ("p1",) and rig.lights.tracks == {"secret_service": 4}
        await rig.table.submit(Adjust("level", 3), TABLE, rig.seq, game_id=rig.table.current.header.id)
        assert rig.lights.tracks == {"secret_service": 7}
        await rig.table.close_game()
        assert rig.lights.turns[-1] == ()
        assert rig.lights.sounds == []

    run(tmp_path, scenario)


# ------------------------------------------------------------------------------ data and configuration


def test_the_shipped_bindings_parse_and_a_table_file_overrides_them(tmp_path: Path) -> None:
    shipped = load_bindings()
    assert shipped.of(VM).button("seat:p2") == {"press": "vm.end_turn"}
    assert shipped.of(VM).button("undo") == {"hold": "undo"}
    assert shipped.of(VM).pieces == {"building": "vm.building", "agent": "vm.agent"}
    assert shipped.of("scotland_yard").button("next") == {}
    mine = tmp_path / "bindings.json"
    mine.write_text(
        json.dumps(
            {
                "format": "companion.bindings",
                "version": 1,
                "games": {VM: {"buttons": {"next": {"press": "none"}, "undo": {"press": "undo"}}}},
            }
        )
    )
    table = load_bindings(mine)
    assert table.of(VM).button("next") == {"press": "none"} and table.of(VM).button("undo") == {"press": "undo"}
    assert table.of(VM).button("confirm") == {"press": "vm.confirm"} and table.of(VM).pieces == shipped.of(VM).pieces
    assert parse_bindings(shipped.to_json()) == dict(shipped.games)
    assert load_bindings(tmp_path / "missing.json") == shipped


@pytest.mark.parametrize(
    "games, problem",
    [
        ({"chess": {}}, "unknown game"),
        ({VM: {"buttons": {"next": {"press": "vm.jump"}}}}, "unknown action"),
        ({VM: {"pieces": {"figure": "sy.figure"}}}, "not an action of"),
        ({VM: {"buttons": {"next": {"double": "undo"}}}}, "gestures"),
        ({VM: {"lights": {}}}, "expected buttons"),
        ({VM: {"tracks": {"secret_service": 3}}}, "view key"),
    ],
)
def test_bindings_files_are_strict(games: Any, problem: str) -> None:
    with pytest.raises(BindingsError, match=problem):
        parse_bindings({"format": "companion.bindings", "version": 1, "games": games})
    with pytest.raises(BindingsError):
        parse_bindings({"format": "companion.bindings", "version": 2, "games": {}})


def test_readers_and_places_are_bound_to_seats_in_the_configuration() -> None:
    hc = parse_hardware(READERS)
    assert [(r.name, r.seat) for r in hc.readers] == [("table", ""), ("r1", "p1"), ("r2", "p2"), ("r3", "p3")]
    assert hc.seat_map("mykerinos") == {"p1": "blue", "p2": "red"} and hc.seat_map(VM) == {}
    cases: list[tuple[dict[str, Any], str]] = [
        ({"seats": {"Chess!": {"p1": "white"}}}, "seats.Chess!"),
        ({"seats": {"mykerinos": {"p1": "blue", "p2": "blue"}}}, "seats.mykerinos"),
        ({"seats": {"mykerinos": {"p1": 3}}}, "seats.mykerinos.p1"),
        ({"seats": {"mykerinos": ["blue"]}}, "seats.mykerinos"),
        ({"readers": [{"name": "r", "type": "rdm6300", "port": "/dev/x", "seat": 1}]}, "readers[0].seat"),
        ({"readers": [{"name": "r", "type": "rdm6300", "port": "/dev/x", "seats": "p1"}]}, "readers[0].seats"),
    ]
    for section, key in cases:
        with pytest.raises(HardwareConfigError) as caught:
            parse_hardware(section)
        assert caught.value.params["key"] == key, section
    # Which games exist is the router's business, not the drivers': it refuses a seat map for no game.
    unknown = parse_hardware({"seats": {"chess": {"p1": "white"}}})
    with pytest.raises(HardwareConfigError) as caught:
        check_seat_maps(unknown)
    assert caught.value.params["key"] == "seats.chess" and "mykerinos" in caught.value.params["problem"]


def test_diagnostics_report_the_phones_connected_when_given() -> None:
    from hardware.diagnostics import format_report, report

    with build({}, lambda event: None, mode="simulated") as hw:
        unknown = report(hw)
        assert unknown["phones"] is None and "not known here" in format_report(unknown)
        known = report(hw, phones=["mrx", "d1"])
        assert known["phones"] == ["d1", "mrx"] and "phones:        d1, mrx" in format_report(known)
        assert "none connected" in format_report(report(hw, phones=[]))


def _notice_codes() -> set[str]:
    codes: set[str] = set()
    sources = [ROOT / "companion" / "app" / "bindings.py", ROOT / "hardware" / "router.py"]
    sources += sorted((ROOT / "companion" / "games").glob("*/hardware.py"))
    for path in sources:
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Notice" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant):
                    codes.add(str(first.value))
                else:  # f"input.reader.{event.status}"
                    codes |= {f"input.reader.{s}" for s in ("disconnected", "error")}
            elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Remember" and len(node.args) == 3:
                codes.add(str(ast.literal_eval(node.args[2])))  # the notice that says a piece was remembered
    return codes


def test_every_input_notice_has_english_and_german_text() -> None:
    codes = _notice_codes() | {"bindings.malformed"}
    assert {
        "input.unknown_tag",
        "input.other_game",
        "input.no_game",
        "vm.input.agent_recorded",
        "input.reader.error",
        "sy.input.mister_x",
    } <= codes
    texts = catalogue()
    assert [(lang, c) for lang in ("en", "de") for c in sorted(codes) if c not in texts[lang]] == []


def test_companion_serve_builds_the_hardware_and_closes_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.net.serve import serve

    hardware = {
        "mode": "simulated",
        "buttons": [{"role": "next", "pin": 22}],
        "readers": [{"name": "r1", "type": "rdm6300", "port": "simulated"}],
    }
    config = Config(data_dir=tmp_path, host="127.0.0.1", port=0, hardware=hardware)
    threads = set(threading.enumerate())

    async def main() -> None:
        task = asyncio.create_task(serve(config))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while "Hardware (simulated)" not in capsys.readouterr().out:
            assert loop.time() < deadline and not task.done()
            await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    leftover = [t for t in set(threading.enumerate()) - threads if t.is_alive() and "asyncio" not in t.name]
    assert leftover == []
