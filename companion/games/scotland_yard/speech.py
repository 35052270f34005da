"""What the table's speaker says in Scotland Yard, from two public table views only.

- The table's Mister X (played by the computer) moves: his ticket, as the travel log shows it
  ("Mister X travels by bus"; a double move names both tickets). A human Mister X moves on his own
  phone and says nothing.
- A reveal: the station the travel log's reveal field shows ("Mister X shows himself at station 54").
- The table's detectives move: the instruction every screen shows, for a player to carry out on the
  board ("Move detective 2 by taxi to station 94").
- The end: the capture (who caught him, where), his escape, or how else it ended, and who won.

Nothing here reads a state: a station is spoken only where the public view shows it (a reveal
field, or the end).
"""

from __future__ import annotations

from companion.core.jsonvalue import JSON, JSONObject
from companion.core.summary import Line, items, num, obj, t, txt


def _figure(view: JSONObject, name: str) -> JSON:
    """``D2`` → the name typed for that detective's seat, else "Detective 2"; ``B1`` → "Bobby 1"
    (moved by all the detectives)."""
    kind, n = name[:1], name[1:]
    if kind == "D":  # a detective is the seat's own figure; the bobbies are every detective's
        seats = [s for s in map(obj, items(view.get("seats"))) if name in items(s.get("figures"))]
        typed = txt(seats[0].get("name")) if len(seats) == 1 else ""
        if typed:
            return typed
    return t("sy.figure.B" if kind == "B" else "sy.figure.D", n=n)


def _by(ticket: JSON) -> JSONObject:
    return t(f"sy.say.by.{txt(ticket)}")


def announcements(before: JSONObject, after: JSONObject) -> tuple[Line, ...]:
    lines: list[Line] = []
    old, new = items(before.get("log")), items(after.get("log"))
    added = [obj(f) for f in new[len(old) :]] if len(new) > len(old) else []
    if added and obj(after.get("mrx")).get("ai"):  # the table's Mister X: his move, in public words
        if len(added) >= 2 and all(f.get("double") for f in added[:2]):
            lines.append(
                Line("sy.say.x_double", {"first": _by(added[0].get("ticket")), "second": _by(added[1].get("ticket"))})
            )
        else:
            lines += [Line("sy.say.x_move", {"by": _by(f.get("ticket"))}) for f in added]
    for field in added:
        if field.get("reveal") and isinstance(field.get("station"), int):
            lines.append(Line("sy.say.reveal", {"station": num(field.get("station"))}))
    instruction = obj(after.get("instruction"))
    if instruction and instruction != obj(before.get("instruction")):
        figure = txt(instruction.get("figure"))
        kind = "bobby" if instruction.get("bobby") else "detective"
        params: JSONObject = {
            "n": figure[1:],
            "by": _by(instruction.get("ticket")),
            "station": num(instruction.get("station")),
        }
        lines.append(Line(f"sy.say.instruction.{kind}", params))
    end = obj(after.get("end"))
    if end and not before.get("end"):
        reason = txt(end.get("reason"))
        if reason == "captured":
            lines.append(
                Line(
                    "sy.say.captured",
                    {"figure": _figure(after, txt(end.get("figure"))), "station": num(end.get("station"))},
                )
            )
        elif reason in ("x_escaped", "x_trapped", "detectives_stuck", "ended_by_table"):
            lines.append(Line(f"sy.say.{reason}"))
        winner = end.get("winner")
        final = obj(after.get("mrx")).get("station")  # public once the game is over
        if winner == "mrx" and isinstance(final, int):
            lines.append(Line("sy.say.final_station", {"station": final}))
        if winner == "mrx":
            lines.append(Line("sy.say.winner.mrx"))
        elif winner == "detectives":
            lines.append(Line("sy.say.winner.detectives"))
    return tuple(lines)
