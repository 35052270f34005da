"""The state of a Mykerinos game: one frozen dataclass, tuples only (exact JSON round trips).

Per-colour tuples follow ``MykState.colours`` (the seats in seating order, then the neutral colour in a
two-player game); per-seat tuples follow ``MykState.seats``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.core.frozen import replace
from companion.games.mykerinos.museum import PATRONS, Layout, layouts

COLOURS: tuple[str, ...] = ("blue", "red", "green", "white")
PER_COLOUR = 25
NAME_LENGTH = 40  # a player's name, at most
SEASONS = 4
PARCEL_POINTS: tuple[int, ...] = (0, 2, 3, 5)
PATRON_POINTS: tuple[int, ...] = (0, 2, 3)  # a parcel with a patron on its back
BLANK_POINTS = 5  # the one parcel with no patron on its back: the only one worth 5

Phase = Literal["setup", "excavation", "survey", "season_end", "over"]
Step = Literal["action", "neutral", "done"]


def handout(players: int) -> int:
    """Own archaeologists taken per season: 11 with 3 players (and with 2), 8 with 4."""
    return 8 if players == 4 else 11


NEUTRAL_HANDOUT = 4  # two players: each also takes 4 neutral archaeologists per season


def zones_in(season: int) -> int:
    return 6 if season == SEASONS else 4


def zone_place(zone: int) -> tuple[int, str]:
    """Where zone ``zone`` (from 1) lies: its row (from 1, the row under the board first) and its
    side. Zones are laid out two per row and surveyed row by row, left then right."""
    return (zone + 1) // 2, "left" if zone % 2 else "right"


@dataclass(frozen=True)
class Turn:
    """Whose turn it is in the excavation. ``step`` is ``neutral`` after a two-player normal action
    (the optional neutral excavation) and ``done`` once the last player's single action is over."""

    seat: str
    step: Step = "action"
    final: bool = False


@dataclass(frozen=True)
class Zone:
    """The zone being surveyed. Until ``counted``, the table still has to enter the counts."""

    index: int
    counted: bool = False
    counts: tuple[int, ...] = ()  # per colour
    ranking: tuple[str, ...] = ()  # colours with at least one archaeologist, best first
    pos: int = 0  # index into ranking of the next to act
    parcels: int = 2  # parcels still lying in the zone


@dataclass(frozen=True)
class Note:
    """A correction made by the table, kept for the public log on every screen."""

    season: int
    kind: str
    subject: str
    value: str


@dataclass(frozen=True)
class MykState:
    seats: tuple[str, ...]
    neutral: str | None
    layout: str
    phase: Phase = "setup"
    season: int = 0
    start_player: str | None = None  # who starts this season
    first_player: str | None = None  # who started the game (drawn or chosen at setup)
    patrons: tuple[str, ...] = ()  # patron on wing 1..5
    general: tuple[int, ...] = ()  # per colour
    board: tuple[int, ...] = ()  # per colour: placed this season, not yet surveyed
    supply: tuple[int, ...] = ()  # per seat: own archaeologists in the personal supply
    neutral_supply: tuple[int, ...] = ()  # per seat: neutral archaeologists held (two players)
    museum: tuple[tuple[str, str], ...] = ()  # (room id, colour), in layout order
    cards: tuple[tuple[int, ...], ...] = ()  # per seat, count per patron (PATRONS order)
    used: tuple[tuple[int, ...], ...] = ()  # per seat, cards used this season per patron
    blank: tuple[int, ...] = ()  # per seat: patron-less parcels held
    score: tuple[int, ...] = ()  # per seat: the score track
    turn: Turn | None = None
    pass_track: tuple[tuple[str, int], ...] = ()  # (colour, space), in space order
    zone: Zone | None = None
    exhibition: tuple[int, ...] = ()  # per seat, after the end
    corrections: tuple[Note, ...] = ()
    names: tuple[str, ...] = ()  # per seat, as entered at setup ("" for a seat without; () when none has one)
    confirm_last: bool = False  # the table confirms the last zone's counts (set up with "last_zone": "confirm")
    counted: tuple[tuple[int, ...], ...] = ()  # this season's zones as counted so far: per zone, per colour

    # --- derived ---------------------------------------------------------------------------
    @property
    def colours(self) -> tuple[str, ...]:
        return (*self.seats, self.neutral) if self.neutral else self.seats

    @property
    def the_layout(self) -> Layout:
        return layouts()[self.layout]

    def ci(self, colour: str) -> int:
        return self.colours.index(colour)

    def si(self, seat: str) -> int:
        return self.seats.index(seat)

    def museum_map(self) -> dict[str, str]:
        return dict(self.museum)

    def ready(self, seat: str) -> tuple[int, ...]:
        i = self.si(seat)
        return tuple(max(0, h - u) for h, u in zip(self.cards[i], self.used[i], strict=True))

    def passed(self) -> tuple[str, ...]:
        return tuple(c for c, _ in self.pass_track if c in self.seats)

    def space_of(self, colour: str) -> int:
        for c, space in self.pass_track:
            if c == colour:
                return space
        return 99

    def total(self, colour: str) -> int:
        """Every archaeologist of ``colour`` wherever it is: always 25."""
        i = self.ci(colour)
        personal = sum(self.neutral_supply) if colour == self.neutral else self.supply[self.si(colour)]
        museum = sum(1 for _, c in self.museum if c == colour)
        return self.general[i] + personal + self.board[i] + museum


def initial(seats: tuple[str, ...], neutral: str | None, layout: str) -> MykState:
    n_colours = len(seats) + (1 if neutral else 0)
    zero_seats = tuple(0 for _ in seats)
    return MykState(
        seats=seats,
        neutral=neutral,
        layout=layout,
        general=tuple(PER_COLOUR for _ in range(n_colours)),
        board=tuple(0 for _ in range(n_colours)),
        supply=zero_seats,
        neutral_supply=zero_seats,
        cards=tuple(tuple(0 for _ in PATRONS) for _ in seats),
        used=tuple(tuple(0 for _ in PATRONS) for _ in seats),
        blank=zero_seats,
        score=zero_seats,
    )


def put(values: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    return tuple(v + delta if i == index else v for i, v in enumerate(values))


def put_row(rows: tuple[tuple[int, ...], ...], index: int, col: int, delta: int) -> tuple[tuple[int, ...], ...]:
    return tuple(put(row, col, delta) if i == index else row for i, row in enumerate(rows))


def with_museum(state: MykState, room: str, colour: str | None) -> MykState:
    """Set (or clear, with None) the occupant of ``room``, keeping layout order."""
    current = state.museum_map()
    if colour is None:
        current.pop(room, None)
    else:
        current[room] = colour
    ordered = tuple((rid, current[rid]) for rid in state.the_layout.ids if rid in current)
    return replace(state, museum=ordered)
