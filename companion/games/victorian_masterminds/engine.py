"""Trusted state changes (``apply_event``) and the pure helpers both ``decide`` and views use:
loot, scores, whose agents are where, what a reveal may name."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from companion.core.events import Event
from companion.games.victorian_masterminds.events import (
    AgentPlaced,
    AgentResolved,
    AgentRevealed,
    BuildingCaptured,
    ChoiceRequired,
    Corrected,
    ExtraTurnStarted,
    FinalResolutionStarted,
    Gain,
    GameEnded,
    LootTaken,
    MissionSet,
    MissionTaken,
    PileShuffled,
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
    CODEX_MAX,
    CODEX_POWER_AT,
    LEVEL_MAX,
    POINTS_PER_BUILDING,
    POINTS_PER_CHAOS_TOKEN,
    SEGMENTS_PER_MACHINE,
    Agent,
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


def placements_of(state: VMState, seat: str) -> list[Placement]:
    """The seat's agents on the board: in stacks and not yet resolved in the current flip."""
    out = [pl for stack in state.stacks for pl in stack if pl.seat == seat]
    r = state.resolution
    if r is not None:
        out += [pl for pl in r.agents[r.index :] if pl.seat == seat]
    return out


def reveal_candidates(state: VMState, placement: Placement) -> tuple[Agent, ...]:
    """What an unidentified placement can be, from what the companion knows."""
    p = state.player(placement.seat)
    if placement.gen == p.pile_gen:
        return tuple(a for a in AGENTS if a in p.pile)
    known = {pl.agent for pl in placements_of(state, placement.seat) if pl.agent is not None}
    return tuple(a for a in AGENTS if a not in p.pile and a not in p.discard and a not in known)


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
        return log(replace(s, started=True), "vm.log.started", seat=s.active_seat)
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
        s = replace(apply_gains(s, ev.seat, ev.gains), level=min(LEVEL_MAX, s.level + 1))
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
        if ev.reason == "forced":
            s = replace(s, turn_phase="after")
        return log(s, "vm.log.flipped", city=ev.city, detail=ev.reason)
    if isinstance(ev, AgentRevealed):
        return _apply_revealed(s, ev)
    if isinstance(ev, LootTaken):
        s = apply_gains(s, ev.seat, ev.gains)
        return replace(s, resolution=replace(_resolution(s), stage="ability"))
    if isinstance(ev, ChoiceRequired):
        s = replace(s, resolution=replace(_resolution(s), stage=ev.choice))
        return log(s, "vm.log.engineer", ev.seat, ev.city) if ev.choice == "engineer" else s
    if isinstance(ev, AgentResolved):
        r = _resolution(s)
        p = s.player(ev.seat)
        s = apply_gains(s.with_player(replace(p, discard=(*p.discard, ev.agent))), ev.seat, ev.gains)
        cancelled = r.cancelled if ev.cancels is None else (*r.cancelled, ev.cancels)
        s = replace(s, resolution=replace(r, index=r.index + 1, stage="loot", cancelled=cancelled))
        return log(s, "vm.log.agent", ev.seat, ev.city, f"{ev.agent}:{ev.outcome}")
    if isinstance(ev, MissionTaken):
        p = s.player(ev.seat)
        s = s.with_player(replace(p, missions=(*p.missions, Mission(ev.reward, ev.label))))
        s = replace(s.with_city(ev.city, missions=None), resolution=replace(_resolution(s), mission_taken=True))
        return log(s, "vm.log.mission", ev.seat, ev.city, str(ev.reward))
    if isinstance(ev, StackResolved):
        s = replace(s, resolution=None)
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
        p = replace(p, discard=_remove_first(p.discard, ev.agent))
    elif ev.agent is None:
        p = replace(p, pile_unknown=p.pile_unknown + 1)
    else:
        p = replace(p, pile=_remove_first(p.pile, ev.agent))
    placement = Placement(ev.seat, ev.agent, ev.gen, ev.recycled)
    s = s.with_player(p).with_city(ev.city, stacks=(*s.stack(ev.city), placement))
    s = replace(s, turn_phase="after")
    if ev.recycled:  # the agent came face up from the discard: public
        return log(s, "vm.log.recycled", ev.seat, detail=ev.agent or "")
    return log(s, "vm.log.placed", ev.seat)


def _apply_revealed(s: VMState, ev: AgentRevealed) -> VMState:
    r = _resolution(s)
    placement = r.agents[ev.index]
    p = s.player(placement.seat)
    if placement.gen == p.pile_gen and ev.agent in p.pile:
        p = replace(p, pile=_remove_first(p.pile, ev.agent), pile_unknown=p.pile_unknown - 1)
    agents = list(r.agents)
    agents[ev.index] = replace(placement, agent=ev.agent)
    return replace(s.with_player(p), resolution=replace(r, agents=tuple(agents)))


def _apply_corrected(s: VMState, ev: Corrected) -> VMState:
    if ev.counter == "level":
        s = replace(s, level=s.level + ev.delta)
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
