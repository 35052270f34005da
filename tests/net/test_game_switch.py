"""Switching games with phones still open, and inputs queued behind a switch (issue 12, items 1
and 2): every connection is bound to its game; the table lets go of the old game's phones with a
clear message; publishing to one connection never fails the commit or another connection; every
intent names its game and is refused, changing nothing, when that game is no longer open."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest
from harness import rig

from companion.app.table import OtherGame, Table
from companion.core import TABLE, Audience, IllegalMove
from companion.core.jsonvalue import JSONObject
from companion.games.scotland_yard.model import DrawStart, EndGame

SY = {"mister_x": "Xavier", "detectives": ["Dora", "Emil"]}
VM = {"players": [{"machine": 1}, {"machine": 2}], "secret_service_start": 5}


def run(coro) -> None:  # type: ignore[no-untyped-def]
    asyncio.run(coro)


def gid(table: Table) -> int:
    assert table.current is not None
    return table.current.header.id


def test_a_new_game_lets_go_of_the_old_games_phones_and_everything_else_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 12 (1): with Mister X's phone still open from Scotland Yard, a Victorian Masterminds
    game used to make every publish raise (his seat does not exist there): the touchscreen saw a
    red error for an applied action and later phones stopped updating."""

    async def scenario() -> None:
        async with rig(tmp_path, "scotland_yard", SY) as r:
            first = gid(r.table)
            await r.table.submit(DrawStart(), TABLE, r.table.seq, game_id=first)
            phones = await r.connect_all(["mrx", "d1", "@table"])
            touchscreen: list[JSONObject] = []
            r.table.subscribe(TABLE, touchscreen.append)

            second = await r.table.new_game("victorian_masterminds", VM, "Second game")
            # Every phone of the old game is told in words and let go; none gets a state of the new game.
            for seat, phone in phones.items():
                error = await phone.until("error")
                assert error["code"] == "link.game_switched", seat
                assert "new game" in error["text"]
                assert (await phone.recv())["type"] in ("<CLOSE>", "<CLOSED>", "<CLOSING>")
            assert r.server.connected_seats() == set()

            # The touchscreen acts in the new game: acknowledged (no error), and every screen updated.
            ack = await r.table.submit_json({"seq": 0, "intent": {"kind": "vm.start"}}, TABLE, game_id=second)
            assert ack.game_id == second and ack.seq > 0
            assert touchscreen[-1]["game_id"] == second and touchscreen[-1]["seq"] == ack.seq

            # A phone of the new game joins later and keeps receiving every change.
            p1 = (await r.connect_all(["p1"]))["p1"]
            assert json.loads(p1.received[-1])["seq"] == ack.seq
            await r.table.submit_json(
                {
                    "seq": ack.seq,
                    "intent": {"kind": "vm.adjust", "counter": "scientists", "delta": 1, "seat": "p1", "value": None},
                },
                TABLE,
                game_id=second,
            )
            assert (await p1.until("state"))["seq"] == r.table.seq

            # The old game's link now answers "not open" at once, in words.
            old = await r.phone(r.links.ensure(first, ["mrx"])[0].token, device=phones["mrx"].device)
            refused = await old.recv()
            assert refused["code"] == "link.not_open" and refused["text"]
        assert not [rec for rec in caplog.records if rec.exc_info], "no traceback in the log"

    caplog.set_level(logging.INFO)
    run(scenario())


def test_a_screen_whose_view_or_listener_fails_disturbs_neither_the_commit_nor_other_screens(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with rig(tmp_path, "toy", {}) as r:
            good: list[JSONObject] = []

            def broken(_message: JSONObject) -> None:
                raise ConnectionResetError("the phone vanished")

            r.table.subscribe(Audience.of_seat("a"), broken)
            r.table.subscribe(Audience.of_seat("nobody"), good.append)  # its view raises (no such seat)
            r.table.subscribe(TABLE, good.append)
            from toygame import Draw

            ack = await r.table.submit(Draw(), TABLE, 0, game_id=gid(r.table))
            assert ack.seq == 1
            assert good[-1]["seq"] == 1  # the table screen got its state

    run(scenario())


def test_an_input_queued_behind_a_game_switch_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """Issue 12 (2): a button's ``sy.end_game`` (``seq=None``: decided against whatever state is
    current) meant for game 1 used to end game 2 when a game switch was queued before it."""

    async def scenario() -> None:
        async with rig(tmp_path, "scotland_yard", SY) as r:
            first = gid(r.table)
            await r.table.submit(DrawStart(), TABLE, None, game_id=first)
            switch = asyncio.create_task(r.table.new_game("scotland_yard", SY, "Second"))
            late = asyncio.create_task(r.table.submit(EndGame(), TABLE, None, game_id=first))
            second = await switch
            with pytest.raises(OtherGame) as refused:
                await late
            assert refused.value.code == "table.other_game"
            assert gid(r.table) == second and r.table.seq == 0 and r.table.game is not None
            assert r.table.game.outcome() is None

            # Both games at the same seq: an intent for the old game is still refused by its game id.
            await r.table.open_game(first)
            at = r.table.seq
            await r.table.open_game(second)
            with pytest.raises(OtherGame):
                await r.table.submit_json({"seq": at, "intent": {"kind": "sy.end_game"}}, TABLE, game_id=first)
            with pytest.raises(IllegalMove):  # the right game decides as usual
                await r.table.submit_json(
                    {"seq": 0, "intent": {"kind": "sy.set_tracker", "on": False}}, TABLE, game_id=second
                )
            assert r.table.seq == 0

    run(scenario())
