"""Properties over random legal games (with corrections, segments and undo mixed in):
replay equals the live state, no view leaks another seat's secrets, scores add up, the Secret
Service level is explained by captures and corrections, and JSON round-trips are exact."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from spoken import spoken
from vm_helpers import Table, new_table, random_intent

from companion.core import TABLE, Audience, CompanionError, Undo, decode, encode, event_codec, fold, intent_codec
from companion.core.game import undone_actions
from companion.core.jsonvalue import dumps, loads
from companion.games.victorian_masterminds import RULES
from companion.games.victorian_masterminds.engine import score_of
from companion.games.victorian_masterminds.events import Adjust, Corrected, RecordSegment
from companion.games.victorian_masterminds.model import AGENTS, Agent, Placement, VMState
from companion.games.victorian_masterminds.views import table_view

EVENTS = event_codec(RULES)
INTENTS = intent_codec(RULES)


def scramble(state: VMState, seat: str, rng: random.Random) -> VMState:
    """The same public situation with ``seat``'s secrets changed: its pile order and the
    identities of its face-down agents (not recycled ones: those came face up from the
    discard) are permuted among themselves."""
    p = state.player(seat)
    slots: list[tuple[str, int, int]] = [("pile", i, 0) for i in range(len(p.pile))]
    for ci, stack in enumerate(state.stacks):
        slots += [("stack", ci, j) for j, pl in enumerate(stack) if pl.seat == seat and pl.agent and not pl.recycled]
    values: list[Agent] = []
    for where, a, b in slots:
        values.append(p.pile[a] if where == "pile" else state.stacks[a][b].agent)  # type: ignore[arg-type]
    rng.shuffle(values)
    pile = list(p.pile)
    stacks = [list(s) for s in state.stacks]
    for (where, a, b), agent in zip(slots, values, strict=True):
        if where == "pile":
            pile[a] = agent
        else:
            old: Placement = stacks[a][b]
            stacks[a][b] = replace(old, agent=agent)
    return replace(state.with_player(replace(p, pile=tuple(pile))), stacks=tuple(tuple(s) for s in stacks))


def check_no_leak(state: VMState, rng: random.Random, before: VMState | None = None) -> None:
    """No other audience can tell a seat's secrets apart: not by its view, its legal options, nor
    (``before``: the state before the last action) by what the table's speaker said about it."""
    for secret_seat in state.seats:
        twin = scramble(state, secret_seat, rng)
        others = [TABLE, *(Audience.of_seat(s) for s in state.seats if s != secret_seat)]
        for audience in others:
            assert RULES.view(twin, audience) == RULES.view(state, audience), (secret_seat, audience)
            assert RULES.legal(twin, audience) == RULES.legal(state, audience), (secret_seat, audience)
        if before is not None:  # heard by every audience at once
            words = spoken(RULES, before, state)
            assert spoken(RULES, scramble(before, secret_seat, rng), twin) == words, secret_seat


def check_scores(state: VMState) -> None:
    view = table_view(state)
    for p, shown in zip(state.players, view["players"], strict=True):  # type: ignore[arg-type]
        sc = shown["score"]  # type: ignore[index]
        parts = sc["segments"] + sc["buildings"] + sc["missions"] + sc["chaos_tokens"] + sc["codex"]  # type: ignore[index]
        assert sc["total"] == parts  # type: ignore[index]
        expected = (
            sum(g.chaos for g in p.segments)
            + 2 * len(p.buildings)
            + sum(m.reward or 0 for m in p.missions)
            + 2 * p.chaos_tokens
            + sum(p.codex)
        )
        assert parts == expected == score_of(p).total


def check_level(t: Table) -> None:
    skip = undone_actions(t.game.entries)
    corrections = sum(
        e.event.delta
        for e in t.game.entries
        if e.action not in skip and isinstance(e.event, Corrected) and e.event.counter == "level"
    )
    captured = sum(len(p.buildings) for p in t.s.players)
    assert t.s.level == min(12, t.s.settings.start_level + captured + corrections)


def check_round_trips(t: Table) -> None:
    for entry in t.game.entries:
        text = dumps(EVENTS.encode(entry.event))
        assert EVENTS.decode(loads(text)) == entry.event
    for intent, _ in t.history:
        assert INTENTS.decode(loads(dumps(INTENTS.encode(intent)))) == intent
    assert decode(VMState, loads(dumps(encode(t.s)))) == t.s


def extra_action(t: Table, rng: random.Random) -> None:
    """Now and then: a correction, a segment, or an undo by someone (refusals are fine)."""
    s = t.s
    who = rng.choice(s.seats)
    roll = rng.random()
    try:
        if roll < 0.3:
            t.do(Undo(), rng.choice([TABLE, Audience.of_seat(who)]))
        elif roll < 0.55:
            t.do(
                RecordSegment(who, rng.randint(0, 4), rng.choice(["none", "lab_cell", "codex", "bonus_power"])),
                rng.choice([TABLE, Audience.of_seat(who)]),
            )
        elif roll < 0.7:
            t.do(Adjust("level", 1))
        else:
            counter = rng.choice(["firepower", "codex", "scientists", "chaos_tokens", "bolts", "copper"])
            t.do(Adjust(counter, rng.choice([-1, 1, 2]), who))  # type: ignore[arg-type]
    except CompanionError:
        pass


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]), start=st.integers(2, 11), steps=st.integers(10, 160)
)
def test_random_games_keep_every_invariant(seed: int, players: int, start: int, steps: int) -> None:
    rng = random.Random(seed)
    t = new_table(players, seed=seed, start=start)
    for step in range(steps):
        if t.game.outcome() is not None:
            break
        before = t.s
        if rng.random() < 0.12:
            extra_action(t, rng)
        else:
            intent, actor = random_intent(t.s, rng)
            t.do(intent, actor)
        check_scores(t.s)
        check_level(t)
        if step % 7 == 0:
            check_no_leak(t.s, rng, before)
    check_no_leak(t.s, rng)
    assert fold(RULES, RULES.setup(t.game.config), t.game.entries) == t.s
    check_round_trips(t)
    # every agent of every seat is in exactly one place
    for p in t.s.players:
        on_board = [pl for stack in t.s.stacks for pl in stack if pl.seat == p.seat]
        if t.s.resolution is not None:
            on_board += [pl for pl in t.s.resolution.agents[t.s.resolution.index :] if pl.seat == p.seat]
        assert p.pile_size + len(p.discard) + len(on_board) == len(AGENTS)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_random_games_reach_a_final_score_that_adds_up(seed: int, players: int) -> None:
    rng = random.Random(seed)
    t = new_table(players, seed=seed, start=rng.randint(3, 10))
    for _ in range(3000):
        if t.game.outcome() is not None:
            break
        intent, actor = random_intent(t.s, rng)
        t.do(intent, actor)
    out = t.game.outcome()
    assert out is not None and t.s.ended
    assert all(not stack for stack in t.s.stacks) and t.s.resolution is None
    assert dict(out.scores) == {p.seat: score_of(p).total for p in t.s.players}
    best = max(out.scores, key=lambda kv: kv[1])[1]
    tied = [p for p in t.s.players if score_of(p).total == best]
    most = max(len(p.segments) for p in tied)
    assert set(out.winners) == {p.seat for p in tied if len(p.segments) == most}
    assert t.s.level == 12 or any(len(p.segments) >= 8 for p in t.s.players)
    assert fold(RULES, RULES.setup(t.game.config), t.game.entries) == t.s
