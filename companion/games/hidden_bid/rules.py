"""Hidden Bid's rules, views and scoring."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.core.audience import Audience, require_seat, require_table
from companion.core.codec import KindCodec
from companion.core.errors import IllegalMove, SetupError
from companion.core.events import Event, Intent, UndoRule
from companion.core.frozen import replace
from companion.core.jsonvalue import JSON, JSONObject
from companion.core.rules import Outcome, Rules
from companion.core.shared import Layered, per_state
from companion.core.summary import Line, Summary

PRIZES = 5
FACTS: JSONObject = {"prizes": PRIZES, "coins": 20, "players": [2, 4]}


@dataclass(frozen=True)
class HBState:
    seats: tuple[str, ...]
    names: tuple[str, ...]
    coins: tuple[int, ...]
    prizes: tuple[int, ...] = ()
    round: int = 0
    bids: tuple[int | None, ...] = ()
    points: tuple[int, ...] = ()
    last: tuple[int, ...] = ()  # the bids of the last prize, once revealed


@dataclass(frozen=True)
class PrizesDrawn(Event):
    kind: ClassVar[str] = "hb.prizes"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    values: tuple[int, ...]

    def chance(self) -> tuple[object, ...]:
        return self.values


@dataclass(frozen=True)
class BidPlaced(Event):
    kind: ClassVar[str] = "hb.bid_placed"
    undo: ClassVar[UndoRule] = UndoRule.OWNER
    seat: str
    amount: int

    def owner(self) -> str | None:
        return self.seat


@dataclass(frozen=True)
class Revealed(Event):
    kind: ClassVar[str] = "hb.revealed"
    undo: ClassVar[UndoRule] = UndoRule.NEVER
    bids: tuple[int, ...]


@dataclass(frozen=True)
class DrawPrizes(Intent):
    kind: ClassVar[str] = "hb.draw"


@dataclass(frozen=True)
class Bid(Intent):
    kind: ClassVar[str] = "hb.bid"
    seat: str
    amount: int


def acting(state: HBState) -> tuple[str, ...]:
    if not state.prizes or state.round >= PRIZES:
        return ()
    return tuple(seat for seat, bid in zip(state.seats, state.bids, strict=True) if bid is None)


@per_state
def public(state: HBState) -> JSONObject:
    over = state.round >= PRIZES
    return {
        "seats": list(state.seats),
        "names": list(state.names),
        "drawn": bool(state.prizes),
        "round": state.round + 1 if state.prizes and not over else state.round,
        "prize": state.prizes[state.round] if state.prizes and not over else None,
        "bid": [b is not None for b in state.bids],
        "points": list(state.points),
        "last": list(state.last),
        "acting": list(acting(state)),
        "over": over,
    }


class HiddenBidRules(Rules[HBState]):
    name = "hidden_bid"
    events: KindCodec[Event] = KindCodec([PrizesDrawn, BidPlaced, Revealed])
    intents: KindCodec[Intent] = KindCodec([DrawPrizes, Bid])
    facts = FACTS

    def setup(self, config: JSONObject) -> HBState:
        names = config.get("players")
        if not isinstance(names, list) or not 2 <= len(names) <= 4 or not all(isinstance(n, str) for n in names):
            raise SetupError("hb.setup.players", "2 to 4 player names")
        coins = config.get("coins", 20)
        if isinstance(coins, bool) or not isinstance(coins, int) or not 5 <= coins <= 99:
            raise SetupError("hb.setup.coins", "coins: 5 to 99")
        seats = tuple(f"p{i + 1}" for i in range(len(names)))
        n = len(seats)
        return HBState(seats, tuple(str(x) for x in names), (coins,) * n, bids=(None,) * n, points=(0,) * n)

    def seats(self, state: HBState) -> tuple[str, ...]:
        return state.seats

    def decide(self, state: HBState, intent: Intent, actor: Audience, rng: random.Random) -> tuple[Event, ...]:
        if isinstance(intent, DrawPrizes):
            require_table(actor, "hb.table_only")
            if state.prizes:
                raise IllegalMove("hb.drawn")
            return (PrizesDrawn(tuple(rng.randint(1, 10) for _ in range(PRIZES))),)
        if isinstance(intent, Bid):
            require_seat(actor, intent.seat, "hb.not_yours")
            if intent.seat not in acting(state):
                raise IllegalMove("hb.not_now")
            purse = state.coins[state.seats.index(intent.seat)]
            if not 0 <= intent.amount <= purse:
                raise IllegalMove("hb.amount", amount=intent.amount, coins=purse)
            placed = BidPlaced(intent.seat, intent.amount)
            after = self.apply(state, placed)
            if acting(after):
                return (placed,)
            return (placed, Revealed(tuple(b or 0 for b in after.bids)))
        raise IllegalMove("hb.unknown")

    def apply(self, state: HBState, event: Event) -> HBState:
        if isinstance(event, PrizesDrawn):
            return replace(state, prizes=event.values)
        if isinstance(event, BidPlaced):
            i = state.seats.index(event.seat)
            return replace(state, bids=(*state.bids[:i], event.amount, *state.bids[i + 1 :]))
        if isinstance(event, Revealed):
            top = max(event.bids)
            winners = [i for i, b in enumerate(event.bids) if b == top]
            points = list(state.points)
            if len(winners) == 1:
                points[winners[0]] += state.prizes[state.round]
            coins = tuple(c - b for c, b in zip(state.coins, event.bids, strict=True))
            return replace(
                state,
                coins=coins,
                points=tuple(points),
                round=state.round + 1,
                bids=(None,) * len(state.seats),
                last=event.bids,
            )
        raise TypeError(event)

    def view(self, state: HBState, audience: Audience) -> JSONObject:
        if audience.is_table:
            return Layered(public(state), {})
        if audience.kind == "seat":
            i = state.seats.index(audience.seat or "")
            return Layered(public(state), {"me": state.seats[i], "coins": state.coins[i], "my_bid": state.bids[i]})
        if audience.is_debug:
            return {**public(state), "coins": list(state.coins), "bids": list(state.bids)}
        raise IllegalMove("hb.unknown_audience")

    def legal(self, state: HBState, actor: Audience) -> JSON:
        if actor.is_table:
            return {"draw": not state.prizes}
        if actor.seat in acting(state):
            return {"bid": {"seat": actor.seat, "max": state.coins[state.seats.index(actor.seat or "")]}}
        return {}

    def acting(self, state: HBState) -> tuple[str, ...]:
        return acting(state)

    def outcome(self, state: HBState) -> Outcome | None:
        if state.round < PRIZES:
            return None
        best = max(state.points)
        winners = tuple(s for s, p in zip(state.seats, state.points, strict=True) if p == best)
        return Outcome("hb.over", winners, tuple(zip(state.seats, state.points, strict=True)))

    def recorded_intents(self, state: HBState, events: tuple[Event, ...]) -> Sequence[tuple[Intent, Audience]]:
        first = events[0]
        if isinstance(first, PrizesDrawn):
            return [(DrawPrizes(), Audience.table())]
        if isinstance(first, BidPlaced):
            return [(Bid(first.seat, first.amount), Audience.of_seat(first.seat))]
        return []

    def describe_action(self, state: HBState, events: tuple[Event, ...], audience: Audience) -> Line:
        first = events[0]
        if isinstance(first, BidPlaced):
            return Line("hb.action.bid", {"seat": first.seat})
        return Line("hb.action.draw")

    def summary(self) -> Summary:
        from companion.games.hidden_bid.summary import SUMMARY

        return SUMMARY


RULES = HiddenBidRules()
