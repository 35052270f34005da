"""Scotland Yard values: constants, the state, events (trusted) and intents (untrusted).

Everything is a frozen dataclass of tuples so ``==`` works and JSON round-trips are exact.
Mister X's secrets in the state are ``x_station`` and the stations inside ``route``; views
mask them (see ``views.py``), events carrying them are only ever shown to debug.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from companion.core.events import Event, Intent, UndoRule
from companion.games.scotland_yard.board import X_CARDS, Board

ROUNDS: Final = 22
LOG_FIELDS: Final = 24
#: log fields after which Mister X shows himself (counted by fields, not rounds)
REVEALS: Final = frozenset({3, 8, 13, 18, 24})
NORMAL: Final = ("taxi", "bus", "underground")
BOX: Final = (62, 49, 25)  # taxi, bus, underground tickets in the box
DETECTIVE_TICKETS: Final = (11, 8, 4)
X_BLACK: Final = 5
X_DOUBLE: Final = 2
MRX: Final = "mrx"
#: the actor the table's own detectives move as (no phone ever holds this seat; see ``ai_turn``)
YARD: Final = "yard"
#: the word in the setup's ``table_detectives`` for the bobbies
BOBBIES_WORD: Final = "bobbies"

Ticket = Literal["taxi", "bus", "underground", "black"]
Line = Literal["taxi", "bus", "underground"]  # what a detective pays, or the line a bobby uses
Phase = Literal["start", "x", "detectives", "over"]
EndReason = Literal["captured", "x_escaped", "x_trapped", "detectives_stuck", "ended_by_table"]
Tickets = tuple[int, int, int]  # taxi, bus, underground

#: who wins for each way the game can end
WINNER: Final[dict[str, str | None]] = {
    "captured": "detectives",
    "x_trapped": "detectives",
    "x_escaped": MRX,
    "detectives_stuck": MRX,
    "ended_by_table": None,
}


@dataclass(frozen=True)
class LogField:
    """One field of Mister X's travel log (``station`` is secret unless revealed)."""

    field: int
    round: int
    ticket: Ticket
    station: int
    step: int  # 0 single move, 1 and 2 the steps of a double move


@dataclass(frozen=True)
class Instruction:
    """A move the table made for one of its detectives or bobbies: the players still have to move
    the pawn and confirm it (a tap, or the next move anyone makes)."""

    figure: str
    ticket: Line
    station: int


@dataclass(frozen=True)
class Ending:
    reason: EndReason
    figure: str | None
    station: int | None


@dataclass(frozen=True)
class SYState:
    board: Board
    seats: tuple[str, ...]  # "mrx", "d1", ...
    names: tuple[str, ...]  # one per seat
    figures: tuple[str, ...]  # "D1".., then "B1".. (bobbies)
    purse_of: tuple[int, ...]  # per figure: index into ``purses`` (its seat's tickets), -1 for a bobby
    purses: tuple[Tickets, ...]  # per detective seat (seats[1:]), public
    supply: Tickets
    tracker_on: bool
    bobbies_keep_game_alive: bool
    positions: tuple[int, ...]  # per figure, 0 before the start
    candidates: frozenset[int] = frozenset(X_CARDS)  # the tracker: public information only
    phase: Phase = "start"
    round: int = 1
    moved: tuple[bool, ...] = ()  # per figure, in the current detective phase
    x_station: int = 0  # SECRET (0 = not drawn yet)
    x_black: int = X_BLACK
    x_double: int = X_DOUBLE
    route: tuple[LogField, ...] = ()  # SECRET stations
    shown: int = 0  # where Mister X is shown on the board after a reveal, until his next move
    end: Ending | None = None
    x_ai: str | None = None  # Mister X played by the table at this level (no seat, no phone); None: a player
    d_ai: str | None = None  # the level of the table's detectives (figures in ``by_table``); None: none
    by_table: tuple[bool, ...] = ()  # per figure: the table plays it (empty: none does)
    instruction: Instruction | None = None  # the table's last move, until the pawn is confirmed

    def is_bobby(self, index: int) -> bool:
        return self.purse_of[index] < 0

    def seat_of(self, index: int) -> str | None:
        """The detective seat owning figure ``index`` (``None`` for a bobby: every detective seat)."""
        purse = self.purse_of[index]
        return None if purse < 0 else self.seats[purse + 1]

    def table_plays(self, index: int) -> bool:
        """Figure ``index`` is one of the table's (its moves come from the detectives' AI)."""
        return bool(self.by_table) and self.by_table[index]

    def table_seats(self) -> tuple[str, ...]:
        """Detective seats the table plays whole (no phone, no name): every figure of theirs is its."""
        return tuple(
            seat
            for k, seat in enumerate(self.seats[1:])
            if self.by_table and all(self.by_table[i] for i, p in enumerate(self.purse_of) if p == k)
        )


# ---------------------------------------------------------------------------------------- events


@dataclass(frozen=True)
class DetectivesPlaced(Event):
    """Every detective and bobby stands on its start station (drawn here, or entered by the table)."""

    kind: ClassVar[str] = "sy.detectives_placed"
    stations: tuple[tuple[str, int], ...]
    drawn: bool

    def undo_rule(self) -> UndoRule:
        return UndoRule.NEVER if self.drawn else UndoRule.TABLE

    def chance(self) -> tuple[object, ...]:
        return (tuple(station for _, station in self.stations),) if self.drawn else ()  # one rng.sample


@dataclass(frozen=True)
class XPlaced(Event):
    """Mister X's start station (SECRET): drawn here, or entered on his phone."""

    kind: ClassVar[str] = "sy.x_placed"
    station: int
    drawn: bool

    def undo_rule(self) -> UndoRule:
        return UndoRule.NEVER if self.drawn else UndoRule.OWNER

    def owner(self) -> str | None:
        return MRX

    def chance(self) -> tuple[object, ...]:
        return (self.station,) if self.drawn else ()  # one rng.choice


@dataclass(frozen=True)
class XMoved(Event):
    """One field of Mister X's log. ``station`` is SECRET unless ``field`` is a reveal field."""

    kind: ClassVar[str] = "sy.x_moved"
    field: int
    ticket: Ticket
    station: int
    step: Literal[0, 1, 2]  # 0 single move; 1, 2 the two steps of a double move

    def undo_rule(self) -> UndoRule:
        # A reveal already shown is never taken back; otherwise only Mister X undoes his move.
        return UndoRule.NEVER if self.field in REVEALS else UndoRule.OWNER

    def owner(self) -> str | None:
        return MRX


@dataclass(frozen=True)
class FigureMoved(Event):
    """A detective (paying ``ticket`` into the supply) or a bobby (free, along that line) moved;
    ``by_table``: the table moved one of its figures (an instruction until the pawn is confirmed)."""

    kind: ClassVar[str] = "sy.figure_moved"
    undo: ClassVar[UndoRule] = UndoRule.TABLE
    figure: str
    ticket: Line
    station: int
    by_table: bool = False


@dataclass(frozen=True)
class MoveConfirmed(Event):
    """The players moved the pawn the table's instruction named (undone like a move: the table)."""

    kind: ClassVar[str] = "sy.move_confirmed"
    undo: ClassVar[UndoRule] = UndoRule.TABLE
    figure: str


@dataclass(frozen=True)
class RoundEnded(Event):
    """Every figure has moved or cannot move (``skipped``); Mister X's turn of the next round."""

    kind: ClassVar[str] = "sy.round_ended"
    undo: ClassVar[UndoRule] = UndoRule.TABLE
    round: int
    skipped: tuple[str, ...]


@dataclass(frozen=True)
class GameEnded(Event):
    """The end; never undone. ``figure``/``station``: who captured Mister X, and where."""

    kind: ClassVar[str] = "sy.game_ended"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    reason: EndReason
    figure: str | None = None
    station: int | None = None


@dataclass(frozen=True)
class TrackerSwitched(Event):
    kind: ClassVar[str] = "sy.tracker_switched"
    undo: ClassVar[UndoRule] = UndoRule.TABLE
    on: bool


EVENTS: Final = (
    DetectivesPlaced,
    XPlaced,
    XMoved,
    FigureMoved,
    MoveConfirmed,
    RoundEnded,
    GameEnded,
    TrackerSwitched,
)

# --------------------------------------------------------------------------------------- intents


@dataclass(frozen=True)
class DrawStart(Intent):
    """Draw start cards. The table: every card still missing (D cards public, the X card secret);
    Mister X's phone: only his own X card."""

    kind: ClassVar[str] = "sy.draw_start"


@dataclass(frozen=True)
class PlaceDetectives(Intent):
    """The table enters the D cards drawn with the physical deck: ``[["D1", 13], ["B1", 26], ...]``."""

    kind: ClassVar[str] = "sy.place_detectives"
    stations: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class PlaceX(Intent):
    """Mister X enters the X card he drew, on his phone."""

    kind: ClassVar[str] = "sy.place_x"
    station: int


@dataclass(frozen=True)
class Move(Intent):
    """A detective or bobby moves (``ticket``: for a bobby, the line it uses; it pays nothing)."""

    kind: ClassVar[str] = "sy.move"
    figure: str
    ticket: Ticket
    station: int


@dataclass(frozen=True)
class XMove(Intent):
    kind: ClassVar[str] = "sy.x_move"
    ticket: Ticket
    station: int


@dataclass(frozen=True)
class Step:
    ticket: Ticket
    station: int


@dataclass(frozen=True)
class XDouble(Intent):
    """A double move: both steps in one intent, committed together."""

    kind: ClassVar[str] = "sy.x_double"
    first: Step
    second: Step


@dataclass(frozen=True)
class Confirm(Intent):
    """The pawn of the table's instruction for ``figure`` stands where it said (the touchscreen or
    any player's phone)."""

    kind: ClassVar[str] = "sy.confirm"
    figure: str


@dataclass(frozen=True)
class SetTracker(Intent):
    kind: ClassVar[str] = "sy.set_tracker"
    on: bool


@dataclass(frozen=True)
class EndGame(Intent):
    """The table stops the game (nobody wins); the route is shown to everyone."""

    kind: ClassVar[str] = "sy.end_game"


INTENTS: Final = (DrawStart, PlaceDetectives, PlaceX, Move, XMove, XDouble, Confirm, SetTracker, EndGame)
