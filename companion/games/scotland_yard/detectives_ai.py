"""The table's detectives (and bobbies): an AI that chooses one move of one of its figures.

It knows only public facts — what every player at the table sees: where the figures stand, their
tickets, the tickets Mister X wrote, the stations he was shown on, and the tracker's set
(``state.candidates``, kept by the rules from exactly those facts). :func:`public_facts` blanks
everything else (his station, the hidden stations of his log) before anything here looks at the
state, so nothing it decides can depend on where he really is.

Levels
------
- **easy** plays like a family: each figure on its own, in the order of the figures. It lands on
  a station of the set when it can (most of the time), else heads for one station of the set
  picked at random; it pays whatever ticket comes to hand (now and then the dearest one: a careless
  ticket), and does not look ahead at the tickets it will need.
- **normal** plays as a team: figures are paired with stations of the set (nearest pairs first,
  each target taking its neighbours out of the pool, so the next figure covers another part of the
  set); a figure lands on a station of the set when it can, else steps towards its target. It never
  makes a move that would leave it unable to move in every remaining round when another move keeps
  it going, and of two lines to a station pays the one it holds most of.
- **hard** plans the joint move of every table figure still to move: a joint move scores by the
  stations of the set it lands on, weighted by how likely he stands there (a station out of the
  figures' reach is likelier), minus the stations he could still reach from the set within two
  moves before any figure can (it covers the set's flight), minus how far the set lies from its
  nearest figure. The plan starts from each figure's best move and improves one figure at a time
  (coordinate ascent). The figure that lands on the likeliest station moves first; the plan is made
  again before every move (a landing that misses shrinks the set). Ticket management as normal.

Deterministic: the same public facts, level and seed give the same move (the randomness is drawn
from a generator seeded by the game's seed, the round and the figures moved so far).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, cast

from companion.core.frozen import replace
from companion.games.scotland_yard import moves
from companion.games.scotland_yard.ai_maps import ALL_LINES, Maps, maps, mask_rows
from companion.games.scotland_yard.board import X_CARDS, Board
from companion.games.scotland_yard.model import NORMAL, REVEALS, ROUNDS, Line, Move, SYState

LEVELS: Final = ("easy", "normal", "hard")
#: easy: the chance a figure able to land on a station of the set does so
EASY_LAND: Final = 0.75
#: easy: the chance it pays the dearest ticket that goes where it goes (a careless ticket)
CARELESS: Final = 0.25
#: hard: weight of a landing's chance of catching him
CATCH: Final = 60.0
#: hard: weight of the mean distance from the set's stations to their nearest figure
SPREAD: Final = 1.5
#: hard: Mister X's moves counted in the area he can still reach before the figures
HORIZON: Final = 3
#: hard: the area counts from the stations at least this fraction as likely as the likeliest
FOCUS: Final = 0.2
#: hard: weight of each figure's distance to the nearest likely station
APPROACH: Final = 0.5
#: hard: how much likelier a station is 0, 1, 2, 3+ moves from the nearest figure
FAR_WEIGHT: Final = (0.0, 0.15, 1.0, 1.5)

Option = tuple[int, Line, int]  # figure index, line, station


@dataclass(frozen=True)
class Choice:
    """A move of one of the table's figures, and why (for tests and the benchmark)."""

    figure: int
    line: Line
    station: int
    level: str

    def intent(self, state: SYState) -> Move:
        return Move(state.figures[self.figure], self.line, self.station)


def public_facts(state: SYState) -> SYState:
    """The state as the table's detectives may see it: Mister X's station and the hidden stations
    of his log blanked (0). Everything the AI reads comes from this."""
    route = tuple(f if f.field in REVEALS else replace(f, station=0) for f in state.route)
    return replace(state, x_station=0, route=route)


# ------------------------------------------------------------------------------ ticket management


@functools.cache
def _lasting(board: Board) -> Callable[[int, int, int, int, int], int]:
    @functools.cache
    def lasting(station: int, taxi: int, bus: int, underground: int, need: int) -> int:
        """Moves (at most ``need``) a figure on ``station`` can still make with these tickets, alone."""
        if need <= 0:
            return 0
        best = 0
        held = (taxi, bus, underground)
        for k in (2, 1, 0):
            if not held[k]:
                continue
            left = list(held)
            left[k] -= 1
            for n in board.neighbours(NORMAL[k], station):
                best = max(best, 1 + lasting(n, left[0], left[1], left[2], need - 1))
                if best >= need:
                    return need
        return best

    return lasting


def options(state: SYState, i: int, managed: bool) -> list[Option]:
    """Figure ``i``'s legal moves, one line per station. ``managed``: of two lines the one it holds
    most of, and no move that would strand it for the rounds left when another keeps it going."""
    legal = moves.figure_options(state, i)
    purse = state.purse_of[i]
    if purse < 0 or not managed:
        out: dict[int, Line] = {}
        for line, dests in legal.items():
            for s in dests:
                out.setdefault(s, cast(Line, line))
        return [(i, line, s) for s, line in out.items()]
    tickets = state.purses[purse]
    need = ROUNDS - state.round
    lasting = _lasting(state.board)
    scored: dict[int, tuple[int, int, Line]] = {}
    for line, dests in legal.items():
        k = NORMAL.index(line)
        left = moves.add(tickets, k, -1)
        for s in dests:
            key = (lasting(s, left[0], left[1], left[2], need), left[k], cast(Line, line))
            if s not in scored or key[:2] > scored[s][:2]:
                scored[s] = key
    top = max((k[0] for k in scored.values()), default=0)
    return [(i, line, s) for s, (keeps, _held, line) in sorted(scored.items()) if keeps == top]


def mask(state: SYState, i: int) -> int:
    purse = state.purse_of[i]
    if purse < 0:
        return ALL_LINES
    return sum(1 << k for k in range(3) if state.purses[purse][k] > 0)


# ------------------------------------------------------------------------------------------ levels


def _easy(seen: SYState, todo: list[int], rng: random.Random) -> Option:
    m = maps(seen.board)
    i = todo[0]
    legal = moves.figure_options(seen, i)
    dests = sorted({s for ds in legal.values() for s in ds})
    hits = [s for s in dests if s in seen.candidates]
    if hits and rng.random() < EASY_LAND:
        dest = rng.choice(hits)
    else:
        target = rng.choice(sorted(seen.candidates)) if seen.candidates else dests[0]
        near = min(m.dist[s][target] for s in dests)
        dest = rng.choice([s for s in dests if m.dist[s][target] == near])
    lines: list[Line] = [line for line in NORMAL if dest in legal.get(line, ())]
    line = lines[-1] if rng.random() < CARELESS else lines[0]  # the dearest now and then
    return (i, line, dest)


def _normal(seen: SYState, todo: list[int], rng: random.Random) -> Option:
    m = maps(seen.board)
    candidates = seen.candidates
    pool = set(candidates)
    pairs = sorted((m.dist[seen.positions[i]][c], rng.random(), i, c) for i in todo for c in candidates)
    target: dict[int, int] = {}
    for _d, _r, i, c in pairs:
        if i in target or c not in pool:
            continue
        target[i] = c
        pool -= {c, *m.around[c]}
        if not pool:
            pool = set(candidates) - set(target.values())
        if len(target) == len(todo):
            break
    first = todo[0]
    mine = options(seen, first, managed=True)
    hits = [o for o in mine if o[2] in candidates]
    if hits:
        return rng.choice(hits)
    goal = m.dist[target.get(first, min(candidates, default=seen.positions[first]))]
    best = min(goal[o[2]] for o in mine)
    return rng.choice([o for o in mine if goal[o[2]] == best])


def weights_of(m: Maps, seen: SYState) -> dict[int, float]:
    """How likely each station of the set is, from public facts only: from his last reveal (or
    every X start card) a walk along each ticket he wrote since, each step likelier onto a station
    far from the figures (as they stand now) with many exits out of their reach; cut to the set."""
    positions = [p for p in seen.positions if p]
    zone = {n for i, p in enumerate(seen.positions) if p for n in m.reach(p, mask(seen, i))}
    occupied = set(positions)
    shown = [f for f in seen.route if f.field in REVEALS]
    walk: dict[int, float] = {shown[-1].station: 1.0} if shown else dict.fromkeys(X_CARDS, 1.0)
    after = seen.route[seen.route.index(shown[-1]) + 1 :] if shown else seen.route

    def pull(d: int) -> float:
        near = min((m.dist[p][d] for p in positions), default=3)
        return FAR_WEIGHT[min(3, near)] * (1.0 + sum(1 for e in m.around[d] if e not in zone)) + 1e-3

    for f in after:
        new: dict[int, float] = {}
        for c, w in walk.items():
            dests = [d for d in seen.board.neighbours(f.ticket, c) if d not in occupied]
            pulls = [pull(d) for d in dests]
            total = sum(pulls)
            for d, p in zip(dests, pulls, strict=True):
                new[d] = new.get(d, 0.0) + w * p / total
        walk = new
    out = {c: walk.get(c, 0.0) + 1e-6 for c in seen.candidates}
    total = sum(out.values()) or 1.0
    return {c: w / total for c, w in out.items()}


class _Planner:
    """The hard level's joint move of the table's figures still to move."""

    def __init__(self, seen: SYState, todo: list[int], weights: dict[int, float]) -> None:
        self.m = maps(seen.board)
        self.seen = seen
        self.todo = todo
        self.weights = weights
        self.options = {i: options(seen, i, managed=True) for i in todo}
        self.row = mask_rows(seen.board)
        self.masks = [mask(seen, i) for i in range(len(seen.figures))]
        self.black = seen.x_black > 0
        heavy = sorted(weights.items(), key=lambda cw: (-cw[1], cw[0]))[:24]
        self.heavy = heavy
        top = heavy[0][1] if heavy else 0.0
        self.likely = [c for c, w in heavy if w >= FOCUS * top]
        self.last = seen.round >= ROUNDS

    def area(self, rows: list[bytes], rest: list[int]) -> int:
        """Stations he can reach from ``rest`` within ``HORIZON`` moves before any figure can."""
        m = self.m
        seen = set(rest)
        frontier = list(rest)
        area = 0
        for d in range(1, HORIZON + 1):
            nxt = []
            for here in frontier:
                for n in m.around[here] if self.black else (n for _bit, n in m.land[here]):
                    if n in seen:
                        continue
                    seen.add(n)
                    if all(r[n] > d for r in rows):
                        area += 1
                        nxt.append(n)
            frontier = nxt
        return area

    def value(self, dest: dict[int, int]) -> float:
        candidates = self.seen.candidates
        landed = {s for s in dest.values() if s in candidates}
        catch = sum(self.weights[s] for s in landed)
        if self.last:
            return catch
        rows = [self.row(self.masks[i], dest.get(i, p)) for i, p in enumerate(self.seen.positions) if p]
        rest = [c for c in self.likely if c not in landed]
        if not rest:
            return CATCH * catch + 1000.0
        spread = sum(w * min(r[c] for r in rows) for c, w in self.heavy if c not in landed)
        approach = sum(min(r[c] for c in rest) for r in rows)
        return CATCH * catch - self.area(rows, rest) - SPREAD * spread - APPROACH * approach

    def best(self, i: int, dest: dict[int, int]) -> Option:
        taken = {s for j, s in dest.items() if j != i}
        scored = [(self.value({**dest, i: o[2]}), o) for o in self.options[i] if o[2] not in taken]
        if not scored:
            return self.options[i][0]
        top = max(v for v, _o in scored)
        return min(o for v, o in scored if v == top)

    def solve(self) -> dict[int, Option]:
        chosen: dict[int, Option] = {}
        dest: dict[int, int] = {}
        for i in self.todo:
            o = self.best(i, dest)
            chosen[i], dest[i] = o, o[2]
        for _ in range(2):
            changed = False
            for i in self.todo:
                others = {j: s for j, s in dest.items() if j != i}
                o = self.best(i, others)
                if o[2] != dest[i] and self.value({**others, i: o[2]}) > self.value(dest):
                    chosen[i], dest[i] = o, o[2]
                    changed = True
            if not changed:
                break
        return chosen


def _hard(seen: SYState, todo: list[int], rng: random.Random) -> Option:
    del rng  # the plan is exact; ties go to the fixed order of the options
    weights = weights_of(maps(seen.board), seen)
    chosen = _Planner(seen, todo, weights).solve()
    landing = [o for o in chosen.values() if o[2] in seen.candidates]
    if landing:
        return min(landing, key=lambda o: (-weights[o[2]], o))
    return chosen[todo[0]]


PLAY: Final[dict[str, Callable[[SYState, list[int], random.Random], Option]]] = {
    "easy": _easy,
    "normal": _normal,
    "hard": _hard,
}


def table_figures_to_move(state: SYState) -> list[int]:
    """The table's figures that have not moved in this detective phase and can move now."""
    return [i for i in moves.to_move(state) if state.table_plays(i)]


def decide(state: SYState, level: str, seed: int) -> Choice:
    """One move of one of the table's figures (the detectives' phase, a table figure to move)."""
    seen = public_facts(state)  # nothing below reads the state itself
    if seen.phase != "detectives":
        raise ValueError("it is not the detectives' turn")
    todo = table_figures_to_move(seen)
    if not todo:
        raise ValueError("none of the table's figures has to move")
    rng = random.Random(f"sy-dai/{seed}/{seen.round}/{sum(seen.moved)}/{level}")
    i, line, station = PLAY[level](seen, todo, rng)
    return Choice(i, line, station, level)


def choose(state: SYState, level: str, seed: int) -> Move:
    """The move (an intent the rules accept from the table's detectives, ``YARD``)."""
    return decide(state, level, seed).intent(state)
