"""What the table's speaker says in Mykerinos, from two public table views only.

- The end of a season's excavation: the survey begins, and each zone to count, with where it lies
  on the board ("Count zone 3 of 4: row 2 from the board, left").
- A new season, and who begins it.
- The end of the game: the exhibition is scored, and who won with how many points.
"""

from __future__ import annotations

from companion.core.jsonvalue import JSON, JSONObject
from companion.core.summary import Line, items, listed, num, obj, t, txt
from companion.games.mykerinos.summary import code


def _player(view: JSONObject, seat: JSON) -> JSON:
    """A player as the screen names them: the name typed at setup, else the colour, as said at
    the start of a sentence ("Blue plays first")."""
    name = txt(obj(view.get("names")).get(txt(seat)))
    return name if name else t(code("say", "colour", txt(seat)))


def announcements(before: JSONObject, after: JSONObject) -> tuple[Line, ...]:
    lines: list[Line] = []
    phase, was = txt(after.get("phase")), txt(before.get("phase"))
    season = num(after.get("season"))
    if phase == "survey" and was != "survey":
        lines.append(Line("myk.say.survey", {"season": season}))
    survey, earlier = obj(after.get("survey")), obj(before.get("survey"))
    counting = obj(survey.get("waiting")).get("for") == "counts"
    moved = (num(survey.get("zone")), season) != (num(earlier.get("zone")), num(before.get("season")))
    if survey and counting and (moved or was != "survey"):
        side = "right" if survey.get("side") == "right" else "left"
        lines.append(
            Line(
                "myk.say.zone",
                {
                    "zone": num(survey.get("zone")),
                    "zones": num(survey.get("of")),
                    "row": num(survey.get("row")),
                    "side": t(f"myk.say.side.{side}"),
                },
            )
        )
    if phase == "excavation" and season > num(before.get("season")) and was in ("survey", "excavation"):
        lines.append(Line("myk.say.season", {"season": season}))
        first = obj(after.get("turn")).get("seat")
        if isinstance(first, str):
            lines.append(Line("myk.say.begins", {"player": _player(after, first)}))
    result = obj(after.get("result"))
    if phase == "over" and was != "over" and result:
        winners = [w for w in items(result.get("winners")) if isinstance(w, str)]
        players = obj(after.get("players"))
        lines.append(Line("myk.say.over"))
        if winners:
            lines.append(
                Line(
                    "myk.say.winner",
                    {
                        "players": listed([_player(after, w) for w in winners], "myk.say.and"),
                        "count": len(winners),
                        "points": max(num(obj(players.get(w)).get("score")) for w in winners),
                    },
                )
            )
    return tuple(lines)
