"""Logged actions: the intent that wrote one (for re-checking imported games), and one in words.

Every Scotland Yard action starts with the event its intent asked for; what follows it (the end
of a round, the end of the game) the rules add by themselves and the re-check compares. In words,
Mister X's stations are said only to himself (and to debug): everyone else hears his tickets.
"""

from __future__ import annotations

from companion.core.audience import TABLE, Audience
from companion.core.events import Event, Intent
from companion.core.jsonvalue import JSONObject
from companion.core.summary import Line, t
from companion.games.scotland_yard.model import (
    MRX,
    YARD,
    Confirm,
    DetectivesPlaced,
    DrawStart,
    EndGame,
    FigureMoved,
    GameEnded,
    Move,
    MoveConfirmed,
    PlaceDetectives,
    PlaceX,
    SetTracker,
    Step,
    SYState,
    TrackerSwitched,
    XDouble,
    XMove,
    XMoved,
    XPlaced,
)

MISTER_X = Audience.of_seat(MRX)
TABLE_DETECTIVES = Audience.of_seat(YARD)


def recorded_intents(state: SYState, events: tuple[Event, ...]) -> list[tuple[Intent, Audience]]:
    first = events[0]
    if isinstance(first, FigureMoved):
        # The table's own detectives move as YARD (an instruction); anyone else's move, as the table.
        return [(Move(first.figure, first.ticket, first.station), TABLE_DETECTIVES if first.by_table else TABLE)]
    if isinstance(first, MoveConfirmed):
        return [(Confirm(first.figure), TABLE)]
    if isinstance(first, XMoved):
        second = events[1] if len(events) > 1 else None
        if first.step == 1 and isinstance(second, XMoved):
            double = XDouble(Step(first.ticket, first.station), Step(second.ticket, second.station))
            return [(double, MISTER_X)]
        return [(XMove(first.ticket, first.station), MISTER_X)]
    if isinstance(first, DetectivesPlaced):
        return [(DrawStart(), TABLE)] if first.drawn else [(PlaceDetectives(first.stations), TABLE)]
    if isinstance(first, XPlaced):
        # Drawn: by his own phone, or by the table once the detectives stood (the same event).
        return [(DrawStart(), MISTER_X), (DrawStart(), TABLE)] if first.drawn else [(PlaceX(first.station), MISTER_X)]
    if isinstance(first, TrackerSwitched):
        return [(SetTracker(first.on), TABLE)]
    if isinstance(first, GameEnded) and first.reason == "ended_by_table":
        return [(EndGame(), TABLE)]
    return []  # a round's or a game's end is never an action of its own


def _ticket(name: str) -> JSONObject:
    return t(f"sy.ticket.{name}")


def describe_action(before: SYState, events: tuple[Event, ...], audience: Audience) -> Line:
    first = events[0]
    secret_ok = audience.is_debug or audience.is_seat(MRX)
    if isinstance(first, FigureMoved):
        start = before.positions[before.figures.index(first.figure)]
        params: JSONObject = {
            "figure": first.figure,
            "ticket": _ticket(first.ticket),
            "from": start,
            "to": first.station,
        }
        return Line("sy.action.move", params)
    if isinstance(first, XMoved):
        second = events[1] if len(events) > 1 and isinstance(events[1], XMoved) else None
        if second is not None and first.step == 1:
            if secret_ok:
                return Line(
                    "sy.action.x_double",
                    {
                        "ticket1": _ticket(first.ticket),
                        "from": before.x_station,
                        "station1": first.station,
                        "ticket2": _ticket(second.ticket),
                        "station2": second.station,
                    },
                )
            return Line(
                "sy.action.x_double_hidden", {"ticket1": _ticket(first.ticket), "ticket2": _ticket(second.ticket)}
            )
        if secret_ok:
            return Line(
                "sy.action.x_move", {"ticket": _ticket(first.ticket), "from": before.x_station, "to": first.station}
            )
        return Line("sy.action.x_move_hidden", {"ticket": _ticket(first.ticket)})
    if isinstance(first, MoveConfirmed):
        return Line("sy.action.confirm", {"figure": first.figure})
    if isinstance(first, DetectivesPlaced):
        return Line("sy.sum.did.draw_start" if first.drawn else "sy.sum.did.place_detectives")
    if isinstance(first, XPlaced):
        return Line("sy.sum.did.draw_start" if first.drawn else "sy.sum.did.place_x")
    if isinstance(first, TrackerSwitched):
        return Line("sy.sum.did.tracker_on" if first.on else "sy.sum.did.tracker_off")
    if isinstance(first, GameEnded):
        return Line("sy.sum.did.end_game")
    return Line("sy.action")
