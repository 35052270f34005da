"""``decide``: check an intent against the state and the actor, then run the game forward on
its own (loot, abilities that need nobody, reshuffles, the end of a turn, the final round)
until someone has to answer a real question."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from companion.core.audience import Audience, require_table, require_table_or_seat
from companion.core.errors import Forbidden, IllegalMove, MalformedInput
from companion.core.events import Event, Intent
from companion.core.scratch import Scratch
from companion.games.victorian_masterminds.engine import (
    SALT_MAX,
    apply_event,
    can_capture,
    can_extra_turn,
    face_up,
    final_scores,
    gain_one,
    gains_for,
    gunner_strong,
    held_face_down,
    lone_cities,
    order_matters,
    shuffled,
)
from companion.games.victorian_masterminds.events import (
    Adjust,
    AgentOutcome,
    AgentPlaced,
    AgentReidentified,
    AgentResolved,
    AgentRevealed,
    AnswerHenchman,
    BuildingCaptured,
    Capture,
    ChoiceRequired,
    ChooseBuilding,
    ChooseOrder,
    Corrected,
    EndTurn,
    EngineerDone,
    ExtraTurn,
    ExtraTurnStarted,
    FinalResolutionStarted,
    ForceResolve,
    GameEnded,
    LootTaken,
    MissionSet,
    MissionTaken,
    OrderChosen,
    PileShuffled,
    Place,
    PlaceUnder,
    RecordSegment,
    Reidentify,
    RemoveSegment,
    Reveal,
    ScientistsSpent,
    SegmentRecorded,
    SegmentRemoved,
    SetMission,
    StackFlipped,
    StackResolved,
    Start,
    Started,
    TakeLoot,
    TurnEnded,
)
from companion.games.victorian_masterminds.model import (
    AGENTS,
    BUILDING_LOOT,
    BUILDINGS,
    CITIES,
    CITY_LOOT,
    CODEX_MAX,
    COUNTERS,
    FINAL_ORDER,
    LAB_CELLS_MAX,
    LABEL_MAX,
    LEVEL_MAX,
    MISSION_REWARDS,
    SCIENTIST_COST,
    SEGMENTS_PER_MACHINE,
    UNLOCKS,
    Agent,
    City,
    Gain,
    Player,
    Resolution,
    Resource,
    Stage,
    VMState,
)

SEGMENT_CHAOS_MAX = 20
T = TypeVar("T")


class Builder(Scratch[VMState]):
    """Collects the events of one action, applying each so the next step sees its effect."""

    def __init__(self, state: VMState) -> None:
        super().__init__(apply_event, state)


# -- checks ------------------------------------------------------------------------------


def one_of(value: T, options: Sequence[T], field: str) -> T:
    """Values that a JSON intent's codec already checks, checked again for in-process callers."""
    if value not in options:
        raise MalformedInput("vm.bad_value", f"{field}: not a known value", field=field)
    return value


def known_player(s: VMState, seat: str) -> Player:
    if seat not in s.seats:
        raise IllegalMove("vm.unknown_seat", "no such seat in this game", seat=seat[:20])
    return s.player(seat)


def may_act_for(actor: Audience, seat: str) -> None:
    require_table_or_seat(actor, seat, "vm.not_your_seat")


def table_only(actor: Audience) -> None:
    require_table(actor, "vm.table_only")


def started(s: VMState) -> None:
    if not s.started:
        raise IllegalMove("vm.not_started", "the game has not started")


def turn_of(s: VMState, seat: str, actor: Audience) -> Player:
    """A turn action by ``seat``: the actor may act for it, no resolution waits, it is its turn."""
    started(s)
    player = known_player(s, seat)
    may_act_for(actor, seat)
    if s.resolution is not None or s.final:
        raise IllegalMove("vm.resolution_pending", "a stack is being resolved")
    if seat != s.active_seat:
        raise IllegalMove("vm.not_your_turn", "it is not this seat's turn", active=s.active_seat)
    return player


def no_scientists_in_extra_turn(s: VMState) -> None:
    if s.extra_turn:
        raise IllegalMove("vm.scientists_in_extra_turn", "no scientist may be spent during an extra turn")


def pay(p: Player, purpose: str) -> int:
    need = SCIENTIST_COST[purpose]
    if p.scientists < need:
        raise IllegalMove("vm.not_enough_scientists", "not enough scientists", need=need, have=p.scientists)
    return need


def placed_already(s: VMState) -> None:
    if s.turn_phase != "after":
        raise IllegalMove("vm.not_placed_yet", "place an agent first")


def awaiting(s: VMState, stage: Stage | None) -> Resolution:
    """The resolution waiting for ``stage`` (``None``: waiting for a reveal)."""
    r = s.resolution
    current = r.current if r is not None else None
    if r is None or current is None:
        raise IllegalMove("vm.not_awaited", "nothing is waiting for that answer")
    waiting = r.stage == stage if stage is not None else r.stage == "loot" and current.agent is None
    if not waiting:
        raise IllegalMove("vm.not_awaited", "nothing is waiting for that answer")
    return r


def label_ok(label: str) -> str:
    if len(label) > LABEL_MAX:
        raise IllegalMove("vm.label_too_long", "label too long", max=LABEL_MAX)
    return label


def reward_ok(reward: int | None) -> int | None:
    if reward is not None and reward not in MISSION_REWARDS:
        raise IllegalMove("vm.reward_invalid", "a mission is worth 2, 3 or 4", reward=reward)
    return reward


def standing(s: VMState, city: City, building: str) -> None:
    if building not in s.standing_in(city):
        raise IllegalMove("vm.building_taken", "that building is no longer standing", city=city, building=building)


# -- turn actions ------------------------------------------------------------------------


def do_start(b: Builder, it: Start, actor: Audience, rng: random.Random) -> bool:
    table_only(actor)
    if b.state.started:
        raise IllegalMove("vm.already_started", "the game has already started")
    b.emit(Started(rng.randint(1, SALT_MAX)))
    for p in b.state.players:
        order, derived = shuffled(b.state, p.seat, AGENTS, p.pile_gen + 1, rng)
        b.emit(PileShuffled(p.seat, order, "setup", derived))
    return True


def from_pile(
    s: VMState, p: Player, agent: Agent | None, actor: Audience, books: bool = False, force: bool = False
) -> Agent | None:
    """The agent a placement takes from ``p``'s pile (``None``: unidentified).

    The seat's phone goes by the seat's own books: without a name it takes the top; a name must
    be in the pile, and the top one unless 5 codex tokens free the choice.

    The table, for a seat whose phone keeps its pile (``books``), places as that phone would: the
    top (a scanned name only where the phone would take it too); its phone is told which. While
    the pile is not certain (agents placed unidentified before the phone came), the phone must
    name it: refused, the same way whatever the pile holds.

    Otherwise the table names the disc someone holds (a tag scan) or none. An agent lying face up
    is refused (everyone sees that). One the books hold named face down in another stack is not
    taken as a swap (a misread tag, or a disc on the wrong player's reader, would otherwise move two
    agents unseen): it is placed unnamed, and the table is asked which agent it is when its stack
    is turned over — face up, when the answer tells nobody anything. Refusing or asking now would
    tell the table that the seat holds that agent face down (``test_vm_secrets``: every answer is
    the same whatever the hidden books hold). ``force`` (logs from before this rule) swaps instead."""
    if p.pile_size == 0:
        raise IllegalMove("vm.pile_empty", "no agent left in the pile")
    if agent is not None:
        one_of(agent, AGENTS, "agent")
    if actor.is_table and books:
        if not p.pile_exact:
            raise IllegalMove("vm.place_on_phone", "this seat's phone keeps its pile", seat=p.seat)
        return agent if agent is not None and p.codex_power and agent in p.pile else p.pile[0]
    if actor.is_table:
        if agent is not None and agent in face_up(s, p.seat):
            raise IllegalMove("vm.agent_face_up", "that agent lies face up", agent=agent)
        if agent is not None and not force and agent not in p.pile and held_face_down(s, p.seat, agent):
            return None  # named when its stack is turned over (see above)
        return agent
    return _phone_choice(p, agent)


def _phone_choice(p: Player, agent: Agent | None) -> Agent:
    """What the seat's phone may place: by its books (see :func:`from_pile`)."""
    if agent is None:
        if not p.pile_exact:
            raise IllegalMove("vm.name_the_agent", "say which agent you place")
        return p.pile[0]
    if agent not in p.pile:
        raise IllegalMove("vm.agent_not_in_pile", "that agent is not in the pile")
    if p.pile_exact and not p.codex_power and agent != p.pile[0]:
        raise IllegalMove("vm.not_top_agent", "place the top agent of your pile (5 codex free the choice)")
    return agent


def do_place(b: Builder, it: Place, actor: Audience, rng: random.Random) -> bool:
    s = b.state
    p = turn_of(s, it.seat, actor)
    city = one_of(it.city, CITIES, "city")
    if s.turn_phase != "place":
        raise IllegalMove("vm.already_placed", "an agent was already placed this turn")
    agent = it.agent
    if it.recycle:
        if agent is not None:
            one_of(agent, AGENTS, "agent")
        no_scientists_in_extra_turn(s)
        cost = pay(p, "recycle")
        if agent is None or agent not in p.discard:
            raise IllegalMove("vm.not_in_discard", "recycle an agent from your discard")
        b.emit(ScientistsSpent(p.seat, cost, "recycle"))
    else:
        agent = from_pile(s, p, agent, actor, it.books, it.force)
    b.emit(AgentPlaced(p.seat, city, agent, p.pile_gen, it.recycle, by_table=actor.is_table and it.books))
    return True


def do_place_under(b: Builder, it: PlaceUnder, actor: Audience, rng: random.Random) -> bool:
    s = b.state
    r = awaiting(s, "engineer")
    seat, _ = _current(r)
    if it.seat != seat:
        raise IllegalMove("vm.not_engineer_owner", "only the Engineer's owner places with its power", seat=seat)
    may_act_for(actor, seat)
    city = one_of(it.city, CITIES, "city")
    if r.placed_under:
        raise IllegalMove("vm.already_placed_under", "this Engineer has already placed an agent")
    if city not in lone_cities(s):
        raise IllegalMove("vm.not_a_lone_agent", "no agent lies alone in that city", city=city)
    p = s.player(seat)
    agent = from_pile(s, p, it.agent, actor, it.books, it.force)
    b.emit(AgentPlaced(seat, city, agent, p.pile_gen, under=True, by_table=actor.is_table and it.books))
    return True


def do_force_resolve(b: Builder, it: ForceResolve, actor: Audience, rng: random.Random) -> bool:
    s = b.state
    p = turn_of(s, it.seat, actor)
    city = one_of(it.city, CITIES, "city")
    if s.turn_phase != "place":
        raise IllegalMove("vm.already_placed", "an agent was already placed this turn")
    if p.pile_size > 0 or p.discard:
        raise IllegalMove("vm.no_force_needed", "an agent can still be placed")
    stack = s.stack(city)
    if not (0 < len(stack) < s.threshold and any(pl.seat == p.seat for pl in stack)):
        raise IllegalMove("vm.stack_not_eligible", "choose a stack of 1 or 2 agents holding one of yours", city=city)
    b.emit(StackFlipped(city, "forced"))
    return True


def do_extra_turn(b: Builder, it: ExtraTurn, actor: Audience, rng: random.Random) -> bool:
    s = b.state
    p = turn_of(s, it.seat, actor)
    no_scientists_in_extra_turn(s)
    cost = pay(p, "extra_turn")
    placed_already(s)
    if p.pile_size == 0:
        raise IllegalMove("vm.pile_empty", "no agent left in the pile")
    b.emit(ScientistsSpent(p.seat, cost, "extra_turn"), ExtraTurnStarted(p.seat))
    return True


def do_capture(b: Builder, it: Capture, actor: Audience, rng: random.Random) -> bool:
    s = b.state
    p = turn_of(s, it.seat, actor)
    city = one_of(it.city, CITIES, "city")
    building = one_of(it.building, BUILDINGS, "building")
    no_scientists_in_extra_turn(s)
    cost = pay(p, "capture")
    placed_already(s)
    standing(s, city, building)
    b.emit(ScientistsSpent(p.seat, cost, "capture"))
    loot: list[Resource] = [BUILDING_LOOT[building]]
    if s.settings.capture_city_loot:
        loot.append(CITY_LOOT[city])
    b.emit(BuildingCaptured(p.seat, city, building, "capture", gains_for(b.state, p.seat, loot)))
    return True


def do_end_turn(b: Builder, it: EndTurn, actor: Audience, rng: random.Random) -> bool:
    s = b.state
    p = turn_of(s, it.seat, actor)
    placed_already(s)
    b.emit(TurnEnded(p.seat))
    return True


# -- answers during a resolution ---------------------------------------------------------


def do_reveal(b: Builder, it: Reveal, actor: Audience, rng: random.Random) -> bool:
    """The disc lies face up now: whatever it shows is the truth, unless that agent already lies
    face up elsewhere (the hidden books give way, as for a tag scan)."""
    s = b.state
    r = awaiting(s, None)
    current = r.current
    assert current is not None
    may_act_for(actor, current.seat)
    agent = one_of(it.agent, AGENTS, "agent")
    if agent in face_up(s, current.seat):
        raise IllegalMove("vm.agent_face_up", "that agent lies face up", agent=agent)
    b.emit(AgentRevealed(r.city, r.index, agent, current.seat))
    return True


def ability_acted(r: Resolution, index: int) -> bool:
    """Whether agent ``index``'s ability has done something (a capture, a mission, the steam mole)."""
    step = r.step_of(index)
    return index == r.index and (r.stage == "take_loot" or bool(step.building) or bool(step.mission) or r.placed_under)


def do_reidentify(b: Builder, it: Reidentify, actor: Audience, rng: random.Random) -> bool:
    """The stack lies face up: the table names one of its agents again (one not resolved yet), as
    the disc shows it. The books give way; the current agent starts its steps again."""
    s = b.state
    table_only(actor)
    r = s.resolution
    if r is None or not r.index <= it.index < len(r.agents):
        raise IllegalMove("vm.reidentify_index", "no such agent waits in the stack being turned over")
    placement = r.agents[it.index]
    agent = one_of(it.agent, AGENTS, "agent")
    if placement.agent is None:
        raise IllegalMove("vm.reidentify_unknown", "that agent has no name yet: name it when its turn comes")
    if placement.recycled:
        raise IllegalMove("vm.reidentify_recycled", "that agent came face up from the discard")
    if agent == placement.agent:
        raise IllegalMove("vm.reidentify_same", "that agent already has that name", agent=agent)
    if ability_acted(r, it.index):
        raise IllegalMove("vm.reidentify_done", "its ability has already done something: undo that first")
    if agent in face_up(s, placement.seat):
        raise IllegalMove("vm.agent_face_up", "that agent lies face up", agent=agent)
    b.emit(AgentReidentified(r.city, it.index, agent, placement.agent, placement.seat))
    return True


def _current(r: Resolution) -> tuple[str, Any]:
    current = r.current
    assert current is not None and current.agent is not None
    return current.seat, current.agent


def finish(b: Builder, outcome: AgentOutcome, gains: tuple[Gain, ...] = (), cancels: int | None = None) -> None:
    """The current agent is done: its loot first if the ability went first, then its discard."""
    r = b.state.resolution
    assert r is not None
    seat, agent = _current(r)
    if not r.looted:
        b.emit(LootTaken(seat, r.city, r.index, (gain_one(b.state, seat, CITY_LOOT[r.city]),)))
    b.emit(AgentResolved(seat, r.city, r.index, agent, outcome, gains, cancels))


def do_choose_order(b: Builder, it: ChooseOrder, actor: Audience, rng: random.Random) -> bool:
    r = awaiting(b.state, "order")
    seat, _ = _current(r)
    may_act_for(actor, seat)
    first = one_of(it.first, ("loot", "ability"), "first")
    b.emit(OrderChosen(seat, r.city, r.index, first))
    return True


def do_take_loot(b: Builder, it: TakeLoot, actor: Audience, rng: random.Random) -> bool:
    """After a Gunner's capture taken first: the loot, and the Gunner is done. During an
    Engineer's stage that began before the loot: the loot now, the power goes on."""
    s = b.state
    r = s.resolution
    if r is None or r.stage not in ("take_loot", "engineer") or r.looted:
        raise IllegalMove("vm.not_awaited", "nothing is waiting for that answer")
    seat, _ = _current(r)
    may_act_for(actor, seat)
    if r.stage == "take_loot":
        finish(b, "captured")
    else:
        b.emit(_loot(s))
    return True


def do_choose_building(b: Builder, it: ChooseBuilding, actor: Audience, rng: random.Random) -> bool:
    s = b.state
    r = awaiting(s, "gunner")
    seat, _ = _current(r)
    may_act_for(actor, seat)
    if it.building is None:
        finish(b, "declined")
        return True
    building = one_of(it.building, BUILDINGS, "building")
    standing(s, r.city, building)
    b.emit(BuildingCaptured(seat, r.city, building, "gunner", gains_for(s, seat, [BUILDING_LOOT[building]])))
    if r.looted:
        finish(b, "captured")
    else:  # the ability went first: the loot waits until what the capture completed is recorded
        b.emit(ChoiceRequired(seat, r.city, r.index, "take_loot"))
    return True


def do_henchman(b: Builder, it: AnswerHenchman, actor: Audience, rng: random.Random) -> bool:
    s = b.state
    r = awaiting(s, "henchman")
    seat, _ = _current(r)
    table_only(actor)
    if not it.met:
        finish(b, "mission_not_met")
        return True
    mission = s.mission(r.city)
    assert mission is not None
    reward = reward_ok(it.reward) or mission.reward
    if reward is None:
        raise IllegalMove("vm.reward_required", "enter the mission's reward (2, 3 or 4)")
    label = label_ok(it.label) if it.label is not None else mission.label
    b.emit(MissionTaken(seat, r.city, reward, label))
    finish(b, "mission")
    return True


def do_engineer_done(b: Builder, it: EngineerDone, actor: Audience, rng: random.Random) -> bool:
    r = awaiting(b.state, "engineer")
    seat, _ = _current(r)
    may_act_for(actor, seat)
    finish(b, "engineer")
    return True


# -- table entries and corrections -------------------------------------------------------


def engineer_owner(s: VMState) -> str | None:
    """The seat whose Engineer is waiting to be applied, if any."""
    r = s.resolution
    if r is not None and r.stage == "engineer" and r.current is not None:
        return r.current.seat
    return None


def do_adjust(b: Builder, it: Adjust, actor: Audience, rng: random.Random) -> bool:
    s = b.state
    counter = one_of(it.counter, COUNTERS, "counter")
    if it.delta == 0:
        raise MalformedInput("vm.bad_value", "delta: must not be 0", field="delta")
    if counter == "level":
        table_only(actor)
        if it.seat is not None:
            raise MalformedInput("vm.bad_value", "seat: the level is not a seat's", field="seat")
        if not 0 <= s.level + it.delta <= LEVEL_MAX:
            raise IllegalMove("vm.adjust_range", "out of range", counter=counter, value=s.level + it.delta)
        b.emit(Corrected(counter, it.delta))
        return False
    if it.seat is None:
        raise MalformedInput("vm.bad_value", "seat: missing", field="seat")
    p = known_player(s, it.seat)
    if not actor.is_table and not (actor.is_seat(p.seat) and engineer_owner(s) == p.seat):
        raise Forbidden("vm.adjust_not_allowed", "only the table corrects counters (or an Engineer's owner, for it)")
    value = p.codex_value if it.value is None else it.value
    if counter == "codex":
        one_of(value, (1, 2), "value")
        new, top = len(p.codex) + it.delta, CODEX_MAX
    elif counter == "scientists":
        new = p.scientists + it.delta
        top = min(p.lab_cells, p.scientists + s.scientist_supply())
    else:
        new, top = getattr(p, counter) + it.delta, 10**6
    if not 0 <= new <= top:
        raise IllegalMove("vm.adjust_range", "out of range", counter=counter, value=new)
    by = "" if actor.is_table else p.seat  # an Engineer's owner applying its power: may take it back
    b.emit(Corrected(counter, it.delta, p.seat, value if counter == "codex" else 1, by))
    return False


def do_record_segment(b: Builder, it: RecordSegment, actor: Audience, rng: random.Random) -> bool:
    s = b.state
    p = known_player(s, it.seat)
    may_act_for(actor, p.seat)
    unlock = one_of(it.unlock, UNLOCKS, "unlock")
    if len(p.segments) >= SEGMENTS_PER_MACHINE:
        raise IllegalMove("vm.machine_complete", "all 8 segments are built")
    if not 0 <= it.chaos <= SEGMENT_CHAOS_MAX:
        raise IllegalMove("vm.segment_chaos", "chaos points out of range", max=SEGMENT_CHAOS_MAX)
    if unlock == "lab_cell" and p.lab_cells >= LAB_CELLS_MAX:
        raise IllegalMove("vm.lab_cells_max", "all lab cells are unlocked", max=LAB_CELLS_MAX)
    if unlock == "codex" and p.codex_value == 2:
        raise IllegalMove("vm.codex_unlocked_already", "the codex segment is already built")
    if not (0 <= it.bolts <= p.bolts and 0 <= it.copper <= p.copper):
        raise IllegalMove("vm.segment_parts", "not that many parts on the sheet", bolts=p.bolts, copper=p.copper)
    b.emit(SegmentRecorded(p.seat, it.chaos, unlock, it.bolts, it.copper, label_ok(it.label)))
    return False


def do_remove_segment(b: Builder, it: RemoveSegment, actor: Audience, rng: random.Random) -> bool:
    s = b.state
    table_only(actor)
    p = known_player(s, it.seat)
    if not 0 <= it.index < len(p.segments):
        raise IllegalMove("vm.no_segment", "no such segment", index=it.index)
    if p.segments[it.index].unlock == "lab_cell" and p.scientists > p.lab_cells - 1:
        raise IllegalMove(
            "vm.adjust_range", "a scientist sits in that lab cell", counter="scientists", value=p.scientists
        )
    b.emit(SegmentRemoved(p.seat, it.index))
    return False


def do_set_mission(b: Builder, it: SetMission, actor: Audience, rng: random.Random) -> bool:
    s = b.state
    table_only(actor)
    city = one_of(it.city, CITIES, "city")
    if s.mission(city) is None:
        raise IllegalMove("vm.no_mission_slot", "this city has no mission card", city=city)
    b.emit(MissionSet(city, reward_ok(it.reward), label_ok(it.label)))
    return False


Handler = Callable[[Builder, Any, Audience, random.Random], bool]
HANDLERS: dict[type[Intent], Handler] = {
    Start: do_start,
    Place: do_place,
    PlaceUnder: do_place_under,
    ForceResolve: do_force_resolve,
    ExtraTurn: do_extra_turn,
    Capture: do_capture,
    EndTurn: do_end_turn,
    Reveal: do_reveal,
    Reidentify: do_reidentify,
    ChooseOrder: do_choose_order,
    TakeLoot: do_take_loot,
    ChooseBuilding: do_choose_building,
    AnswerHenchman: do_henchman,
    EngineerDone: do_engineer_done,
    Adjust: do_adjust,
    RecordSegment: do_record_segment,
    RemoveSegment: do_remove_segment,
    SetMission: do_set_mission,
}


def decide(state: VMState, intent: Intent, actor: Audience, rng: random.Random) -> tuple[Event, ...]:
    if actor.is_debug:
        raise Forbidden("vm.debug_never_acts", "the debug audience never acts")
    handler = HANDLERS.get(type(intent))
    if handler is None:
        raise MalformedInput("vm.unknown_intent", "not a Victorian Masterminds intent")
    b = Builder(state)
    if handler(b, intent, actor, rng):
        progress(b, rng)
    return tuple(b.events)


# -- running forward ---------------------------------------------------------------------


def progress(b: Builder, rng: random.Random) -> None:
    """Everything that follows without a question, until one is needed."""
    while True:
        s = b.state
        if s.ended or not s.started:
            return
        if s.resolution is not None:
            if not step(b):
                return
            continue
        if s.final:
            city = next((c for c in FINAL_ORDER if s.stack(c)), None)
            if city is None:
                scores, winners = final_scores(s)
                b.emit(GameEnded(scores, winners))
                return
            b.emit(StackFlipped(city, "final"))
            continue
        full = next((c for c in CITIES if len(s.stack(c)) >= s.threshold), None)
        if full is not None:  # a placement filled it (or an Engineer's, once its stack was done)
            b.emit(StackFlipped(full, "full"))
            continue
        if s.final_turns_left == 0:
            b.emit(FinalResolutionStarted())
            continue
        empty = [p for p in s.players if p.pile_size == 0 and p.discard]
        if empty:
            for p in empty:
                order, derived = shuffled(s, p.seat, p.discard, p.pile_gen + 1, rng)
                b.emit(PileShuffled(p.seat, order, "reshuffle", derived))
            continue
        if s.turn_phase == "after" and not (can_extra_turn(s) or can_capture(s)):
            b.emit(TurnEnded(s.active_seat, auto=True))
            continue
        return


def step(b: Builder) -> bool:
    """One step of the resolution under way; ``False`` when it waits for an answer."""
    s = b.state
    r = s.resolution
    assert r is not None
    current = r.current
    if current is None:
        b.emit(StackResolved(r.city, new_mission=r.mission_taken and s.mission_deck > 0))
        return True
    agent = current.agent
    if agent is None or r.stage not in ("loot", "ability"):
        return False  # waits for a reveal or an answer
    seat, city = current.seat, r.city
    if r.stage == "loot":
        if r.first is None and order_matters(s):
            # an Engineer's owner takes the loot during the power's stage, whenever it suits them
            b.emit(ChoiceRequired(seat, city, r.index, "engineer" if agent == "engineer" else "order"))
        else:
            b.emit(_loot(s))
        return True
    if not r.looted and agent not in ("gunner", "engineer"):
        b.emit(_loot(s))  # only a Gunner's or an Engineer's owner is ever asked for the order
        return True
    if r.index in r.cancelled:
        finish(b, "cancelled")
    elif agent == "number_two":
        finish(b, "double_loot", (gain_one(s, seat, CITY_LOOT[city]),))
    elif agent == "saboteur":
        nxt = r.index + 1
        if nxt >= len(r.agents):
            finish(b, "no_target")
        elif r.agents[nxt].seat == seat:
            finish(b, "own_colour")
        else:
            finish(b, "sabotage", cancels=nxt)
    elif agent == "henchman":
        if s.mission(city) is None:
            finish(b, "no_mission")
        else:
            b.emit(ChoiceRequired(seat, city, r.index, "henchman"))
    elif agent == "gunner":
        if not gunner_strong(s, seat):
            finish(b, "too_weak")
        elif not s.standing_in(city):
            finish(b, "no_building")
        else:
            b.emit(ChoiceRequired(seat, city, r.index, "gunner"))
    else:
        b.emit(ChoiceRequired(seat, city, r.index, "engineer"))
    return True


def _loot(s: VMState) -> LootTaken:
    r = s.resolution
    assert r is not None and r.current is not None
    seat = r.current.seat
    return LootTaken(seat, r.city, r.index, (gain_one(s, seat, CITY_LOOT[r.city]),))
