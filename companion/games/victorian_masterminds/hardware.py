"""What the box means in Victorian Masterminds (see :mod:`companion.core.hardware`).

- A building (``building:<city>:<building>``) on a seat's reader: while a resolution waits for a
  Gunner's choice *in that city*, it is that choice (``vm.choose_building``, acting as the seat, so
  only the Gunner's owner's reader — or the table's — is accepted); otherwise it is the scientist
  action Capture (``vm.capture`` for that seat).
- An agent disc (``agent:<colour>:<agent>`` or ``agent:<agent>``) on a seat's reader: while a
  resolution waits for that seat's unidentified agent to be revealed, it is the reveal
  (``vm.reveal``); otherwise it is remembered, secretly, for that seat's next placement, which the
  touchscreen then sends as the table on the seat's behalf with the agent named (the rules accept
  any agent still in the pile for such a "tag scan").
- ``next`` ends the turn of the active player (as the table), a seat's button ends that seat's
  turn (as the seat); ``confirm`` finishes a waiting Engineer, otherwise it is the screen's confirm.
- Lights: the seat a resolution waits for, else the active player; the buzzer sounds captures,
  reveals and the end; the ``secret_service`` bar shows the level.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from companion.core.hardware import (
    HardwareRules,
    Input,
    Notice,
    Remember,
    Result,
    Submit,
    UiButton,
    bad_piece,
    seat_ids,
)
from companion.core.jsonvalue import JSONObject, as_list, as_object, as_str
from companion.games.victorian_masterminds.events import Capture, ChooseBuilding, EndTurn, EngineerDone, Reveal
from companion.games.victorian_masterminds.model import AGENTS, BUILDINGS, CITIES, Building, City


def seats(view: JSONObject) -> list[str]:
    return seat_ids(view.get("players"))


def waiting(view: JSONObject) -> tuple[str | None, JSONObject]:
    """(the city, what it waits for) of a resolution, or (None, {})."""
    resolution = as_object(view.get("resolution"))
    return as_str(resolution.get("city")), as_object(resolution.get("waiting"))


def building(inp: Input, args: Sequence[str]) -> Result:
    if len(args) != 2 or args[0] not in CITIES or args[1] not in BUILDINGS:
        return bad_piece(inp)
    city, built = args
    view = inp.view
    waiting_city, wait = waiting(view)
    if wait.get("kind") == "gunner" and waiting_city == city:
        return Submit(ChooseBuilding(cast(Building, built)), inp.actor)
    seat = inp.seat if inp.seat is not None else as_str(view.get("active")) or ""
    return Submit(Capture(seat, cast(City, city), cast(Building, built)), inp.actor)


def agent(inp: Input, args: Sequence[str]) -> Result:
    if not 1 <= len(args) <= 2 or args[-1] not in AGENTS:
        return bad_piece(inp)
    which = args[-1]
    view = inp.view
    seat = inp.seat
    if len(args) == 2:
        colour = args[0]
        owner = next(
            (
                as_str(as_object(p).get("seat"))
                for p in as_list(view.get("players"))
                if as_object(p).get("colour") == colour
            ),
            None,
        )
        if owner is None:
            return Notice("vm.input.agent_colour", {"label": inp.label, "colour": colour})
        if seat is not None and owner != seat:
            return Notice("vm.input.agent_other_seat", {"label": inp.label, "seat": seat})
        seat = owner
    if seat is None:
        return Notice("vm.input.agent_needs_seat", {"label": inp.label})
    if view.get("phase") not in ("turn", "resolution"):
        return Notice("input.not_now", {"label": inp.label})
    _city, wait = waiting(view)
    if wait.get("kind") == "reveal" and wait.get("seat") == seat:
        return Submit(Reveal(which), inp.actor)
    return Remember(seat, which, "vm.input.agent_recorded")


def end_turn(inp: Input, args: Sequence[str]) -> Result:
    seat = inp.seat if inp.seat is not None else as_str(inp.view.get("active")) or ""
    return Submit(EndTurn(seat), inp.actor)


def confirm(inp: Input, args: Sequence[str]) -> Result:
    _city, wait = waiting(inp.view)
    if wait.get("kind") == "engineer":
        return Submit(EngineerDone(), inp.actor)
    return UiButton(inp.role)


def new_log_lines(before: JSONObject, view: JSONObject) -> list[JSONObject]:
    """Lines of the public log (the last few, numbered) that ``before`` lacks."""
    old = as_list(before.get("log"))
    return [as_object(line) for line in as_list(view.get("log")) if line not in old]


def signal(before: JSONObject | None, view: JSONObject) -> str | None:
    if before is None:
        return None
    if view.get("result") is not None and before.get("result") is None:
        return "end"
    fresh = new_log_lines(before, view)
    if any(line.get("what") == "vm.log.captured" for line in fresh):
        return "capture"
    if any(line.get("what") == "vm.log.flipped" for line in fresh):
        return "reveal"
    return None


def placed(before: JSONObject | None, view: JSONObject) -> set[str]:
    """Seats that placed an agent since ``before`` (the agent they scanned is used up)."""
    if before is None:
        return set()
    return {
        seat
        for line in new_log_lines(before, view)
        if line.get("what") in ("vm.log.placed", "vm.log.recycled") and (seat := as_str(line.get("seat"))) is not None
    }


def complete(intent: JSONObject, remembered: Mapping[str, str]) -> JSONObject:
    """A placement from the pile that the table sends for a seat without naming the agent gets the
    agent disc that seat scanned (if any). The agent never shows on the touchscreen."""
    if intent.get("kind") == "vm.place" and intent.get("agent") is None and not intent.get("recycle"):
        seat = intent.get("seat")
        if isinstance(seat, str) and seat in remembered:
            return {**intent, "agent": remembered[seat]}
    return intent


HARDWARE = HardwareRules(
    bindings={
        "buttons": {
            "confirm": {"press": "vm.confirm"},
            "undo": {"hold": "undo"},
            "next": {"press": "vm.end_turn"},
            "seat": {"press": "vm.end_turn"},
        },
        "pieces": {"building": "vm.building", "agent": "vm.agent"},
        "tracks": {"secret_service": "level"},
    },
    actions={"vm.building": building, "vm.agent": agent, "vm.end_turn": end_turn, "vm.confirm": confirm},
    seats=seats,
    signal=signal,
    used=placed,
    complete=complete,
)
