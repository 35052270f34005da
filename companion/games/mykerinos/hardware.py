"""What the box means in Mykerinos (see :mod:`companion.core.hardware`).

- A patron card (``patron:<patron>``) is that patron's use by the seat (the reader's seat, else the
  player whose turn it is): if the public legal options leave exactly one way (Mrs. Blackmore:
  start; Colonel Tangerine: extend; Sir Brown: one free museum room) it is sent; if there are
  several (Lady Violet, Lord Lemon: start or extend; Sir Brown: several rooms) the touchscreen gets
  a selection listing the ready-made intents to choose from; if there is none, the canonical
  intent is sent anyway so the rules say why (Sir Brown without a room: a notice).
- A seat's button is "done": pass in the excavation, decline in the survey.
- Lights: the player whose turn it is, or who chooses in the survey; the buzzer sounds the end;
  the ``season`` bar shows the season.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from companion.core.events import Intent
from companion.core.hardware import HardwareRules, Input, Notice, Result, Select, Submit, bad_piece
from companion.core.jsonvalue import JSON, JSONObject, as_list, as_object, as_str
from companion.games.mykerinos.intents import Decline, Excavate, Pass, SirBrown
from companion.games.mykerinos.museum import PATRONS


def seats(view: JSONObject) -> list[str]:
    return [s for s in as_list(view.get("seats")) if isinstance(s, str)]


def turn_seat(view: JSONObject) -> str | None:
    return as_str(as_object(view.get("turn")).get("seat"))


def _template(legal: JSON, kind: str, seat: str) -> JSONObject:
    for entry in as_list(legal):
        found = as_object(entry)
        if found.get("kind") == kind and found.get("seat") == seat:
            return found
    return {}


def patron(inp: Input, args: Sequence[str]) -> Result:
    if len(args) != 1 or args[0] not in PATRONS:
        return bad_piece(inp)
    which = args[0]
    seat = inp.seat if inp.seat is not None else turn_seat(inp.view)
    if seat is None:
        return Notice("input.not_now", {"label": inp.label})
    choices: list[JSONObject]
    if which == "sir_brown":
        rooms = as_list(_template(inp.legal, "myk.sir_brown", seat).get("rooms"))
        choices = [{"kind": "myk.sir_brown", "seat": seat, "room": r} for r in rooms if isinstance(r, str)]
        if not choices:
            return Notice("myk.input.patron_not_now", {"label": inp.label, "seat": seat})
    else:
        options = as_list(_template(inp.legal, "myk.excavate", seat).get("options"))
        actions = [o[0] for o in options if isinstance(o, list) and len(o) == 2 and o[1] == which]
        choices = [{"kind": "myk.excavate", "seat": seat, "action": a, "patron": which} for a in actions]
        if not choices:  # let the rules say why (not your turn, card used, too few archaeologists, ...)
            canonical: Literal["start", "extend"] = "extend" if which == "colonel_tangerine" else "start"
            return Submit(Excavate(seat, canonical, which), inp.actor)
    if len(choices) == 1:
        return Submit(_intent(choices[0]), inp.actor)
    return Select({"game": "mykerinos", "kind": "patron", "seat": seat, "patron": which, "intents": list(choices)})


def _intent(choice: JSONObject) -> Intent:
    seat = str(choice["seat"])
    if choice["kind"] == "myk.sir_brown":
        return SirBrown(seat, str(choice["room"]))
    action: Literal["start", "extend"] = "extend" if choice["action"] == "extend" else "start"
    return Excavate(seat, action, as_str(choice.get("patron")))


def done(inp: Input, args: Sequence[str]) -> Result:
    seat = inp.seat if inp.seat is not None else turn_seat(inp.view)
    if seat is None:
        return Notice("input.not_now", {"label": inp.role})
    if inp.view.get("phase") == "survey":
        return Submit(Decline(seat), inp.actor)
    return Submit(Pass(seat), inp.actor)


def signal(before: JSONObject | None, view: JSONObject) -> str | None:
    if before is None:
        return None
    return "end" if view.get("result") is not None and before.get("result") is None else None


HARDWARE = HardwareRules(
    bindings={
        "buttons": {"confirm": {"press": "ui.confirm"}, "undo": {"hold": "undo"}, "seat": {"press": "myk.done"}},
        "pieces": {"patron": "myk.patron"},
        "tracks": {"season": "season"},
    },
    actions={"myk.patron": patron, "myk.done": done},
    seats=seats,
    signal=signal,
)
