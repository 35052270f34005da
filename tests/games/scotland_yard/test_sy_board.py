"""The shipped board data, its loader, table changes to it, and known answers on the map."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import Any

import pytest
from sy_support import D1, MRX, legal, placed

from companion.core import TABLE, SetupError
from companion.games.scotland_yard import RULES, moves
from companion.games.scotland_yard.board import (
    D_CARDS,
    X_CARDS,
    Board,
    base_board,
    board_for,
    parse_edges,
    parse_start_cards,
)
from companion.games.scotland_yard.model import XMove

REPO = Path(__file__).resolve().parents[3]
SHIPPED = REPO / "companion" / "games" / "scotland_yard" / "data"
# The project's reference files (shared/reference/scotland-yard/, kept beside the repository by the
# maintainers, not in it): their SHA-256, so the check holds wherever a checkout lives.
REFERENCE_SHA256 = {
    "map-edges.csv": "ef99f5f539a9dbc78303f9a0ded2664f656782c3070070864be3ae061d49f764",
    "start-stations.csv": "eee4c1e7eca85d62f86f5ae1fb26831047000f477beaba03c415ef6c75c59783",
}
REFERENCE = REPO / ".." / "shared" / "reference" / "scotland-yard"


@pytest.mark.parametrize("name", sorted(REFERENCE_SHA256))
def test_shipped_data_equals_the_reference_files(name: str) -> None:
    shipped = (SHIPPED / name).read_bytes()
    assert hashlib.sha256(shipped).hexdigest() == REFERENCE_SHA256[name]
    if (REFERENCE / name).is_file():  # beside the maintainers' checkout: the files themselves
        assert shipped == (REFERENCE / name).read_bytes()


def test_the_loaded_board_matches_the_reference_counts() -> None:
    board = base_board()
    reference = parse_edges((SHIPPED / "map-edges.csv").read_text("utf-8"))
    assert board.edges == reference
    assert board.stations == tuple(range(1, 200))
    counts = {t: board.count(t) for t in ("taxi", "bus", "underground", "ferry")}
    assert counts == {"taxi": 345, "bus": 99, "underground": 20, "ferry": 3}
    assert {(a, b) for a, b, t in board.edges if t == "ferry"} == {(108, 115), (115, 157), (157, 194)}
    assert all(board.neighbours("taxi", s) for s in board.stations)  # taxi stops everywhere
    underground = {s for s in board.stations if board.neighbours("underground", s)}
    assert underground == {1, 13, 46, 67, 74, 79, 89, 93, 111, 128, 140, 153, 163, 185}


def test_start_decks() -> None:
    d, x = parse_start_cards((SHIPPED / "start-stations.csv").read_text("utf-8"))
    assert (d, x) == (D_CARDS, X_CARDS)
    assert len(D_CARDS) == 16 and len(X_CARDS) == 13 and not set(D_CARDS) & set(X_CARDS)
    assert X_CARDS == (35, 45, 51, 71, 78, 104, 106, 127, 132, 146, 166, 170, 172)


def test_the_board_is_immutable() -> None:
    board = base_board()
    with pytest.raises(dataclasses.FrozenInstanceError):
        board.edges = frozenset()  # type: ignore[misc]
    assert isinstance(board.neighbours("taxi", 1), tuple)
    assert hash(board) == hash(Board(board.stations, board.edges))


def test_black_reaches_every_line_including_the_ferry() -> None:
    board = base_board()
    assert board.neighbours("black", 157) == (115, 133, 142, 156, 158, 170, 185, 194)
    assert 115 not in board.neighbours("taxi", 157) + board.neighbours("bus", 157)


def test_detective_on_128_has_exactly_13_moves() -> None:
    game = placed({"D1": 13, "D2": 26, "B1": 29, "B2": 34}, 35)
    game.commit(game.decide(XMove("taxi", 36), MRX, game.seq))
    state = dataclasses.replace(game.state, positions=(128, 26, 29, 34))
    options = moves.figure_options(state, 0)
    assert options == {
        "taxi": (142, 143, 160, 172, 188),
        "bus": (135, 142, 161, 187, 199),
        "underground": (89, 140, 185),
    }
    assert sum(len(v) for v in options.values()) == 13
    assert legal(state, D1)["moves"]["D1"] == {k: list(v) for k, v in options.items()}


def test_mister_x_at_104_has_58_moves_with_one_detective_at_117() -> None:
    """University of Bristol vector: 4 taxi / 3 bus / 3 underground, 5 black, 2 double, detective at 117."""
    game = placed({"D1": 117, "D2": 13, "B1": 26, "B2": 29}, 104)
    state = dataclasses.replace(game.state, supply=(4, 3, 3))
    singles = moves.x_singles(state)
    doubles = moves.x_doubles(state)
    assert singles == {"taxi": (86, 116), "black": (86, 116)}
    pairs = [(t1, s1, t2, s2) for t1, s1, then in doubles for t2, dest in then.items() for s2 in dest]
    assert len(set(pairs)) == len(pairs) == 54
    assert len(pairs) + 4 == 58
    assert ("taxi", 116, "taxi", 117) not in pairs  # the detective's station
    assert ("black", 116, "bus", 108) in pairs


def test_a_table_can_add_and_remove_single_connections() -> None:
    board = board_for({"add": [[14, 13, "taxi"]], "remove": [[58, 75, "taxi"]]})
    assert (13, 14, "taxi") in board.edges and (58, 75, "taxi") not in board.edges
    assert board.count("taxi") == 345 and len(board.edges) == 467
    assert 14 in board.neighbours("taxi", 13) and 75 not in board.neighbours("taxi", 58)
    assert board_for({"add": [[13, 14, "taxi"]], "remove": [[58, 75, "taxi"]]}) is board  # cached
    assert board_for(None) is base_board() and board_for({}) is base_board()
    state = RULES.setup({"board": {"add": [[13, 14, "taxi"]]}})
    assert 14 in state.board.neighbours("taxi", 13)
    assert 14 not in RULES.setup({}).board.neighbours("taxi", 13)


def test_a_board_change_is_used_by_moves() -> None:
    config = {"board": {"add": [[13, 14, "taxi"]]}}
    game = placed({"D1": 13, "D2": 26, "B1": 29, "B2": 34}, 35, config)
    game.commit(game.decide(XMove("taxi", 36), MRX, game.seq))
    assert 14 in legal(game.state, TABLE)["moves"]["D1"]["taxi"]


@pytest.mark.parametrize(
    ("changes", "code", "params"),
    [
        ([], "sy.setup.board", {}),
        ({"add": [[1, 8, "taxi"]], "move": []}, "sy.setup.board", {}),
        ({"add": "13-14"}, "sy.setup.board", {}),
        ({"add": [[13, 14]]}, "sy.board.bad_connection", {"where": "board.add[0]"}),
        ({"add": [[13, "14", "taxi"]]}, "sy.board.bad_connection", {"where": "board.add[0]"}),
        ({"add": [[13, True, "taxi"]]}, "sy.board.bad_connection", {"where": "board.add[0]"}),
        ({"add": [[13, 200, "taxi"]]}, "sy.board.unknown_station", {"where": "board.add[0]", "station": 200}),
        ({"remove": [[0, 1, "taxi"]]}, "sy.board.unknown_station", {"where": "board.remove[0]", "station": 0}),
        ({"add": [[13, 14, "boat"]]}, "sy.board.unknown_transport", {"where": "board.add[0]", "transport": "boat"}),
        ({"add": [[13, 13, "taxi"]]}, "sy.board.loop", {"where": "board.add[0]", "station": 13}),
        ({"add": [[1, 8, "taxi"]]}, "sy.board.exists", {"a": 1, "b": 8, "transport": "taxi"}),
        ({"remove": [[13, 14, "taxi"]]}, "sy.board.missing", {"a": 13, "b": 14, "transport": "taxi"}),
        ({"add": [[13, 14, "taxi"], [14, 13, "taxi"]]}, "sy.board.repeated", {}),
        ({"add": [[13, 14, "taxi"]], "remove": [[13, 14, "taxi"]]}, "sy.board.repeated", {}),
    ],
)
def test_bad_board_changes_are_refused_clearly(changes: Any, code: str, params: dict[str, object]) -> None:
    with pytest.raises(SetupError) as info:
        RULES.setup({"board": changes})
    assert info.value.code == code
    assert info.value.params == params
