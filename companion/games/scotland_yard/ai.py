"""Mister X played by the table: an AI that chooses his move among the legal ones.

It knows exactly what a human Mister X knows: his own station and route, the detectives' and
bobbies' stations and tickets, the supply, and the tracker's set of stations where he can be
(what the detectives can deduce from public information). Nothing else: the detectives'
intentions are modelled, never read.

How a move is chosen
--------------------
The detectives cannot see where Mister X went, only the ticket (and a reveal). So every move
with the same public trace leaves them the same knowledge (the same tracker set), and their
answer cannot depend on the station he chose. The AI groups the legal moves by that trace,
samples the detectives' answer to each trace several times from a model of a coordinated team
(each figure heads for a different station of the set, and lands on a possible station when it
can), and scores each move by how often the answer would catch him and, when it does not, how
good his position is afterwards: how many safe exits he has, how large the set still is, how
far the nearest detective stands. Black tickets and double moves cost a price that falls as the
game nears its end, so they are spent where they change the most (typically right after a
reveal, or across one). The hard level re-examines its best moves one round deeper.

Deterministic: the same state, level and seed give the same move. The CPU budget (thread CPU
seconds, a setting) only cuts sampling short on a machine too slow for the level; on the
development machine no level reaches it (``make bench-ai`` prints the slowest decision).
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
#: default CPU seconds one decision may take (thread CPU time; the Pi may want more)
CPU_BUDGET: Final = 0.5

Choice = XMove | XDouble
DoublesWhen = Literal["always", "reveals", "danger"]


@dataclass(frozen=True)
class Level:
    samples: int  # detective answers sampled per public trace
    doubles_when: DoublesWhen  # "always" weigh double moves, or around "reveals" (and in danger, as deeper down)
    lookahead: int  # best moves re-examined one round deeper (0: none)
    deep_samples: int  # answers followed one round deeper, per re-examined move
    sub_samples: int  # answers sampled per trace in that deeper round
    slack: float  # easy: may pick any move scoring within this much of the best


LEVEL: Final = {
    "easy": Level(samples=3, doubles_when="reveals", lookahead=0, deep_samples=0, sub_samples=0, slack=0.25),
    "normal": Level(samples=10, doubles_when="reveals", lookahead=0, deep_samples=0, sub_samples=0, slack=0.0),
    "hard": Level(samples=24, doubles_when="always", lookahead=4, deep_samples=6, sub_samples=4, slack=0.0),
}

CAPTURED: Final = -0.25  # score of a sampled answer that catches him
HIT: Final = 0.85  # chance that a figure able to land on a possible station does so
DANGER: Final = 0.5  # a best single move scoring below this makes double moves worth a look
WARM: Final = 4  # answers sampled for every trace before the less promising ones are left
KEEP: Final = 8  # traces that get all the answers


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


# ------------------------------------------------------------------------------ detectives' answer


def answer(
    m: Maps,
    positions: tuple[int, ...],
    masks: tuple[int, ...],
    candidates: frozenset[int],
    pool: list[int],
    rng: random.Random,
) -> tuple[int, ...]:
    """One sampled answer of a coordinated team that knows only ``candidates``.

    Figures move in a random order; each lands on a possible station it can reach (with chance
    ``HIT``), or else heads for the nearest of a few possible stations no teammate has claimed."""
    new = list(positions)
    occupied = set(positions)
    claimed: set[int] = set()
    order = list(range(len(new)))
    rand = rng.random
    rng.shuffle(order)
    size = len(pool)
    for i in order:
        here = new[i]
        if not here:
            continue
        options = [d for d in m.reach(here, masks[i]) if d not in occupied]
        if not options:
            continue
        hits = [d for d in options if d in candidates and d not in claimed]
        if hits and rand() < HIT:
            dest = target = hits[int(rand() * len(hits))]
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
            best = min(towards[d] for d in options)
            nearest = [d for d in options if towards[d] == best]
            dest = nearest[int(rand() * len(nearest))]
        claimed.add(target)
        occupied.discard(here)
        occupied.add(dest)
        new[i] = dest
    return tuple(new)


def danger_zone(m: Maps, positions: Iterable[int], masks: tuple[int, ...]) -> set[int]:
    """Stations some figure can move to in one move (where Mister X must not stand)."""
    out: set[int] = set()
    for p, mask in zip(positions, masks, strict=True):
        if p:
            out.update(m.reach(p, mask))
    return out


# ---------------------------------------------------------------------------------------- scoring


def resource_cost(sit: Situation, plan: Plan) -> float:
    """What spending black tickets and a double move costs now: more early, nothing at the end."""
    left = (ROUNDS - sit.round) / ROUNDS
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
    return 0.8 * safe + 0.1 * hide + 0.1 * far


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


def sample(m: Maps, sit: Situation, groups: list[Group], samples: int, seed: int, deadline: float) -> dict[Plan, float]:
    """Mean score of every plan over up to ``samples`` sampled answers (fewer if the budget runs out)."""
    totals: dict[Plan, float] = {p: 0.0 for g in groups for p in g.plans}
    counts: dict[Plan, int] = {p: 0 for p in totals}
    pools = {id(g): sorted(g.candidates) for g in groups}
    active = list(groups)
    for j in range(samples):
        if j and time.thread_time() > deadline:
            break
        if j == WARM and len(active) > KEEP:
            # Successive rejection: only the most promising traces get the rest of the answers.
            def best(g: Group) -> float:
                return max(totals[p] / counts[p] - resource_cost(sit, p) for p in g.plans)

            active = sorted(active, key=best, reverse=True)[:KEEP]
        for group in active:
            if j >= group.samples(samples):
                continue
            pool = pools[id(group)]
            after = answer(m, sit.positions, sit.masks, group.candidates, pool, rng_for(seed, j))
            group.answers.append(after)
            zone = danger_zone(m, after, sit.masks)
            hidden_in = len(group.candidates.difference(after))
            for plan in group.plans:
                counts[plan] += 1
                if plan.dest in after:
                    totals[plan] += CAPTURED
                else:
                    totals[plan] += position_value(m, sit, plan, after, zone, hidden_in)
    return {p: total / counts[p] - resource_cost(sit, p) for p, total in totals.items()}


def scores(
    m: Maps, sit: Situation, samples: int, seed: int, deadline: float, doubles_when: DoublesWhen = "danger"
) -> tuple[dict[Plan, float], list[Group]]:
    """Every move's score, and the traces with their sampled answers. Double moves are weighed
    ``"always"``, around reveals (``"reveals"``: just shown, or about to be), or only when no
    single move scores well (``"danger"``, and in the other cases too)."""
    around_reveal = sit.field in REVEALS or sit.field - 1 in REVEALS
    with_doubles = sit.double > 0 and (doubles_when == "always" or (doubles_when == "reveals" and around_reveal))
    groups = groups_of(m, sit, singles(m, sit) + (doubles(m, sit) if with_doubles else []))
    scored = sample(m, sit, groups, samples, seed, deadline)
    if not with_doubles and sit.double > 0 and (not scored or max(scored.values()) < DANGER):
        extra = groups_of(m, sit, doubles(m, sit))
        scored.update(sample(m, sit, extra, samples, seed, deadline))
        groups += extra
    return scored, groups


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


def deeper(m: Maps, sit: Situation, group: Group, plan: Plan, level: Level, seed: int, deadline: float) -> float | None:
    """The plan's score one round deeper: for the first answers, his best next move's score."""
    total = 0.0
    n = 0
    for j, after in enumerate(group.answers[: level.deep_samples]):
        if time.thread_time() > deadline:
            break
        n += 1
        if plan.dest in after:
            total += CAPTURED
            continue
        nxt = after_plan(sit, plan, after, group.candidates)
        if not singles(m, nxt) and nxt.double <= 0:
            total += CAPTURED  # trapped
            continue
        follow, _ = scores(m, nxt, level.sub_samples, seed * 31 + j + 1, deadline)
        total += max(follow.values()) if follow else CAPTURED
    return None if n == 0 else total / n - resource_cost(sit, plan)


def choose(state: SYState, level: str = "normal", seed: int = 0, cpu_budget: float | None = CPU_BUDGET) -> Choice:
    """Mister X's move in ``state`` (his turn): an ``XMove`` or an ``XDouble`` the rules accept."""
    if state.phase != "x":
        raise ValueError("it is not Mister X's turn")
    spec = LEVEL[level]
    m = maps(state.board)
    deadline = time.thread_time() + cpu_budget if cpu_budget is not None else math.inf
    sit = situation(state)
    base = random.Random(f"sy-ai/{seed}/{len(state.route)}/{state.round}").randrange(1 << 30)
    scored, groups = scores(m, sit, spec.samples, base, deadline, spec.doubles_when)
    ranked = sorted(scored, key=lambda p: (-scored[p], p.steps))
    if spec.lookahead:
        group_of = {p: g for g in groups for p in g.plans}
        refined: dict[Plan, float] = {}
        for plan in ranked[: spec.lookahead]:
            value = deeper(m, sit, group_of[plan], plan, spec, base, deadline)
            if value is not None:
                refined[plan] = 0.5 * value + 0.5 * scored[plan]
        if refined:
            ranked = sorted(refined, key=lambda p: (-refined[p], p.steps)) + ranked[len(refined) :]
            scored.update(refined)
    if spec.slack:
        best = scored[ranked[0]]
        close = [p for p in ranked if scored[p] >= best - spec.slack]
        return random.Random(base).choice(close).intent()
    return ranked[0].intent()
