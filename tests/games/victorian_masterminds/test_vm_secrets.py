"""No answer tells an actor what it may not see.

The secrets of Victorian Masterminds are the face-down agents: which agent lies where in a stack
and what is left in a pile (and its order). The touchscreen is in plain view; the table link is
public. So the answer to *any* intent — accepted or refused, with which code, and what the actor
sees afterwards — must be the same in a *twin* state where every secret the actor may not see is
dealt anew.

The decision for table entries: the table is someone tapping (or scanning) the disc they hold or
see face up. Such an entry is accepted unless the agent lies face up (everyone sees that). A disc
lying face up is the truth, and the companion's hidden books give way where they disagree. A face-
down entry naming an agent the books hold named in another face-down stack is placed unnamed (no
swap: a misread tag would move two agents unseen) and named when its stack is turned over. A
refusal or a question now would not help: that an entry is refused at all would depend on the pile.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spoken import spoken
from vm_helpers import new_table, random_intent, seat, settle, turn

from companion.core import TABLE, Audience, CompanionError, Intent, Undo
from companion.games.victorian_masterminds import RULES
from companion.games.victorian_masterminds.engine import RESOLVING, locations, old_pool
from companion.games.victorian_masterminds.events import (
    AgentPlaced,
    AnswerHenchman,
    Capture,
    ChooseBuilding,
    ChooseOrder,
    EndTurn,
    EngineerDone,
    ExtraTurn,
    ForceResolve,
    Place,
    PlaceUnder,
    Reveal,
    StackFlipped,
    TakeLoot,
)
from companion.games.victorian_masterminds.model import AGENTS, BUILDINGS, CITIES, Agent, Placement, VMState
from companion.games.victorian_masterminds.views import seat_view, table_view

# -- the hidden books stay consistent ------------------------------------------------------


def check_books(state: VMState) -> None:
    """Every seat's five agents are each in exactly one place, and the unnamed ones add up: as
    many as the pile lists beyond its size for the current pile, as many as the old pool holds
    for older piles."""
    for p in state.players:
        placed = list(locations(state, p.seat))
        named = [pl.agent for _, pl in placed if pl.agent is not None]
        assert len(set(p.pile)) == len(p.pile)
        everything = [*p.pile, *p.discard, *named, *old_pool(state, p.seat)]
        assert sorted(everything) == sorted(AGENTS), (p.seat, everything)
        unnamed_now = sum(1 for _, pl in placed if pl.agent is None and pl.gen == p.pile_gen)
        unnamed_before = sum(1 for _, pl in placed if pl.agent is None and pl.gen < p.pile_gen)
        assert p.pile_unknown == unnamed_now, p.seat
        assert len(old_pool(state, p.seat)) == unnamed_before, p.seat
        assert p.pile_size + len(p.discard) + len(placed) == len(AGENTS)


# -- scenarios from the rulebooks ------------------------------------------------------------


def test_a_table_scan_of_an_agent_the_books_put_in_a_stack_is_placed_unnamed() -> None:
    """DE p.7: "Komplizen in einem Komplizenstapel dürfen nicht angeschaut werden, bevor dieser
    abgehandelt wird." Whoever taps the touchscreen must not learn from the answer where a
    player's agents lie: a tag scan naming p1's agent that p1's phone placed face down in London
    is accepted like any other. But it is no swap either (a misread tag would move two agents
    unseen): the Paris agent stays unnamed, London's keeps its name, and the table names the Paris
    disc when Paris is turned over, face up."""
    t = new_table(3)
    top = t.s.player("p1").pile[0]
    t.do(Place("p1", "london"), seat("p1"))  # p1's phone places its top agent
    turn(t, "moscow")
    turn(t, "moscow")
    # p1 again: the table scans the very agent the phone placed before
    answers = {}
    for agent in AGENTS:
        events = t.game.decide(Place("p1", "paris", agent), TABLE, t.game.seq)
        answers[agent] = [type(e).__name__ for e in events]
    assert set(map(tuple, answers.values())) == {("AgentPlaced", "TurnEnded")}  # the same for all five
    t.place("p1", "paris", top)
    check_books(t.s)
    p1 = t.s.player("p1")
    assert t.s.stack("london")[0].agent == top and t.s.stack("paris")[0].agent is None
    assert p1.pile_unknown == 1 and p1.pile_size == 3 and not p1.pile_exact
    assert seat_view(t.s, "p1")["placed"][0] == {"city": "london", "position": 1, "height": 1, "agent": top}
    # when Paris is turned over, the table names what it sees (any agent: none lies face up)
    turn(t, "paris")
    turn(t, "paris")
    r = t.s.resolution
    assert r is not None and r.city == "paris" and r.current is not None and r.current.agent is None
    legal = t.game.snapshot(TABLE)["legal"]["actions"][0]  # type: ignore[index]
    assert legal == {"kind": "vm.reveal", "agents": list(AGENTS)}


def test_a_probe_placed_and_undone_leaves_nothing_to_read() -> None:
    """DE p.7: "Komplizen in einem Komplizenstapel dürfen nicht angeschaut werden" — an accepted
    probe that is then undone tells nothing either, as every agent not lying face up is accepted."""
    t = new_table(3)
    turn(t, "rome", "saboteur")
    turn(t, "rome", "saboteur")
    turn(t, "rome", "gunner")  # resolves: p1's Saboteur is face up in its discard
    turn(t, "london", "engineer")  # p1 (a tag scan): face down
    turn(t, "paris")
    turn(t, "paris")
    codes = {}
    for agent in AGENTS:
        try:
            t.game.decide(Place("p1", "moscow", agent), TABLE, t.game.seq)
            codes[agent] = "accepted"
        except CompanionError as exc:
            codes[agent] = exc.code
    assert codes == {a: "vm.agent_face_up" if a == "saboteur" else "accepted" for a in AGENTS}
    t.place("p1", "moscow", "engineer")  # the one the books have in London
    t.do(Undo())
    check_books(t.s)
    assert t.s.stack("london")[0].agent == "engineer" and t.s.stack("moscow") == ()


def test_the_table_reveals_what_it_sees_even_against_the_books() -> None:
    """DE p.8: "Dann nimmt der aktive Spieler den kompletten Komplizenstapel und dreht ihn um."
    The stack lies face up: the table names the agent it sees. Today's refusal
    (``vm.agent_not_possible``) told the table which agents p2 still had elsewhere."""
    t = new_table(3)
    turn(t, "paris")  # p1 unidentified
    turn(t, "london", "gunner")  # p2: a tag scan, face down
    turn(t, "paris")  # p3
    turn(t, "washington", "number_two")  # p1
    turn(t, "paris")  # p2 unidentified: Paris turns over
    assert t.s.resolution is not None
    t.do(Reveal("saboteur"))  # p1
    t.do(Reveal("engineer"))  # p3: sabotaged
    # p2's agent: the books have its Gunner face down in London; the table sees a Gunner here
    t.do(Reveal("gunner"))
    check_books(t.s)
    assert t.s.stack("london")[0].agent is None  # the London disc is no longer known
    assert t.s.player("p2").pile_unknown == 1


def test_an_older_piles_agent_revealed_as_one_of_the_current_pile() -> None:
    """DE p.10: "Sobald ein Spieler den letzten Komplizen seines Vorrats in einer Stadt platziert
    hat, mischt er alle Komplizen in seinem Ablagebereich zu einem neuen Komplizenvorrat." An
    agent from before the reshuffle that the table names as one the books put in the new pile
    swaps places in the books with the old pile's unnamed agent."""
    t = new_table(2, start=4)
    turn(t, "rome")  # p1, unidentified: it stays alone in Rome
    for city, agent in (("london", "number_two"), ("moscow", "henchman"), ("paris", "saboteur")):
        turn(t, city, agent)  # p2
        turn(t, city, agent)  # p1: a stack of two resolves
        settle(t)
    turn(t, "washington", "gunner")  # p2
    turn(t, "washington", "gunner")  # p1's last agent: its discard becomes a new pile
    settle(t)
    p1 = t.s.player("p1")
    assert p1.pile_gen == 2 and sorted(p1.pile) == ["gunner", "henchman", "number_two", "saboteur"]
    assert t.s.stack("rome") == (Placement("p1", None, 1),)
    assert old_pool(t.s, "p1") == ("engineer",)  # what the Rome agent must be, by the books
    check_books(t.s)
    turn(t, "rome", "engineer")  # p2 fills Rome; p1's agent is turned over first
    accepted = []
    for agent in AGENTS:
        try:
            t.game.decide(Reveal(agent), TABLE, t.game.seq)
            accepted.append(agent)
        except CompanionError:
            pass
    assert accepted == list(AGENTS)  # the table cannot tell the books' answer from the others
    t.do(Reveal("gunner"))
    check_books(t.s)
    assert sorted(t.s.player("p1").pile) == ["engineer", "henchman", "number_two", "saboteur"]
    assert t.s.player("p1").pile_size == 4


# -- the property: twins answer alike ----------------------------------------------------------


def _redeal_slots(state: VMState, who: str, own: bool) -> list[list[tuple[str, int, int]]]:
    """Classes of ``who``'s hidden slots whose agents an onlooker cannot tell apart: the current
    pile with the agents named face down from it, and the named face-down agents of each older
    pile. The owner itself (``own``) only cannot see its pile's order below the top (all of it
    while the pile is not exact), unless it has had 5 codex tokens."""
    p = state.player(who)
    if own:
        if p.codex_power:
            return []
        start = 1 if p.pile_exact else 0
        return [[("pile", i, 0) for i in range(start, len(p.pile))]]
    by_gen: dict[int, list[tuple[str, int, int]]] = {p.pile_gen: [("pile", i, 0) for i in range(len(p.pile))]}
    for (where, j), pl in locations(state, who):
        if where != RESOLVING and pl.agent is not None and not pl.recycled:
            by_gen.setdefault(pl.gen, []).append(("stack", where, j))
    return list(by_gen.values())


def redeal(state: VMState, who: str, rng: random.Random, own: bool = False) -> VMState:
    p = state.player(who)
    pile = list(p.pile)
    stacks = [list(s) for s in state.stacks]
    for slots in _redeal_slots(state, who, own):
        values: list[Agent] = [pile[a] if kind == "pile" else stacks[a][b].agent for kind, a, b in slots]  # type: ignore[misc]
        rng.shuffle(values)
        for (kind, a, b), agent in zip(slots, values, strict=True):
            if kind == "pile":
                pile[a] = agent
            else:
                stacks[a][b] = replace(stacks[a][b], agent=agent)
    state = state.with_player(replace(p, pile=tuple(pile)))
    return replace(state, stacks=tuple(tuple(s) for s in stacks))


def twins(state: VMState, audience: Audience, rng: random.Random) -> Iterator[tuple[VMState, bool]]:
    """(twin, whether whole answers must match). Other seats' secrets (and, for the table, the
    salt every later shuffle derives from) re-dealt: the whole answer must match. The seat's own
    pile order below its top re-dealt: only accepted-or-refused must match, since placing shows
    the seat its next top, which it may always look at."""
    twin = state
    for who in state.seats:
        if not audience.is_seat(who):
            twin = redeal(twin, who, rng)
    if audience.is_table:
        twin = replace(twin, salt=rng.getrandbits(48))
    yield twin, True
    if audience.seat is not None:
        yield redeal(state, audience.seat, rng, own=True), False


def probes(state: VMState, actor: Audience, rng: random.Random) -> list[Intent]:
    """A spread of intents: every agent named for the active seat's placement and for a reveal
    (table entries naming another seat's agent among them), the Engineer's power, every answer,
    and the turn's scientist actions — legal or not."""
    active = state.active_seat
    others = [s for s in state.seats if s != active]
    r = state.resolution
    owner = r.current.seat if r is not None and r.current is not None else active
    cities = rng.sample(CITIES, 2)
    named = [Place(active, cities[0], a) for a in (*AGENTS, None)]
    if r is not None:
        named = [Reveal(a) for a in AGENTS] + [PlaceUnder(owner, cities[0], a) for a in (*AGENTS, None)]
    rest: list[Intent] = [
        *(Place(rng.choice(others), cities[1], a) for a in AGENTS),
        *(Place(active, cities[1], a, recycle=True) for a in AGENTS),
        *(ForceResolve(active, c) for c in cities),
        ExtraTurn(active),
        EndTurn(active),
        EngineerDone(),
        TakeLoot(),
        ChooseOrder("ability"),
        ChooseBuilding(rng.choice(BUILDINGS)),
        ChooseBuilding(None),
        AnswerHenchman(True, 3),
        Capture(active, cities[0], rng.choice(BUILDINGS)),
    ]
    return named + rng.sample(rest, 6)


def answer(state: VMState, intent: Intent, actor: Audience, whole: bool) -> Any:
    try:
        events = RULES.decide(state, intent, actor, random.Random(5))
    except CompanionError as exc:
        return ("refused", exc.code, exc.params)
    if not whole:
        return ("accepted",)
    flips = [e.city for e in events if isinstance(e, StackFlipped)]
    if flips:  # turning a stack over shows it to everyone: what follows is no longer secret
        return ("accepted", "flipped", flips[0])
    after = state
    for e in events:
        after = RULES.apply(after, e)
    # and what the table's speaker says about it (every audience hears it)
    return ("accepted", RULES.view(after, actor), RULES.legal(after, actor), spoken(RULES, state, after))


def check_twins(state: VMState, rng: random.Random) -> int:
    compared = 0
    for audience in (TABLE, *(Audience.of_seat(s) for s in state.seats)):
        for twin, whole in twins(state, audience, rng):
            check_books(twin)
            assert RULES.view(twin, audience) == RULES.view(state, audience)
            assert RULES.legal(twin, audience) == RULES.legal(state, audience)
            for intent in probes(state, audience, rng):
                assert answer(twin, intent, audience, whole) == answer(state, intent, audience, whole), (
                    audience,
                    intent,
                )
                compared += 1
    return compared


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_every_answer_is_the_same_in_a_twin_with_the_secrets_dealt_anew(seed: int, players: int) -> None:
    rng = random.Random(seed)
    t = new_table(players, seed=seed, start=rng.randint(3, 10))
    compared = 0
    for _ in range(80):
        if t.game.outcome() is not None:
            break
        compared += check_twins(t.s, rng)
        intent, actor = random_intent(t.s, rng)
        t.do(intent, actor)
        check_books(t.s)
    assert compared > 500


def test_the_twin_check_catches_the_old_refusal() -> None:
    """The check itself can fail: an answer that depends on the pile (the refusal ``main`` gave to
    a table naming an agent not in the pile) differs between twins."""

    def leaky(state: VMState, intent: Intent, actor: Audience, whole: bool) -> Any:
        named = isinstance(intent, Place) and intent.agent is not None and not intent.recycle
        if named and intent.agent not in state.player(intent.seat).pile:  # type: ignore[attr-defined]
            return ("refused", "vm.agent_not_in_pile", {})
        return answer(state, intent, actor, whole)

    t = new_table(3, seed=4)
    t.do(Place("p1", "london"), seat("p1"))
    turn(t, "rome")
    turn(t, "rome")
    rng = random.Random(1)
    differs = False
    for _ in range(20):
        twin = redeal(redeal(t.s, "p1", rng), "p2", rng)
        for agent in AGENTS:
            intent = Place("p1", "paris", agent)
            differs |= leaky(twin, intent, TABLE, True) != leaky(t.s, intent, TABLE, True)
    assert differs


def test_phones_keep_their_own_rules() -> None:
    """DE p.7: "Nimm den obersten Komplizen von deinem Vorrat" — a seat's phone goes by its own
    books, which it may see: an agent it has placed face down is not in its pile."""
    t = new_table(3)
    top = t.s.player("p1").pile[0]
    t.do(Place("p1", "london"), seat("p1"))
    turn(t, "rome")
    turn(t, "rome")
    with pytest.raises(CompanionError) as info:
        t.do(Place("p1", "paris", top), seat("p1"))
    assert info.value.code == "vm.agent_not_in_pile"
    assert table_view(t.s)["stacks"]["london"] == 1  # type: ignore[index]
    assert next(e for e in t.events() if isinstance(e, AgentPlaced)).agent == top
