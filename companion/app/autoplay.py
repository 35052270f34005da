"""Seats the table plays itself (Scotland Yard: Mister X played by the AI).

A game's rules answer ``table_turn(state, seed, cpu_budget)`` with ``None`` (the default) or a
:class:`~companion.core.rules.TableTurn`: ``seat`` (who the table acts as) and ``decide()`` (a
slow, pure function returning the intent). :class:`TablePlayer` watches the table: when such a
turn comes it runs ``decide`` on a worker thread (never on the event loop), lets a short
"thinking" delay pass, and submits the intent as that seat with ``Table.submit`` — the same
intents, rules checks and store as a phone's, with the source ``table_player``. If the game moved
on meanwhile (an undo at the table, another game opened), the intent is dropped and the new state
is looked at instead. A decision is repeatable: it gets the game's own seed, so a restart decides
the same move again (unless the CPU budget cut one of the two searches short, on a machine too
slow for the level).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from companion.app.table import Table
from companion.core.audience import TABLE, Audience
from companion.core.errors import CompanionError
from companion.core.jsonvalue import JSONObject
from companion.core.rules import TableTurn

log = logging.getLogger(__name__)

THINKING = 1.5  # seconds between the table's turn and its move, so the table sees it think
CPU_BUDGET = 0.5  # CPU seconds one decision may take (``[table] ai_cpu_budget``)
SOURCE = "table_player"


class TablePlayer:
    """Plays the seats the open game's rules give to the table. Use from the event loop."""

    def __init__(self, table: Table, thinking: float = THINKING, cpu_budget: float | None = CPU_BUDGET) -> None:
        self.table = table
        self.thinking = thinking
        self.cpu_budget = cpu_budget
        self._task: asyncio.Task[None] | None = None
        self._key: tuple[int, int] | None = None  # (game, seq) the running decision is for
        self._failed: tuple[int, int] | None = None  # a state whose decision failed (not tried again)
        self._subscription: Any = None
        self._stopped = False

    def start(self) -> None:
        self._stopped = False
        self._subscription = self.table.subscribe(TABLE, self._changed)

    async def stop(self) -> None:
        self._stopped = True  # a look scheduled before the stop starts nothing
        if self._subscription is not None:
            self._subscription.close()
            self._subscription = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    @property
    def thinking_now(self) -> bool:
        return self._task is not None and not self._task.done()

    async def idle(self) -> None:
        """Wait until the table has nothing left to play in the open game (the command line waits
        for Mister X's answer before it ends)."""
        while True:
            self._look()
            task = self._task
            if task is None or task.done():
                return
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(task)

    def _changed(self, _message: JSONObject) -> None:
        # Called while the table publishes: look once the publishing is over.
        self.table.loop.call_soon(self._look)

    def _look(self) -> None:
        if self._stopped or self.thinking_now:
            return  # it looks again when this decision is done
        loaded = self.table.current
        if loaded is None:
            return
        game = loaded.game
        key = (loaded.header.id, game.seq)
        if key == self._failed or game.outcome() is not None:
            return
        turn = game.rules.table_turn(game.state, game.seed, self.cpu_budget)
        if turn is None:
            return
        self._key = key
        self._task = asyncio.create_task(self._play(key, turn), name="companion-table-player")

    async def _play(self, key: tuple[int, int], turn: TableTurn) -> None:
        loop = self.table.loop
        started = loop.time()
        try:
            intent = await asyncio.to_thread(turn.decide)
        except Exception:
            log.exception("the table could not decide its move; it waits for the game to change")
            self._failed = key
            return
        rest = self.thinking - (loop.time() - started)
        if rest > 0:
            await asyncio.sleep(rest)
        current = self.table.current
        if current is None or (current.header.id, current.game.seq) != key:
            loop.call_soon(self._look)  # the game moved on while it thought: look at the new state
            return
        try:
            await self.table.submit(intent, Audience.of_seat(turn.seat), key[1], game_id=key[0], source=SOURCE)
        except CompanionError as exc:
            log.warning("the table's move as %s was refused: %s", turn.seat, exc.code)
            current = self.table.current
            if current is not None and (current.header.id, current.game.seq) == key:
                self._failed = key  # refused for this very state: never the same refusal in a loop
        loop.call_soon(self._look)
