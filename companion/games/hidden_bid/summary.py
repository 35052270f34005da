"""Hidden Bid in words."""

from __future__ import annotations

from companion.core.jsonvalue import JSON, JSONObject
from companion.core.summary import Line, Player, SetupKey, items, joined, num, obj, txt


class HiddenBidSummary:
    prefix = "hb"
    bgg_id = 0
    highest_wins = True
    no_points = False
    setup_keys = (
        SetupKey("players", "texts", required=True, example="Ann,Bob"),
        SetupKey("coins", "int", example="20"),
    )

    def status(self, view: JSONObject) -> Line:
        if view.get("over"):
            return Line("hb.sum.status.over")
        if not view.get("drawn"):
            return Line("hb.sum.status.setup")
        acting = [txt(s) for s in items(view.get("acting"))]
        return Line("hb.sum.status.bidding", {"round": num(view.get("round")), "players": joined(acting)})

    def overview(self, view: JSONObject) -> list[Line]:
        return [self.status(view), Line("hb.sum.points", {"points": joined(items(view.get("points")))})]

    def did(self, intent: JSONObject) -> Line:
        return Line("hb.sum.did", {"kind": txt(intent.get("kind"))})

    def choices(self, legal: JSON) -> list[tuple[str, JSONObject]]:
        bid = obj(obj(legal).get("bid"))
        return [("hb.bid", {"amount": num(bid.get("max"))})] if bid else []

    def players(self, view: JSONObject) -> tuple[Player, ...]:
        names = [txt(n) for n in items(view.get("names"))]
        return tuple(
            Player(txt(seat), name, Line("hb.sum.seat", {"n": i + 1}))
            for i, (seat, name) in enumerate(zip(items(view.get("seats")), names, strict=False))
        )


SUMMARY = HiddenBidSummary()
