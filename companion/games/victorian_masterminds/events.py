"""Events (what happened) and intents (what someone asks for).

Undo policy, declared per event kind (the core undoes a whole action, and only if every event
in it allows the actor):

- the start and the setup shuffles (``vm.started``, ``vm.pile_shuffled`` ``setup``): never;
- turning a stack over during play (``vm.stack_flipped`` ``full``/``forced``) and starting the
  final resolution: never — the action that did it showed the stack, so taking back the
  placement that caused it would be taking back a move after seeing hidden agents;
- a placement, the scientist actions, ending a turn and a reshuffle (``vm.pile_shuffled``
  ``reshuffle``: the order derives from the game's salt, so doing it again gives the same
  order — undo cannot re-roll it): the table or the seat;
- the steps of a resolution (reveals, the order choice, loot, abilities and their answers, the
  Engineer's placement under a lone agent): the table or the agent's owner; the Henchman's
  mission and the end of a stack, the next stack of the final resolution and the game's end:
  the table;
- corrections, mission entries and segment removals: the table (an agent of a stack being turned
  over named again included); a recorded segment: the table or its owner; a counter an Engineer's
  owner adjusted with its power: the table or that owner.

A seat may also take back an action that began with its own answer during a resolution (which agent
it was, loot or ability first, the Gunner's building, the Engineer's power, the loot) together with
the steps the game then took by itself, unless one of them may never be undone or ended the game
(``VictorianMastermindsRules.may_undo``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from companion.core.events import Event, Intent, UndoRule
from companion.games.victorian_masterminds.model import (
    Agent,
    Building,
    City,
    Counter,
    First,
    FlipReason,
    Gain,
    Stage,
    Unlock,
)


class SeatEvent(Event):
    """An event owned by the seat in its ``seat`` field (for ``UndoRule.OWNER``)."""

    seat: str

    def owner(self) -> str | None:
        return self.seat


# -- start and piles ---------------------------------------------------------------------


@dataclass(frozen=True)
class Started(Event):
    """``salt`` seeds every pile shuffle of the game (0 in logs from before it existed: their
    shuffles were drawn one by one)."""

    kind: ClassVar[str] = "vm.started"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    salt: int = 0

    def chance(self) -> tuple[object, ...]:
        return (self.salt,) if self.salt else ()  # one rng.randint


@dataclass(frozen=True)
class SaltDrawn(Event):
    """A new ``salt`` for every pile shuffle from here on, drawn when a game file is imported
    (:meth:`~companion.games.victorian_masterminds.rules.VictorianMastermindsRules.fresh_chance`):
    a file fixes the chance it records, never the shuffles still to come."""

    kind: ClassVar[str] = "vm.salt_drawn"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    salt: int

    def chance(self) -> tuple[object, ...]:
        return (self.salt,)  # one rng.randint


@dataclass(frozen=True)
class PileShuffled(SeatEvent):
    """A seat's pile, shuffled by the companion (secret: only the seat and debug see it)."""

    kind: ClassVar[str] = "vm.pile_shuffled"
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    seat: str
    order: tuple[Agent, ...]
    reason: Literal["setup", "reshuffle"]
    derived: bool = False  # the order derives from the game's salt (see engine.shuffled)

    def chance(self) -> tuple[object, ...]:
        # a shuffle derived from the game's salt is no draw; one of a game from before the salt
        # (salt 0) was one rng.sample of the whole pile
        return () if self.derived else (self.order,)

    def undo_rule(self) -> UndoRule:
        # a derived shuffle done again gives the same order; a drawn one would be a re-roll
        return self.undo if self.reason == "reshuffle" and self.derived else UndoRule.NEVER


# -- a turn ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AgentPlaced(SeatEvent):
    """``agent`` is secret until its stack is flipped; ``None``: placed unidentified.
    ``under``: an Engineer's machine power put it under the lone agent of ``city``. ``by_table``:
    the table placed it for a seat whose phone keeps its pile (the phone is told which agent)."""

    kind: ClassVar[str] = "vm.agent_placed"
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    seat: str
    city: City
    agent: Agent | None
    gen: int
    recycled: bool = False
    under: bool = False
    by_table: bool = False


@dataclass(frozen=True)
class ScientistsSpent(SeatEvent):
    kind: ClassVar[str] = "vm.scientists_spent"
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    seat: str
    count: int
    purpose: Literal["recycle", "extra_turn", "capture"]


@dataclass(frozen=True)
class ExtraTurnStarted(SeatEvent):
    kind: ClassVar[str] = "vm.extra_turn_started"
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    seat: str


@dataclass(frozen=True)
class BuildingCaptured(SeatEvent):
    """By a Gunner during a resolution or by the Capture action."""

    kind: ClassVar[str] = "vm.building_captured"
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    seat: str
    city: City
    building: Building
    via: Literal["gunner", "capture"]
    gains: tuple[Gain, ...]


@dataclass(frozen=True)
class TurnEnded(SeatEvent):
    kind: ClassVar[str] = "vm.turn_ended"
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    seat: str
    auto: bool = False


# -- resolving a stack -------------------------------------------------------------------


@dataclass(frozen=True)
class StackFlipped(Event):
    kind: ClassVar[str] = "vm.stack_flipped"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    city: City
    reason: FlipReason

    def undo_rule(self) -> UndoRule:
        # The final resolution turns every stack over whatever anyone does: taking back the answer
        # that moved on to the next stack cannot change what lies in it.
        return UndoRule.TABLE if self.reason == "final" else self.undo


@dataclass(frozen=True)
class AgentRevealed(Event):
    """The table (or the owner) names an agent that was placed unidentified. ``seat``: its owner
    (empty in logs from before it was recorded)."""

    kind: ClassVar[str] = "vm.agent_revealed"
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    city: City
    index: int
    agent: Agent
    seat: str = ""

    def owner(self) -> str | None:
        return self.seat or None


@dataclass(frozen=True)
class AgentReidentified(Event):
    """The table names again an agent of the stack being turned over (it lies face up: everyone
    sees the disc): it is ``agent``, not ``was``. A correction, taken back by the table."""

    kind: ClassVar[str] = "vm.agent_reidentified"
    undo: ClassVar[UndoRule] = UndoRule.TABLE
    city: City
    index: int
    agent: Agent
    was: Agent
    seat: str


@dataclass(frozen=True)
class OrderChosen(SeatEvent):
    """The owner of the current agent takes the city's loot or the ability first."""

    kind: ClassVar[str] = "vm.order_chosen"
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    seat: str
    city: City
    index: int
    first: First


@dataclass(frozen=True)
class LootTaken(SeatEvent):
    kind: ClassVar[str] = "vm.loot_taken"
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    seat: str
    city: City
    index: int
    gains: tuple[Gain, ...]


@dataclass(frozen=True)
class ChoiceRequired(SeatEvent):
    """The current agent needs an answer (``order``/``gunner``/``henchman``/``engineer``/
    ``take_loot``). For the Engineer this is also the record that its machine power was
    activated."""

    kind: ClassVar[str] = "vm.choice_required"
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    seat: str
    city: City
    index: int
    choice: Stage


AgentOutcome = Literal[
    "cancelled",  # sabotaged: loot only
    "double_loot",  # Number Two
    "sabotage",  # Saboteur cancels the next agent
    "own_colour",  # Saboteur above an agent of its own colour: no effect
    "no_target",  # Saboteur is the last agent
    "no_mission",  # Henchman: the city has no mission (left)
    "mission",  # Henchman took the mission
    "mission_not_met",  # Henchman: prerequisite not met
    "too_weak",  # Gunner: firepower fails the comparison
    "no_building",  # Gunner: nothing left standing in the city
    "captured",  # Gunner captured a building
    "declined",  # Gunner could capture but its owner chose not to
    "engineer",  # Engineer: machine power applied by its owner
]


@dataclass(frozen=True)
class AgentResolved(SeatEvent):
    """The current agent is done and goes face up to its owner's discard."""

    kind: ClassVar[str] = "vm.agent_resolved"
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    seat: str
    city: City
    index: int
    agent: Agent
    outcome: AgentOutcome
    gains: tuple[Gain, ...] = ()
    cancels: int | None = None

    def undo_rule(self) -> UndoRule:
        # only the table answers for a Henchman, so only the table takes that answer back
        return UndoRule.TABLE if self.outcome in ("mission", "mission_not_met") else self.undo


@dataclass(frozen=True)
class MissionTaken(SeatEvent):
    kind: ClassVar[str] = "vm.mission_taken"
    undo: ClassVar[UndoRule] = UndoRule.TABLE
    seat: str
    city: City
    reward: int
    label: str = ""


@dataclass(frozen=True)
class StackResolved(Event):
    """The whole stack is resolved; a taken mission is replaced from the deck now."""

    kind: ClassVar[str] = "vm.stack_resolved"
    undo: ClassVar[UndoRule] = UndoRule.TABLE
    city: City
    new_mission: bool


@dataclass(frozen=True)
class FinalResolutionStarted(Event):
    kind: ClassVar[str] = "vm.final_resolution_started"
    undo: ClassVar[UndoRule] = UndoRule.NEVER


@dataclass(frozen=True)
class GameEnded(Event):
    kind: ClassVar[str] = "vm.game_ended"
    undo: ClassVar[UndoRule] = UndoRule.TABLE
    scores: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]


# -- table entries and corrections -------------------------------------------------------


@dataclass(frozen=True)
class Corrected(Event):
    """A public counter adjusted by the table, or by an Engineer's owner applying its power (``by``:
    that seat, who may take it back too)."""

    kind: ClassVar[str] = "vm.corrected"
    undo: ClassVar[UndoRule] = UndoRule.TABLE
    counter: Counter
    delta: int
    seat: str | None = None
    value: int = 1  # codex tokens added are worth this much
    by: str = ""

    def owner(self) -> str | None:
        return self.by or None

    def undo_rule(self) -> UndoRule:
        return UndoRule.TABLE_OR_OWNER if self.by else self.undo


@dataclass(frozen=True)
class SegmentRecorded(SeatEvent):
    kind: ClassVar[str] = "vm.segment_recorded"
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    seat: str
    chaos: int
    unlock: Unlock
    bolts: int = 0
    copper: int = 0
    label: str = ""


@dataclass(frozen=True)
class SegmentRemoved(SeatEvent):
    kind: ClassVar[str] = "vm.segment_removed"
    undo: ClassVar[UndoRule] = UndoRule.TABLE
    seat: str
    index: int


@dataclass(frozen=True)
class MissionSet(Event):
    kind: ClassVar[str] = "vm.mission_set"
    undo: ClassVar[UndoRule] = UndoRule.TABLE
    city: City
    reward: int | None
    label: str = ""


EVENT_CLASSES: tuple[type[Event], ...] = (
    Started,
    SaltDrawn,
    PileShuffled,
    AgentPlaced,
    ScientistsSpent,
    ExtraTurnStarted,
    BuildingCaptured,
    TurnEnded,
    StackFlipped,
    AgentRevealed,
    AgentReidentified,
    OrderChosen,
    LootTaken,
    ChoiceRequired,
    AgentResolved,
    MissionTaken,
    StackResolved,
    FinalResolutionStarted,
    GameEnded,
    Corrected,
    SegmentRecorded,
    SegmentRemoved,
    MissionSet,
)


# -- intents -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Start(Intent):
    """The table starts the game: every pile is shuffled (recorded, secret)."""

    kind: ClassVar[str] = "vm.start"


@dataclass(frozen=True)
class Place(Intent):
    """Place an agent of ``seat`` in ``city``.

    From the pile: ``agent`` may be left out by the seat's phone (the top agent is taken) and
    by the table (an unidentified agent, revealed at resolution); a tag scan names it.
    ``recycle``: pay 1 scientist and place ``agent`` from the discard instead.

    ``books``: the table places for a seat whose phone keeps its pile — as that phone would (its
    top agent, or one the phone would accept), and the phone is told which. ``force``: the table
    confirms a named agent its books hold face down elsewhere (otherwise refused: a misread tag
    or a disc on the wrong reader would swap two agents unseen)."""

    kind: ClassVar[str] = "vm.place"
    seat: str
    city: City
    agent: Agent | None = None
    recycle: bool = False
    books: bool = False
    force: bool = False


@dataclass(frozen=True)
class PlaceUnder(Intent):
    """An Engineer's machine power (the rulebooks' steam mole, K.R.A.L.L.E. / CLAWS / G.R.I.F.F.E.):
    its owner places the next agent of its pile at once under an agent that lies alone in
    ``city``. ``agent`` as for :class:`Place` (the table: a tag scan or unidentified)."""

    kind: ClassVar[str] = "vm.place_under"
    seat: str
    city: City
    agent: Agent | None = None
    books: bool = False
    force: bool = False


@dataclass(frozen=True)
class ForceResolve(Intent):
    kind: ClassVar[str] = "vm.force_resolve"
    seat: str
    city: City


@dataclass(frozen=True)
class ExtraTurn(Intent):
    kind: ClassVar[str] = "vm.extra_turn"
    seat: str


@dataclass(frozen=True)
class Capture(Intent):
    kind: ClassVar[str] = "vm.capture"
    seat: str
    city: City
    building: Building


@dataclass(frozen=True)
class EndTurn(Intent):
    kind: ClassVar[str] = "vm.end_turn"
    seat: str


@dataclass(frozen=True)
class Reveal(Intent):
    kind: ClassVar[str] = "vm.reveal"
    agent: Agent


@dataclass(frozen=True)
class Reidentify(Intent):
    """The table names again agent ``index`` (from 0, first placed first) of the stack being turned
    over, not resolved yet: the face-up disc shows ``agent``."""

    kind: ClassVar[str] = "vm.reidentify"
    index: int
    agent: Agent


@dataclass(frozen=True)
class ChooseOrder(Intent):
    """The current agent's owner (or the table) takes the city's loot or the ability first."""

    kind: ClassVar[str] = "vm.choose_order"
    first: First


@dataclass(frozen=True)
class TakeLoot(Intent):
    """After an ability taken first: take the city's loot now (segments completed meanwhile
    recorded)."""

    kind: ClassVar[str] = "vm.take_loot"


@dataclass(frozen=True)
class ChooseBuilding(Intent):
    """The Gunner's owner picks a standing building of the city, or ``null`` to capture none."""

    kind: ClassVar[str] = "vm.choose_building"
    building: Building | None


@dataclass(frozen=True)
class AnswerHenchman(Intent):
    """The table confirms whether the Henchman's owner meets the mission's prerequisite;
    ``reward`` is needed when the mission's reward was not entered yet."""

    kind: ClassVar[str] = "vm.henchman"
    met: bool
    reward: int | None = None
    label: str | None = None


@dataclass(frozen=True)
class EngineerDone(Intent):
    kind: ClassVar[str] = "vm.engineer_done"


@dataclass(frozen=True)
class Adjust(Intent):
    kind: ClassVar[str] = "vm.adjust"
    counter: Counter
    delta: int
    seat: str | None = None
    value: int | None = None


@dataclass(frozen=True)
class RecordSegment(Intent):
    kind: ClassVar[str] = "vm.record_segment"
    seat: str
    chaos: int
    unlock: Unlock = "none"
    bolts: int = 0
    copper: int = 0
    label: str = ""


@dataclass(frozen=True)
class RemoveSegment(Intent):
    kind: ClassVar[str] = "vm.remove_segment"
    seat: str
    index: int


@dataclass(frozen=True)
class SetMission(Intent):
    kind: ClassVar[str] = "vm.set_mission"
    city: City
    reward: int | None = None
    label: str = ""


INTENT_CLASSES: tuple[type[Intent], ...] = (
    Start,
    Place,
    PlaceUnder,
    ForceResolve,
    ExtraTurn,
    Capture,
    EndTurn,
    Reveal,
    Reidentify,
    ChooseOrder,
    TakeLoot,
    ChooseBuilding,
    AnswerHenchman,
    EngineerDone,
    Adjust,
    RecordSegment,
    RemoveSegment,
    SetMission,
)
