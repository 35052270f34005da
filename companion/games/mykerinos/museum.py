"""The museum as data (``layouts.json``): rooms, values, owning wings, adjacency; placement and exhibition.

A layout lists every room once: its id, value (2, 3 or 5), the wings it belongs to (a 2-room belongs to
the two wings it lies between) and the rooms adjacent to it. Placement rule (rulebook, phase 3): any free
2- or 3-room, or a free 5-room adjacent to a 2- or 3-room the colour already holds.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
from collections.abc import Mapping
from dataclasses import dataclass

PATRONS: tuple[str, ...] = ("lady_violet", "lord_lemon", "sir_brown", "mrs_blackmore", "colonel_tangerine")
WINGS = 5
SET_BONUS = 5


@dataclass(frozen=True)
class Room:
    id: str
    value: int
    wings: tuple[int, ...]
    adjacent: tuple[str, ...]


@dataclass(frozen=True)
class Layout:
    name: str
    rooms: tuple[Room, ...]

    @functools.cached_property
    def by_id(self) -> dict[str, Room]:
        return {room.id: room for room in self.rooms}

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(room.id for room in self.rooms)


def _room(data: Mapping[str, object]) -> Room:
    rid, value, wings, adjacent = data["id"], data["value"], data["wings"], data["adjacent"]
    if not isinstance(rid, str) or not isinstance(value, int) or value not in (2, 3, 5):
        raise ValueError(f"bad room {data!r}")
    if not isinstance(wings, list) or not isinstance(adjacent, list):
        raise ValueError(f"bad room {data!r}")
    return Room(rid, value, tuple(int(w) for w in wings), tuple(str(a) for a in adjacent))


def _check(layout: Layout) -> None:
    ids = layout.by_id
    if len(ids) != len(layout.rooms):
        raise ValueError(f"{layout.name}: duplicate room ids")
    for room in layout.rooms:
        if not room.wings or any(not 1 <= w <= WINGS for w in room.wings):
            raise ValueError(f"{layout.name}: {room.id} has bad wings")
        if (room.value == 2) != (len(room.wings) == 2):
            raise ValueError(f"{layout.name}: {room.id}: exactly the 2-rooms are shared by two wings")
        for other in room.adjacent:
            if other not in ids or room.id not in ids[other].adjacent:
                raise ValueError(f"{layout.name}: adjacency {room.id}-{other} is not symmetric")
    for wing in range(1, WINGS + 1):
        values = sorted(r.value for r in layout.rooms if r.wings == (wing,))
        if values != [3, 5]:
            raise ValueError(f"{layout.name}: wing {wing} needs one 3-room and one 5-room")


@functools.cache
def layouts() -> dict[str, Layout]:
    text = importlib.resources.files(__package__).joinpath("layouts.json").read_text("utf-8")
    out: dict[str, Layout] = {}
    for name, body in json.loads(text).items():
        layout = Layout(name, tuple(_room(r) for r in body["rooms"]))
        _check(layout)
        out[name] = layout
    return out


def legal_rooms(layout: Layout, museum: Mapping[str, str], colour: str) -> tuple[str, ...]:
    """Free rooms ``colour`` may take now, in layout order."""
    held = {rid for rid, who in museum.items() if who == colour}
    out = []
    for room in layout.rooms:
        if room.id in museum:
            continue
        if room.value in (2, 3) or any(adj in held and layout.by_id[adj].value in (2, 3) for adj in room.adjacent):
            out.append(room.id)
    return tuple(out)


def room_refusal(layout: Layout, museum: Mapping[str, str], colour: str, room_id: str) -> str | None:
    """Why ``colour`` may not take ``room_id`` (an error code), or None."""
    if room_id not in layout.by_id:
        return "myk.unknown_room"
    if room_id in museum:
        return "myk.room_taken"
    if room_id not in legal_rooms(layout, museum, colour):
        return "myk.room_not_adjacent"
    return None


@dataclass(frozen=True)
class Exhibition:
    """One player's exhibition: points per wing (1..5 in order), the set bonus, the total."""

    wings: tuple[int, ...]
    sets: int

    @property
    def total(self) -> int:
        return sum(self.wings) + self.sets


def best_room(layout: Layout, museum: Mapping[str, str], colour: str, wing: int) -> int:
    """The value a card of ``wing``'s patron is worth: the best room held there, else 1."""
    rooms = [layout.by_id[rid] for rid, who in museum.items() if who == colour]
    values = [room.value for room in rooms if wing in room.wings]
    return max(values, default=1)


def exhibition(
    layout: Layout, patrons: tuple[str, ...], museum: Mapping[str, str], colour: str, cards: tuple[int, ...]
) -> Exhibition:
    """Wings 1-5 in order: per card of the wing's patron, the best room's value (5/3/2) or 1; +5 per set.

    ``cards`` counts the colour's patron cards in :data:`PATRONS` order (the patron-less parcel is not
    among them: it only scores its printed 5 points when taken).
    """
    wings = tuple(
        cards[PATRONS.index(patron)] * best_room(layout, museum, colour, wing)
        for wing, patron in enumerate(patrons, start=1)
    )
    return Exhibition(wings, SET_BONUS * min(cards, default=0))
