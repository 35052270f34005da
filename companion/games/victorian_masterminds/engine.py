"""Trusted state changes (``apply_event``) and the pure helpers both ``decide`` and views use:
loot, scores, whose agents are where, what a reveal may name."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from companion.core.events import Event
from companion.core.frozen import replace
from companion.games.victorian_masterminds.events import (
    AgentPlaced,
    AgentReidentified,
    AgentResolved,
    AgentRevealed,
    BuildingCaptured,
    ChoiceRequired,
    Corrected,
    ExtraTurnStarted,
    FinalResolutionStarted,
    GameEnded,
    LootTaken,
    MissionSet,
    MissionTaken,
    OrderChosen,
    PileShuffled,
    SaltDrawn,
    ScientistsSpent,
    SegmentRecorded,
    SegmentRemoved,
    StackFlipped,
    StackResolved,
    Started,
    TurnEnded,
)
from companion.games.victorian_masterminds.model import (
    AGENTS,
    BUILDING_LOOT,
    CITIES,
    CITY_LOOT,
    CODEX_MAX,
    CODEX_POWER_AT,
    LEVEL_MAX,
    POINTS_PER_BUILDING,
    POINTS_PER_CHAOS_TOKEN,
    SEGMENTS_PER_MACHINE,
    Agent,
    City,
    Gain,
    LevelChange,
    LogLine,
    Mission,
    Placement,
    Player,
    Resolution,
    Resource,
    Segment,
    VMState,
)

LOG_KEEP = 8

# -- loot --------------------------------------------------------------------------------


def gain_one(state: VMState, seat: str, resource: Resource, times: int = 1) -> Gain:
    """What ``times`` loots of ``resource`` give ``seat`` now (caps: lab cells, the scientist
    supply, the codex library)."""
    p = state.player(seat)
    if resource == "scientist":
        room = max(0, min(p.lab_cells - p.scientists, state.scientist_supply()))
        got = min(times, room)
        return Gain(resource, got, times - got)
    if resource == "codex":
        got = min(times, max(0, CODEX_MAX - len(p.codex)))
        return Gain(resource, got, times - got, p.codex_value)
    return Gain(resource, times)


def add_gain(p: Player, g: Gain) -> Player:
    r = g.resource
    if r == "copper":
        return replace(p, copper=p.copper + g.amount)
    if r == "bolt":
        return replace(p, bolts=p.bolts + g.amount)
    if r == "firepower":
        return replace(p, firepower=p.firepower + g.amount)
    if r == "scientist":
        return replace(p, scientists=p.scientists + g.amount)
    if r == "chaos_token":
        return replace(p, chaos_tokens=p.chaos_tokens + g.amount)
    codex = p.codex + (g.value,) * g.amount
    return replace(p, codex=codex, codex_power=p.codex_power or len(codex) >= CODEX_POWER_AT)


def apply_gains(state: VMState, seat: str, gains: Iterable[Gain]) -> VMState:
    p = state.player(seat)
    for g in gains:
        p = add_gain(p, g)
    return state.with_player(p)


def gains_for(state: VMState, seat: str, resources: Iterable[Resource]) -> tuple[Gain, ...]:
    """Several loots one after the other (each sees the caps the previous left), merged per
    resource in first-seen order."""
    merged: dict[Resource, Gain] = {}
    for res in resources:
        g = gain_one(state, seat, res)
        state = apply_gains(state, seat, (g,))
        old = merged.get(res)
        merged[res] = g if old is None else Gain(res, old.amount + g.amount, old.lost + g.lost, g.value)
    return tuple(merged.values())


# -- scores ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    segments: int
    buildings: int
    missions: int
    chaos_tokens: int
    codex: int
    segment_count: int

    @property
    def total(self) -> int:
        return self.segments + self.buildings + self.missions + self.chaos_tokens + self.codex


def score_of(p: Player) -> Score:
    return Score(
        segments=sum(s.chaos for s in p.segments),
        buildings=POINTS_PER_BUILDING * len(p.buildings),
        missions=sum(m.reward or 0 for m in p.missions),
        chaos_tokens=POINTS_PER_CHAOS_TOKEN * p.chaos_tokens,
        codex=sum(p.codex),
        segment_count=len(p.segments),
    )


def places(state: VMState) -> dict[str, int]:
    """1-based places: more points first, then more segments; still tied players share."""
    keys = {p.seat: (score_of(p).total, len(p.segments)) for p in state.players}
    return {seat: 1 + sum(1 for other in keys.values() if other > key) for seat, key in keys.items()}


def final_scores(state: VMState) -> tuple[tuple[tuple[str, int], ...], tuple[str, ...]]:
    ranks = places(state)
    scores = tuple((p.seat, score_of(p).total) for p in state.players)
    return scores, tuple(seat for seat, place in ranks.items() if place == 1)


# -- who is where ------------------------------------------------------------------------
#
# The hidden books of a seat: ``pile`` (top first) lists the agents of its current pile *and* those
# placed from it unidentified (``pile_unknown`` of them, so the pile is exact only when that is 0).
# A face-down placement either names its agent or not; an unnamed one of an older pile (``gen``)
# is one of the seat's agents found nowhere else (``old_pool``). Invariants: ``pile_unknown`` is
# the number of unnamed placements of the current pile, and ``old_pool`` has exactly as many
# agents as there are unnamed placements of older piles.

# A placement's place: (city index, position in its stack), or (-1, index) in the resolution.
Loc = tuple[int, int]
RESOLVING = -1


def locations(state: VMState, seat: str) -> Iterator[tuple[Loc, Placement]]:
    """The seat's agents on the board: in stacks (board order, first placed first), then those of
    the stack being resolved that are not resolved yet."""
    for ci, stack in enumerate(state.stacks):
        for j, pl in enumerate(stack):
            if pl.seat == seat:
                yield (ci, j), pl
    r = state.resolution
    if r is not None:
        for i in range(r.index, len(r.agents)):
            if r.agents[i].seat == seat:
                yield (RESOLVING, i), r.agents[i]


def placements_of(state: VMState, seat: str) -> list[Placement]:
    return [pl for _, pl in locations(state, seat)]


def with_placement(state: VMState, loc: Loc, placement: Placement) -> VMState:
    where, i = loc
    if where == RESOLVING:
        r = state.resolution
        assert r is not None
        agents = (*r.agents[:i], placement, *r.agents[i + 1 :])
        return replace(state, resolution=replace(r, agents=agents))
    stacks = list(state.stacks)
    stacks[where] = (*stacks[where][:i], placement, *stacks[where][i + 1 :])
    return replace(state, stacks=tuple(stacks))


def face_up(state: VMState, seat: str) -> frozenset[Agent]:
    """The seat's agents everyone can see: its discard, agents recycled onto the board (they came
    face up) and the agents named in the stack being turned over."""
    out = set(state.player(seat).discard)
    for (where, _), pl in locations(state, seat):
        if pl.agent is not None and (pl.recycled or where == RESOLVING):
            out.add(pl.agent)
    return frozenset(out)


def old_pool(state: VMState, seat: str) -> tuple[Agent, ...]:
    """The seat's agents found neither in its pile, its discard nor named on the board: what its
    unnamed placements of older piles are."""
    p = state.player(seat)
    named = {pl.agent for pl in placements_of(state, seat) if pl.agent is not None}
    return tuple(a for a in AGENTS if a not in p.pile and a not in p.discard and a not in named)


def reveal_candidates(state: VMState, placement: Placement) -> tuple[Agent, ...]:
    """What an unidentified placement can be, by the companion's books."""
    p = state.player(placement.seat)
    if placement.gen == p.pile_gen:
        return tuple(a for a in AGENTS if a in p.pile)
    return old_pool(state, placement.seat)


def possible_entries(state: VMState, seat: str) -> tuple[Agent, ...]:
    """Agents the table may name for the seat's pile or for one of its face-down agents: all but
    those lying face up. Whatever the books say otherwise, the disc in someone's hand is the
    truth; a refusal that depended on the books would tell the table what they hold."""
    up = face_up(state, seat)
    return tuple(a for a in AGENTS if a not in up)


def held_face_down(state: VMState, seat: str, agent: Agent) -> bool:
    """Whether the seat's books have ``agent`` named in a face-down stack (not the one being turned
    over: that one is face up)."""
    return _named_face_down(state, seat, agent) is not None


def _named_face_down(state: VMState, seat: str, agent: Agent) -> Loc | None:
    for loc, pl in locations(state, seat):
        if loc[0] != RESOLVING and pl.agent == agent and not pl.recycled:
            return loc
    return None


def _older_unnamed(state: VMState, seat: str, gen: int, skip: Loc | None = None) -> Loc | None:
    for loc, pl in locations(state, seat):
        if pl.agent is None and pl.gen < gen and loc != skip:
            return loc
    return None


def _unname(state: VMState, loc: Loc, gen: int) -> VMState:
    """The placement at ``loc`` is not what the books said: it becomes unnamed, of pile ``gen``."""
    where, i = loc
    r = state.resolution
    pl = r.agents[i] if where == RESOLVING and r is not None else state.stacks[where][i]
    return with_placement(state, loc, replace(pl, agent=None, gen=gen))


def take_from_pile(state: VMState, seat: str, agent: Agent) -> VMState:
    """``agent`` leaves the seat's hand (a placement naming it). If the books had it elsewhere
    (face down under another name, or among an older pile's unnamed agents), they give way: that
    other placement becomes an unnamed agent of the current pile."""
    p = state.player(seat)
    if agent in p.pile:
        return state.with_player(replace(p, pile=_remove_first(p.pile, agent)))
    loc = _named_face_down(state, seat, agent) or _older_unnamed(state, seat, p.pile_gen)
    assert loc is not None, "the hidden books are inconsistent"
    return _unname(state, loc, p.pile_gen).with_player(replace(p, pile_unknown=p.pile_unknown + 1))


def name_placement(state: VMState, loc: Loc, agent: Agent) -> VMState:
    """An unnamed placement turns out to be ``agent``; the books give way where they disagree."""
    where, i = loc
    r = state.resolution
    placement = r.agents[i] if where == RESOLVING and r is not None else state.stacks[where][i]
    seat, gen = placement.seat, placement.gen
    p = state.player(seat)
    if gen == p.pile_gen:
        if agent in p.pile:
            state = state.with_player(replace(p, pile=_remove_first(p.pile, agent), pile_unknown=p.pile_unknown - 1))
        else:  # named elsewhere, or one of an older pile's: that one takes this one's place
            other = _named_face_down(state, seat, agent) or _older_unnamed(state, seat, gen, skip=loc)
            assert other is not None, "the hidden books are inconsistent"
            state = _unname(state, other, gen)
    elif agent not in old_pool(state, seat):
        other = _named_face_down(state, seat, agent)
        if other is not None:
            state = _unname(state, other, gen)
        else:  # the books had it in the current pile: an agent of the old pool takes its place
            pool = old_pool(state, seat)
            assert agent in p.pile and pool, "the hidden books are inconsistent"
            k = p.pile.index(agent)
            state = state.with_player(replace(p, pile=(*p.pile[:k], pool[0], *p.pile[k + 1 :])))
    return with_placement(state, loc, replace(placement, agent=agent))


SALT_MAX = 2**48 - 1


def shuffled(
    state: VMState, seat: str, agents: Sequence[Agent], gen: int, rng: random.Random
) -> tuple[tuple[Agent, ...], bool]:
    """A pile's order, and whether it derives from the salt. It derives from the game's salt (a
    recorded draw at the start), the seat and the pile's number, so the same shuffle done again
    after an undo gives the same order: undo cannot re-roll it. A game from before the salt (salt
    0) draws it from ``rng`` as it always did."""
    if not state.salt:
        return tuple(rng.sample(agents, len(agents))), False
    pool = sorted(agents, key=AGENTS.index)
    return tuple(random.Random(f"{state.salt}/{seat}/{gen}").sample(pool, len(pool))), True


def gunner_strong(state: VMState, seat: str) -> bool:
    fp = state.player(seat).firepower
    return fp >= state.level if state.settings.gunner_rule == ">=" else fp > state.level


def lone_cities(state: VMState) -> tuple[City, ...]:
    """Cities where exactly one agent lies (an Engineer's steam mole may go under it)."""
    return tuple(c for c in CITIES if len(state.stack(c)) == 1)


def _worth(g: Gain) -> tuple[int, int]:
    return g.amount, g.amount * g.value


def order_matters(state: VMState) -> bool:
    """Whether the owner of the current agent gets to take its ability before the loot.

    Both orders are computed. The loot first is the default. The ability first can only do
    better when the ability may complete a machine segment before the loot is taken — a Gunner
    able to capture a factory or a furnace (a part), or an Engineer whose machine power may
    build — and a built segment would change the loot: Rome's codex token is worth 2 once the
    codex segment is built; Paris's scientist fits once a lab cell unlocks. Otherwise the loot
    first is never worse (a Gunner in Moscow is stronger after its loot, and may still capture
    nothing), so ordinary turns are not asked."""
    r = state.resolution
    current = r.current if r is not None else None
    if r is None or current is None or current.agent not in ("gunner", "engineer") or r.index in r.cancelled:
        return False
    seat, city = current.seat, r.city
    p = state.player(seat)
    if len(p.segments) >= SEGMENTS_PER_MACHINE:
        return False
    if current.agent == "gunner" and not (
        gunner_strong(state, seat) and any(BUILDING_LOOT[b] in ("bolt", "copper") for b in state.standing_in(city))
    ):
        return False
    loot_first = gain_one(state, seat, CITY_LOOT[city])
    for unlock in ("codex", "lab_cell"):
        built = state.with_player(replace(p, segments=(*p.segments, Segment(0, unlock))))
        if _worth(gain_one(built, seat, CITY_LOOT[city])) != _worth(loot_first):
            return True
    return False


def can_extra_turn(state: VMState) -> bool:
    p = state.players[state.active]
    return not state.extra_turn and p.scientists >= 2 and p.pile_size > 0


def can_capture(state: VMState) -> bool:
    p = state.players[state.active]
    return not state.extra_turn and p.scientists >= 3 and any(state.standing)


# -- apply -------------------------------------------------------------------------------


def log(state: VMState, what: str, seat: str = "", city: str = "", detail: str = "") -> VMState:
    n = state.log_count + 1
    lines = (*state.log, LogLine(n, what, seat, city, detail))[-LOG_KEEP:]
    return replace(state, log=lines, log_count=n)


def _remove_first(items: tuple[Agent, ...], agent: Agent) -> tuple[Agent, ...]:
    i = items.index(agent)
    return items[:i] + items[i + 1 :]


def _resolution(state: VMState) -> Resolution:
    assert state.resolution is not None, "no resolution under way"
    return state.resolution


def apply_event(state: VMState, event: Event) -> VMState:
    new = _apply(state, event)
    if (
        new.started
        and not (new.triggered or new.final or new.ended)
        and (new.level >= LEVEL_MAX or any(len(p.segments) >= SEGMENTS_PER_MACHINE for p in new.players))
    ):
        new = log(replace(new, triggered=True), "vm.log.final_round", seat=new.active_seat)
    return new


def _apply(s: VMState, ev: Event) -> VMState:
    if isinstance(ev, Started):
        return log(replace(s, started=True, salt=ev.salt), "vm.log.started", seat=s.active_seat)
    if isinstance(ev, SaltDrawn):
        return replace(s, salt=ev.salt)
    if isinstance(ev, PileShuffled):
        p = s.player(ev.seat)
        s = s.with_player(replace(p, pile=ev.order, pile_unknown=0, pile_gen=p.pile_gen + 1, discard=()))
        return log(s, "vm.log.reshuffled", seat=ev.seat) if ev.reason == "reshuffle" else s
    if isinstance(ev, AgentPlaced):
        return _apply_placed(s, ev)
    if isinstance(ev, ScientistsSpent):
        p = s.player(ev.seat)
        return s.with_player(replace(p, scientists=p.scientists - ev.count))
    if isinstance(ev, ExtraTurnStarted):
        return log(replace(s, turn_phase="place", extra_turn=True), "vm.log.extra_turn", seat=ev.seat)
    if isinstance(ev, BuildingCaptured):
        p = s.player(ev.seat)
        s = s.with_player(replace(p, buildings=(*p.buildings, (ev.city, ev.building))))
        s = s.with_city(ev.city, standing=tuple(b for b in s.standing_in(ev.city) if b != ev.building))
        level = min(LEVEL_MAX, s.level + 1)
        why = LevelChange(s.level, level, ev.via, ev.seat, ev.city, ev.building)
        s = replace(apply_gains(s, ev.seat, ev.gains), level=level, level_change=why)
        if ev.via == "gunner" and s.resolution is not None:
            r = s.resolution
            s = replace(s, resolution=r.with_step(r.index, building=ev.building, gains=ev.gains))
        return log(s, "vm.log.captured", ev.seat, ev.city, ev.building)
    if isinstance(ev, TurnEnded):
        left = s.final_turns_left
        if s.triggered:
            left = len(s.players) if left is None else left - 1
        nxt = (s.active + 1) % len(s.players)
        return replace(s, active=nxt, turn_phase="place", extra_turn=False, final_turns_left=left)
    if isinstance(ev, StackFlipped):
        res = Resolution(city=ev.city, reason=ev.reason, agents=s.stack(ev.city))
        s = replace(s.with_city(ev.city, stacks=()), resolution=res)
        for p in s.players:  # what the table placed there for a seat lies face up now: nothing to tell
            if p.told is not None and p.told[0] == ev.city:
                s = s.with_player(replace(p, told=None))
        if ev.reason == "forced":
            s = replace(s, turn_phase="after")
        return log(s, "vm.log.flipped", city=ev.city, detail=ev.reason)
    if isinstance(ev, AgentRevealed):
        return _apply_revealed(s, ev)
    if isinstance(ev, AgentReidentified):
        return _apply_reidentified(s, ev)
    if isinstance(ev, LootTaken):
        s = apply_gains(s, ev.seat, ev.gains)
        r = _resolution(s)
        r = replace(r, looted=True, stage="ability" if r.stage == "loot" else r.stage)
        return replace(s, resolution=r.with_step(ev.index, loot=ev.gains))
    if isinstance(ev, ChoiceRequired):
        s = replace(s, resolution=replace(_resolution(s), stage=ev.choice))
        return log(s, "vm.log.engineer", ev.seat, ev.city) if ev.choice == "engineer" else s
    if isinstance(ev, OrderChosen):
        r = _resolution(s)
        r = replace(r, first=ev.first, stage="loot" if ev.first == "loot" else "ability")
        r = r.with_step(ev.index, ability_first=ev.first == "ability")
        return log(replace(s, resolution=r), "vm.log.order", ev.seat, ev.city, ev.first)
    if isinstance(ev, AgentResolved):
        r = _resolution(s)
        p = s.player(ev.seat)
        s = apply_gains(s.with_player(replace(p, discard=(*p.discard, ev.agent))), ev.seat, ev.gains)
        cancelled = r.cancelled if ev.cancels is None else (*r.cancelled, ev.cancels)
        r = r.with_step(ev.index, outcome=ev.outcome, gains=r.step_of(ev.index).gains + ev.gains)
        r = replace(
            r, index=r.index + 1, stage="loot", cancelled=cancelled, first=None, looted=False, placed_under=False
        )
        return log(replace(s, resolution=r), "vm.log.agent", ev.seat, ev.city, f"{ev.agent}:{ev.outcome}")
    if isinstance(ev, MissionTaken):
        p = s.player(ev.seat)
        s = s.with_player(replace(p, missions=(*p.missions, Mission(ev.reward, ev.label))))
        r = replace(_resolution(s), mission_taken=True)
        s = replace(s.with_city(ev.city, missions=None), resolution=r.with_step(r.index, mission=ev.reward))
        return log(s, "vm.log.mission", ev.seat, ev.city, str(ev.reward))
    if isinstance(ev, StackResolved):
        s = replace(s, resolution=None, last_stack=s.resolution)
        if ev.new_mission:
            s = replace(s.with_city(ev.city, missions=Mission()), mission_deck=s.mission_deck - 1)
        return s
    if isinstance(ev, FinalResolutionStarted):
        return log(replace(s, final=True), "vm.log.final_resolution")
    if isinstance(ev, GameEnded):
        return log(replace(s, final=False, ended=True), "vm.log.ended", detail=",".join(ev.winners))
    if isinstance(ev, Corrected):
        return _apply_corrected(s, ev)
    if isinstance(ev, SegmentRecorded):
        p = s.player(ev.seat)
        seg = Segment(ev.chaos, ev.unlock, ev.label)
        p = replace(p, segments=(*p.segments, seg), bolts=p.bolts - ev.bolts, copper=p.copper - ev.copper)
        return log(s.with_player(p), "vm.log.segment", ev.seat, detail=f"{ev.chaos}:{ev.unlock}")
    if isinstance(ev, SegmentRemoved):
        p = s.player(ev.seat)
        p = replace(p, segments=p.segments[: ev.index] + p.segments[ev.index + 1 :])
        return log(s.with_player(p), "vm.log.segment_removed", ev.seat, detail=str(ev.index))
    if isinstance(ev, MissionSet):
        s = s.with_city(ev.city, missions=Mission(ev.reward, ev.label))
        return log(s, "vm.log.mission_set", city=ev.city, detail=str(ev.reward or ""))
    raise TypeError(f"not a Victorian Masterminds event: {type(ev).__name__}")


def _apply_placed(s: VMState, ev: AgentPlaced) -> VMState:
    p = s.player(ev.seat)
    if ev.recycled:
        assert ev.agent is not None
        s = s.with_player(replace(p, discard=_remove_first(p.discard, ev.agent)))
    elif ev.agent is None:
        s = s.with_player(replace(p, pile_unknown=p.pile_unknown + 1))
    else:
        s = take_from_pile(s, ev.seat, ev.agent)
    placement = Placement(ev.seat, ev.agent, ev.gen, ev.recycled)
    told = (ev.city, ev.agent) if ev.by_table and ev.agent is not None else None
    s = s.with_player(replace(s.player(ev.seat), told=told))  # the seat's phone: what the table placed for it
    if ev.under:  # an Engineer's power, during a resolution: not the turn's placement
        s = s.with_city(ev.city, stacks=(placement, *s.stack(ev.city)))
        s = replace(s, resolution=replace(_resolution(s), placed_under=True))
        return log(s, "vm.log.placed_under", ev.seat, ev.city)
    s = replace(s.with_city(ev.city, stacks=(*s.stack(ev.city), placement)), turn_phase="after")
    if ev.recycled:  # the agent came face up from the discard: public
        return log(s, "vm.log.recycled", ev.seat, detail=ev.agent or "")
    return log(s, "vm.log.placed", ev.seat)


def _apply_revealed(s: VMState, ev: AgentRevealed) -> VMState:
    return name_placement(s, (RESOLVING, ev.index), ev.agent)


def _apply_reidentified(s: VMState, ev: AgentReidentified) -> VMState:
    """The face-up disc is ``ev.agent``, not ``ev.was``: the books give ``was`` back to where the
    placement came from (its pile, or an older pile's unnamed agents) and name it anew, giving
    way where they disagree, as for a reveal. The current agent starts its steps again."""
    loc = (RESOLVING, ev.index)
    r = _resolution(s)
    placement = r.agents[ev.index]
    p = s.player(placement.seat)
    if placement.gen == p.pile_gen:  # of the current pile: an unnamed agent of it again
        s = s.with_player(replace(p, pile=(*p.pile, ev.was), pile_unknown=p.pile_unknown + 1))
    s = with_placement(s, loc, replace(placement, agent=None))
    s = name_placement(s, loc, ev.agent)
    r = _resolution(s)
    if ev.index == r.index:
        r = replace(r, stage="ability" if r.looted else "loot", first=None).with_step(ev.index, ability_first=False)
        s = replace(s, resolution=r)
    return log(s, "vm.log.reidentified", placement.seat, ev.city, f"{ev.was}:{ev.agent}")


def _apply_corrected(s: VMState, ev: Corrected) -> VMState:
    if ev.counter == "level":
        s = replace(s, level=s.level + ev.delta, level_change=LevelChange(s.level, s.level + ev.delta, "correction"))
    else:
        assert ev.seat is not None
        p = s.player(ev.seat)
        if ev.counter == "codex":
            codex = p.codex + (ev.value,) * ev.delta if ev.delta > 0 else p.codex[: len(p.codex) + ev.delta]
            p = replace(p, codex=codex, codex_power=p.codex_power or len(codex) >= CODEX_POWER_AT)
        else:
            p = replace(p, **{ev.counter: getattr(p, ev.counter) + ev.delta})
        s = s.with_player(p)
    return log(s, "vm.log.corrected", ev.seat or "", detail=f"{ev.counter}{ev.delta:+d}")
