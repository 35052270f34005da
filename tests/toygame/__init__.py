"""A tiny game for testing the core, store and table without any real game's rules — and the
proof that a fourth game needs only its package plus three registrations.

Two seats "a" and "b" take turns adding 1..3 to a shared counter; a seat's "secret" is
a number drawn at setup that only that seat may see. Reaching 10 ends the game.

It is registered exactly like the boxed games (one :func:`companion.games.register` call, at the
end of this file) and has what a boxed game has: its rules and view here, its summary, its facts,
its hardware rules (a seat's button adds one), a touchscreen module (``screen.py``) and a phone
module (``phone.js``) of its own. ``tests/conftest.py`` imports this package, which registers it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from companion.core import (
    JSON,
    Audience,
    Event,
    Forbidden,
    IllegalMove,
    Intent,
    JSONObject,
    KindCodec,
    Outcome,
    SetupError,
    UndoRule,
)
from companion.core.hardware import HardwareRules, Input, Result, Submit
from companion.core.jsonvalue import as_list
from companion.core.rules import Rules
from companion.core.summary import Line, Player, SetupKey
from companion.games import GameEntry, register

if TYPE_CHECKING:
    from companion.core import Game


@dataclass(frozen=True)
class ToyState:
    seats: tuple[str, ...]
    target: int = 10
    total: int = 0
    turn: int = 0
    secrets: tuple[int, ...] = ()


@dataclass(frozen=True)
class SecretsDrawn(Event):
    kind: ClassVar[str] = "toy.secrets"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    values: tuple[int, ...]

    def chance(self) -> tuple[object, ...]:
        return self.values  # one rng.randint per seat


@dataclass(frozen=True)
class Added(Event):
    kind: ClassVar[str] = "toy.added"
    undo: ClassVar[UndoRule] = UndoRule.TABLE_OR_OWNER
    seat: str
    amount: int
    ends_turn: bool = True

    def owner(self) -> str | None:
        return self.seat


@dataclass(frozen=True)
class AddTwice(Intent):
    """Two additions by one seat as one action: two events committed together."""

    kind: ClassVar[str] = "toy.add_twice"
    seat: str
    amount: int


@dataclass(frozen=True)
class Draw(Intent):
    kind: ClassVar[str] = "toy.draw"


@dataclass(frozen=True)
class Add(Intent):
    kind: ClassVar[str] = "toy.add"
    seat: str
    amount: int


class ToyRules(Rules[ToyState]):
    name = "toy"
    events: KindCodec[Event] = KindCodec([SecretsDrawn, Added])
    intents: KindCodec[Intent] = KindCodec([Draw, Add, AddTwice])

    def setup(self, config: JSONObject) -> ToyState:
        seats = config.get("seats", ["a", "b"])
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise SetupError("setup.seats")
        target = config.get("target", 10)
        if not isinstance(target, int):
            raise SetupError("setup.target")
        return ToyState(seats=tuple(str(s) for s in seats), target=target)

    def seats(self, state: ToyState) -> tuple[str, ...]:
        return state.seats

    def decide(self, state: ToyState, intent: Intent, actor: Audience, rng: random.Random) -> tuple[Event, ...]:
        if isinstance(intent, Draw):
            if state.secrets:
                raise IllegalMove("toy.drawn")
            return (SecretsDrawn(tuple(rng.randint(1, 99) for _ in state.seats)),)
        if isinstance(intent, AddTwice):
            (first,) = self.decide(state, Add(intent.seat, intent.amount), actor, rng)
            assert isinstance(first, Added)
            return (replace(first, ends_turn=False), first)
        if isinstance(intent, Add):
            if not state.secrets:
                raise IllegalMove("toy.not_drawn")
            if not (actor.is_table or actor.is_seat(intent.seat)):
                raise Forbidden("forbidden.seat")
            if intent.seat not in self.acting(state):
                raise IllegalMove("toy.not_your_turn")
            if not 1 <= intent.amount <= 3:
                raise IllegalMove("toy.amount", amount=intent.amount)
            return (Added(intent.seat, intent.amount),)
        raise IllegalMove("unknown")

    def apply(self, state: ToyState, event: Event) -> ToyState:
        if isinstance(event, SecretsDrawn):
            return replace(state, secrets=event.values)
        if isinstance(event, Added):
            turn = (state.turn + 1) % len(state.seats) if event.ends_turn else state.turn
            return replace(state, total=state.total + event.amount, turn=turn)
        raise TypeError(event)

    def acting(self, state: ToyState) -> tuple[str, ...]:
        """The seat whose turn it is, once the secrets are drawn (the table draws them)."""
        return (state.seats[state.turn],) if state.secrets and self.outcome(state) is None else ()

    def view(self, state: ToyState, audience: Audience) -> JSONObject:
        out: JSONObject = {
            "total": state.total,
            "turn": state.seats[state.turn],
            "acting": list(self.acting(state)),
            "seats": list(state.seats),
            "target": state.target,
            "drawn": bool(state.secrets),
        }
        if audience.is_debug:
            out["secrets"] = list(state.secrets)
        elif audience.kind == "seat":
            out["me"] = audience.seat
            if state.secrets:
                out["secret"] = state.secrets[state.seats.index(audience.seat or "")]
        return out

    def legal(self, state: ToyState, actor: Audience) -> JSON:
        return [1, 2, 3] if actor.is_table or actor.seat in self.acting(state) else []

    def summary(self) -> ToySummary:
        return SUMMARY

    def recorded_intents(self, state: ToyState, events: tuple[Event, ...]) -> list[tuple[Intent, Audience]]:
        first = events[0]
        if isinstance(first, SecretsDrawn):
            return [(Draw(), Audience.table())]
        if isinstance(first, Added):
            intent: Intent = (
                AddTwice(first.seat, first.amount) if not first.ends_turn else Add(first.seat, first.amount)
            )
            return [(intent, Audience.of_seat(first.seat))]
        return []

    def describe_action(self, state: ToyState, events: tuple[Event, ...], audience: Audience) -> Line:
        first = events[0]
        if isinstance(first, Added):
            return Line("toy.action.add", {"seat": first.seat, "amount": sum(getattr(e, "amount", 0) for e in events)})
        return Line("toy.action.draw")

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.total >= state.target:
            return Outcome("toy.reached", (state.seats[(state.turn - 1) % len(state.seats)],))
        return None


class ToySummary:
    """The toy game in words (codes only: its catalogue holds only its screens' words, so these texts are the codes)."""

    prefix = "toy"
    bgg_id = 0
    highest_wins = True
    no_points = True
    setup_keys = (SetupKey("target", "int", example="10"),)

    def overview(self, view: JSONObject) -> list[Line]:
        return [Line("toy.total", {"total": view.get("total")})]

    def status(self, view: JSONObject) -> Line:
        acting = view.get("acting")
        return Line("toy.turn", {"seat": ", ".join(str(s) for s in acting) if isinstance(acting, list) else ""})

    def did(self, intent: JSONObject) -> Line:
        return Line("toy.did", {"kind": intent.get("kind")})

    def choices(self, legal: JSON) -> list[tuple[str, JSONObject]]:
        return [("toy.add", {"amount": legal})]

    def players(self, view: JSONObject) -> tuple[Player, ...]:
        return tuple(Player(seat, "", Line("toy.seat", {"seat": seat})) for seat in ("a", "b"))


SUMMARY = ToySummary()


def scripted(script: Sequence[tuple[str, int]], seed: int, config: JSONObject, by_seat: bool = False) -> Game[ToyState]:
    """A toy game played from a script of ("add" | "twice" | "undo", amount), after the draw;
    a step the rules refuse is skipped. ``by_seat``: the seat acts, not the table (undo stays
    the table's)."""
    from companion.core import TABLE, Game, Undo, UndoRefused

    game: Game[ToyState] = Game(RULES, config, seed)
    game.commit(game.decide(Draw(), TABLE, game.seq))
    for op, amount in script:
        seat = game.state.seats[game.state.turn]
        intent = {"add": Add(seat, amount), "twice": AddTwice(seat, amount)}.get(op, Undo())
        actor = Audience.of_seat(seat) if by_seat and op != "undo" else TABLE
        try:
            game.commit(game.decide(intent, actor, game.seq))
        except (UndoRefused, IllegalMove):
            continue
    return game


FACTS: JSONObject = {"amounts": [1, 2, 3]}


def add_one(inp: Input, args: Sequence[str]) -> Result:
    """A seat's button adds one for that seat (the table's own button: for the seat whose turn it is)."""
    seat = inp.seat if inp.seat is not None else str(inp.view.get("turn", ""))
    return Submit(Add(seat, 1), inp.actor)


def _seats(view: JSONObject) -> list[str]:
    return [s for s in as_list(view.get("seats")) if isinstance(s, str)]


HARDWARE = HardwareRules(
    bindings={
        "buttons": {"undo": {"hold": "undo"}, "seat": {"press": "toy.add_one"}, "next": {"press": "toy.add_one"}}
    },
    actions={"toy.add_one": add_one},
    seats=_seats,
)
ToyRules.facts = FACTS
ToyRules.hardware = HARDWARE
RULES = ToyRules()

register(GameEntry("toy", "toygame", touchscreen="toygame.screen", phone="toygame:phone.js"))
