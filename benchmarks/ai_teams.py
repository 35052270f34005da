"""Detective teams for the Mister X benchmark (``bench_ai.py``): what they know, how they move.

Every team knows only public facts: where the detectives and bobbies stand, their tickets, the
tickets Mister X wrote and the stations he was shown on. ``state.candidates`` (the tracker's set,
kept by the rules from exactly those facts, whether or not the table shows it) is the exact set
of stations where he can be. A team answers one move at a time: ``move(state, rng)`` returns the
figure to move, the line and the station; the benchmark checks it with the real rules.

Ticket management (every team): a detective never makes a move after which it could no longer
move every remaining round with the tickets it has left (ignoring where the others stand), when
another move keeps it going — a team never strands itself by spending the wrong tickets. Of two
lines to the same station it pays the one that keeps it going longest, then the one it holds
most of. Teams:

- ``random``: a random figure makes a random legal move;
- ``greedy``: the first figure still to move heads for the nearest station of the set;
- ``team``: the coordinating team: figures are paired with stations of the set (nearest pairs
  first, each target taking its neighbours out of the pool, so the next figure covers another
  part of the set); a figure lands on a station of the set when it can, else steps towards its
  target;
- ``table-easy``, ``table-normal``, ``table-hard``: the table's own detectives at each level
  (``companion.games.scotland_yard.detectives_ai``), playing every figure;
- ``hunter``: the strongest, a team of our own design.

  It **weighs the set**: it follows every ticket he writes with a belief over the stations, as
  if he walked where his ticket goes, preferring stations far from the figures and out of their
  reach (``FAR_WEIGHT``) with many exits out of reach; a reveal resets it to his station, and it
  is always cut to the exact set (a figure that lands and does not catch him removes a station).
  It **plans the joint move** of every figure still to move. A joint move scores by the belief it
  lands on (``CATCH`` per unit: the chance of catching him now), minus **the area he can still
  reach before them**: the stations he can get to from the likelier stations of the set
  (``FOCUS``) within ``HORIZON`` moves, each step onto a station no figure can reach in as many
  moves (looking three moves ahead), minus how far the likely stations lie from their nearest
  figure (``SPREAD``) and from every figure (``APPROACH``). The plan starts from each figure's
  best move in turn and then improves one figure at a time while that helps (coordinate ascent
  over joint moves). The figures that land on the set move first (likeliest station first), and
  the plan is made again before every move: a landing that does not catch him shrinks the set
  for the figures still to move. In round 22 only catching him counts.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from companion.core.frozen import replace
from companion.games.scotland_yard import detectives_ai, moves
from companion.games.scotland_yard.ai_maps import Maps, maps, mask_rows
from companion.games.scotland_yard.board import LAND, Board
from companion.games.scotland_yard.model import NORMAL, REVEALS, ROUNDS, SYState

Option = tuple[int, str, int]  # figure index, line, station
Team = Callable[[SYState, random.Random], Option]

#: the hunter counts the stations Mister X reaches within this many moves before any detective
HORIZON = 3
#: the hunter's weight on a landing's chance of catching him (per unit of probability)
CATCH = 60.0
#: the hunter's weight on each figure's distance to the nearest likely station of the set
APPROACH = 0.5
#: the hunter counts the area reached from the stations at least this fraction as likely as the likeliest
FOCUS = 0.2
#: how much more likely the hunter thinks he moved to a station 0, 1, 2, 3+ moves from the nearest figure
FAR_WEIGHT = (0.0, 0.15, 1.0, 1.5)
#: the hunter's weight on the mean distance from the set's stations to their nearest figure
SPREAD = 1.5

# --------------------------------------------------------------------------- ticket management


@functools.cache
def _lasting_table(board: Board) -> Callable[[int, int, int, int], int]:
    @functools.cache
    def lasting(station: int, taxi: int, bus: int, underground: int) -> int:
        """Most moves a figure on ``station`` can still make with these tickets (alone on the map)."""
        total = taxi + bus + underground
        best = 0
        for k, held in ((2, underground), (1, bus), (0, taxi)):
            if not held:
                continue
            for n in board.neighbours(LAND[k], station):
                left = [taxi, bus, underground]
                left[k] -= 1
                best = max(best, 1 + lasting(n, left[0], left[1], left[2]))
                if best == total:
                    return best
        return best

    return lasting


def lasting(board: Board, station: int, tickets: tuple[int, int, int]) -> int:
    return _lasting_table(board)(station, *tickets)


def options_of(state: SYState, i: int) -> list[Option]:
    """Figure ``i``'s legal moves, with ticket management: one line per station, and no move that
    would strand it (unable to move in every remaining round) if another move keeps it going."""
    purse = state.purse_of[i]
    legal = moves.figure_options(state, i)
    if purse < 0:  # a bobby: no tickets
        best: dict[int, str] = {}
        for line, dests in legal.items():
            for s in dests:
                best.setdefault(s, line)
        return [(i, line, s) for s, line in best.items()]
    tickets = state.purses[purse]
    need = ROUNDS - state.round  # moves still to make after this one
    scored: dict[int, tuple[int, int, str]] = {}
    for line, dests in legal.items():
        k = NORMAL.index(line)
        left = moves.add(tickets, k, -1)
        for s in dests:
            keeps = min(lasting(state.board, s, left), need)
            key = (keeps, left[k], line)
            if s not in scored or key[:2] > scored[s][:2]:
                scored[s] = key
    top = max((k[0] for k in scored.values()), default=0)
    return [(i, line, s) for s, (keeps, _held, line) in scored.items() if keeps == top]


def stranded(state: SYState) -> bool:
    """The game ended because no detective could move (Mister X wins)."""
    return state.end is not None and state.end.reason == "detectives_stuck"


# ------------------------------------------------------------------------------- simple teams


def d_random(state: SYState, rng: random.Random) -> Option:
    figure = rng.choice(moves.to_move(state))
    return rng.choice(options_of(state, figure))


def d_greedy(state: SYState, rng: random.Random) -> Option:
    """The first figure still to move heads for the nearest possible station (ties: at random)."""
    m = maps(state.board)
    figure = moves.to_move(state)[0]
    scored = [(min(m.dist[o[2]][c] for c in state.candidates), o) for o in options_of(state, figure)]
    best = min(d for d, _ in scored)
    return rng.choice([o for d, o in scored if d == best])


def d_team(state: SYState, rng: random.Random) -> Option:
    """The coordinating team (see the module's docstring)."""
    m = maps(state.board)
    todo = moves.to_move(state)
    candidates = state.candidates
    pool = set(candidates)
    pairs = sorted((m.dist[state.positions[i]][c], rng.random(), i, c) for i in todo for c in candidates)
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
    options = options_of(state, first)
    hits = [o for o in options if o[2] in candidates]
    goal = m.dist[target.get(first, min(candidates))]
    options = hits or options
    best = min(goal[o[2]] for o in options)
    return rng.choice([o for o in options if goal[o[2]] == best])


# ------------------------------------------------------------------------------------- hunter


def _x_reach(m: Maps, sources: Iterable[int], black: bool, horizon: int) -> list[tuple[int, int]]:
    """(station, moves) for every station Mister X reaches from ``sources`` within ``horizon``."""
    seen = dict.fromkeys(sources, 0)
    frontier = list(seen)
    for d in range(1, horizon + 1):
        nxt = []
        for here in frontier:
            around: Iterable[int] = m.around[here] if black else (n for _bit, n in m.land[here])
            for n in around:
                if n not in seen:
                    seen[n] = d
                    nxt.append(n)
        frontier = nxt
    return list(seen.items())


def _x_area(m: Maps, sources: Iterable[int], black: bool, rows: list[bytes], horizon: int) -> int:
    """Stations Mister X can reach from ``sources`` within ``horizon`` moves, each step onto a
    station no figure reaches in as many moves (he would be caught on the way)."""
    seen = set(sources)
    frontier = list(seen)
    area = 0
    for d in range(1, horizon + 1):
        nxt = []
        for here in frontier:
            around: Iterable[int] = m.around[here] if black else (n for _bit, n in m.land[here])
            for n in around:
                if n in seen:
                    continue
                seen.add(n)
                for r in rows:
                    if r[n] <= d:
                        break
                else:
                    area += 1
                    nxt.append(n)
        frontier = nxt
    return area


@dataclass
class _Plan:
    m: Maps
    state: SYState
    figures: list[int]
    options: dict[int, list[Option]]
    row: Callable[[int, int], bytes]
    masks: dict[int, int]
    weights: dict[int, float]

    def __post_init__(self) -> None:
        self.candidates = self.state.candidates
        self.black = self.state.x_black > 0
        self.last = self.state.round >= ROUNDS
        self._reach: dict[frozenset[int], list[tuple[int, int]]] = {}
        heavy = sorted(self.weights.items(), key=lambda cw: (-cw[1], cw[0]))[:24]
        total = sum(w for _c, w in heavy) or 1.0
        self.heavy = [(c, w / total) for c, w in heavy]

    def value(self, dest: dict[int, int]) -> float:
        """The joint move's score (higher is better for the detectives)."""
        candidates = self.candidates
        landed = frozenset(s for s in dest.values() if s in candidates)
        catch = sum(self.weights[s] for s in landed)
        if self.last:
            return catch
        rest = candidates - landed if landed else candidates
        if not rest:
            return CATCH * catch + 1000.0
        where = [(self.masks[i], dest.get(i, p)) for i, p in enumerate(self.state.positions) if p]
        rows = [self.row(mask, p) for mask, p in where]
        top = max(self.weights[c] for c in rest)
        likely = [c for c in rest if self.weights[c] >= FOCUS * top]
        area = _x_area(self.m, likely, self.black, rows, HORIZON)
        spread = sum(w * min(r[c] for r in rows) for c, w in self.heavy if c in rest)
        near = [c for c, w in self.heavy if w >= 0.02 and c in rest] or [c for c, _w in self.heavy]
        approach = sum(min(r[c] for c in near) for r in rows)
        return CATCH * catch - area - SPREAD * spread - APPROACH * approach

    def best(self, i: int, dest: dict[int, int]) -> Option:
        taken = {s for j, s in dest.items() if j != i}
        scored: list[tuple[float, Option]] = []
        for o in self.options[i]:
            if o[2] in taken:
                continue
            scored.append((self.value({**dest, i: o[2]}), o))
        if not scored:
            return self.options[i][0]
        top = max(v for v, _ in scored)
        return min(o for v, o in scored if v == top)

    def solve(self) -> dict[int, Option]:
        chosen: dict[int, Option] = {}
        dest: dict[int, int] = {}
        for i in self.figures:
            o = self.best(i, dest)
            chosen[i], dest[i] = o, o[2]
        for _ in range(2):
            changed = False
            for i in self.figures:
                o = self.best(i, {j: s for j, s in dest.items() if j != i})
                others = {s for j, s in dest.items() if j != i}
                if o[2] != dest[i] and o[2] not in others and self.value({**dest, i: o[2]}) > self.value(dest):
                    chosen[i], dest[i] = o, o[2]
                    changed = True
            if not changed:
                break
        return chosen


class Hunter:
    """The hunter (see the module's docstring), one per game: it keeps its belief between moves."""

    def __init__(self) -> None:
        self.seen = 0  # log fields taken into the belief
        self.weights: dict[int, float] = {}

    def believe(self, state: SYState) -> dict[int, float]:
        """Weights of the stations where he can be: a walk that prefers stations far from the
        figures (each move of his: the stations his ticket reaches, weighted by ``FAR_WEIGHT``
        of their distance to the nearest figure), cut to the exact set."""
        m = maps(state.board)
        if not self.weights:
            self.weights = dict.fromkeys(state.candidates, 1.0)
        if len(state.route) > self.seen and not any(state.moved):
            occupied = set(state.positions)
            zone = {n for i, p in enumerate(state.positions) if p for n in m.reach(p, detectives_ai.mask(state, i))}
            for f in state.route[self.seen :]:
                if f.field in REVEALS:
                    self.weights = {f.station: 1.0}
                    continue
                new: dict[int, float] = {}
                for c, w in self.weights.items():
                    dests = [d for d in state.board.neighbours(f.ticket, c) if d not in occupied]
                    if not dests:
                        continue
                    pulls = [
                        FAR_WEIGHT[min(3, min(m.dist[p][d] for p in state.positions if p))]
                        * (1 + sum(1 for e in m.around[d] if e not in zone))
                        for d in dests
                    ]
                    total = sum(pulls)
                    for d, pull in zip(dests, pulls, strict=True):
                        new[d] = new.get(d, 0.0) + w * pull / total
                self.weights = new
            self.seen = len(state.route)
        weights = {c: self.weights.get(c, 0.0) for c in state.candidates}
        total = sum(weights.values())
        if total <= 0:
            weights = dict.fromkeys(state.candidates, 1.0)
            total = float(len(weights))
        self.weights = {c: w / total for c, w in weights.items()}
        return self.weights

    def __call__(self, state: SYState, rng: random.Random) -> Option:
        m = maps(state.board)
        weights = self.believe(state)
        todo = moves.to_move(state)
        options = {i: options_of(state, i) for i in todo}
        todo = [i for i in todo if options[i]]
        masks = {i: detectives_ai.mask(state, i) for i in range(len(state.figures))}
        plan = _Plan(m, state, todo, options, mask_rows(state.board), masks, weights)
        chosen = plan.solve()
        landing = [o for o in chosen.values() if o[2] in state.candidates]
        return min(landing, key=lambda o: (-weights[o[2]], o)) if landing else chosen[todo[0]]


class Table:
    """The table's detectives at ``level`` (the product's AI), playing every figure. The game's
    seed is drawn once from the team's random source, as the table gets the game's seed."""

    def __init__(self, level: str) -> None:
        self.level = level
        self.seed: int | None = None

    def __call__(self, state: SYState, rng: random.Random) -> Option:
        if self.seed is None:
            self.seed = rng.randrange(1 << 30)
        ours = replace(state, d_ai=self.level, by_table=tuple(True for _ in state.figures))
        choice = detectives_ai.decide(ours, self.level, self.seed)
        return choice.figure, choice.line, choice.station


def stateless(team: Team) -> Callable[[], Team]:
    return lambda: team


#: per game, a fresh team
TEAMS: dict[str, Callable[[], Team]] = {
    "random": stateless(d_random),
    "greedy": stateless(d_greedy),
    "team": stateless(d_team),
    **{f"table-{level}": functools.partial(Table, level) for level in detectives_ai.LEVELS},
    "hunter": Hunter,
}
