"""Tables the AIs (Mister X's and the table's detectives') read many times per decision, computed once per board.

Distances count moves along taxi, bus and underground lines (what a detective or bobby can use),
ignoring tickets and other figures. They are symmetric, so ``dist[a][b] == dist[b][a]``.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from companion.games.scotland_yard.board import LAND, Board

FAR: Final = 99  # "unreachable" (a station no land line reaches; there is none on the real board)
#: bit per land line in a figure's ticket mask: taxi 1, bus 2, underground 4 (a bobby has 7)
ALL_LINES: Final = 7


@dataclass(frozen=True)
class Maps:
    board: Board
    dist: tuple[bytes, ...]  # dist[a][b]
    land: tuple[tuple[tuple[int, int], ...], ...]  # per station: (line bit, neighbour)
    around: tuple[frozenset[int], ...]  # per station: every neighbour along any line, the ferry included
    _reach: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)

    def reach(self, station: int, mask: int) -> tuple[int, ...]:
        """Stations a figure on ``station`` can move to with the lines in ``mask`` (occupancy ignored)."""
        key = (station, mask)
        found = self._reach.get(key)
        if found is None:
            found = tuple(sorted({n for bit, n in self.land[station] if bit & mask}))
            self._reach[key] = found
        return found


@functools.cache
def maps(board: Board) -> Maps:
    size = max(board.stations) + 1
    land = []
    around = []
    for s in range(size):
        pairs = [(1 << k, n) for k, line in enumerate(LAND) for n in board.neighbours(line, s)] if s else []
        land.append(tuple(pairs))
        around.append(frozenset(board.neighbours("black", s)) if s else frozenset())
    dist = []
    for source in range(size):
        row = bytearray([FAR]) * size
        if source:
            row[source] = 0
            todo = deque([source])
            while todo:
                here = todo.popleft()
                for _bit, n in land[here]:
                    if row[n] == FAR:
                        row[n] = row[here] + 1
                        todo.append(n)
        dist.append(bytes(row))
    return Maps(board, tuple(dist), tuple(land), tuple(around))


@functools.cache
def mask_rows(board: Board) -> Callable[[int, int], bytes]:
    """``row(mask, source)``: the moves a figure holding the lines in ``mask`` (see ``ALL_LINES``)
    needs from ``source`` to every station (``FAR``: never), computed once per mask and source."""
    m = maps(board)

    @functools.cache
    def row(mask: int, source: int) -> bytes:
        out = bytearray([FAR]) * len(m.dist)
        out[source] = 0
        frontier = [source]
        d = 0
        while frontier:
            d += 1
            nxt = []
            for here in frontier:
                for n in m.reach(here, mask):
                    if out[n] == FAR:
                        out[n] = d
                        nxt.append(n)
            frontier = nxt
        return bytes(out)

    return row
