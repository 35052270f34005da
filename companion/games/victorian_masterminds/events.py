"""Events (what happened) and intents (what someone asks for).

Undo policy, declared per event kind:

- the table's setup and every random draw (``vm.started``, ``vm.pile_shuffled``): never;
- a placement, the scientist actions and ending a turn: the table or the acting seat, as long as
  the action revealed nothing (an action that flipped a stack or shuffled a pile contains a
  ``never`` event, so the core refuses to undo it as a whole);
- everything inside a stack's resolution (flip, reveals, loot, abilities, choices): never;
- corrections, mission entries and segment removals: the table; a recorded segment: the table or
  its owner.
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
    FlipReason,
    Resource,
    Stage,
    Unlock,
)


@dataclass(frozen=True)
class Gain:
    """What one loot gave: ``amount`` received, ``lost`` not received (no free lab cell, no
    scientist left in the supply, a full codex library); ``value`` of codex tokens."""

    resource: Resource
    amount: int
    lost: int = 0
    value: int = 1


class SeatEvent(Event):
    """An event owned by the seat in its ``seat`` field (for ``UndoRule.OWNER``)."""

    seat: str

    def owner(self) -> str | None:
        return self.seat


# -- start and piles ---------------------------------------------------------------------


@dataclass(frozen=True)
class Started(Event):
    kind: ClassVar[str] = "vm.started"
    undo: ClassVar[UndoRule] = UndoRule.NEVER


@dataclass(frozen=True)
class PileShuffled(SeatEvent):
    """A seat's pile, shuffled by the companion (secret: only the seat and debug see it)."""

    kind: ClassVar[str] = "vm.pile_shuffled"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    seat: str
    order: tuple[Agent, ...]
    reason: Literal["setup", "reshuffle"]

    def chance(self) -> tuple[object, ...]:
        return (self.order,)  # one rng.sample of the whole pile


# -- a turn ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AgentPlaced(SeatEvent):
    """``agent`` is secret until its stack is flipped; ``None``: placed unidentified."""

    kind: ClassVar[str] = "vm.agent_placed"
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    seat: str
    city: City
    agent: Agent | None
    gen: int
    recycled: bool = False


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
    """By a Gunner during a resolution (never undone) or by the Capture action."""

    kind: ClassVar[str] = "vm.building_captured"
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    seat: str
    city: City
    building: Building
    via: Literal["gunner", "capture"]
    gains: tuple[Gain, ...]

    def undo_rule(self) -> UndoRule:
        return UndoRule.NEVER if self.via == "gunner" else self.undo


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


@dataclass(frozen=True)
class AgentRevealed(Event):
    """The table (or the owner) names an agent that was placed unidentified."""

    kind: ClassVar[str] = "vm.agent_revealed"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    city: City
    index: int
    agent: Agent


@dataclass(frozen=True)
class LootTaken(SeatEvent):
    kind: ClassVar[str] = "vm.loot_taken"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    seat: str
    city: City
    index: int
    gains: tuple[Gain, ...]


@dataclass(frozen=True)
class ChoiceRequired(SeatEvent):
    """The current agent's ability needs an answer (``gunner``/``henchman``/``engineer``).
    For the Engineer this is also the record that its machine power was activated."""

    kind: ClassVar[str] = "vm.choice_required"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
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
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    seat: str
    city: City
    index: int
    agent: Agent
    outcome: AgentOutcome
    gains: tuple[Gain, ...] = ()
    cancels: int | None = None


@dataclass(frozen=True)
class MissionTaken(SeatEvent):
    kind: ClassVar[str] = "vm.mission_taken"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    seat: str
    city: City
    reward: int
    label: str = ""


@dataclass(frozen=True)
class StackResolved(Event):
    """The whole stack is resolved; a taken mission is replaced from the deck now."""

    kind: ClassVar[str] = "vm.stack_resolved"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    city: City
    new_mission: bool


@dataclass(frozen=True)
class FinalResolutionStarted(Event):
    kind: ClassVar[str] = "vm.final_resolution_started"
    undo: ClassVar[UndoRule] = UndoRule.NEVER


@dataclass(frozen=True)
class GameEnded(Event):
    kind: ClassVar[str] = "vm.game_ended"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    scores: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]


# -- table entries and corrections -------------------------------------------------------


@dataclass(frozen=True)
class Corrected(Event):
    """A public counter adjusted by the table (or by an Engineer's owner)."""

    kind: ClassVar[str] = "vm.corrected"
    undo: ClassVar[UndoRule] = UndoRule.TABLE
    counter: Counter
    delta: int
    seat: str | None = None
    value: int = 1  # codex tokens added are worth this much


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
    PileShuffled,
    AgentPlaced,
    ScientistsSpent,
    ExtraTurnStarted,
    BuildingCaptured,
    TurnEnded,
    StackFlipped,
    AgentRevealed,
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
    ``recycle``: pay 1 scientist and place ``agent`` from the discard instead."""

    kind: ClassVar[str] = "vm.place"
    seat: str
    city: City
    agent: Agent | None = None
    recycle: bool = False


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
    ForceResolve,
    ExtraTurn,
    Capture,
    EndTurn,
    Reveal,
    ChooseBuilding,
    AnswerHenchman,
    EngineerDone,
    Adjust,
    RecordSegment,
    RemoveSegment,
    SetMission,
)
