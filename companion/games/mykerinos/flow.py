"""Who acts next and what is allowed: pure functions of the state, shared by decide, legal and view.

Every refusal comes from here with its code, so ``legal`` offers exactly what ``decide`` accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.core import IllegalMove
from companion.games.mykerinos.museum import PATRONS, exhibition, legal_rooms
from companion.games.mykerinos.state import NEUTRAL_HANDOUT, MykState, handout

EXCAVATION_PATRONS = ("lady_violet", "lord_lemon", "mrs_blackmore", "colonel_tangerine")
ACTIONS: tuple[Literal["start", "extend"], ...] = ("start", "extend")


def clockwise_from(state: MykState, seat: str) -> tuple[str, ...]:
    i = state.si(seat)
    return state.seats[i:] + state.seats[:i]


def next_active(state: MykState, after: str, passed: tuple[str, ...]) -> str | None:
    order = clockwise_from(state, after)
    for seat in (*order[1:], order[0]):
        if seat not in passed:
            return seat
    return None


def lowest_free_space(state: MykState) -> int:
    taken = {space for _, space in state.pass_track}
    space = 1
    while space in taken:
        space += 1
    return space


def handouts(state: MykState, start: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Own and neutral archaeologists each seat takes now: the full amount, or what is left."""
    general = list(state.general)
    own = []
    for seat in state.seats:
        c = state.ci(seat)
        take = min(handout(len(state.seats)), general[c])
        general[c] -= take
        own.append(take)
    neutral = [0 for _ in state.seats]
    if state.neutral:
        n = state.ci(state.neutral)
        for seat in clockwise_from(state, start):  # short supply: the start player takes first
            take = min(NEUTRAL_HANDOUT, general[n])
            general[n] -= take
            neutral[state.si(seat)] = take
    return tuple(own), tuple(neutral)


def last_on_track(state: MykState) -> str:
    seats = [(space, colour) for colour, space in state.pass_track if colour in state.seats]
    return max(seats)[1] if seats else (state.start_player or state.seats[0])


# --- excavation ----------------------------------------------------------------------------------
def check_patron(state: MykState, seat: str, patron: str) -> None:
    if patron not in PATRONS:
        raise IllegalMove("myk.unknown_patron", f"unknown patron {patron[:40]!r}", patron=patron[:40])
    if state.season < 2:
        raise IllegalMove("myk.patron_too_early", "patrons help from the second season on")
    if state.ready(seat)[PATRONS.index(patron)] < 1:
        raise IllegalMove("myk.patron_not_ready", f"{seat} has no ready {patron} card", seat=seat, patron=patron)


def excavation_count(state: MykState, seat: str, action: Literal["start", "extend"], patron: str | None) -> int:
    """How many archaeologists this excavation takes from the personal supply, or why it is refused."""
    c = state.ci(seat)
    have = state.supply[state.si(seat)]
    if have == 0:  # rulebook: with an empty personal supply, passing is the only action (even Lady Violet)
        raise IllegalMove("myk.empty_supply", f"{seat} has no archaeologist left and can only pass", seat=seat)
    count = 1 if action == "start" else 2
    if patron is not None:
        check_patron(state, seat, patron)
        if patron == "sir_brown":
            raise IllegalMove("myk.sir_brown_is_museum", "Sir Brown sends an archaeologist to the museum")
        if (patron, action) in (("mrs_blackmore", "extend"), ("colonel_tangerine", "start")):
            raise IllegalMove("myk.patron_action", f"{patron} cannot {action}", patron=patron, action=action)
        if patron == "lady_violet":
            if state.general[c] < 1:
                raise IllegalMove("myk.no_general", f"no {seat} archaeologist in the general supply", colour=seat)
            have += 1
        count = {"mrs_blackmore": 2, "colonel_tangerine": 3}.get(patron, count)
    if action == "extend" and state.board[c] < 1:
        raise IllegalMove("myk.no_excavation", f"{seat} has no excavation to extend", seat=seat)
    if have < count:
        raise IllegalMove("myk.too_few", f"needs {count}, has {have}", need=count, have=have)
    return count


def excavation_options(state: MykState, seat: str) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for patron in (None, *EXCAVATION_PATRONS):
        for action in ACTIONS:
            try:
                excavation_count(state, seat, action, patron)
            except IllegalMove:
                continue
            out.append((action, patron))
    return out


def sir_brown_rooms(state: MykState, seat: str) -> tuple[str, ...]:
    try:
        check_patron(state, seat, "sir_brown")
    except IllegalMove:
        return ()
    if state.supply[state.si(seat)] < 1:
        return ()
    return legal_rooms(state.the_layout, state.museum_map(), seat)


def neutral_count(state: MykState, seat: str, action: Literal["start", "extend", "skip"]) -> int:
    if action == "skip":
        return 0
    assert state.neutral is not None
    have = state.neutral_supply[state.si(seat)]
    count = 1 if action == "start" else 2
    if action == "extend" and state.board[state.ci(state.neutral)] < 1:
        raise IllegalMove("myk.no_neutral_excavation", "there is no neutral excavation to extend")
    if have < count:
        raise IllegalMove("myk.too_few", f"needs {count}, has {have}", need=count, have=have)
    return count


def neutral_options(state: MykState, seat: str) -> list[str]:
    out: list[str] = []
    actions: tuple[Literal["start", "extend", "skip"], ...] = ("start", "extend", "skip")
    for action in actions:
        try:
            neutral_count(state, seat, action)
        except IllegalMove:
            continue
        out.append(action)
    return out


# --- survey --------------------------------------------------------------------------------------
PendingKind = Literal["counts", "choose", "neutral_pick", "neutral_auto", "close"]


@dataclass(frozen=True)
class Pending:
    """What the survey waits for: the table's counts, a seat's choice (``rank`` 0 = 1st), the seat
    that picks the neutral's parcel, or something the companion does by itself."""

    kind: PendingKind
    seat: str | None = None
    rank: int = 0


def zone_pending(state: MykState) -> Pending:
    zone = state.zone
    assert zone is not None
    if not zone.counted:
        return Pending("counts")
    ranking = zone.ranking
    if zone.pos >= len(ranking):
        return Pending("close")
    colour = ranking[zone.pos]
    if colour == state.neutral:
        later_real = any(c in state.seats for c in ranking[zone.pos + 1 :])
        if zone.pos >= 2 or not later_real:
            return Pending("close")  # the neutral's parcel would leave the game anyway
        if zone.parcels == 1:
            return Pending("neutral_auto")
        if zone.pos == 0:
            absent = [s for s in state.seats if s not in ranking]
            chooser = ranking[2] if len(ranking) >= 3 else absent[0]
        else:
            chooser = ranking[0]
        return Pending("neutral_pick", chooser, zone.pos)
    if zone.pos < 2 or zone.parcels > 0:
        return Pending("choose", colour, zone.pos)
    return Pending("close")


def museum_rooms(state: MykState, seat: str) -> tuple[str, ...]:
    """Rooms ``seat`` may take from the general supply as 1st/2nd of a zone (none if its colour is gone)."""
    if state.general[state.ci(seat)] < 1:
        return ()
    return legal_rooms(state.the_layout, state.museum_map(), seat)


def rank(state: MykState, counts: tuple[int, ...]) -> tuple[str, ...]:
    present = [c for c, n in zip(state.colours, counts, strict=True) if n > 0]
    return tuple(sorted(present, key=lambda c: (-counts[state.ci(c)], state.space_of(c))))


def projection(state: MykState, seat: str) -> int:
    """The score now plus the exhibition as it would be scored now (the exhibition once scored)."""
    i = state.si(seat)
    if state.exhibition:
        return state.score[i]
    if not state.patrons:
        return state.score[i]
    return state.score[i] + exhibition(state.the_layout, state.patrons, state.museum_map(), seat, state.cards[i]).total
