"""Where Mister X can be, from PUBLIC information only.

Nothing in this module ever receives Mister X's real position: its inputs are what the whole
table sees — the X start deck, the ticket written on each log field, a station he was shown
on at a reveal, and where the detectives and bobbies stand. ``apply`` keeps the set current
with these functions; :func:`replay` computes it from scratch from a public record, and the
tests check both agree (and that the set always holds his true station).

:func:`after_x_move` is the step a benchmark times per Mister X move.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from companion.games.scotland_yard.board import X_CARDS, Board


def start() -> frozenset[int]:
    """Before his first move Mister X stands on one of the 13 X start stations."""
    return frozenset(X_CARDS)


def after_x_move(board: Board, candidates: Iterable[int], ticket: str, occupied: Collection[int]) -> frozenset[int]:
    """Every station one ``ticket`` step from a candidate (black: any line incl. the ferry),
    except stations a detective or bobby stands on at that moment."""
    reach: set[int] = set()
    for station in candidates:
        reach.update(board.neighbours(ticket, station))
    reach.difference_update(occupied)
    return frozenset(reach)


def after_landing(candidates: frozenset[int], station: int) -> frozenset[int]:
    """A detective or bobby landed on ``station`` without capturing: he is not there."""
    return candidates - {station} if station in candidates else candidates


def after_reveal(station: int) -> frozenset[int]:
    return frozenset((station,))


@dataclass(frozen=True)
class Seen:
    """One public fact, in log order.

    - a Mister X log field: ``ticket`` set, ``station`` None (hidden);
    - Mister X shown on ``station`` (a reveal field, or his capture): ``station`` set, no ``figure``;
    - a figure standing on ``station`` (start placement or a move): ``figure`` and ``station`` set.
    """

    ticket: str | None = None
    station: int | None = None
    figure: str | None = None


def replay(board: Board, record: Iterable[Seen]) -> frozenset[int]:
    """The tracker set after a whole public record (a pure fold; used to cross-check ``apply``)."""
    candidates = start()
    where: dict[str, int] = {}
    for fact in record:
        if fact.figure is not None:
            assert fact.station is not None
            where[fact.figure] = fact.station
            candidates = after_landing(candidates, fact.station)
        elif fact.station is not None:
            candidates = after_reveal(fact.station)
        else:
            assert fact.ticket is not None
            candidates = after_x_move(board, candidates, fact.ticket, set(where.values()))
    return candidates
