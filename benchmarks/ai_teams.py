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

Two teams of other designs, a panel Mister X's AI was never tuned on (it was tuned against the
teams above, the hunter in particular). Both read only ``detectives_ai.public_facts(state)`` (his
station and the hidden stations of his log blanked), so nothing they decide can depend on them:

- ``mcts``: Monte Carlo tree search after Nijssen & Winands, "Monte Carlo Tree Search for the
  Hide-and-Seek Game Scotland Yard" (IEEE TCIAIG 2012), written from the paper's description.
  ``MCTS_ITERATIONS`` iterations per decision (a count, not a time, so a run repeats from its
  seed). Each iteration **determinizes** his station: a station of the exact set drawn with a
  weight by its category (``location_weights``: ``LOCATION_DISTANCE`` of its distance to the
  nearest figure, 1, 2, 3, 4+ moves, times its number of transport types; a fixed rule, he
  prefers stations far from the figures with many ways out, not estimated from any Mister X's
  games). The tree holds the moves of the figures still to move in this phase, in the order of
  the figures (each with ticket management), chosen by UCT (``UCT_C``); below it an
  **epsilon-greedy playout** (``EPSILON``) plays ``PLAYOUT_ROUNDS`` more rounds: a detective
  moves to the station nearest the determinized station, Mister X to the station farthest from
  the nearest figure (any line, the ferry while he has black tickets; no double moves). A
  playout that catches him rewards the figure that caught him 1 and every other figure
  ``1 - DELTA`` (**coalition reduction**); one that does not, 0. It plays the first figure's most
  visited move;
- ``family``: plays like a family: a random figure still to move, on its own (no coordination:
  it heads for its own nearest station of the set, so two figures may chase the same station);
  it lands on the set when it can, except with the chance ``FAMILY_OVERSTEP`` it steps towards
  its station instead; with the chance ``FAMILY_CARELESS`` it pays the dearest line that keeps it
  going as long (a careless ticket, within the ticket management above: it never strands itself
  by it).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from companion.core.frozen import replace
from companion.games.scotland_yard import detectives_ai, moves
from companion.games.scotland_yard.ai_maps import Maps, maps, mask_rows
from companion.games.scotland_yard.board import LAND, TRANSPORTS, Board
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
#: MCTS: iterations (determinization, selection, expansion, playout, backpropagation) per decision
MCTS_ITERATIONS = 1000
#: MCTS: UCT's exploration constant (rewards lie in 0..1)
UCT_C = 0.7
#: MCTS: coalition reduction: a detective's playout reward when a teammate catches him (its own capture: 1)
DELTA = 0.1
#: MCTS playouts: the chance of a random move instead of the greedy one (the detectives and Mister X)
EPSILON = 0.15
#: MCTS playouts: rounds played after the current one before a playout counts as his escape
PLAYOUT_ROUNDS = 4
#: MCTS determinization: weight of a station of the set 1, 2, 3, 4+ moves from the nearest figure
LOCATION_DISTANCE = (1.0, 2.0, 3.0, 4.0)
#: the family: the chance a figure that could land on a station of the set steps towards one instead
FAMILY_OVERSTEP = 0.3
#: the family: the chance a figure pays the dearest line that keeps it going as long (a careless ticket)
FAMILY_CARELESS = 0.25

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


# --------------------------------------------------------------------------------------- family


def managed_lines(state: SYState, i: int) -> dict[int, list[str]]:
    """Figure ``i``'s stations under ticket management (``options_of``) with every line to each
    that keeps it going as long: the careful line (``options_of``'s) first, then the dearer ones."""
    careful = {s: line for _i, line, s in options_of(state, i)}
    purse = state.purse_of[i]
    if purse < 0:
        return {s: [line] for s, line in careful.items()}
    tickets = state.purses[purse]
    need = ROUNDS - state.round
    keeps = {
        s: min(lasting(state.board, s, moves.add(tickets, NORMAL.index(line), -1)), need) for s, line in careful.items()
    }
    out = {s: [line] for s, line in careful.items()}
    for line, dests in moves.figure_options(state, i).items():
        for s in dests:
            if s in out and line not in out[s]:
                left = moves.add(tickets, NORMAL.index(line), -1)
                if min(lasting(state.board, s, left), need) == keeps[s]:
                    out[s].append(line)
    for lines in out.values():
        lines[1:] = sorted(lines[1:], key=NORMAL.index)
    return out


def d_family(state: SYState, rng: random.Random) -> Option:
    """The family (see the module's docstring): a random figure still to move, on its own."""
    seen = detectives_ai.public_facts(state)
    m = maps(seen.board)
    i = rng.choice(moves.to_move(seen))
    lines = managed_lines(seen, i)
    dests = sorted(lines)
    here = m.dist[seen.positions[i]]
    nearest = min(here[c] for c in seen.candidates)
    target = rng.choice(sorted(c for c in seen.candidates if here[c] == nearest))
    hits = [s for s in dests if s in seen.candidates]
    if hits and rng.random() >= FAMILY_OVERSTEP:
        dest = rng.choice(hits)
    else:
        steps = [s for s in dests if s not in seen.candidates] or dests
        near = min(m.dist[s][target] for s in steps)
        dest = rng.choice([s for s in steps if m.dist[s][target] == near])
    choice = lines[dest]
    line = max(choice, key=NORMAL.index) if rng.random() < FAMILY_CARELESS else choice[0]
    return (i, line, dest)


# ----------------------------------------------------------------------------------------- mcts

_TRAPPED = -1  # a playout's end: Mister X cannot move (the coalition wins, nobody captured him)


def location_weights(seen: SYState) -> tuple[list[int], list[float]]:
    """The determinization's weights: each station of the set, and its cumulative weight. A station's
    category is its distance to the nearest figure (1, 2, 3, 4+ moves) and its number of transport
    types (taxi, bus, underground, ferry); its weight ``LOCATION_DISTANCE[distance] * types``."""
    m = maps(seen.board)
    rows = [m.dist[p] for p in seen.positions if p]
    stations = sorted(seen.candidates)
    cum: list[float] = []
    total = 0.0
    for c in stations:
        near = min((r[c] for r in rows), default=len(LOCATION_DISTANCE))
        types = sum(1 for t in TRANSPORTS if seen.board.neighbours(t, c))
        total += LOCATION_DISTANCE[min(max(near, 1), len(LOCATION_DISTANCE)) - 1] * max(types, 1)
        cum.append(total)
    return stations, cum


class _Node:
    """A node of the search tree: the move of ``figure`` that led here, and the moves of ``mover``
    (the next figure of the current phase) below it."""

    __slots__ = ("children", "figure", "mover", "option", "reward", "untried", "visits")

    def __init__(self, figure: int, option: Option | None) -> None:
        self.figure = figure
        self.option = option
        self.children: list[_Node] = []
        self.untried: list[Option] | None = None  # None: not generated yet
        self.mover = -1  # -1: the phase is over below this node
        self.visits = 0
        self.reward = 0.0  # from ``figure``'s side (coalition reduction)


class Mcts:
    """Monte Carlo tree search after Nijssen & Winands (see the module's docstring)."""

    def __init__(self, iterations: int | None = None) -> None:
        self.iterations = MCTS_ITERATIONS if iterations is None else iterations

    def __call__(self, state: SYState, rng: random.Random) -> Option:
        seen = detectives_ai.public_facts(state)  # nothing below reads the state itself
        todo = moves.to_move(seen)
        first = options_of(seen, todo[0])
        sure = [o for o in first if o[2] in seen.candidates and len(seen.candidates) == 1]
        if len(first) == 1 or sure:
            return (sure or first)[0]
        stations, cum = location_weights(seen)
        root = _Node(-1, None)
        for _ in range(self.iterations):
            x = rng.choices(stations, cum_weights=cum)[0]
            self._iterate(seen, todo, root, x, rng)
        best = min(root.children, key=lambda n: (-n.visits, -n.reward, n.option))
        assert best.option is not None
        return best.option

    def _iterate(self, seen: SYState, todo: list[int], root: _Node, x: int, rng: random.Random) -> None:
        pos = list(seen.positions)
        tickets = [list(t) for t in seen.purses]
        moved: set[int] = set()
        path = [root]
        node = root
        caught: int | None = None
        while caught is None:
            if node.untried is None:
                self._expand(seen, todo, node, pos, tickets, moved)
            if node.mover < 0:
                break
            assert node.untried is not None
            if node.untried:
                child = _Node(node.mover, node.untried.pop(rng.randrange(len(node.untried))))
                node.children.append(child)
            else:
                log_n = math.log(node.visits)
                child = max(
                    node.children,
                    key=lambda c: c.reward / c.visits + UCT_C * math.sqrt(log_n / c.visits),
                )
            assert child.option is not None
            f, line, s = child.option
            pos[f] = s
            if seen.purse_of[f] >= 0:
                tickets[seen.purse_of[f]][NORMAL.index(line)] -= 1
            moved.add(f)
            path.append(child)
            if s == x:
                caught = f
            fresh = child.visits == 0
            node = child
            if fresh:
                break
        if caught is None:
            pending = [i for i in todo if i not in moved]
            caught = self._playout(seen, pos, tickets, x, pending, rng)
        for n in path:
            n.visits += 1
            if caught is not None:
                n.reward += 1.0 if n.figure == caught else 1.0 - DELTA

    def _expand(
        self, seen: SYState, todo: list[int], node: _Node, pos: list[int], tickets: list[list[int]], moved: set[int]
    ) -> None:
        """The moves of the next figure of this phase that can move, with ticket management."""
        here = replace(seen, positions=tuple(pos), purses=tuple((t[0], t[1], t[2]) for t in tickets))
        for i in todo:
            if i in moved:
                continue
            found = options_of(here, i)
            if found:
                node.mover, node.untried = i, found
                return
        node.untried = []

    def _playout(
        self, seen: SYState, pos: list[int], tickets: list[list[int]], x: int, pending: list[int], rng: random.Random
    ) -> int | None:
        """The rest of the game, at most ``PLAYOUT_ROUNDS`` more rounds, epsilon-greedy: a detective
        moves to the station nearest to (the determinized) Mister X, he to the station farthest from
        the nearest figure, each a random move instead with the chance ``EPSILON``. Returns the
        figure that caught him, ``_TRAPPED``, or None (he escaped, or the playout ended)."""
        m = maps(seen.board)
        dist, land = m.dist, m.land
        purse_of = seen.purse_of
        black = seen.x_black > 0
        last = min(ROUNDS, seen.round + PLAYOUT_ROUNDS)
        everyone = list(range(len(pos)))
        round_ = seen.round
        while True:
            for f in pending:
                purse = purse_of[f]
                if purse >= 0:
                    t = tickets[purse]
                    mask = (t[0] > 0) | (t[1] > 0) << 1 | (t[2] > 0) << 2
                else:
                    mask = 7
                legal = [(bit, n) for bit, n in land[pos[f]] if bit & mask and n not in pos]
                if not legal:
                    continue
                if rng.random() < EPSILON:
                    bit, n = rng.choice(legal)
                else:
                    row = dist[x]
                    near = min(row[n] for _b, n in legal)
                    bit, n = rng.choice([(b, n) for b, n in legal if row[n] == near])
                pos[f] = n
                if purse >= 0:
                    tickets[purse][bit >> 1] -= 1  # bit 1, 2, 4: taxi, bus, underground
                if n == x:
                    return f
            if round_ >= last:
                return None
            round_ += 1
            around: Iterable[int] = m.around[x] if black else {n for _b, n in land[x]}
            free = [n for n in around if n not in pos]
            if not free:
                return _TRAPPED
            if rng.random() < EPSILON:
                x = rng.choice(free)
            else:
                rows = [dist[p] for p in pos if p]
                far = [min(r[n] for r in rows) for n in free]
                top = max(far)
                x = rng.choice([n for n, d in zip(free, far, strict=True) if d == top])
            pending = everyone


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
    "family": stateless(d_family),
    "mcts": Mcts,
}
