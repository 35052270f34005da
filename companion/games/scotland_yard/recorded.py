"""From a logged action back to the intent that wrote it (for re-checking imported games).

Every Scotland Yard action starts with the event its intent asked for; what follows it (the end
of a round, the end of the game) the rules add by themselves and the re-check compares.
"""

from __future__ import annotations

from companion.core.audience import TABLE, Audience
from companion.core.events import Event, Intent
from companion.games.scotland_yard.model import (
    MRX,
    DetectivesPlaced,
    DrawStart,
    EndGame,
    FigureMoved,
    GameEnded,
    Move,
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


def recorded_intents(state: SYState, events: tuple[Event, ...]) -> list[tuple[Intent, Audience]]:
    first = events[0]
    if isinstance(first, FigureMoved):
        return [(Move(first.figure, first.ticket, first.station), TABLE)]
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
