"""Mykerinos intents: what the table or a seat asks for (untrusted, validated by ``decide``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from companion.core import Intent, KindCodec
from companion.games.mykerinos.events import Place


# --- setup (table) -------------------------------------------------------------------------------
@dataclass(frozen=True)
class DrawStartPlayer(Intent):
    kind: ClassVar[str] = "myk.draw_start_player"


@dataclass(frozen=True)
class ChooseStartPlayer(Intent):
    kind: ClassVar[str] = "myk.choose_start_player"
    seat: str


@dataclass(frozen=True)
class DrawPatrons(Intent):
    kind: ClassVar[str] = "myk.draw_patrons"


@dataclass(frozen=True)
class EnterPatrons(Intent):
    kind: ClassVar[str] = "myk.enter_patrons"
    order: tuple[str, ...]


@dataclass(frozen=True)
class SetLayout(Intent):
    """Switch the museum layout (``line4``/``ring5``) until the first archaeologist enters it."""

    kind: ClassVar[str] = "myk.set_layout"
    layout: str


# --- excavation (the seat whose turn it is, or the table) ----------------------------------------
@dataclass(frozen=True)
class Excavate(Intent):
    """Start (1 archaeologist) or extend (2); with a patron: Lady Violet (+1 from the general supply
    first), Lord Lemon (same numbers, a pyramid square allowed), Mrs. Blackmore (start with 2),
    Colonel Tangerine (extend with 3)."""

    kind: ClassVar[str] = "myk.excavate"
    seat: str
    action: Literal["start", "extend"]
    patron: str | None = None


@dataclass(frozen=True)
class SirBrown(Intent):
    kind: ClassVar[str] = "myk.sir_brown"
    seat: str
    room: str


@dataclass(frozen=True)
class Pass(Intent):
    kind: ClassVar[str] = "myk.pass"
    seat: str


@dataclass(frozen=True)
class Neutral(Intent):
    kind: ClassVar[str] = "myk.neutral"
    seat: str
    action: Literal["start", "extend", "skip"]


# --- survey --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ZoneCounts(Intent):
    """The table enters how many archaeologists each colour has in the zone (omitted colours: 0)."""

    kind: ClassVar[str] = "myk.zone_counts"
    counts: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class TakeParcel(Intent):
    """Take a parcel; the table (or the seat) enters what it shows: its patron (None for the
    patron-less card) and its points."""

    kind: ClassVar[str] = "myk.take_parcel"
    seat: str
    patron: str | None
    points: int


@dataclass(frozen=True)
class Museum(Intent):
    kind: ClassVar[str] = "myk.museum"
    seat: str
    room: str


@dataclass(frozen=True)
class Decline(Intent):
    kind: ClassVar[str] = "myk.decline"
    seat: str


@dataclass(frozen=True)
class NeutralPick(Intent):
    """The seat entitled to it has picked (on the table) the parcel the neutral takes."""

    kind: ClassVar[str] = "myk.neutral_pick"
    seat: str


# --- corrections (table only) --------------------------------------------------------------------
@dataclass(frozen=True)
class CorrectScore(Intent):
    kind: ClassVar[str] = "myk.correct_score"
    seat: str
    delta: int


@dataclass(frozen=True)
class CorrectArchaeologists(Intent):
    kind: ClassVar[str] = "myk.correct_archaeologists"
    colour: str
    origin: Place
    target: Place
    count: int
    holder: str | None = None


@dataclass(frozen=True)
class CorrectCards(Intent):
    kind: ClassVar[str] = "myk.correct_cards"
    seat: str
    patron: str | None
    delta: int


@dataclass(frozen=True)
class CorrectMuseum(Intent):
    kind: ClassVar[str] = "myk.correct_museum"
    room: str
    colour: str | None


CORRECTIONS: tuple[str, ...] = (
    CorrectScore.kind,
    CorrectArchaeologists.kind,
    CorrectCards.kind,
    CorrectMuseum.kind,
)

INTENTS: KindCodec[Intent] = KindCodec(
    [
        DrawStartPlayer,
        ChooseStartPlayer,
        DrawPatrons,
        EnterPatrons,
        SetLayout,
        Excavate,
        SirBrown,
        Pass,
        Neutral,
        ZoneCounts,
        TakeParcel,
        Museum,
        Decline,
        NeutralPick,
        CorrectScore,
        CorrectArchaeologists,
        CorrectCards,
        CorrectMuseum,
    ]
)
