"""Mykerinos in words, from views only (everything in Mykerinos is public): the season, whose turn,
the survey step, the supplies, scores and the museum."""

from __future__ import annotations

from companion.core.jsonvalue import JSON, JSONObject
from companion.core.summary import Line, Player, SetupKey, items, joined, num, obj, t, txt

BGG_ID = 21441  # boardgamegeek.com/boardgame/21441/mykerinos
COLOURS = ("blue", "red", "green", "white")


def code(*parts: str) -> str:
    """A message code made from parts (``code("colour", "red")`` is ``myk.colour.red``): the codes
    that are written out whole in this package are the ones its catalogue test looks for."""
    return ".".join(("myk", *parts))


def _colour(seat: JSON) -> JSONObject:
    """A colour as a player's name ("Green"): for a seat nobody named, and the neutral colour."""
    return t(code("colour", txt(seat)))


def _player(view: JSONObject, seat: JSON) -> JSON:
    """A seat for people: the name typed at setup (as typed), else its colour ("Green")."""
    name = txt(obj(view.get("names")).get(txt(seat)))
    return name if name else _colour(seat)


def _patron(patron: JSON) -> JSONObject:
    return t(code("patron", txt(patron))) if patron else t("myk.sum.no_patron")


class MykerinosSummary:
    prefix = "myk"
    bgg_id = BGG_ID
    highest_wins = True
    no_points = False
    setup_keys = (
        SetupKey("seats", "texts", required=True, choices=COLOURS, example="blue,red,green", remembered=True),
        SetupKey("layout", "choice", choices=("line4", "ring5"), example="line4"),
        SetupKey("neutral", "choice", choices=COLOURS, example="white"),
        SetupKey("names", "json", example='{"blue": "Ann", "red": "Bo"}', remembered=True),
        SetupKey("last_zone", "choice", choices=("confirm", "count"), example="confirm"),
    )

    def status(self, view: JSONObject) -> Line:
        phase = txt(view.get("phase"))
        if phase == "setup":
            return Line("myk.sum.status.setup")
        if phase == "over":
            winners = [_player(view, w) for w in items(obj(view.get("result")).get("winners"))]
            return Line("myk.sum.status.over", {"winners": joined(winners, " & ")})
        season = num(view.get("season"))
        if phase == "survey":
            survey = obj(view.get("survey"))
            waiting = obj(survey.get("waiting"))
            what = txt(waiting.get("for"))
            seat = waiting.get("seat")
            return Line(
                "myk.sum.status.survey",
                {
                    "season": season,
                    "zone": num(survey.get("zone")),
                    "zones": num(survey.get("of")),
                    "waiting": t(code("sum", "waiting", what), player=_player(view, seat) if seat else ""),
                },
            )
        acting = items(view.get("acting"))  # who acts now: the rules' one answer
        players = joined([_player(view, s) for s in acting], " & ")
        return Line("myk.sum.status.turn", {"season": season, "player": players})

    def overview(self, view: JSONObject) -> list[Line]:
        lines = [self.status(view)]
        wings = [_patron(p) for p in items(view.get("wings"))]
        if wings:
            lines.append(Line("myk.sum.wings", {"wings": joined(wings)}))
        start = view.get("start_player")
        if start:
            lines.append(Line("myk.sum.start_player", {"player": _player(view, start)}))
        players = obj(view.get("players"))
        general = obj(view.get("general"))
        for seat, row in players.items():
            info = obj(row)
            cards = [t("myk.sum.cards_of", n=num(n), patron=_patron(p)) for p, n in obj(info.get("cards")).items()]
            lines.append(
                Line(
                    "myk.sum.player",
                    {
                        "who": _player(view, seat),
                        "score": num(info.get("score")),
                        "projection": num(info.get("projection")),
                        "supply": num(info.get("supply")),
                        "general": num(general.get(seat)),
                        "cards": joined(cards) if cards else t("myk.sum.none"),
                    },
                )
            )
        museum = obj(view.get("museum"))
        if museum:
            rooms = [t("myk.sum.room", room=room, player=_player(view, who)) for room, who in sorted(museum.items())]
            lines.append(Line("myk.sum.museum", {"rooms": joined(rooms)}))
        neutral = view.get("neutral")

        def who(colour: JSON) -> JSON:  # the two-player game's neutral colour says so
            return t("myk.sum.neutral_colour", colour=_colour(colour)) if colour == neutral else _player(view, colour)

        passed = [who(entry[0]) for entry in map(items, items(view.get("pass_track"))) if entry]
        if passed:
            lines.append(Line("myk.sum.passed", {"players": joined(passed)}))
        board = obj(view.get("board"))
        if board:
            on_board = [t("myk.sum.count", player=who(c), n=num(n)) for c, n in board.items()]
            lines.append(Line("myk.sum.board", {"counts": joined(on_board)}))
        result = obj(view.get("result"))
        if result:
            order = [_player(view, s) for s in items(result.get("order"))]
            lines.append(Line("myk.sum.order", {"players": joined(order)}))
        return lines

    def did(self, intent: JSONObject) -> Line:
        kind = txt(intent.get("kind"))
        params: JSONObject = {}
        if "seat" in intent:
            params["player"] = _colour(intent.get("seat"))
        if "room" in intent:
            params["room"] = txt(intent.get("room"))
        if kind == "myk.excavate":
            params["patron"] = _patron(intent.get("patron"))
            return Line(code("sum", "did", "excavate_" + txt(intent.get("action"))), params)
        if kind == "myk.neutral":
            return Line(code("sum", "did", "neutral_" + txt(intent.get("action"))), params)
        if kind == "myk.set_layout":
            params["layout"] = t(code("sum", "layout", txt(intent.get("layout"))))
        if kind == "myk.take_parcel":
            params["patron"] = _patron(intent.get("patron"))
            params["points"] = num(intent.get("points"))
        return Line(code("sum", "did", kind.partition(".")[2]), params)

    def choices(self, legal: JSON) -> list[tuple[str, JSONObject]]:
        return [
            (txt(option.get("kind")), {k: v for k, v in option.items() if k != "kind"})
            for option in map(obj, items(legal))
        ]

    def players(self, view: JSONObject) -> tuple[Player, ...]:
        players = obj(view.get("players"))
        over = view.get("phase") == "over"
        standing = {s: (num(obj(r).get("score")), num(obj(r).get("supply"))) for s, r in players.items()}
        start = view.get("first_player")  # who started the game, not this season (BG Stats' start player)
        names = obj(view.get("names"))
        out = []
        for seat in map(txt, items(view.get("seats"))):
            better = sum(1 for other in standing.values() if other > standing.get(seat, (0, 0)))
            out.append(
                Player(
                    seat=seat,
                    name=txt(names.get(seat)),  # as entered at setup ("" when only the colour was chosen)
                    label=Line(code("colour", seat)),
                    start=(seat == start) if start else None,
                    rank=better + 1 if over else None,  # score, then archaeologists left (the rulebook's tie-break)
                )
            )
        return tuple(out)


SUMMARY = MykerinosSummary()
