"""Mykerinos events: what happened (trusted, replayed), with their undo policy.

Undo policy (see docs/protocol/mykerinos.md):
- random draws (start player, patron order): never;
- a seat's own excavation action, pass or survey choice: the table or that seat;
- everything the companion does by itself (season start/end, zone closed, automatic neutral parcel,
  exhibition) and everything only the table enters (zone counts, choices made at setup, corrections):
  the table. An action is undone as a whole, so a seat's choice that closed a zone or a season can only
  be undone by the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from companion.core import Event, KindCodec, UndoRule


class _Owned(Event):
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    seat: str

    def owner(self) -> str | None:
        return self.seat


# --- setup ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class StartPlayerDrawn(Event):
    kind: ClassVar[str] = "myk.start_player_drawn"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    seat: str

    def chance(self) -> tuple[object, ...]:
        return (self.seat,)  # one rng.choice


@dataclass(frozen=True)
class StartPlayerChosen(Event):
    kind: ClassVar[str] = "myk.start_player_chosen"
    seat: str


@dataclass(frozen=True)
class PatronsDrawn(Event):
    kind: ClassVar[str] = "myk.patrons_drawn"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    order: tuple[str, ...]  # patron on wing 1..5

    def chance(self) -> tuple[object, ...]:
        return (self.order,)  # one rng.sample


@dataclass(frozen=True)
class PatronsEntered(Event):
    kind: ClassVar[str] = "myk.patrons_entered"
    order: tuple[str, ...]


@dataclass(frozen=True)
class LayoutSet(Event):
    """The table switches the museum layout (only while no room is taken)."""

    kind: ClassVar[str] = "myk.layout_set"
    layout: str


# --- seasons -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SeasonStarted(Event):
    """Archaeologists handed out (``own``/``neutral`` per seat, what the general supply could give)."""

    kind: ClassVar[str] = "myk.season_started"
    season: int
    start_player: str
    own: tuple[int, ...]
    neutral: tuple[int, ...]


@dataclass(frozen=True)
class SeasonEnded(Event):
    """Pass track cleared, cards ready; ``unassigned``: archaeologists still on the board that no zone
    count covered (returned to the general supply, listed so the log shows the discrepancy)."""

    kind: ClassVar[str] = "myk.season_ended"
    season: int
    next_start: str
    unassigned: tuple[tuple[str, int], ...]


# --- excavation ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Excavated(_Owned):
    """A start or an extension, perhaps with a patron card; ``count`` archaeologists left the personal
    supply (after Lady Violet's one from the general supply, when ``patron`` is Lady Violet)."""

    kind: ClassVar[str] = "myk.excavated"
    seat: str
    action: Literal["start", "extend"]
    patron: str | None
    count: int


@dataclass(frozen=True)
class SirBrownSent(_Owned):
    kind: ClassVar[str] = "myk.sir_brown_sent"
    seat: str
    room: str


@dataclass(frozen=True)
class NeutralExcavated(_Owned):
    """Two players: after a normal action, ``seat`` starts or extends a neutral excavation, or skips."""

    kind: ClassVar[str] = "myk.neutral_excavated"
    seat: str
    action: Literal["start", "extend", "skip"]
    count: int


@dataclass(frozen=True)
class Passed(_Owned):
    kind: ClassVar[str] = "myk.passed"
    seat: str
    space: int
    auto: bool = False  # the last player passes by itself after its single extra action


# --- survey --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ZoneCounted(Event):
    kind: ClassVar[str] = "myk.zone_counted"
    zone: int
    counts: tuple[tuple[str, int], ...]
    ranking: tuple[str, ...]


@dataclass(frozen=True)
class ParcelTaken(_Owned):
    kind: ClassVar[str] = "myk.parcel_taken"
    seat: str
    patron: str | None  # None: the patron-less 5-point parcel
    points: int


@dataclass(frozen=True)
class MuseumPlaced(_Owned):
    """One archaeologist from the general supply into a museum room (1st or 2nd in a zone)."""

    kind: ClassVar[str] = "myk.museum_placed"
    seat: str
    room: str


@dataclass(frozen=True)
class Declined(_Owned):
    kind: ClassVar[str] = "myk.declined"
    seat: str


@dataclass(frozen=True)
class NeutralParcel(Event):
    """The neutral takes a parcel (discarded). ``chooser`` picked which; None when only one was left."""

    kind: ClassVar[str] = "myk.neutral_parcel"
    chooser: str | None

    def undo_rule(self) -> UndoRule:
        return UndoRule.TABLE_OR_OWNER if self.chooser else UndoRule.TABLE

    def owner(self) -> str | None:
        return self.chooser


@dataclass(frozen=True)
class ZoneClosed(Event):
    kind: ClassVar[str] = "myk.zone_closed"
    zone: int
    discarded: int
    returned: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class ExhibitionLine:
    seat: str
    wings: tuple[int, ...]
    sets: int
    total: int


@dataclass(frozen=True)
class ExhibitionScored(Event):
    kind: ClassVar[str] = "myk.exhibition_scored"
    lines: tuple[ExhibitionLine, ...]


# --- corrections (table only) --------------------------------------------------------------------
@dataclass(frozen=True)
class ScoreCorrected(Event):
    kind: ClassVar[str] = "myk.score_corrected"
    seat: str
    delta: int


Place = Literal["general", "supply", "board"]


@dataclass(frozen=True)
class ArchaeologistsMoved(Event):
    """``count`` archaeologists of ``colour`` moved between the general supply, a personal supply and
    the board. ``holder`` names the seat whose supply holds them when ``colour`` is the neutral."""

    kind: ClassVar[str] = "myk.archaeologists_moved"
    colour: str
    origin: Place
    target: Place
    count: int
    holder: str | None = None


@dataclass(frozen=True)
class CardsCorrected(Event):
    kind: ClassVar[str] = "myk.cards_corrected"
    seat: str
    patron: str | None  # None: the patron-less parcel
    delta: int


@dataclass(frozen=True)
class MuseumCorrected(Event):
    """The room's occupant becomes ``colour`` (None: emptied); archaeologists go to/come from the
    general supply."""

    kind: ClassVar[str] = "myk.museum_corrected"
    room: str
    colour: str | None


EVENTS: KindCodec[Event] = KindCodec(
    [
        StartPlayerDrawn,
        StartPlayerChosen,
        PatronsDrawn,
        PatronsEntered,
        LayoutSet,
        SeasonStarted,
        SeasonEnded,
        Excavated,
        SirBrownSent,
        NeutralExcavated,
        Passed,
        ZoneCounted,
        ParcelTaken,
        MuseumPlaced,
        Declined,
        NeutralParcel,
        ZoneClosed,
        ExhibitionScored,
        ScoreCorrected,
        ArchaeologistsMoved,
        CardsCorrected,
        MuseumCorrected,
    ]
)
