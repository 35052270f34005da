"""The map: 199 stations and their connections, and the two decks of start cards.

The data ships as CSV files in ``data/`` (a board file is data, not code). A table whose printed
board differs (e.g. the 1983 board has a taxi line 13–14) adds or removes single connections in
its setup config; :func:`board_for` validates such changes and returns an immutable :class:`Board`.
"""

from __future__ import annotations

import csv
import functools
import importlib.resources
import io
from dataclasses import dataclass, field
from typing import Final

from companion.core.errors import SetupError
from companion.core.jsonvalue import JSON

TRANSPORTS: Final = ("taxi", "bus", "underground", "ferry")
#: transports a bobby may use (and a detective, with the ticket of the same name)
LAND: Final = ("taxi", "bus", "underground")

Edge = tuple[int, int, str]  # (a, b, transport) with a < b


def _data(name: str) -> str:
    return importlib.resources.files("companion.games.scotland_yard.data").joinpath(name).read_text("utf-8")


def parse_edges(text: str) -> frozenset[Edge]:
    rows = list(csv.reader(io.StringIO(text)))
    if rows[0] != ["a", "b", "transport"]:
        raise ValueError("map-edges.csv: unexpected header")
    edges = set()
    for a, b, transport in rows[1:]:
        lo, hi = sorted((int(a), int(b)))
        if transport not in TRANSPORTS or lo == hi:
            raise ValueError(f"map-edges.csv: bad row {a},{b},{transport}")
        edges.add((lo, hi, transport))
    return frozenset(edges)


def parse_start_cards(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The D deck and the X deck, each sorted."""
    rows = list(csv.reader(io.StringIO(text)))
    if rows[0] != ["card_back", "station"]:
        raise ValueError("start-stations.csv: unexpected header")
    deck: dict[str, list[int]] = {"D": [], "X": []}
    for back, station in rows[1:]:
        deck[back].append(int(station))
    return tuple(sorted(deck["D"])), tuple(sorted(deck["X"]))


D_CARDS, X_CARDS = parse_start_cards(_data("start-stations.csv"))


@dataclass(frozen=True)
class Board:
    """An immutable map. ``edges`` is the whole truth; the neighbour tables are derived."""

    stations: tuple[int, ...]
    edges: frozenset[Edge]
    _next: dict[str, tuple[tuple[int, ...], ...]] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        size = max(self.stations) + 1
        sets: dict[str, list[set[int]]] = {t: [set() for _ in range(size)] for t in TRANSPORTS}
        for a, b, transport in self.edges:
            sets[transport][a].add(b)
            sets[transport][b].add(a)
        table = {t: tuple(tuple(sorted(s)) for s in rows) for t, rows in sets.items()}
        # A black ticket uses any line, the ferry included.
        table["black"] = tuple(tuple(sorted(set().union(*(sets[t][s] for t in TRANSPORTS)))) for s in range(size))
        object.__setattr__(self, "_next", table)

    def neighbours(self, line: str, station: int) -> tuple[int, ...]:
        """Stations one step away along ``line`` (a transport, or ``"black"`` for any line)."""
        return self._next[line][station]

    def count(self, transport: str) -> int:
        return sum(1 for edge in self.edges if edge[2] == transport)

    def is_station(self, station: int) -> bool:
        return self.stations[0] <= station <= self.stations[-1]


@functools.cache
def base_board() -> Board:
    edges = parse_edges(_data("map-edges.csv"))
    top = max(max(a, b) for a, b, _ in edges)
    return Board(tuple(range(1, top + 1)), edges)


def _connection(board: Board, raw: JSON, where: str) -> Edge:
    if (
        not isinstance(raw, list)
        or len(raw) != 3
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw[:2])
        or not isinstance(raw[2], str)
    ):
        raise SetupError("sy.board.bad_connection", f"{where}: expected [station, station, transport]", where=where)
    a, b, transport = raw
    assert isinstance(a, int) and isinstance(b, int) and isinstance(transport, str)
    for station in (a, b):
        if not board.is_station(station):
            raise SetupError("sy.board.unknown_station", f"{where}: no station {station}", where=where, station=station)
    if transport not in TRANSPORTS:
        raise SetupError(
            "sy.board.unknown_transport", f"{where}: unknown transport", where=where, transport=transport[:20]
        )
    if a == b:
        raise SetupError("sy.board.loop", f"{where}: a connection joins two stations", where=where, station=a)
    return (min(a, b), max(a, b), transport)


def board_for(changes: JSON) -> Board:
    """The base board with the table's changes ``{"add": [[a, b, t], ...], "remove": [...]}``."""
    board = base_board()
    if changes is None:
        return board
    if not isinstance(changes, dict) or set(changes) - {"add", "remove"}:
        raise SetupError("sy.setup.board", 'board: expected {"add": [...], "remove": [...]}')
    parsed: dict[str, list[Edge]] = {}
    for key in ("add", "remove"):
        raw = changes.get(key, [])
        if not isinstance(raw, list):
            raise SetupError("sy.setup.board", f"board.{key}: expected a list")
        parsed[key] = [_connection(board, item, f"board.{key}[{i}]") for i, item in enumerate(raw)]
    add, remove = parsed["add"], parsed["remove"]
    if len(set(add)) != len(add) or len(set(remove)) != len(remove) or set(add) & set(remove):
        raise SetupError("sy.board.repeated", "a connection is listed twice")
    for a, b, t in add:
        if (a, b, t) in board.edges:
            raise SetupError("sy.board.exists", f"{a}–{b} {t} is already on the board", a=a, b=b, transport=t)
    for a, b, t in remove:
        if (a, b, t) not in board.edges:
            raise SetupError("sy.board.missing", f"{a}–{b} {t} is not on the board", a=a, b=b, transport=t)
    return _cached_board(frozenset(add), frozenset(remove))


@functools.cache
def _cached_board(add: frozenset[Edge], remove: frozenset[Edge]) -> Board:
    base = base_board()
    if not add and not remove:
        return base
    return Board(base.stations, (base.edges - remove) | add)
