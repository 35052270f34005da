"""From a logged action back to the intent that wrote it (for re-checking imported games).

Every Mykerinos action is one asked-for event followed by what the game does by itself (season
start and end, zone closed, automatic neutral parcel, the exhibition), which the re-check compares.
The table may act for every seat, so the table is the actor that could have written any action.
"""

from __future__ import annotations

from dataclasses import replace

from companion.core.audience import TABLE, Audience
from companion.core.events import Event, Intent
from companion.core.summary import Line
from companion.games.mykerinos import intents as it
from companion.games.mykerinos.events import (
    ArchaeologistsMoved,
    CardsCorrected,
    Declined,
    Excavated,
    LayoutSet,
    MuseumCorrected,
    MuseumPlaced,
    NeutralExcavated,
    NeutralParcel,
    ParcelTaken,
    Passed,
    PatronsDrawn,
    PatronsEntered,
    ScoreCorrected,
    SirBrownSent,
    StartPlayerChosen,
    StartPlayerDrawn,
    ZoneCounted,
)
from companion.games.mykerinos.state import MykState
from companion.games.mykerinos.summary import SUMMARY


def recorded_intent(first: Event) -> Intent | None:
    """The intent whose decision starts with ``first`` (None: the game wrote it by itself)."""
    if isinstance(first, StartPlayerDrawn):
        return it.DrawStartPlayer()
    if isinstance(first, StartPlayerChosen):
        return it.ChooseStartPlayer(first.seat)
    if isinstance(first, PatronsDrawn):
        return it.DrawPatrons()
    if isinstance(first, PatronsEntered):
        return it.EnterPatrons(first.order)
    if isinstance(first, LayoutSet):
        return it.SetLayout(first.layout)
    if isinstance(first, Excavated):
        return it.Excavate(first.seat, first.action, first.patron)
    if isinstance(first, SirBrownSent):
        return it.SirBrown(first.seat, first.room)
    if isinstance(first, NeutralExcavated):
        return it.Neutral(first.seat, first.action)
    if isinstance(first, Passed) and not first.auto:
        return it.Pass(first.seat)
    if isinstance(first, ZoneCounted):
        return it.ZoneCounts(first.counts)
    if isinstance(first, ParcelTaken):
        return it.TakeParcel(first.seat, first.patron, first.points)
    if isinstance(first, MuseumPlaced):
        return it.Museum(first.seat, first.room)
    if isinstance(first, Declined):
        return it.Decline(first.seat)
    if isinstance(first, NeutralParcel) and first.chooser is not None:
        return it.NeutralPick(first.chooser)
    if isinstance(first, ScoreCorrected):
        return it.CorrectScore(first.seat, first.delta)
    if isinstance(first, ArchaeologistsMoved):
        return it.CorrectArchaeologists(first.colour, first.origin, first.target, first.count, first.holder)
    if isinstance(first, CardsCorrected):
        return it.CorrectCards(first.seat, first.patron, first.delta)
    if isinstance(first, MuseumCorrected):
        return it.CorrectMuseum(first.room, first.colour)
    return None


def recorded_intents(state: MykState, events: tuple[Event, ...]) -> list[tuple[Intent, Audience]]:
    intent = recorded_intent(events[0])
    return [] if intent is None else [(intent, TABLE)]


def describe_action(state: MykState, events: tuple[Event, ...], audience: Audience) -> Line:
    """The action in the summary's words for the intent that wrote it (public words: they name
    no hidden agent, card or pile)."""
    found = recorded_intents(state, events)
    if not found:
        return Line("myk.action")
    intent, _actor = found[0]
    encoded = it.INTENTS.encode(intent)
    assert isinstance(encoded, dict)
    line = SUMMARY.did(encoded)
    seat = encoded.get("seat")
    typed = dict(zip(state.seats, state.names, strict=False)).get(seat) if isinstance(seat, str) else None
    if typed and "player" in line.params:  # "Undo: Ann took a parcel", not "Undo: Green took a parcel"
        return replace(line, params={**line.params, "player": typed})
    return line
