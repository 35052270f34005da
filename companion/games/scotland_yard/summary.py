"""Scotland Yard in words: what a screen shows, whose turn it is, what an intent did.

Built from views only (see :mod:`companion.core.summary`): the table and a detective see the
public travel log; only Mister X's own view carries his station and route.
"""

from __future__ import annotations

from companion.core.jsonvalue import JSON, JSONObject
from companion.core.summary import Line, Player, SetupKey, items, joined, num, obj, t, txt
from companion.games.scotland_yard.ai import LEVELS

MRX = "mrx"
BGG_ID = 438  # boardgamegeek.com/boardgame/438/scotland-yard


def _ticket(name: JSON) -> JSONObject:
    return t(f"sy.ticket.{txt(name)}")


def _by(name: JSON) -> JSONObject:
    """How a move went, as each language says it ("by Taxi", "en métro", "con un boleto negro")."""
    return t(f"sy.by.{txt(name)}")


def _tickets(tickets: JSON) -> JSONObject:
    counts = obj(tickets)
    return t(
        "sy.sum.tickets",
        taxi=num(counts.get("taxi")),
        bus=num(counts.get("bus")),
        underground=num(counts.get("underground")),
    )


def _who(seat: JSONObject) -> JSONObject:
    """A seat's name, or its role in words."""
    name = txt(seat.get("name"))
    if txt(seat.get("seat")) == MRX:
        return t("sy.sum.named", name=name, label=t("sy.sum.mrx")) if name else t("sy.sum.mrx")
    label = t("sy.sum.detective", n=txt(seat.get("seat"))[1:])
    return t("sy.sum.named", name=name, label=label) if name else label


class ScotlandYardSummary:
    prefix = "sy"
    bgg_id = BGG_ID
    highest_wins = True
    no_points = True  # Mister X or the detectives win; nobody scores
    setup_keys = (
        SetupKey("mister_x_ai", "choice", choices=LEVELS, example="hard"),  # before his name: the host page hides it
        SetupKey("mister_x", "text", example="Xavier", remembered=True),
        SetupKey("detectives", "texts", required=True, example="Dora,Emil", remembered=True),
        SetupKey("detectives_ai", "choice", choices=LEVELS, example="normal", remembered=True),
        SetupKey("table_detectives", "texts", example="d2,bobbies", remembered=True),
        SetupKey("tracker", "flag", example="true"),
        SetupKey("bobbies_keep_game_alive", "flag", example="false"),
        SetupKey("board", "json", example='{"remove": [[58, 75, "taxi"]]}'),
    )

    def status(self, view: JSONObject) -> Line:
        phase = txt(view.get("phase"))
        if phase == "start":
            return Line("sy.sum.status.start")
        if phase == "over":
            end = obj(view.get("end"))
            return Line("sy.sum.status.over", {"how": t(f"sy.{txt(end.get('reason'))}")})
        rnd, rounds = num(view.get("round")), num(view.get("rounds"), 22)
        if phase == "x":
            code = "sy.sum.status.x_table" if obj(view.get("mrx")).get("ai") else "sy.sum.status.x"
            return Line(code, {"round": rnd, "rounds": rounds})
        waiting = [txt(f.get("figure")) for f in map(obj, items(view.get("figures"))) if f.get("can_move")]
        return Line("sy.sum.status.detectives", {"round": rnd, "rounds": rounds, "figures": joined(waiting)})

    def overview(self, view: JSONObject) -> list[Line]:
        lines = [self.status(view)]
        mrx = obj(view.get("mrx"))
        station = num(mrx.get("station"))  # shown after a reveal, and for good once the game is over
        where = t("sy.sum.seen_at", station=station) if station else t("sy.sum.unseen")
        if view.get("phase") == "over":
            where = t("sy.sum.final_at", station=station) if station else t("sy.sum.never_placed")
        lines.append(
            Line(
                "sy.sum.mrx_public",
                {
                    "where": where,
                    "black": num(mrx.get("black")),
                    "double": num(mrx.get("double")),
                },
            )
        )
        if mrx.get("ai"):
            lines.append(Line("sy.sum.mrx_table", {"level": t(f"sy.ai.{txt(mrx.get('ai'))}")}, indent=1))
        secret = obj(view.get("secret"))
        if secret:  # Mister X's own view, or the debug view (which alone has the tracker's candidates)
            who = "debug" if "candidates" in view else "secret"  # "Mister X is at" / "You (Mister X) are at"
            at = num(secret.get("station"))
            lines.append(Line(f"sy.sum.{who}_at", {"station": at}) if at else Line(f"sy.sum.{who}_unplaced"))
            if secret.get("next_is_reveal"):
                lines.append(Line("sy.sum.debug_next_reveal" if who == "debug" else "sy.sum.next_reveal", indent=1))
        route = {num(f.get("field")): num(f.get("station")) for f in map(obj, items(secret.get("route")))}
        log = []
        for field in map(obj, items(view.get("log"))):
            n = num(field.get("field"))
            station = num(field.get("station")) or route.get(n, 0)
            code = "sy.sum.field_at" if station else "sy.sum.field"
            log.append(t(code, n=n, ticket=_ticket(field.get("ticket")), station=station))
        lines.append(Line("sy.sum.log", {"fields": joined(log) if log else t("sy.sum.empty")}))
        figures = {txt(f.get("figure")): f for f in map(obj, items(view.get("figures")))}

        def placed(name: str) -> JSONObject:
            f = figures.get(name, {})
            station = num(f.get("station"))
            return t("sy.sum.figure_at" if station else "sy.sum.figure", figure=name, station=station)

        for seat in map(obj, items(view.get("seats"))):
            if txt(seat.get("seat")) == MRX:
                continue
            mine = [txt(f) for f in items(seat.get("figures")) if txt(f).startswith("D")]
            lines.append(
                Line(
                    "sy.sum.detective_line",
                    {
                        "who": _who(seat),
                        "figures": joined([placed(f) for f in mine]),
                        "tickets": _tickets(seat.get("tickets")),
                    },
                )
            )
        bobbies = [placed(name) for name, f in figures.items() if f.get("bobby")]
        if bobbies:
            lines.append(Line("sy.sum.bobbies", {"figures": joined(bobbies)}))
        lines.append(Line("sy.sum.supply", {"tickets": _tickets(view.get("supply"))}))
        tracker = obj(view.get("tracker"))
        if tracker.get("on"):
            candidates = [num(c) for c in items(tracker.get("candidates"))]
            lines.append(
                Line("sy.sum.tracker", {"n": len(candidates), "stations": joined([str(c) for c in candidates])})
            )
        end = obj(view.get("end"))
        if end.get("reason") == "captured":
            lines.append(
                Line("sy.sum.captured", {"figure": txt(end.get("figure")), "station": num(end.get("station"))})
            )
        return lines

    def did(self, intent: JSONObject) -> Line:
        kind = txt(intent.get("kind"))
        if kind == "sy.move":
            return Line(
                "sy.sum.did.move",
                {
                    "figure": txt(intent.get("figure")),
                    "by": _by(intent.get("ticket")),
                    "station": num(intent.get("station")),
                },
            )
        if kind == "sy.x_move":
            return Line("sy.sum.did.x_move", {"by": _by(intent.get("ticket")), "station": num(intent.get("station"))})
        if kind == "sy.x_double":
            first, second = obj(intent.get("first")), obj(intent.get("second"))
            return Line(
                "sy.sum.did.x_double",
                {
                    "by1": _by(first.get("ticket")),
                    "station1": num(first.get("station")),
                    "by2": _by(second.get("ticket")),
                    "station2": num(second.get("station")),
                },
            )
        if kind == "sy.set_tracker":
            return Line("sy.sum.did.tracker_on" if intent.get("on") else "sy.sum.did.tracker_off")
        return Line(f"sy.sum.did.{kind.removeprefix('sy.')}")

    def choices(self, legal: JSON) -> list[tuple[str, JSONObject]]:
        offered = obj(legal)
        x = obj(offered.get("x"))
        by_kind: dict[str, JSONObject] = {
            "sy.move": {"moves": offered.get("moves")},
            "sy.x_move": {"single": x.get("single")},
            "sy.x_double": {"double": x.get("double")},
            "sy.place_detectives": {"figures": offered.get("figures"), "d_cards": offered.get("d_cards")},
            "sy.place_x": {"x_cards": offered.get("x_cards")},
        }
        return [(txt(k), by_kind.get(txt(k), {})) for k in items(offered.get("intents"))]

    def players(self, view: JSONObject) -> tuple[Player, ...]:
        end = obj(view.get("end"))
        winner = txt(end.get("winner"))  # "mrx", "detectives" or "" (nobody: stopped by the table)
        ai = txt(obj(view.get("mrx")).get("ai"))  # the level when the table plays Mister X
        out = []
        for seat in map(obj, items(view.get("seats"))):
            sid = txt(seat.get("seat"))
            is_x = sid == MRX
            rank = None
            if winner in (MRX, "detectives"):
                rank = 1 if (winner == MRX) == is_x else 2
            bot = is_x and bool(ai)
            if bot:  # the table played him: no person, so no name (whatever the setup said)
                label = Line("sy.sum.table_x", {"level": t(f"sy.ai.{ai}")})
            else:
                label = Line("sy.sum.mrx") if is_x else Line("sy.sum.detective", {"n": sid[1:]})
            out.append(
                Player(
                    seat=sid,
                    name="" if bot else txt(seat.get("name")),
                    label=label,
                    role=Line("sy.sum.role.mrx" if is_x else "sy.sum.role.detective"),
                    start=is_x,  # Mister X moves first
                    rank=rank,
                    bot=bot,
                )
            )
        return tuple(out)


SUMMARY = ScotlandYardSummary()
