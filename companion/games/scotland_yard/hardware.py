"""What the box means in Scotland Yard (see :mod:`companion.core.hardware`).

- A pawn (``figure:<D1…D5|B1|B2>``) selects the figure for the next move entry on the touchscreen
  (a selection, not an intent); ``figure:X`` is refused: Mister X moves on his phone.
- ``confirm`` is the screen's confirm.
- Lights: Mister X's seat while he moves, else every detective seat with a figure still to move;
  the buzzer sounds reveals, the capture and the end; the ``round`` bar shows the round.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.core.hardware import HardwareRules, Input, Notice, Result, Select, bad_piece, seat_ids
from companion.core.jsonvalue import JSONObject, as_list, as_object, as_str


def seats(view: JSONObject) -> list[str]:
    return seat_ids(view.get("seats"))


def figure(inp: Input, args: Sequence[str]) -> Result:
    if len(args) != 1:
        return bad_piece(inp)
    which = args[0]
    if which.upper() in ("X", "MRX"):
        return Notice("sy.input.mister_x", {"label": inp.label})
    view = inp.view
    known = [as_str(as_object(f).get("figure")) for f in as_list(view.get("figures"))]
    if which not in known:
        return Notice("sy.input.no_figure", {"label": inp.label, "figure": which})
    if inp.seat is not None:
        controls = next(
            (
                as_list(as_object(s).get("figures"))
                for s in as_list(view.get("seats"))
                if as_object(s).get("seat") == inp.seat
            ),
            [],
        )
        if which not in controls:
            return Notice("sy.input.not_your_figure", {"figure": which, "seat": inp.seat})
    moves = as_object(as_object(inp.legal).get("moves")).get(which)
    if not isinstance(moves, dict):
        return Notice("sy.input.cannot_move", {"figure": which})
    return Select({"game": "scotland_yard", "kind": "figure", "figure": which, "seat": inp.seat, "moves": moves})


def signal(before: JSONObject | None, view: JSONObject) -> str | None:
    if before is None:
        return None
    end = as_object(view.get("end"))
    if end and not before.get("end"):
        return "capture" if end.get("reason") == "captured" else "end"

    def reveals(v: JSONObject) -> int:
        return sum(1 for f in as_list(v.get("log")) if as_object(f).get("reveal"))

    return "reveal" if reveals(view) > reveals(before) else None


HARDWARE = HardwareRules(
    bindings={
        "buttons": {"confirm": {"press": "ui.confirm"}, "undo": {"hold": "undo"}},
        "pieces": {"figure": "sy.figure"},
        "tracks": {"round": "round"},
    },
    actions={"sy.figure": figure},
    seats=seats,
    signal=signal,
)
