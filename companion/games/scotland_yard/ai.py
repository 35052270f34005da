"""Mister X played by the table: an AI that chooses his move among the legal ones.

It knows exactly what a human Mister X knows: his own station and route, the detectives' and
bobbies' stations and tickets, the supply, and the tracker's set of stations where he can be
(what the detectives can deduce from public information). Nothing else: the detectives'
intentions are modelled, never read.

How a move is chosen
--------------------
1. **Safe first.** A station some detective or bobby can move to next (with the tickets it
   holds) is *in reach*. Whenever a legal move (single or double, any ticket) ends out of every
   figure's reach, only such *safe* moves are weighed: he never ends a move in reach when he
   can avoid it, and nothing later in the search can bring an unsafe move back. Black tickets
   are never spent where they hide nothing — in rounds 1 and 2, or on a reveal field, where
   everyone sees his station anyway — unless no other move is left.
2. **The detectives' answer.** The detectives cannot see where he went, only the ticket (and a
   reveal), so every move with the same public trace leaves them the same knowledge (the same
   tracker set) and their answer cannot depend on the station he chose. The moves are grouped
   by trace, and the answer to each trace is sampled from a model of a coordinated team: a
   figure lands on a station of the set when it can (it might catch him, and it shrinks the
   set); otherwise it heads for a part of the set no teammate took, and of the moves that bring
   it as near, takes the one that puts most of the stations he could flee to next within its
   reach, not counting those a teammate already covers (it cuts off his flight).
3. **Scores.** A move scores by how often the answer would catch him and, when it does not, by
   his position afterwards: how many safe exits he keeps, how large the set stays, how far the
   nearest figure stands (before a reveal: how far from them his exits lead). Black tickets and
   double moves cost a price that falls as the game nears its end, so they are spent where they
   change the most (typically right after a reveal, or across one).
4. **Ties** go to the safe move, then to the move that leaves the larger set (then to fewer
   figures able to reach his station, then to a fixed order).

Levels differ in how much they search, never in wasting tickets: **easy** samples one answer
per trace and weighs double moves only when no single move is safe; **normal** samples ten,
also weighs double moves around reveals, and re-examines its two best moves one round deeper
(his best next move against each of three sampled answers); **hard** samples sixteen and
re-examines its four best moves against five answers each.

Deterministic: the same state, level and seed give the same move. The CPU budget (thread CPU
seconds, a setting) only cuts sampling short on a machine too slow for the level; the levels are
sized so that a Raspberry Pi 4 core stays within it (``make bench-ai BENCH_AI_ARGS=--pi-speed``
measures their decisions at Pi speed; see ``docs/ai.md``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal, cast

from companion.games.scotland_yard import moves, tracker
from companion.games.scotland_yard.ai_maps import ALL_LINES, Maps, maps
from companion.games.scotland_yard.model import REVEALS, ROUNDS, Step, SYState, Ticket, Tickets, XDouble, XMove

LEVELS: Final = ("easy", "normal", "hard")
#: default CPU seconds one decision may take (thread CPU time)
CPU_BUDGET: Final = 0.5

Choice = XMove | XDouble
DoublesWhen = Literal["needed", "reveals", "always"]


@dataclass(frozen=True)
class Level:
    samples: int  # detective answers sampled per public trace
    doubles: DoublesWhen  # double moves weighed only when "needed", also around "reveals", or "always"
    lookahead: int  # best moves re-examined one round deeper (0: none)
    deep_samples: int  # answers followed one round deeper, per re-examined move


LEVEL: Final = {
    "easy": Level(samples=1, doubles="needed", lookahead=0, deep_samples=0),
    "normal": Level(samples=10, doubles="reveals", lookahead=2, deep_samples=3),
    "hard": Level(samples=16, doubles="reveals", lookahead=4, deep_samples=5),
}

#: how his next move is weighed in the deeper look
FOLLOW: Final = Level(samples=3, doubles="needed", lookahead=0, deep_samples=0)

CAPTURED: Final = -0.25  # score of a sampled answer that catches him
LAND: Final = 0.9  # chance that a figure able to land on a possible station does so
NOISE: Final = 0.15  # chance that a figure takes a near-best move instead of the best
DANGER: Final = 0.5  # a best single move scoring below this makes double moves worth a look
WARM: Final = 4  # answers sampled for every trace before the less promising ones are left
KEEP: Final = 8  # traces that get all the answers
THRIFT: Final = 1.0  # how dear black tickets and double moves are early in the game
W_SAFE: Final = 0.8  # weight of his safe exits in a position's value
W_HIDE: Final = 0.1  # weight of the size of the set (before a reveal: how far his exits lead)


@dataclass(frozen=True)
class Situation:
    """Mister X's turn as he sees it (real, or imagined one round ahead)."""

    x: int
    positions: tuple[int, ...]
    masks: tuple[int, ...]  # per figure: the lines it holds tickets for
    candidates: frozenset[int]
    field: int  # the next log field he writes
    round: int
    black: int
    double: int
    supply: Tickets


@dataclass(frozen=True)
class Plan:
    """One legal move: one step, or the two steps of a double move."""

    steps: tuple[tuple[str, int], ...]

    @property
    def dest(self) -> int:
        return self.steps[-1][1]

    def blacks(self) -> int:
        return sum(1 for ticket, _ in self.steps if ticket == "black")

    def intent(self) -> Choice:
        if len(self.steps) == 1:
            ticket, station = self.steps[0]
            return XMove(cast(Ticket, ticket), station)
        (t1, s1), (t2, s2) = self.steps
        return XDouble(Step(cast(Ticket, t1), s1), Step(cast(Ticket, t2), s2))


@dataclass
class Group:
    """Moves that leave the detectives the same knowledge, and the answers sampled to it."""

    candidates: frozenset[int]
    plans: list[Plan]
    answers: list[tuple[int, ...]]

    def samples(self, most: int) -> int:
        """Answers worth sampling: few where the detectives know much (one station after a reveal)."""
        return min(most, max(4, len(self.candidates)))


@dataclass(frozen=True)
class Decision:
    """A decision and how it came about (for tests and the benchmark)."""

    plan: Plan
    safe_exists: bool  # some legal move ended out of every figure's reach
    first: tuple[Plan, ...]  # the moves weighed (only safe ones when one exists), ranked before the deeper look
    ranked: tuple[Plan, ...]  # the final ranking, best first
    scores: dict[Plan, float]
    cut: bool  # the CPU budget cut the search short

    @property
    def choice(self) -> Choice:
        return self.plan.intent()


def masks_of(state: SYState) -> tuple[int, ...]:
    out = []
    for i in range(len(state.figures)):
        purse = state.purse_of[i]
        if purse < 0:
            out.append(ALL_LINES)
        else:
            out.append(sum(1 << k for k in range(3) if state.purses[purse][k] > 0))
    return tuple(out)


def situation(state: SYState) -> Situation:
    return Situation(
        x=state.x_station,
        positions=state.positions,
        masks=masks_of(state),
        candidates=state.candidates,
        field=len(state.route) + 1,
        round=state.round,
        black=state.x_black,
        double=state.x_double,
        supply=state.supply,
    )


# ------------------------------------------------------------------------------------ legal moves


def singles(m: Maps, sit: Situation) -> list[Plan]:
    """Single moves, exactly as the rules compute them (``moves.x_options``)."""
    options = moves.x_options(m.board, sit.x, sit.positions, sit.supply, sit.black)
    return [Plan(((ticket, s),)) for ticket, dests in options.items() for s in dests]


def doubles(m: Maps, sit: Situation) -> list[Plan]:
    """Double moves as the rules compute them (``moves.x_doubles``), one per public trace and end."""
    if sit.double <= 0:
        return []
    out: dict[tuple[object, ...], Plan] = {}
    first = moves.x_options(m.board, sit.x, sit.positions, sit.supply, sit.black)
    for t1, dests in first.items():
        supply, black = moves.pay(sit.supply, sit.black, t1)
        for s1 in dests:
            shown = s1 if sit.field in REVEALS else 0
            for t2, ends in moves.x_options(m.board, s1, sit.positions, supply, black).items():
                for s2 in ends:
                    out.setdefault((t1, shown, t2, s2), Plan(((t1, s1), (t2, s2))))
    return list(out.values())


def trace(m: Maps, sit: Situation, plan: Plan) -> tuple[tuple[object, ...], frozenset[int]]:
    """What the detectives learn from ``plan`` (its key), and the tracker set it leaves them."""
    key: list[object] = []
    candidates = sit.candidates
    for k, (ticket, station) in enumerate(plan.steps):
        if sit.field + k in REVEALS:
            key += [ticket, station]
            candidates = tracker.after_reveal(station)
        else:
            key.append(ticket)
            candidates = tracker.after_x_move(m.board, candidates, ticket, sit.positions)
    return tuple(key), candidates


def danger_zone(m: Maps, positions: Iterable[int], masks: tuple[int, ...]) -> set[int]:
    """Stations some figure can move to in one move (where Mister X must not stand)."""
    out: set[int] = set()
    for p, mask in zip(positions, masks, strict=True):
        if p:
            out.update(m.reach(p, mask))
    return out


def wasteful(sit: Situation, plan: Plan) -> bool:
    """A black ticket where it hides nothing: rounds 1–2 (the set is wide anyway) or a reveal field."""
    return any(t == "black" and (sit.round <= 2 or sit.field + k in REVEALS) for k, (t, _s) in enumerate(plan.steps))


# ------------------------------------------------------------------------------ detectives' answer


def answer(
    m: Maps,
    positions: tuple[int, ...],
    masks: tuple[int, ...],
    candidates: frozenset[int],
    flee: frozenset[int],
    pool: list[int],
    rng: random.Random,
) -> tuple[int, ...]:
    """One sampled answer of a sharp, coordinated team that knows only ``candidates``.

    Figures move in a random order. One that can land on a possible station no teammate took
    does (with chance ``LAND``). Otherwise it heads for the nearest of a few possible stations
    no teammate has claimed, and of the moves that bring it as near, it takes the one that puts
    most of ``flee`` (the stations he could move to next) within its reach that no teammate
    already reaches (with chance ``NOISE`` it ignores that and takes any of them)."""
    new = list(positions)
    occupied = set(positions)
    claimed: set[int] = set()
    covered: set[int] = set()
    order = list(range(len(new)))
    rand = rng.random
    rng.shuffle(order)
    size = len(pool)
    for i in order:
        here = new[i]
        if not here:
            continue
        mask = masks[i]
        options = [d for d in m.reach(here, mask) if d not in occupied]
        if not options:
            continue
        hits = [d for d in options if d in candidates and d not in claimed]
        if hits and rand() < LAND:
            dest = hits[int(rand() * len(hits))]
            claimed.add(dest)
        else:
            row = m.dist[here]
            target = 0
            for _ in range(3):
                c = pool[int(rand() * size)] if size else here
                if c not in claimed and (not target or row[c] < row[target]):
                    target = c
            if not target:
                target = pool[int(rand() * size)] if size else here
            towards = m.dist[target]
            near = min(towards[d] for d in options)
            nearest = [d for d in options if towards[d] == near]
            if len(nearest) > 1 and rand() >= NOISE:
                # Of the moves as near to its target, the one that cuts off most of his flight.
                gains = [sum(1 for e in m.reach(d, mask) if e in flee and e not in covered) for d in nearest]
                best = max(gains)
                nearest = [d for d, g in zip(nearest, gains, strict=True) if g == best]
            dest = nearest[int(rand() * len(nearest))]
        covered.update(m.reach(dest, mask))
        occupied.discard(here)
        occupied.add(dest)
        new[i] = dest
    return tuple(new)


def flee_from(m: Maps, candidates: frozenset[int], black: bool) -> frozenset[int]:
    """Stations he could move to next from any possible station (what the detectives must cover)."""
    out: set[int] = set()
    for c in candidates:
        out.update(m.around[c] if black else (n for _bit, n in m.land[c]))
    return frozenset(out)


# ---------------------------------------------------------------------------------------- scoring


def resource_cost(sit: Situation, plan: Plan) -> float:
    """What spending black tickets and a double move costs now: more early, nothing at the end."""
    left = THRIFT * (ROUNDS - sit.round) / ROUNDS
    cost = 0.0
    blacks = plan.blacks()
    if blacks:
        cost += blacks * 0.3 * left / max(sit.black, 1)
    if len(plan.steps) == 2:
        cost += 0.5 * left / max(sit.double, 1)
    return cost


def position_value(
    m: Maps, sit: Situation, plan: Plan, after: tuple[int, ...], zone: set[int], hidden_in: int
) -> float:
    """How good standing on ``plan.dest`` is once the detectives stand on ``after`` (in [0, 1])."""
    if sit.round >= ROUNDS:
        return 1.0  # the last round is over: he escaped
    s = plan.dest
    black_left = sit.black - plan.blacks()
    around = m.around[s] if black_left > 0 else {n for _bit, n in m.land[s]}
    exits = [e for e in around if e not in zone and e not in after]
    if exits:
        safe = 1.0 - 0.5 ** len(exits)
    elif all(e in after for e in around):
        return CAPTURED  # every station around him is taken: he cannot move and loses
    else:
        safe = 0.15 if sit.double - (len(plan.steps) == 2) > 0 else 0.0
    nearest = min((m.dist[p][s] for p in after if p), default=9)
    far = min(1.0, (nearest - 1) / 3)
    if sit.field + len(plan.steps) in REVEALS:
        # His next station will be shown: what counts is how far from the detectives his exits lead.
        best_exit = max((min(m.dist[p][e] for p in after if p) for e in exits), default=0)
        hide = min(1.0, max(0, best_exit - 1) / 3)
    else:
        hide = min(1.0, math.log2(max(hidden_in, 1)) / 5)
    return W_SAFE * safe + W_HIDE * hide + (1 - W_SAFE - W_HIDE) * far


def rng_for(seed: int, sample: int) -> random.Random:
    # The same answers' randomness for every group (common random numbers): comparisons between
    # moves then differ by the moves, not by luck.
    return random.Random(seed * 1_000_003 + sample)


def groups_of(m: Maps, sit: Situation, plans: list[Plan]) -> list[Group]:
    by_key: dict[tuple[object, ...], Group] = {}
    for plan in plans:
        key, candidates = trace(m, sit, plan)
        group = by_key.get(key)
        if group is None:
            by_key[key] = group = Group(candidates, [], [])
        group.plans.append(plan)
    return [by_key[k] for k in sorted(by_key, key=repr)]


class Search:
    """One decision's search: the CPU deadline, and whether it cut anything short."""

    def __init__(self, m: Maps, deadline: float) -> None:
        self.m = m
        self.deadline = deadline
        self.cut = False

    def late(self) -> bool:
        if time.thread_time() > self.deadline:
            self.cut = True
        return self.cut

    def sample(self, sit: Situation, groups: list[Group], samples: int, seed: int) -> dict[Plan, float]:
        """Mean score of every plan over up to ``samples`` sampled answers (fewer if the budget runs out)."""
        m = self.m
        totals: dict[Plan, float] = {p: 0.0 for g in groups for p in g.plans}
        counts: dict[Plan, int] = {p: 0 for p in totals}
        pools = {id(g): sorted(g.candidates) for g in groups}
        flees = {id(g): flee_from(m, g.candidates, sit.black > 0) for g in groups}
        active = list(groups)
        for j in range(samples):
            if j and self.late():
                break
            if j == WARM and len(active) > KEEP:
                # Successive rejection: only the most promising traces get the rest of the answers.
                def best(g: Group) -> float:
                    return max(totals[p] / counts[p] - resource_cost(sit, p) for p in g.plans)

                active = sorted(active, key=best, reverse=True)[:KEEP]
            for group in active:
                if j >= group.samples(samples):
                    continue
                after = answer(
                    m, sit.positions, sit.masks, group.candidates, flees[id(group)], pools[id(group)], rng_for(seed, j)
                )
                group.answers.append(after)
                zone = danger_zone(m, after, sit.masks)
                hidden_in = len(group.candidates.difference(after))
                for plan in group.plans:
                    counts[plan] += 1
                    if plan.dest in after:
                        totals[plan] += CAPTURED
                    else:
                        totals[plan] += position_value(m, sit, plan, after, zone, hidden_in)
        return {p: total / counts[p] - resource_cost(sit, p) for p, total in totals.items() if counts[p]}

    def weigh(self, sit: Situation, level: Level, seed: int) -> tuple[dict[Plan, float], list[Group], bool]:
        """Scores of the moves worth weighing (only safe ones when one exists), their traces with
        the sampled answers, and whether a safe move exists."""
        m = self.m
        zone = danger_zone(m, sit.positions, sit.masks)
        single = singles(m, sit)
        safe = [p for p in single if p.dest not in zone]
        around_reveal = sit.field in REVEALS or sit.field - 1 in REVEALS
        weigh_doubles = sit.double > 0 and (
            not safe or level.doubles == "always" or (level.doubles == "reveals" and around_reveal)
        )
        double = doubles(m, sit) if weigh_doubles else []
        safe += [p for p in double if p.dest not in zone]
        pool = safe or single + double
        thrifty = [p for p in pool if not wasteful(sit, p)]
        pool = thrifty or pool
        groups = groups_of(m, sit, pool)
        scored = self.sample(sit, groups, level.samples, seed)
        if not weigh_doubles and sit.double > 0 and (not scored or max(scored.values()) < DANGER):
            extra = [p for p in doubles(m, sit) if p.dest not in zone and not wasteful(sit, p)]
            more = groups_of(m, sit, extra)
            scored.update(self.sample(sit, more, level.samples, seed))
            groups += more
        return scored, groups, bool(safe)

    def deeper(self, sit: Situation, group: Group, plan: Plan, level: Level, seed: int) -> float | None:
        """The plan's score one round deeper: against the first sampled answers, his best next
        move's score (weighed with ``FOLLOW``: few answers, no deeper look)."""
        total = 0.0
        n = 0
        for j, after in enumerate(group.answers[: level.deep_samples]):
            if self.late():
                break
            n += 1
            if plan.dest in after:
                total += CAPTURED
                continue
            nxt = after_plan(sit, plan, after, group.candidates)
            if not singles(self.m, nxt) and nxt.double <= 0:
                total += CAPTURED  # trapped
                continue
            follow, _groups, _safe = self.weigh(nxt, FOLLOW, seed * 31 + j + 1)
            total += max(follow.values()) if follow else CAPTURED
        return None if n == 0 else total / n - resource_cost(sit, plan)


def after_plan(sit: Situation, plan: Plan, after: tuple[int, ...], candidates: frozenset[int]) -> Situation:
    """His next turn, if he makes ``plan`` and the detectives answer with ``after``."""
    supply, black = sit.supply, sit.black
    for ticket, _ in plan.steps:
        supply, black = moves.pay(supply, black, ticket)
    for before, now in zip(sit.positions, after, strict=True):
        if now != before:
            candidates = tracker.after_landing(candidates, now)
    return Situation(
        x=plan.dest,
        positions=after,
        masks=sit.masks,
        candidates=candidates,
        field=sit.field + len(plan.steps),
        round=sit.round + 1,
        black=black,
        double=sit.double - (len(plan.steps) == 2),
        supply=supply,
    )


def ranking(m: Maps, sit: Situation, scored: dict[Plan, float], groups: list[Group], zone: set[int]) -> list[Plan]:
    """Best first: score, then safe, then the larger set left, then fewer figures able to reach
    his station, then a fixed order (ticket and station)."""
    left = {p: len(g.candidates) for g in groups for p in g.plans}

    def exposure(p: Plan) -> int:
        return sum(1 for q, mask in zip(sit.positions, sit.masks, strict=True) if q and p.dest in m.reach(q, mask))

    return sorted(scored, key=lambda p: (-scored[p], p.dest in zone, -left.get(p, 0), exposure(p), p.steps))


def decide(state: SYState, level: str = "normal", seed: int = 0, cpu_budget: float | None = CPU_BUDGET) -> Decision:
    """Mister X's move in ``state`` (his turn), with how it was chosen."""
    if state.phase != "x":
        raise ValueError("it is not Mister X's turn")
    spec = LEVEL[level]
    m = maps(state.board)
    search = Search(m, time.thread_time() + cpu_budget if cpu_budget is not None else math.inf)
    sit = situation(state)
    zone = danger_zone(m, sit.positions, sit.masks)
    base = random.Random(f"sy-ai/{seed}/{len(state.route)}/{state.round}").randrange(1 << 30)
    scored, groups, safe_exists = search.weigh(sit, spec, base)
    if not scored:  # no budget at all: the first safe move, else the first legal one
        pool = [p for g in groups for p in g.plans]
        scored = dict.fromkeys(pool, 0.0)
    first = ranking(m, sit, scored, groups, zone)
    ranked = first
    if spec.lookahead:
        group_of = {p: g for g in groups for p in g.plans}
        refined: dict[Plan, float] = {}
        for plan in first[: spec.lookahead]:
            value = search.deeper(sit, group_of[plan], plan, spec, base)
            if value is not None:
                refined[plan] = 0.5 * value + 0.5 * scored[plan]
        if refined:
            ranked = ranking(m, sit, refined, groups, zone) + first[len(refined) :]
            scored = {**scored, **refined}
    return Decision(ranked[0], safe_exists, tuple(first), tuple(ranked), scored, search.cut)


def choose(state: SYState, level: str = "normal", seed: int = 0, cpu_budget: float | None = CPU_BUDGET) -> Choice:
    """Mister X's move in ``state`` (his turn): an ``XMove`` or an ``XDouble`` the rules accept."""
    return decide(state, level, seed, cpu_budget).choice
