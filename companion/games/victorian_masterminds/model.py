"""Victorian Masterminds: names, numbers and the frozen state.

Everything here is plain data. Cities, agents and buildings are lowercase English ids; screens
translate them with ``messages/<lang>.json`` (``vm.city.paris``, ``vm.agent.gunner``, ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.core.frozen import replace

City = Literal["london", "moscow", "washington", "paris", "rome"]
Agent = Literal["number_two", "henchman", "saboteur", "gunner", "engineer"]
Building = Literal["factory", "furnace", "university", "monument"]
Resource = Literal["copper", "bolt", "firepower", "scientist", "codex", "chaos_token"]
Unlock = Literal["none", "lab_cell", "codex", "bonus_power"]
Counter = Literal["firepower", "level", "codex", "scientists", "chaos_tokens", "bolts", "copper"]
GunnerRule = Literal[">=", ">"]
Stage = Literal["loot", "order", "ability", "gunner", "henchman", "engineer", "take_loot"]
First = Literal["loot", "ability"]
FlipReason = Literal["full", "forced", "final"]
TurnPhase = Literal["place", "after"]

# Board order (as printed in the rulebooks) and the order of the final resolution.
CITIES: tuple[City, ...] = ("london", "moscow", "washington", "paris", "rome")
FINAL_ORDER: tuple[City, ...] = ("london", "moscow", "paris", "rome", "washington")
AGENTS: tuple[Agent, ...] = ("number_two", "henchman", "saboteur", "gunner", "engineer")
BUILDINGS: tuple[Building, ...] = ("factory", "furnace", "university", "monument")
UNLOCKS: tuple[Unlock, ...] = ("none", "lab_cell", "codex", "bonus_power")
COUNTERS: tuple[Counter, ...] = ("firepower", "level", "codex", "scientists", "chaos_tokens", "bolts", "copper")

CITY_LOOT: dict[City, Resource] = {
    "london": "copper",
    "moscow": "firepower",
    "washington": "bolt",
    "paris": "scientist",
    "rome": "codex",
}
BUILDING_LOOT: dict[Building, Resource] = {
    "university": "scientist",
    "factory": "bolt",
    "furnace": "copper",
    "monument": "chaos_token",
}

SCIENTISTS_IN_BOX = 12
CODEX_MAX = 10
CODEX_POWER_AT = 5
LEVEL_MAX = 12  # the last field of the Secret Service dial; reaching it starts the final round
SEGMENTS_PER_MACHINE = 8
LAB_CELLS_MAX = 4
ADVANCED_MISSIONS = 19
MISSION_REWARDS = (2, 3, 4)
POINTS_PER_BUILDING = 2
POINTS_PER_CHAOS_TOKEN = 2  # "2 Chaospunkte pro Chaosmarker" (DE, ES and FR rulebooks agree)
LABEL_MAX = 40
SCIENTIST_COST = {"recycle": 1, "extra_turn": 2, "capture": 3}


@dataclass(frozen=True)
class Gain:
    """What one loot gave: ``amount`` received, ``lost`` not received (no free lab cell, no
    scientist left in the supply, a full codex library); ``value`` of codex tokens."""

    resource: Resource
    amount: int
    lost: int = 0
    value: int = 1


@dataclass(frozen=True)
class Mission:
    """A mission card, known by its reward (2/3/4 chaos points; ``None`` until the table enters
    it) and an optional short label."""

    reward: int | None = None
    label: str = ""


@dataclass(frozen=True)
class Segment:
    """A built machine segment: its printed chaos points and what it unlocks."""

    chaos: int
    unlock: Unlock = "none"
    label: str = ""


@dataclass(frozen=True)
class Player:
    seat: str
    colour: str
    machine: int
    machine_name: str = ""
    base_cells: int = 2
    name: str = ""  # the player's name as entered at setup ("" when only the colour was chosen)
    firepower: int = 1
    scientists: int = 1
    codex: tuple[int, ...] = ()  # the value (1 or 2) of each codex token held
    codex_power: bool = False  # has had 5 codex tokens: may place any agent of the pile
    bolts: int = 0
    copper: int = 0
    segments: tuple[Segment, ...] = ()
    buildings: tuple[tuple[City, Building], ...] = ()
    missions: tuple[Mission, ...] = ()
    chaos_tokens: int = 0
    # The pile in recorded order (top first). ``pile_unknown`` agents were placed from it
    # without being identified (the table's "unknown agent"); they are still listed in
    # ``pile`` until revealed, so the pile is exact only while ``pile_unknown`` is 0.
    pile: tuple[Agent, ...] = ()
    pile_unknown: int = 0
    pile_gen: int = 0  # counts shuffles; a placement remembers the pile it came from
    discard: tuple[Agent, ...] = ()
    # The last agent the table placed for this seat whose phone keeps its pile (city, agent): its
    # phone says so until the seat places again (secret: only the seat and debug see it).
    told: tuple[City, Agent] | None = None

    @property
    def lab_cells(self) -> int:
        extra = sum(1 for s in self.segments if s.unlock == "lab_cell")
        return min(LAB_CELLS_MAX, self.base_cells + extra)

    @property
    def codex_value(self) -> int:
        return 2 if any(s.unlock == "codex" for s in self.segments) else 1

    @property
    def pile_size(self) -> int:
        return len(self.pile) - self.pile_unknown

    @property
    def pile_exact(self) -> bool:
        return self.pile_unknown == 0


@dataclass(frozen=True)
class Placement:
    """One agent in a stack. ``agent`` is ``None`` when the table placed it unidentified."""

    seat: str
    agent: Agent | None
    gen: int = 0
    recycled: bool = False


LevelWhy = Literal["gunner", "capture", "correction"]


@dataclass(frozen=True)
class LevelChange:
    """Why the Secret Service level last changed (public): a Gunner's capture in a stack, the
    scientist action Capture, or the table's correction; by whom, and which building where."""

    before: int
    after: int
    why: LevelWhy
    seat: str = ""
    city: str = ""
    building: str = ""


@dataclass(frozen=True)
class Step:
    """What one agent of a turned-over stack did (public: the stack lies face up): the city's
    loot, the ability's outcome (``""`` until done) and what the ability gave (Number Two's
    second loot, a captured building and its loot, a mission's reward), and whether its owner
    took the ability first."""

    loot: tuple[Gain, ...] = ()
    outcome: str = ""
    gains: tuple[Gain, ...] = ()
    building: str = ""
    mission: int = 0
    ability_first: bool = False


@dataclass(frozen=True)
class Resolution:
    """A stack being resolved, first placed first. ``stage`` is where the current agent is:
    ``loot`` (about to take the city's loot; waits for a reveal if unidentified), ``order``
    (its owner chooses loot or ability first), ``ability``, waiting for an answer (``gunner``,
    ``henchman``, ``engineer``), or ``take_loot`` (the ability went first; the loot waits until
    its owner has recorded what the ability completed).

    Per current agent: ``first`` is the order its owner chose (``None``: not asked, loot first),
    ``looted`` whether it has taken the city's loot, ``placed_under`` whether its Engineer has
    placed an agent under a lone agent."""

    city: City
    reason: FlipReason
    agents: tuple[Placement, ...]
    index: int = 0
    stage: Stage = "loot"
    cancelled: tuple[int, ...] = ()
    mission_taken: bool = False
    first: First | None = None
    looted: bool = False
    placed_under: bool = False
    steps: tuple[Step, ...] = ()  # one per agent reached so far

    def step_of(self, index: int) -> Step:
        return self.steps[index] if index < len(self.steps) else Step()

    def with_step(self, index: int, **changes: object) -> Resolution:
        steps = list(self.steps) + [Step()] * (index + 1 - len(self.steps))
        steps[index] = replace(steps[index], **changes)
        return replace(self, steps=tuple(steps))

    @property
    def current(self) -> Placement | None:
        return self.agents[self.index] if self.index < len(self.agents) else None


@dataclass(frozen=True)
class LogLine:
    """One line of the public log (a message code plus public details)."""

    n: int
    what: str
    seat: str = ""
    city: str = ""
    detail: str = ""


@dataclass(frozen=True)
class Settings:
    start_level: int
    gunner_rule: GunnerRule = ">="
    capture_city_loot: bool = False
    first_player: str = ""  # the seat that started the game (setup's ``first_player``)


@dataclass(frozen=True)
class VMState:
    settings: Settings
    players: tuple[Player, ...]
    level: int
    standing: tuple[tuple[Building, ...], ...]  # per city, in CITIES order
    missions: tuple[Mission | None, ...]  # per city; None once the deck is exhausted
    stacks: tuple[tuple[Placement, ...], ...] = ((), (), (), (), ())
    mission_deck: int = ADVANCED_MISSIONS
    active: int = 0
    started: bool = False
    turn_phase: TurnPhase = "place"
    extra_turn: bool = False
    resolution: Resolution | None = None
    triggered: bool = False
    final_turns_left: int | None = None  # None until the triggering turn has finished
    final: bool = False  # the final resolution is under way
    ended: bool = False
    log: tuple[LogLine, ...] = ()
    log_count: int = 0
    salt: int = 0  # drawn at the start; every pile shuffle derives from it (secret: debug only)
    last_stack: Resolution | None = None  # the stack resolved last, with what each agent did
    level_change: LevelChange | None = None  # the last change of the level, and why

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(p.seat for p in self.players)

    @property
    def threshold(self) -> int:
        return 2 if len(self.players) == 2 else 3

    @property
    def active_seat(self) -> str:
        return self.players[self.active].seat

    def player(self, seat: str) -> Player:
        for p in self.players:
            if p.seat == seat:
                return p
        raise KeyError(seat)

    def stack(self, city: City) -> tuple[Placement, ...]:
        return self.stacks[CITIES.index(city)]

    def mission(self, city: City) -> Mission | None:
        return self.missions[CITIES.index(city)]

    def standing_in(self, city: City) -> tuple[Building, ...]:
        return self.standing[CITIES.index(city)]

    def scientist_supply(self) -> int:
        return SCIENTISTS_IN_BOX - sum(p.scientists for p in self.players)

    def with_player(self, player: Player) -> VMState:
        return replace(self, players=tuple(player if p.seat == player.seat else p for p in self.players))

    def with_city(self, city: City, **changes: object) -> VMState:
        """Replace one city's entry in ``stacks``, ``standing`` or ``missions``."""
        i = CITIES.index(city)
        updates: dict[str, object] = {}
        for name, value in changes.items():
            row = list(getattr(self, name))
            row[i] = value
            updates[name] = tuple(row)
        return replace(self, **updates)
