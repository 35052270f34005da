"""Helpers for the Victorian Masterminds tests: setups, a player that submits intents through
the core ``Game`` (so refusals, undo and replay are exercised), and a random legal driver."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.core import TABLE, Audience, Game, Intent
from companion.core.jsonvalue import JSONObject
from companion.games.victorian_masterminds import RULES
from companion.games.victorian_masterminds.engine import face_up, possible_entries, reveal_candidates
from companion.games.victorian_masterminds.events import (
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
    Reidentify,
    Reveal,
    Start,
    TakeLoot,
)
from companion.games.victorian_masterminds.model import VMState

SEATS = ("p1", "p2", "p3", "p4")
MACHINE_NAMES = ("Beluga", "Kraken", "Claws", "Fortress")


def config(players: int = 3, start: int = 4, **options: Any) -> JSONObject:
    cfg: JSONObject = {
        "players": [
            {
                "seat": SEATS[i],
                "colour": ("red", "blue", "green", "yellow")[i],
                "machine": i + 1,
                "machine_name": MACHINE_NAMES[i],
            }
            for i in range(players)
        ],
        "secret_service_start": start,
    }
    cfg.update(options)
    return cfg


def seat(s: str) -> Audience:
    return Audience.of_seat(s)


@dataclass
class Table:
    """A game plus shortcuts; every intent goes through ``Game.decide`` with the right seq."""

    game: Game[VMState]
    history: list[tuple[Intent, Audience]] = field(default_factory=list)

    @property
    def s(self) -> VMState:
        return self.game.state

    def do(self, intent: Intent, actor: Audience = TABLE) -> None:
        events = self.game.decide(intent, actor, self.game.seq)
        self.game.commit(events)
        self.history.append((intent, actor))

    def place(
        self, who: str, city: str, agent: str | None = None, *, by: Audience | None = None, recycle: bool = False
    ) -> None:
        self.do(Place(who, city, agent, recycle), by or TABLE)  # type: ignore[arg-type]

    def events(self) -> list[Any]:
        return [e.event for e in self.game.entries]

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events()]


def new_table(players: int = 3, seed: int = 1, start: int = 4, started: bool = True, **options: Any) -> Table:
    t = Table(Game(RULES, config(players, start, **options), seed))
    if started:
        t.do(Start())
    return t


# -- a random legal player ---------------------------------------------------------------

FLOW = {
    "vm.place",
    "vm.place_under",
    "vm.choose_order",
    "vm.take_loot",
    "vm.force_resolve",
    "vm.extra_turn",
    "vm.capture",
    "vm.end_turn",
    "vm.reveal",
    "vm.choose_building",
    "vm.henchman",
    "vm.engineer_done",
    "vm.start",
    "vm.reidentify",
}


def legal_choices(state: VMState) -> list[tuple[Audience, dict[str, Any]]]:
    out = []
    for actor in (TABLE, *(seat(x) for x in state.seats)):
        legal = RULES.legal(state, actor)
        assert isinstance(legal, dict)
        for action in legal["actions"]:  # type: ignore[union-attr]
            if action["kind"] in FLOW:
                out.append((actor, action))
    return out


def pile_agent(state: VMState, who: str, a: dict[str, Any], actor: Audience, rng: random.Random) -> str | None:
    """The agent a random placement names: the phone picks from what it is offered; the table
    scans a disc (mostly one of the recorded pile, now and then any not lying face up, which the
    books must absorb) or places it unidentified."""
    if not actor.is_table:
        return str(rng.choice(a["agents"]))
    p = state.player(who)
    roll = rng.random()
    if roll < 0.4 and p.pile_exact:
        return rng.choice(p.pile)
    if roll < 0.55:
        return rng.choice(possible_entries(state, who))
    return None


def random_intent(state: VMState, rng: random.Random) -> tuple[Intent, Audience]:
    actor, a = rng.choice(legal_choices(state))
    kind = a["kind"]
    if kind == "vm.start":
        return Start(), actor
    if kind == "vm.place":
        p = state.player(a["seat"])
        if a["recycle"] and (not a["from_pile"] or rng.random() < 0.15):
            return Place(a["seat"], rng.choice(a["cities"]), rng.choice(a["recycle"]), True), actor
        if actor.is_table and p.pile_exact and rng.random() < 0.15:  # for a seat whose phone keeps its pile
            return Place(a["seat"], rng.choice(a["cities"]), books=True), actor
        agent = pile_agent(state, p.seat, a, actor, rng)
        force = actor.is_table and agent is not None and rng.random() < 0.5  # now and then: the old swap
        return Place(a["seat"], rng.choice(a["cities"]), agent, force=force), actor
    if kind == "vm.place_under":
        agent = pile_agent(state, a["seat"], a, actor, rng)
        force = actor.is_table and agent is not None and rng.random() < 0.5
        return PlaceUnder(a["seat"], rng.choice(a["cities"]), agent, force=force), actor
    if kind == "vm.reidentify":
        which = rng.choice(a["agents"])
        taken = face_up(state, which["seat"])
        names = [n for n in a["names"] if n not in taken and n != which["agent"]]
        if names:
            return Reidentify(which["index"], rng.choice(names)), actor
        return random_intent(state, rng)
    if kind == "vm.choose_order":
        return ChooseOrder(rng.choice(a["options"])), actor
    if kind == "vm.take_loot":
        return TakeLoot(), actor
    if kind == "vm.force_resolve":
        mine = [c for c in a["cities"] if any(pl.seat == a["seat"] for pl in state.stack(c))]
        return ForceResolve(a["seat"], rng.choice(mine)), actor
    if kind == "vm.extra_turn":
        return ExtraTurn(a["seat"]), actor
    if kind == "vm.capture":
        city, building = rng.choice(a["buildings"])
        return Capture(a["seat"], city, building), actor
    if kind == "vm.end_turn":
        return EndTurn(a["seat"]), actor
    if kind == "vm.reveal":
        r = state.resolution
        assert r is not None and r.current is not None
        # mostly what the books expect; now and then whatever is not face up (the disc is the truth)
        expected = reveal_candidates(state, r.current)
        return Reveal(rng.choice(expected if expected and rng.random() < 0.8 else a["agents"])), actor
    if kind == "vm.choose_building":
        return ChooseBuilding(rng.choice(a["buildings"])), actor
    if kind == "vm.henchman":
        met = rng.random() < 0.7
        return AnswerHenchman(met, rng.choice((2, 3, 4)) if met and a["reward_needed"] else None), actor
    assert kind == "vm.engineer_done", kind
    return EngineerDone(), actor


def play_randomly(t: Table, rng: random.Random, max_steps: int = 2000) -> None:
    for _ in range(max_steps):
        if t.game.outcome() is not None:
            return
        intent, actor = random_intent(t.s, rng)
        t.do(intent, actor)
    raise AssertionError("the game did not end")


def finish_turn(t: Table) -> None:
    """End the active player's turn if it is still waiting for scientist actions."""
    s = t.s
    if s.started and not s.ended and s.resolution is None and not s.final and s.turn_phase == "after":
        t.do(EndTurn(s.active_seat))


def turn(t: Table, city: str, agent: str | None = None, *, end: bool = True) -> str:
    """The active player places (by the table, as a tag scan of ``agent`` or unidentified);
    with ``end`` the turn is closed if nothing else happens. Returns the seat that placed."""
    who = t.s.active_seat
    t.place(who, city, agent)
    if end:
        finish_turn(t)
    return who


def adjust(t: Table, seat_id: str | None, counter: str, delta: int, value: int | None = None) -> None:
    from companion.games.victorian_masterminds.events import Adjust

    t.do(Adjust(counter, delta, seat_id, value))  # type: ignore[arg-type]


def outcomes(t: Table, city: str | None = None) -> list[tuple[str, str, str]]:
    """(seat, agent, outcome) of every resolved agent, in order."""
    from companion.games.victorian_masterminds.events import AgentResolved

    return [
        (e.seat, e.agent, e.outcome)
        for e in t.events()
        if isinstance(e, AgentResolved) and (city is None or e.city == city)
    ]


def settle(t: Table) -> None:
    """Answer whatever a resolution waits for with a plain default (reveal the first possible
    agent, prerequisite not met, capture nothing, engineer done), then close the turn."""
    while t.s.resolution is not None:
        r = t.s.resolution
        current = r.current
        assert current is not None
        if current.agent is None:
            t.do(Reveal(reveal_candidates(t.s, current)[0]))
        elif r.stage == "henchman":
            t.do(AnswerHenchman(False))
        elif r.stage == "gunner":
            t.do(ChooseBuilding(None))
        elif r.stage == "order":
            t.do(ChooseOrder("loot"))
        elif r.stage == "take_loot":
            t.do(TakeLoot())
        else:
            assert r.stage == "engineer", r
            t.do(EngineerDone())
    finish_turn(t)


def turn_top(t: Table, city: str) -> str:
    """The active player places its recorded top agent (a tag scan); settles any resolution."""
    who = t.s.active_seat
    t.place(who, city, t.s.player(who).pile[0])
    settle(t)
    return who
