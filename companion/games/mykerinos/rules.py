"""Mykerinos rules: setup, decide (validate intents into events) and apply (trusted replay)."""

from __future__ import annotations

import random
from typing import ClassVar, Literal

from companion.core import (
    JSON,
    Audience,
    Event,
    IllegalMove,
    Intent,
    JSONObject,
    KindCodec,
    Outcome,
    SetupError,
)
from companion.core.audience import require_table, require_table_or_seat
from companion.core.frozen import replace
from companion.core.rules import Rules
from companion.core.scratch import Scratch
from companion.core.summary import Line, Summary, tidy_name
from companion.games.mykerinos import flow, recorded, views
from companion.games.mykerinos import intents as it
from companion.games.mykerinos.events import (
    EVENTS,
    ArchaeologistsMoved,
    CardsCorrected,
    Declined,
    Excavated,
    ExhibitionLine,
    ExhibitionScored,
    LayoutSet,
    MuseumCorrected,
    MuseumPlaced,
    NeutralExcavated,
    NeutralParcel,
    ParcelTaken,
    Passed,
    PatronsDrawn,
    PatronsEntered,
    Place,
    ScoreCorrected,
    SeasonEnded,
    SeasonStarted,
    SirBrownSent,
    StartPlayerChosen,
    StartPlayerDrawn,
    ZoneClosed,
    ZoneCounted,
)
from companion.games.mykerinos.facts import FACTS, PREFERENCES
from companion.games.mykerinos.hardware import HARDWARE
from companion.games.mykerinos.museum import PATRONS, exhibition, layouts, room_refusal
from companion.games.mykerinos.state import (
    BLANK_POINTS,
    COLOURS,
    NAME_LENGTH,
    PARCEL_POINTS,
    PATRON_POINTS,
    SEASONS,
    MykState,
    Note,
    Turn,
    Zone,
    initial,
    put,
    put_row,
    with_museum,
    zones_in,
)

DEFAULT_LAYOUT = "line4"
MAX_AUTO = 200


# --- setup ---------------------------------------------------------------------------------------
def setup(config: JSONObject) -> MykState:
    """``{"seats": ["blue", "red", ...], "layout": "line4"|"ring5", "neutral": colour,
    "names": {"blue": "Ann", ...}}`` (see the docs; a player's name is optional)."""
    known = {"seats", "layout", "neutral", "names", "last_zone"}
    extra = sorted(set(config) - known)
    if extra:
        raise SetupError("myk.setup.unknown_option", f"unknown option {extra[0]!r}", option=extra[0][:40])
    seats = config.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise SetupError("myk.setup.seats", "seats: a list of 2 to 4 colours")
    names = tuple(str(s) for s in seats)
    if not 2 <= len(names) <= 4 or len(set(names)) != len(names) or not set(names) <= set(COLOURS):
        raise SetupError("myk.setup.seats", "seats: a list of 2 to 4 colours")
    layout = config.get("layout", DEFAULT_LAYOUT)
    if not isinstance(layout, str) or layout not in layouts():
        raise SetupError("myk.setup.layout", "unknown museum layout", layouts=list(layouts()))
    neutral: str | None = None
    if len(names) == 2:
        free = [c for c in COLOURS if c not in names]
        chosen = config.get("neutral", free[0])
        if not isinstance(chosen, str) or chosen not in free:
            raise SetupError("myk.setup.neutral", "the neutral needs a colour nobody plays", free=list(free))
        neutral = chosen
    elif "neutral" in config:
        raise SetupError("myk.setup.neutral_2p", "only a two-player game has a neutral player")
    people = config.get("names", {})
    if not isinstance(people, dict) or not set(people) <= set(names):
        raise SetupError("myk.setup.names", "names: a name for some of the colours that play")
    for person in people.values():
        if not isinstance(person, str) or len(person) > NAME_LENGTH:
            raise SetupError("myk.setup.names", "names: a name for some of the colours that play")
    last_zone = config.get("last_zone", "count")
    if last_zone not in ("confirm", "count"):
        raise SetupError("myk.setup.last_zone", "last_zone: confirm or count")
    state = initial(names, neutral, layout)
    if last_zone == "confirm":
        state = replace(state, confirm_last=True)
    spoken = tuple(tidy_name(str(people.get(seat, ""))) for seat in names)
    return replace(state, names=spoken) if any(spoken) else state


# --- apply ---------------------------------------------------------------------------------------
def _after_action(state: MykState, seat: str) -> MykState:
    """A normal action is over: the two-player neutral step, the last player's end, or the next seat."""
    turn = state.turn
    assert turn is not None
    if state.neutral and turn.step == "action" and state.neutral_supply[state.si(seat)] > 0:
        return replace(state, turn=replace(turn, step="neutral"))
    if turn.final:
        return replace(state, turn=replace(turn, step="done"))
    nxt = flow.next_active(state, seat, state.passed())
    assert nxt is not None
    return replace(state, turn=Turn(nxt))


def _apply_pass(state: MykState, event: Passed) -> MykState:
    track = tuple(sorted((*state.pass_track, (event.seat, event.space)), key=lambda p: p[1]))
    state = replace(state, pass_track=track)
    passed = state.passed()
    remaining = [s for s in state.seats if s not in passed]
    if not remaining:
        return replace(state, phase="survey", turn=None, zone=Zone(0))
    if len(remaining) == 1:
        return replace(state, turn=Turn(remaining[0], final=True))
    nxt = flow.next_active(state, event.seat, passed)
    assert nxt is not None
    return replace(state, turn=Turn(nxt))


def _advance_zone(state: MykState, parcels_taken: int = 0) -> MykState:
    zone = state.zone
    assert zone is not None
    return replace(state, zone=replace(zone, pos=zone.pos + 1, parcels=zone.parcels - parcels_taken))


def _note(state: MykState, kind: str, subject: str, value: str) -> MykState:
    return replace(state, corrections=(*state.corrections, Note(state.season, kind, subject, value)))


def _count_at(state: MykState, colour: str, place: Place, holder: str | None) -> int:
    if place == "general":
        return state.general[state.ci(colour)]
    if place == "board":
        return state.board[state.ci(colour)]
    if colour == state.neutral:
        assert holder is not None
        return state.neutral_supply[state.si(holder)]
    return state.supply[state.si(colour)]


def _move(state: MykState, colour: str, place: Place, holder: str | None, delta: int) -> MykState:
    if place == "general":
        return replace(state, general=put(state.general, state.ci(colour), delta))
    if place == "board":
        return replace(state, board=put(state.board, state.ci(colour), delta))
    if colour == state.neutral:
        assert holder is not None
        return replace(state, neutral_supply=put(state.neutral_supply, state.si(holder), delta))
    return replace(state, supply=put(state.supply, state.si(colour), delta))


def apply(state: MykState, event: Event) -> MykState:
    if isinstance(event, (StartPlayerDrawn, StartPlayerChosen)):
        return replace(state, start_player=event.seat, first_player=event.seat)
    if isinstance(event, (PatronsDrawn, PatronsEntered)):
        return replace(state, patrons=event.order)
    if isinstance(event, LayoutSet):
        return replace(state, layout=event.layout)
    if isinstance(event, SeasonStarted):
        general = state.general
        for i, seat in enumerate(state.seats):
            general = put(general, state.ci(seat), -event.own[i])
        if state.neutral:
            general = put(general, state.ci(state.neutral), -sum(event.neutral))
        return replace(
            state,
            phase="excavation",
            season=event.season,
            start_player=event.start_player,
            general=general,
            supply=tuple(a + b for a, b in zip(state.supply, event.own, strict=True)),
            neutral_supply=tuple(a + b for a, b in zip(state.neutral_supply, event.neutral, strict=True)),
            turn=Turn(event.start_player),
            pass_track=((state.neutral, 2),) if state.neutral else (),
            zone=None,
            counted=(),
        )
    if isinstance(event, Excavated):
        i, c = state.si(event.seat), state.ci(event.seat)
        if event.patron == "lady_violet":
            state = replace(state, general=put(state.general, c, -1), supply=put(state.supply, i, 1))
        if event.patron is not None:
            state = replace(state, used=put_row(state.used, i, PATRONS.index(event.patron), 1))
        state = replace(state, supply=put(state.supply, i, -event.count), board=put(state.board, c, event.count))
        return _after_action(state, event.seat)
    if isinstance(event, SirBrownSent):
        i = state.si(event.seat)
        state = replace(
            state,
            supply=put(state.supply, i, -1),
            used=put_row(state.used, i, PATRONS.index("sir_brown"), 1),
        )
        return _after_action(with_museum(state, event.room, event.seat), event.seat)
    if isinstance(event, NeutralExcavated):
        assert state.neutral is not None and state.turn is not None
        i = state.si(event.seat)
        state = replace(
            state,
            neutral_supply=put(state.neutral_supply, i, -event.count),
            board=put(state.board, state.ci(state.neutral), event.count),
            turn=replace(state.turn, step="action"),
        )
        if state.turn is not None and state.turn.final:
            return replace(state, turn=replace(state.turn, step="done"))
        nxt = flow.next_active(state, event.seat, state.passed())
        assert nxt is not None
        return replace(state, turn=Turn(nxt))
    if isinstance(event, Passed):
        return _apply_pass(state, event)
    if isinstance(event, ZoneCounted):
        counts = dict(event.counts)
        zone = Zone(
            event.zone,
            counted=True,
            counts=tuple(counts.get(c, 0) for c in state.colours),
            ranking=event.ranking,
        )
        return replace(state, zone=zone, counted=(*state.counted, zone.counts))
    if isinstance(event, ParcelTaken):
        i = state.si(event.seat)
        if event.patron is None:
            state = replace(state, blank=put(state.blank, i, 1))
        else:
            state = replace(state, cards=put_row(state.cards, i, PATRONS.index(event.patron), 1))
        state = replace(state, score=put(state.score, i, event.points))
        return _advance_zone(state, parcels_taken=1)
    if isinstance(event, MuseumPlaced):
        state = replace(state, general=put(state.general, state.ci(event.seat), -1))
        return _advance_zone(with_museum(state, event.room, event.seat))
    if isinstance(event, Declined):
        return _advance_zone(state)
    if isinstance(event, NeutralParcel):
        return _advance_zone(state, parcels_taken=1)
    if isinstance(event, ZoneClosed):
        general, board = state.general, state.board
        for colour, n in event.returned:
            general, board = put(general, state.ci(colour), n), put(board, state.ci(colour), -n)
        following = Zone(event.zone + 1) if event.zone + 1 < zones_in(state.season) else None
        return replace(state, general=general, board=board, zone=following)
    if isinstance(event, SeasonEnded):
        general, board = state.general, state.board
        for colour, n in event.unassigned:
            general, board = put(general, state.ci(colour), n), put(board, state.ci(colour), -n)
        return replace(
            state,
            phase="season_end",
            general=general,
            board=board,
            start_player=event.next_start,
            pass_track=(),
            turn=None,
            zone=None,
            used=tuple(tuple(0 for _ in PATRONS) for _ in state.seats),
        )
    if isinstance(event, ExhibitionScored):
        totals = {line.seat: line.total for line in event.lines}
        exhibited = tuple(totals[s] for s in state.seats)
        return replace(
            state,
            phase="over",
            exhibition=exhibited,
            score=tuple(a + b for a, b in zip(state.score, exhibited, strict=True)),
        )
    if isinstance(event, ScoreCorrected):
        state = replace(state, score=put(state.score, state.si(event.seat), event.delta))
        return _note(state, event.kind, event.seat, f"{event.delta:+d}")
    if isinstance(event, ArchaeologistsMoved):
        state = _move(state, event.colour, event.origin, event.holder, -event.count)
        state = _move(state, event.colour, event.target, event.holder, event.count)
        where = f"{event.origin}>{event.target}" + (f"@{event.holder}" if event.holder else "")
        return _note(state, event.kind, event.colour, f"{event.count} {where}")
    if isinstance(event, CardsCorrected):
        i = state.si(event.seat)
        if event.patron is None:
            state = replace(state, blank=put(state.blank, i, event.delta))
        else:
            p = PATRONS.index(event.patron)
            state = replace(state, cards=put_row(state.cards, i, p, event.delta))
            if state.used[i][p] > state.cards[i][p]:
                state = replace(state, used=put_row(state.used, i, p, state.cards[i][p] - state.used[i][p]))
        return _note(state, event.kind, event.seat, f"{event.patron or 'blank'} {event.delta:+d}")
    if isinstance(event, MuseumCorrected):
        before = state.museum_map().get(event.room)
        if before is not None:
            state = replace(state, general=put(state.general, state.ci(before), 1))
        if event.colour is not None:
            state = replace(state, general=put(state.general, state.ci(event.colour), -1))
        state = with_museum(state, event.room, event.colour)
        return _note(state, event.kind, event.room, event.colour or "-")
    raise TypeError(f"not a Mykerinos event: {event!r}")


# --- automatic steps -----------------------------------------------------------------------------
def _exhibition(state: MykState) -> ExhibitionScored:
    lines = []
    for i, seat in enumerate(state.seats):
        ex = exhibition(state.the_layout, state.patrons, state.museum_map(), seat, state.cards[i])
        lines.append(ExhibitionLine(seat, ex.wings, ex.sets, ex.total))
    return ExhibitionScored(tuple(lines))


def auto_event(state: MykState) -> Event | None:
    """The next thing the companion does by itself, if any."""
    if state.phase == "setup":
        if state.start_player and state.patrons:
            own, neutral = flow.handouts(state, state.start_player)
            return SeasonStarted(1, state.start_player, own, neutral)
        return None
    if state.phase == "excavation":
        turn = state.turn
        if turn is not None and turn.step == "done":
            return Passed(turn.seat, flow.lowest_free_space(state), auto=True)
        return None
    if state.phase == "survey":
        zone = state.zone
        if zone is None:
            leftover = tuple((c, n) for c, n in zip(state.colours, state.board, strict=True) if n)
            return SeasonEnded(state.season, flow.last_on_track(state), leftover)
        pending = flow.zone_pending(state)
        last = zone.index + 1 == zones_in(state.season)
        if pending.kind == "counts" and (not any(state.board) or (last and not state.confirm_last)):
            # Every archaeologist still on the board stands in some zone: once the board is empty the
            # rest are empty, and the last zone holds all that is left. A table set up to confirm
            # it ("last_zone": "confirm", every new game) is shown that count and enters what it
            # sees: a zone counted too low before would otherwise slip its archaeologists in here.
            ordered = tuple((c, n) for c, n in zip(state.colours, state.board, strict=True) if n)
            return ZoneCounted(zone.index, ordered, flow.rank(state, state.board))
        if pending.kind == "neutral_auto":
            return NeutralParcel(None)
        if pending.kind == "close":
            returned = tuple((c, n) for c, n in zip(state.colours, zone.counts, strict=True) if n)
            return ZoneClosed(zone.index, zone.parcels, returned)
        return None
    if state.phase == "season_end":
        if state.season < SEASONS:
            assert state.start_player is not None
            own, neutral = flow.handouts(state, state.start_player)
            return SeasonStarted(state.season + 1, state.start_player, own, neutral)
        return _exhibition(state)
    return None


# --- decide --------------------------------------------------------------------------------------
def _table_only(actor: Audience) -> None:
    require_table(actor, "myk.table_only")


def _seat(state: MykState, seat: str) -> str:
    if seat not in state.seats:
        raise IllegalMove("myk.unknown_seat", f"no seat {seat[:40]!r}", seat=seat[:40])
    return seat


def _for_seat(state: MykState, actor: Audience, seat: str) -> None:
    _seat(state, seat)
    require_table_or_seat(actor, seat, "myk.not_your_seat", "you may only act for your own seat")


def _phase(state: MykState, *phases: str) -> None:
    if state.phase not in phases:
        raise IllegalMove("myk.wrong_phase", f"not now ({state.phase})", phase=state.phase)


def _my_turn(state: MykState, seat: str, step: Literal["action", "neutral"]) -> None:
    _phase(state, "excavation")
    turn = state.turn
    assert turn is not None
    if turn.seat != seat:
        raise IllegalMove("myk.not_your_turn", f"it is {turn.seat}'s turn", turn=turn.seat)
    if turn.step != step:
        code = "myk.neutral_step" if turn.step == "neutral" else "myk.not_neutral_step"
        raise IllegalMove(code, "first finish the current step", step=turn.step)


def _check_room(state: MykState, seat: str, room: str) -> None:
    refusal = room_refusal(state.the_layout, state.museum_map(), seat, room)
    if refusal:
        raise IllegalMove(refusal, "that room cannot be taken", room=room[:20])


def _my_choice(state: MykState, seat: str, kind: flow.PendingKind = "choose") -> flow.Pending:
    _phase(state, "survey")
    pending = flow.zone_pending(state)
    if pending.kind != kind or pending.seat != seat:
        who = pending.seat if pending.kind in ("choose", "neutral_pick") else None
        raise IllegalMove("myk.not_your_choice", "it is not your choice now", waiting_for=who, pending=pending.kind)
    return pending


def _decide_setup(state: MykState, intent: Intent, rng: random.Random) -> Event:
    _phase(state, "setup")
    if isinstance(intent, (it.DrawStartPlayer, it.ChooseStartPlayer)):
        if state.start_player is not None:
            raise IllegalMove("myk.already_set", "the start player is already set", what="start_player")
        if isinstance(intent, it.ChooseStartPlayer):
            return StartPlayerChosen(_seat(state, intent.seat))
        return StartPlayerDrawn(rng.choice(state.seats))
    if state.patrons:
        raise IllegalMove("myk.already_set", "the patrons are already on the wings", what="patrons")
    if isinstance(intent, it.EnterPatrons):
        if sorted(intent.order) != sorted(PATRONS):
            raise IllegalMove("myk.bad_patron_order", "name each of the five patrons once", patrons=list(PATRONS))
        return PatronsEntered(intent.order)
    return PatronsDrawn(tuple(rng.sample(PATRONS, len(PATRONS))))


def _decide_counts(state: MykState, intent: it.ZoneCounts) -> Event:
    _phase(state, "survey")
    if state.zone is None or state.zone.counted:
        raise IllegalMove("myk.not_counting", "the counts of this zone are already entered")
    seen: dict[str, int] = {}
    for colour, n in intent.counts:
        if colour not in state.colours:
            raise IllegalMove("myk.unknown_colour", f"{colour[:40]!r} is not in this game", colour=colour[:40])
        if colour in seen:
            raise IllegalMove("myk.duplicate_colour", f"{colour} counted twice", colour=colour)
        if n < 0:
            raise IllegalMove("myk.negative_count", "counts cannot be negative", colour=colour)
        on_board = state.board[state.ci(colour)]
        if n > on_board:
            raise IllegalMove(
                "myk.count_too_high",
                f"{colour} has only {on_board} on the board",
                colour=colour,
                count=n,
                on_board=on_board,
            )
        seen[colour] = n
    counts = tuple(seen.get(c, 0) for c in state.colours)
    ordered = tuple((c, n) for c, n in zip(state.colours, counts, strict=True) if n)
    return ZoneCounted(state.zone.index, ordered, flow.rank(state, counts))


def _decide_parcel(state: MykState, intent: it.TakeParcel) -> Event:
    _my_choice(state, intent.seat)
    assert state.zone is not None
    if state.zone.parcels < 1:
        raise IllegalMove("myk.no_parcel_left", "no parcel is left in this zone")
    if intent.patron is None:
        if intent.points != BLANK_POINTS:
            raise IllegalMove("myk.blank_points", "the parcel without a patron is worth 5", points=BLANK_POINTS)
        if any(state.blank):
            raise IllegalMove("myk.blank_taken", "the parcel without a patron is already taken")
    elif intent.patron not in PATRONS:
        raise IllegalMove("myk.unknown_patron", "unknown patron", patron=intent.patron[:40])
    if intent.points not in PARCEL_POINTS:
        raise IllegalMove("myk.bad_points", "a parcel is worth 0, 2, 3 or 5", points=list(PARCEL_POINTS))
    if intent.patron is not None and intent.points not in PATRON_POINTS:
        # "Eine der Parzellen (diejenige, die 5 Punkte einbringt), ist keinem Mäzen zugeordnet"
        raise IllegalMove(
            "myk.patron_parcel_points", "a parcel with a patron is worth 0, 2 or 3", points=list(PATRON_POINTS)
        )
    return ParcelTaken(intent.seat, intent.patron, intent.points)


def _decide_museum(state: MykState, intent: it.Museum) -> Event:
    pending = _my_choice(state, intent.seat)
    if pending.rank >= 2:
        raise IllegalMove("myk.museum_not_allowed", "only the 1st and 2nd of a zone may go to the museum")
    if state.general[state.ci(intent.seat)] < 1:
        raise IllegalMove("myk.no_general", "none of your colour is left in the general supply", colour=intent.seat)
    _check_room(state, intent.seat, intent.room)
    return MuseumPlaced(intent.seat, intent.room)


def _decide_correction(state: MykState, intent: Intent) -> Event:
    _phase(state, "excavation", "survey")
    if isinstance(intent, it.CorrectScore):
        i = state.si(_seat(state, intent.seat))
        if intent.delta == 0:
            raise IllegalMove("myk.zero_correction", "that changes nothing")
        if state.score[i] + intent.delta < 0:
            raise IllegalMove("myk.negative", "a score cannot fall below 0", value=state.score[i])
        return ScoreCorrected(intent.seat, intent.delta)
    if isinstance(intent, it.CorrectArchaeologists):
        colour = intent.colour
        if colour not in state.colours:
            raise IllegalMove("myk.unknown_colour", "that colour is not in this game", colour=colour[:40])
        if intent.origin == intent.target or intent.count < 1:
            raise IllegalMove("myk.zero_correction", "that changes nothing")
        holder = intent.holder
        if colour == state.neutral and "supply" in (intent.origin, intent.target):
            if holder is None:
                raise IllegalMove("myk.holder_needed", "say whose supply holds the neutral archaeologists")
            _seat(state, holder)
        elif holder is not None and holder != colour:
            raise IllegalMove("myk.holder_wrong", "a colour's supply belongs to its own seat", colour=colour)
        else:
            holder = None
        have = _count_at(state, colour, intent.origin, holder)
        if have < intent.count:
            raise IllegalMove("myk.not_enough_there", "not that many there", have=have, place=intent.origin)
        return ArchaeologistsMoved(colour, intent.origin, intent.target, intent.count, holder)
    if isinstance(intent, it.CorrectCards):
        i = state.si(_seat(state, intent.seat))
        if intent.delta == 0:
            raise IllegalMove("myk.zero_correction", "that changes nothing")
        if intent.patron is None:
            if state.blank[i] + intent.delta < 0 or sum(state.blank) + intent.delta > 1:
                raise IllegalMove("myk.blank_taken", "there is exactly one parcel without a patron")
        else:
            if intent.patron not in PATRONS:
                raise IllegalMove("myk.unknown_patron", "unknown patron", patron=intent.patron[:40])
            if state.cards[i][PATRONS.index(intent.patron)] + intent.delta < 0:
                raise IllegalMove("myk.negative", "cannot hold fewer than 0 cards", value=0)
        return CardsCorrected(intent.seat, intent.patron, intent.delta)
    assert isinstance(intent, it.CorrectMuseum)
    if intent.room not in state.the_layout.by_id:
        raise IllegalMove("myk.unknown_room", "no such room", room=intent.room[:20])
    if intent.colour is not None:
        if intent.colour not in state.seats:
            raise IllegalMove("myk.unknown_colour", "the neutral never goes to the museum", colour=intent.colour[:40])
        if state.general[state.ci(intent.colour)] < 1:
            raise IllegalMove("myk.no_general", "none of that colour in the general supply", colour=intent.colour)
    if state.museum_map().get(intent.room) == intent.colour:
        raise IllegalMove("myk.zero_correction", "that changes nothing")
    return MuseumCorrected(intent.room, intent.colour)


def _decide_layout(state: MykState, intent: it.SetLayout) -> Event:
    """The spec lets the table switch the layout (the rulebook does not settle row or ring); the
    museum's rooms are ids of one layout, so only while none is taken."""
    if intent.layout not in layouts():
        raise IllegalMove("myk.unknown_layout", "unknown museum layout", layouts=list(layouts()))
    if state.phase == "over":
        raise IllegalMove("myk.wrong_phase", "not now (over)", phase=state.phase)
    if state.museum:
        raise IllegalMove("myk.museum_in_use", "archaeologists are in the museum: the layout stays")
    if intent.layout == state.layout:
        raise IllegalMove("myk.zero_correction", "that changes nothing")
    return LayoutSet(intent.layout)


def decide_one(state: MykState, intent: Intent, actor: Audience, rng: random.Random) -> Event:
    if isinstance(intent, (it.DrawStartPlayer, it.ChooseStartPlayer, it.DrawPatrons, it.EnterPatrons)):
        _table_only(actor)
        return _decide_setup(state, intent, rng)
    if isinstance(intent, it.SetLayout):
        _table_only(actor)
        return _decide_layout(state, intent)
    if isinstance(intent, it.Excavate):
        _for_seat(state, actor, intent.seat)
        _my_turn(state, intent.seat, "action")
        return Excavated(
            intent.seat,
            intent.action,
            intent.patron,
            flow.excavation_count(state, intent.seat, intent.action, intent.patron),
        )
    if isinstance(intent, it.SirBrown):
        _for_seat(state, actor, intent.seat)
        _my_turn(state, intent.seat, "action")
        flow.check_patron(state, intent.seat, "sir_brown")
        if state.supply[state.si(intent.seat)] < 1:
            raise IllegalMove("myk.empty_supply", "no archaeologist left: only passing", seat=intent.seat)
        _check_room(state, intent.seat, intent.room)
        return SirBrownSent(intent.seat, intent.room)
    if isinstance(intent, it.Pass):
        _for_seat(state, actor, intent.seat)
        _my_turn(state, intent.seat, "action")
        return Passed(intent.seat, flow.lowest_free_space(state))
    if isinstance(intent, it.Neutral):
        _for_seat(state, actor, intent.seat)
        if state.neutral is None:
            raise IllegalMove("myk.no_neutral", "only a two-player game has a neutral player")
        _my_turn(state, intent.seat, "neutral")
        return NeutralExcavated(intent.seat, intent.action, flow.neutral_count(state, intent.seat, intent.action))
    if isinstance(intent, it.ZoneCounts):
        _table_only(actor)
        return _decide_counts(state, intent)
    if isinstance(intent, it.TakeParcel):
        _for_seat(state, actor, intent.seat)
        return _decide_parcel(state, intent)
    if isinstance(intent, it.Museum):
        _for_seat(state, actor, intent.seat)
        return _decide_museum(state, intent)
    if isinstance(intent, it.Decline):
        _for_seat(state, actor, intent.seat)
        if _my_choice(state, intent.seat).rank < 2:
            raise IllegalMove("myk.must_choose", "the 1st and 2nd take a parcel or go to the museum")
        return Declined(intent.seat)
    if isinstance(intent, it.NeutralPick):
        _for_seat(state, actor, intent.seat)
        _my_choice(state, intent.seat, "neutral_pick")
        return NeutralParcel(intent.seat)
    if isinstance(intent, (it.CorrectScore, it.CorrectArchaeologists, it.CorrectCards, it.CorrectMuseum)):
        _table_only(actor)
        return _decide_correction(state, intent)
    raise IllegalMove("myk.unknown_intent", "not a Mykerinos action", kind=intent.kind[:40])


def settle(state: MykState, first: Event) -> tuple[Event, ...]:
    """``first`` plus everything the companion then does by itself (all committed as one action)."""
    scratch = Scratch(apply, state)
    scratch.emit(first)
    return scratch.settle(auto_event, MAX_AUTO)


class MykerinosRules(Rules[MykState]):
    name = "mykerinos"
    # every new game's table confirms the last zone's counts; games set up before keep the companion
    # counting it, so their logs re-check as they were played
    new_game_config: ClassVar[JSONObject] = {"last_zone": "confirm"}
    events: KindCodec[Event] = EVENTS
    intents: KindCodec[Intent] = it.INTENTS
    facts = FACTS
    preferences = PREFERENCES
    hardware = HARDWARE

    def setup(self, config: JSONObject) -> MykState:
        return setup(config)

    def seats(self, state: MykState) -> tuple[str, ...]:
        return state.seats

    def decide(self, state: MykState, intent: Intent, actor: Audience, rng: random.Random) -> tuple[Event, ...]:
        return settle(state, decide_one(state, intent, actor, rng))

    def apply(self, state: MykState, event: Event) -> MykState:
        return apply(state, event)

    def view(self, state: MykState, audience: Audience) -> JSONObject:
        return views.view(state, audience)

    def legal(self, state: MykState, actor: Audience) -> JSON:
        return views.legal(state, actor)

    def acting(self, state: MykState) -> tuple[str, ...]:
        return views.acting(state)

    def summary(self) -> Summary:
        from companion.games.mykerinos.summary import SUMMARY

        return SUMMARY

    def announcements(self, before: JSONObject, after: JSONObject) -> tuple[Line, ...]:
        from companion.games.mykerinos.speech import announcements

        return announcements(before, after)

    def outcome(self, state: MykState) -> Outcome | None:
        return views.outcome(state)

    def recorded_intents(self, state: MykState, events: tuple[Event, ...]) -> list[tuple[Intent, Audience]]:
        return recorded.recorded_intents(state, events)

    def describe_action(self, state: MykState, events: tuple[Event, ...], audience: Audience) -> Line:
        return recorded.describe_action(state, events, audience)
