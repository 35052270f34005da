"""Victorian Masterminds in words, from views only: the level, the players' tallies, the cities,
the resolution under way; a seat's own view adds its pile and its face-down agents."""

from __future__ import annotations

from companion.core.jsonvalue import JSON, JSONObject
from companion.core.summary import Line, Player, SetupKey, items, joined, num, obj, t, txt
from companion.games.victorian_masterminds.setup import DEFAULT_COLOURS

BGG_ID = 189453  # boardgamegeek.com/boardgame/189453/victorian-masterminds


def _colour_of(view: JSONObject, seat: str) -> str:
    for p in map(obj, items(view.get("players"))):
        if p.get("seat") == seat:
            return txt(p.get("colour"))
    return ""


def _colour(colour: str) -> JSONObject:
    """The box's colours in the reader's language; a colour the table typed in, as typed."""
    return t(f"vm.colour.{colour}") if colour in DEFAULT_COLOURS else t("vm.sum.as_typed", text=colour)


def seat_name(view: JSONObject, seat: str) -> JSON:
    """A seat for people: the name typed at setup, else its colour (see ``core.summary.person``)."""
    for p in map(obj, items(view.get("players"))):
        if p.get("seat") == seat and txt(p.get("name")):
            return txt(p.get("name"))
    return seat_word(seat, _colour_of(view, seat))


def seat_word(seat: str, colour: str) -> JSONObject:
    """A seat in words: its colour, or "seat p3" for a seat without one."""
    return _colour(colour) if colour else t("vm.sum.seat", seat=seat)


def _city(name: JSON) -> JSONObject:
    return t(f"vm.city.{txt(name)}")


class VictorianMastermindsSummary:
    prefix = "vm"
    bgg_id = BGG_ID
    highest_wins = True
    no_points = False
    setup_keys = (
        SetupKey(
            "players",
            "json",
            required=True,
            example='[{"colour": "red", "machine": 1, "name": "Ann"}, {"machine": 4}]',
            remembered=True,
        ),
        SetupKey("secret_service_start", "int", required=True, example="4"),
        SetupKey("gunner_rule", "choice", choices=(">=", ">"), example=">="),
        SetupKey("capture_city_loot", "flag", example="false"),
        SetupKey("first_player", "text", example="p1"),
        SetupKey("missions", "json", example='{"london": {"reward": 2}}'),
    )

    def status(self, view: JSONObject) -> Line:
        phase = txt(view.get("phase"))
        if phase == "setup":
            return Line("vm.sum.status.setup")
        if phase == "ended":
            winners = [seat_name(view, txt(w)) for w in items(obj(view.get("result")).get("winners"))]
            return Line("vm.sum.status.ended", {"winners": joined(winners, " & ")})
        resolution = obj(view.get("resolution"))
        if resolution:
            waiting = obj(resolution.get("waiting"))
            kind = txt(waiting.get("kind"))
            return Line(
                "vm.sum.status.resolution",
                {
                    "city": _city(resolution.get("city")),
                    "waiting": t(f"vm.waiting.{kind}") if kind else t("vm.sum.resolving"),
                },
            )
        final = obj(view.get("final_round"))
        code = "vm.sum.status.turn_final" if final.get("triggered") else "vm.sum.status.turn"
        step = "vm.sum.step.after" if view.get("turn_phase") == "after" else "vm.sum.step.place"
        acting = [txt(seat) for seat in items(view.get("acting"))]  # who acts now: the rules' one answer
        return Line(code, {"player": joined([seat_name(view, seat) for seat in acting], " & "), "step": t(step)})

    def overview(self, view: JSONObject) -> list[Line]:
        lines = [self.status(view), Line("vm.sum.level", {"level": num(view.get("level"))})]
        for p in map(obj, items(view.get("players"))):
            score = obj(p.get("score"))
            lines.append(
                Line(
                    "vm.sum.player",
                    {
                        "who": seat_name(view, txt(p.get("seat"))),
                        "machine": txt(p.get("machine_name")) or str(num(p.get("machine"))),
                        "firepower": num(p.get("firepower")),
                        "scientists": num(p.get("scientists")),
                        "codex": num(p.get("codex")),
                        "bolts": num(p.get("bolts")),
                        "copper": num(p.get("copper")),
                        "buildings": len(items(p.get("buildings"))),
                        "score": num(score.get("total")),
                    },
                )
            )
        stacks = obj(view.get("stacks"))
        for city, info in obj(view.get("cities")).items():
            standing = [t(f"vm.building.{txt(b)}") for b in items(obj(info).get("standing"))]
            mission = obj(obj(info).get("mission"))
            reward = mission.get("reward")
            lines.append(
                Line(
                    "vm.sum.city",
                    {
                        "city": _city(city),
                        "stack": num(stacks.get(city)),
                        "standing": joined(standing) if standing else t("vm.sum.none"),
                        "mission": t("vm.sum.mission", reward=num(reward))
                        if isinstance(reward, int)
                        else t("vm.sum.mission_unknown"),
                    },
                    indent=1,
                )
            )
        pile = obj(view.get("pile"))
        if pile:  # a seat's own view
            top = txt(pile.get("top"))
            lines.append(
                Line(
                    "vm.sum.pile",
                    {"size": num(pile.get("size")), "top": t(f"vm.agent.{top}") if top else t("vm.sum.unknown")},
                )
            )
            for placed in map(obj, items(view.get("placed"))):
                agent = txt(placed.get("agent"))
                lines.append(
                    Line(
                        "vm.sum.placed",
                        {
                            "city": _city(placed.get("city")),
                            "position": num(placed.get("position")),
                            "agent": t(f"vm.agent.{agent}") if agent else t("vm.sum.unknown"),
                        },
                        indent=1,
                    )
                )
        final = obj(view.get("final_round"))
        if final.get("triggered") and view.get("phase") != "ended":
            left = final.get("turns_left")
            lines.append(Line("vm.sum.final_round", {"left": num(left)} if isinstance(left, int) else {"left": "?"}))
        return lines

    def did(self, intent: JSONObject) -> Line:
        kind = txt(intent.get("kind"))
        params: JSONObject = {}
        if "seat" in intent:
            params["seat"] = txt(intent.get("seat"))
        if "city" in intent:
            params["city"] = _city(intent.get("city"))
        if kind == "vm.capture":
            params["building"] = t(f"vm.building.{txt(intent.get('building'))}")
        if kind in ("vm.reveal", "vm.reidentify"):
            params["agent"] = t(f"vm.agent.{txt(intent.get('agent'))}")
        if kind == "vm.reidentify":
            params["n"] = num(intent.get("index")) + 1
        if kind == "vm.choose_building":
            building = intent.get("building")
            params["building"] = t(f"vm.building.{txt(building)}") if building else t("vm.sum.none")
        if kind == "vm.henchman":
            return Line("vm.sum.did.henchman_met" if intent.get("met") else "vm.sum.did.henchman_not_met")
        if kind == "vm.choose_order":
            return Line("vm.sum.did.ability_first" if intent.get("first") == "ability" else "vm.sum.did.loot_first")
        return Line(f"vm.sum.did.{kind.removeprefix('vm.')}", params)

    def choices(self, legal: JSON) -> list[tuple[str, JSONObject]]:
        out = []
        for action in map(obj, items(obj(legal).get("actions"))):
            out.append((txt(action.get("kind")), {k: v for k, v in action.items() if k != "kind"}))
        return out

    def players(self, view: JSONObject) -> tuple[Player, ...]:
        places = obj(obj(view.get("result")).get("places"))
        started = txt(obj(view.get("settings")).get("first_player"))  # the log keeps only its last lines
        out = []
        for p in map(obj, items(view.get("players"))):
            seat = txt(p.get("seat"))
            place = places.get(seat)
            out.append(
                Player(
                    seat=seat,
                    name=txt(p.get("name")),  # as entered at setup ("" when only the colour was chosen)
                    label=Line("vm.sum.as_typed", {"text": _colour(txt(p.get("colour")))}),
                    start=(seat == started) if started else None,
                    rank=place if isinstance(place, int) else None,
                )
            )
        return tuple(out)


SUMMARY = VictorianMastermindsSummary()
