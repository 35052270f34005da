"""Mister X played by the table, on a real event loop with a real SQLite file: his moves are the
same intents through the same table and store as a phone's, decided off the event loop after a
thinking delay, dropped when the game moves on meanwhile, and repeated exactly after a restart."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.app import autoplay
from companion.app.autoplay import TablePlayer
from companion.app.savedgame import load_game
from companion.app.store import Store
from companion.app.table import Table
from companion.core import TABLE, Audience, Forbidden, Undo
from companion.games.scotland_yard import RULES, ai
from companion.games.scotland_yard.ai_maps import maps
from companion.games.scotland_yard.model import REVEALS, Confirm, DrawStart, FigureMoved, Move, SYState, XMoved

AI_GAME = {"mister_x_ai": "hard", "detectives": ["Ann", "Bob", "Cleo"], "tracker": True}


async def open_table(path: Path, thinking: float = 0.05) -> tuple[Table, TablePlayer]:
    table = Table(Store(path))
    await table.start()
    player = TablePlayer(table, thinking=thinking, cpu_budget=None)  # no budget: exactly repeatable
    player.start()
    return table, player


async def close(table: Table, player: TablePlayer) -> None:
    await player.stop()
    await table.stop()
    table.store.close()


def state_of(table: Table) -> SYState:
    assert table.game is not None
    state: SYState = table.game.state
    return state


async def until(check: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the table did not get there"
        await asyncio.sleep(0.01)


def detective_move(state: SYState, rng: random.Random) -> Move:
    """A detective team that heads for the possible stations it knows of (public facts only)."""
    legal: Any = RULES.legal(state, TABLE)
    m = maps(state.board)
    figure = sorted(legal["moves"])[0]
    options = [(line, s) for line, dests in legal["moves"][figure].items() for s in dests]
    best = min(min(m.dist[s][c] for c in state.candidates) for _, s in options)
    line, station = rng.choice([o for o in options if min(m.dist[o[1]][c] for c in state.candidates) == best])
    return Move(figure, line, station)


def test_the_table_plays_a_whole_game_as_mister_x_through_the_table_and_the_store(tmp_path: Path) -> None:
    """Rulebook: "Mister X muss sich ... nach seinem 3., 8., 13., 18. und 24. Zug" zeigen — the
    table's Mister X is shown on exactly those fields, and nowhere else, until the end."""

    async def scenario() -> None:
        table, player = await open_table(tmp_path / "t.sqlite3")
        seen: list[Any] = []
        table.subscribe(TABLE, seen.append)
        gid = await table.new_game("scotland_yard", AI_GAME, "ai", seed=1)
        assert RULES.seats(state_of(table)) == ("d1", "d2", "d3")  # no seat, so no phone link, for him
        with pytest.raises(Forbidden):
            RULES.view(state_of(table), Audience.of_seat("mrx"))
        await table.submit(DrawStart(), TABLE, table.seq, game_id=gid)
        rng = random.Random(4)
        while state_of(table).end is None:
            await until(lambda: state_of(table).phase in ("detectives", "over"))
            while state_of(table).phase == "detectives":
                await table.submit(detective_move(state_of(table), rng), TABLE, table.seq, game_id=gid)
        state = state_of(table)
        assert state.end is not None and state.end.reason in ("captured", "x_escaped", "x_trapped")
        # His moves are logged like a phone's, with their source, and the saved game folds to the same.
        loaded = load_game(table.store, gid)
        assert loaded.game.state == state
        x_actions = [e.action for e in loaded.game.entries if isinstance(e.event, XMoved) and e.seq == e.action]
        assert x_actions and all(loaded.source(a) == autoplay.SOURCE for a in x_actions)
        # Reveals: the public view showed him after fields 3, 8, 13, 18 (24) and never otherwise.
        for message in seen:
            view = message.get("view")
            if not view or view["phase"] == "over":
                continue
            shown = view["mrx"]["station"]
            last = view["log"][-1] if view["log"] else None
            if shown is not None:
                assert last is not None and last["field"] in REVEALS and last["station"] == shown
            for field in view["log"]:
                assert (field["station"] is not None) == (field["field"] in REVEALS), field
        assert any(m.get("view", {}).get("mrx", {}).get("station") for m in seen[:-1])  # at least one reveal
        await close(table, player)

    asyncio.run(scenario())


def test_an_undo_while_he_thinks_drops_his_move(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, player = await open_table(tmp_path / "t.sqlite3", thinking=1.0)
        gid = await table.new_game("scotland_yard", AI_GAME, "ai", seed=1)
        await table.submit(DrawStart(), TABLE, table.seq, game_id=gid)
        await until(lambda: state_of(table).phase == "detectives")
        rng = random.Random(1)
        while state_of(table).phase == "detectives":
            await table.submit(detective_move(state_of(table), rng), TABLE, table.seq, game_id=gid)
        assert state_of(table).phase == "x"
        await until(lambda: player.thinking_now)
        await table.submit(Undo(), TABLE, table.seq, game_id=gid)  # the last detective move, taken back
        assert state_of(table).phase == "detectives"
        undone = table.seq
        await until(lambda: not player.thinking_now)
        await asyncio.sleep(0.2)
        assert table.seq == undone  # his move, decided for the state before the undo, was dropped
        assert len(state_of(table).route) == 1
        # The detective moves again: now he answers, once.
        await table.submit(detective_move(state_of(table), rng), TABLE, table.seq, game_id=gid)
        await until(lambda: len(state_of(table).route) >= 2)
        await asyncio.sleep(0.2)
        assert state_of(table).phase == "detectives" and len(state_of(table).route) in (2, 3)
        await close(table, player)

    asyncio.run(scenario())


def test_after_a_restart_he_answers_with_the_move_his_seed_gives(tmp_path: Path) -> None:
    async def scenario() -> None:
        path = tmp_path / "t.sqlite3"
        table, player = await open_table(path, thinking=60)  # he will not get to move before the "power cut"
        gid = await table.new_game("scotland_yard", AI_GAME, "ai", seed=1)
        await table.submit(DrawStart(), TABLE, table.seq, game_id=gid)
        assert state_of(table).phase == "x"
        await until(lambda: player.thinking_now)
        waiting = state_of(table)
        seed = table.game.seed  # type: ignore[union-attr]
        await close(table, player)

        table, player = await open_table(path)
        await until(lambda: state_of(table).phase == "detectives")
        expected = ai.choose(waiting, "hard", seed, cpu_budget=None)
        after = waiting
        for event in RULES.decide(waiting, expected, Audience.of_seat("mrx"), random.Random(0)):
            after = RULES.apply(after, event)
        assert state_of(table).route == after.route
        await close(table, player)

    asyncio.run(scenario())


def test_he_thinks_off_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    real = ai.choose

    def watched(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(ai, "choose", watched)

    async def scenario() -> None:
        table, player = await open_table(tmp_path / "t.sqlite3")
        gid = await table.new_game("scotland_yard", AI_GAME, "ai", seed=1)
        await table.submit(DrawStart(), TABLE, table.seq, game_id=gid)
        await until(lambda: state_of(table).phase == "detectives")
        await close(table, player)

    asyncio.run(scenario())
    assert threads and threading.main_thread().name not in threads


TABLE_DETECTIVES = {"detectives": ["Ann", "Bob"], "detectives_ai": "normal", "tracker": True}


def test_the_tables_detectives_give_the_same_instructions_after_a_restart(tmp_path: Path) -> None:
    """The table moves its detectives one instruction at a time (each waits for its pawn), as the
    actor ``yard`` with the player's source; after a "power cut" the log folds to the same state and
    the table gives the instruction the game's seed and the public log give."""

    async def scenario() -> None:
        path = tmp_path / "t.sqlite3"
        table, player = await open_table(path)
        gid = await table.new_game("scotland_yard", TABLE_DETECTIVES, "ai", seed=3)
        await table.submit(DrawStart(), TABLE, table.seq, game_id=gid)
        for _ in range(2):  # two rounds: Mister X on his phone, then each table figure, confirmed
            await table.submit(
                ai.choose(state_of(table), "easy", 0, None), Audience.of_seat("mrx"), table.seq, game_id=gid
            )
            while state_of(table).phase == "detectives" and state_of(table).end is None:
                await until(lambda: state_of(table).instruction is not None or state_of(table).phase != "detectives")
                waiting = state_of(table).instruction
                if waiting is not None:
                    await asyncio.sleep(0.1)
                    assert state_of(table).instruction == waiting  # no further move before the pawn
                    await table.submit(Confirm(waiting.figure), TABLE, table.seq, game_id=gid)
        await table.submit(ai.choose(state_of(table), "easy", 0, None), Audience.of_seat("mrx"), table.seq, game_id=gid)
        await until(lambda: state_of(table).instruction is not None)
        first = state_of(table).instruction
        before = state_of(table)
        loaded = load_game(table.store, gid)
        yard = [e.action for e in loaded.game.entries if isinstance(e.event, FigureMoved) and e.event.by_table]
        assert len(yard) >= 9 and all(loaded.source(a) == autoplay.SOURCE for a in yard)
        await table.submit(Undo(), TABLE, table.seq, game_id=gid)  # the instruction, taken back
        await close(table, player)

        table, player = await open_table(path)  # the "power cut" is over: the log is folded again
        assert load_game(table.store, gid).game.state == state_of(table)
        await until(lambda: state_of(table).instruction is not None)
        assert state_of(table) == before and state_of(table).instruction == first
        await close(table, player)

    asyncio.run(scenario())
