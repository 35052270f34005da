"""Scotland Yard (2013 "Master" box, basic game): setup, decide (strict), apply (trusted).

Round flow: Mister X moves (``sy.x_move`` or ``sy.x_double``, only from his phone), then every
detective and bobby moves once in any order (``sy.move``). A figure that cannot move is
skipped automatically: the move after which no figure that still has to move *can* move also
ends the round (``sy.round_ended`` in the same action). Ends are recorded as ``sy.game_ended``
in the action that causes them, so an ending is never undone:

- capture: a detective or bobby moves onto Mister X (in that move's action);
- Mister X escapes: round 22's detective phase is over (in the last detective move's action);
- Mister X trapped: he has no legal move when his turn starts (in the action that starts it);
- detectives stuck: when the detective phase starts (right after Mister X's move), no detective
  can move (option ``bobbies_keep_game_alive``: no detective and no bobby).
"""

from __future__ import annotations

import random
from typing import Final, Literal

from companion.core.audience import Audience, require_seat, require_table
from companion.core.codec import KindCodec
from companion.core.errors import Forbidden, IllegalMove, SetupError
from companion.core.events import Event, Intent
from companion.core.frozen import replace
from companion.core.jsonvalue import JSON, JSONObject
from companion.core.rules import Outcome, Rules, TableTurn
from companion.core.scratch import folded
from companion.core.summary import Line, Summary, tidy_name
from companion.games.scotland_yard import ai, ai_turn, moves, recorded, tracker, views
from companion.games.scotland_yard.board import D_CARDS, X_CARDS, board_for
from companion.games.scotland_yard.facts import FACTS, PREFERENCES
from companion.games.scotland_yard.hardware import HARDWARE
from companion.games.scotland_yard.model import (
    BOBBIES_WORD,
    BOX,
    DETECTIVE_TICKETS,
    EVENTS,
    INTENTS,
    MRX,
    NORMAL,
    REVEALS,
    ROUNDS,
    WINNER,
    YARD,
    Confirm,
    DetectivesPlaced,
    DrawStart,
    EndGame,
    Ending,
    FigureMoved,
    GameEnded,
    Instruction,
    LogField,
    Move,
    MoveConfirmed,
    PlaceDetectives,
    PlaceX,
    RoundEnded,
    SetTracker,
    SYState,
    Ticket,
    Tickets,
    TrackerSwitched,
    XDouble,
    XMove,
    XMoved,
    XPlaced,
)

OPTIONS: Final = (
    "mister_x",
    "mister_x_ai",
    "detectives",
    "detectives_ai",
    "table_detectives",
    "tracker",
    "bobbies_keep_game_alive",
    "board",
)
NAME_LENGTH: Final = 40
#: bobbies by number of detective players (1 = the two-player game)
BOBBIES: Final = {1: 2, 2: 2, 3: 1, 4: 0, 5: 0}


def _name(raw: JSON, seat: str) -> str:
    if not isinstance(raw, str) or len(raw) > NAME_LENGTH:
        raise SetupError("sy.setup.name", f"{seat}: a name is a text of at most {NAME_LENGTH} characters", seat=seat)
    return tidy_name(raw)


def _flag(config: JSONObject, option: str) -> bool:
    value = config.get(option, False)
    if not isinstance(value, bool):
        raise SetupError("sy.setup.option", f"{option}: expected true or false", option=option)
    return value


def _ai_level(config: JSONObject, option: str = "mister_x_ai") -> str | None:
    """``mister_x_ai`` (``detectives_ai``): the level of the table playing Mister X (its
    detectives), or absent/null for players."""
    level = config.get(option)
    if level is None:
        return None
    if not isinstance(level, str) or level not in ai.LEVELS:
        if option == "mister_x_ai":
            raise SetupError("sy.setup.ai_level", "mister_x_ai: easy, normal or hard (or null: a player is Mister X)")
        raise SetupError("sy.setup.detectives_ai_level", "detectives_ai: easy, normal or hard (or null: players)")
    return level


def _by_table(config: JSONObject, seats: tuple[str, ...], purse_of: tuple[int, ...]) -> tuple[bool, ...]:
    """Per figure, whether the table plays it: ``table_detectives`` lists detective seats and/or
    ``"bobbies"`` (absent: every detective seat and the bobbies); only with ``detectives_ai``."""
    level = _ai_level(config, "detectives_ai")
    chosen = config.get("table_detectives")
    if level is None:
        if chosen is not None:
            raise SetupError("sy.setup.table_detectives", "table_detectives: needs detectives_ai (a level)")
        return ()
    words = [*seats[1:], BOBBIES_WORD]
    if chosen is None:
        chosen = list(words)
    if (
        not isinstance(chosen, list)
        or not chosen
        or any(not isinstance(w, str) or w not in words for w in chosen)
        or len(set(map(str, chosen))) != len(chosen)
    ):
        raise SetupError(
            "sy.setup.table_detectives",
            f"table_detectives: some of {', '.join(words)}, each once",
            choices=", ".join(words),
        )
    return tuple((BOBBIES_WORD if purse < 0 else seats[purse + 1]) in chosen for purse in purse_of)


def setup(config: JSONObject) -> SYState:
    for option in config:
        if option not in OPTIONS:
            raise SetupError("sy.setup.unknown_option", f"unknown option {option!r}", option=option[:40])
    names = config.get("detectives", ["", ""])
    if not isinstance(names, list) or not 1 <= len(names) <= 5:
        raise SetupError("sy.setup.players", "2 to 6 players: Mister X and 1 to 5 detectives")
    players = len(names)
    seats = (MRX, *(f"d{k}" for k in range(1, players + 1)))
    detectives = max(players, 2)  # one player alone runs two detectives
    bobbies = BOBBIES[players]
    figures = (*(f"D{k}" for k in range(1, detectives + 1)), *(f"B{k}" for k in range(1, bobbies + 1)))
    purse_of = (*(0 if players == 1 else k for k in range(detectives)), *(-1 for _ in range(bobbies)))
    per_seat = detectives // players
    purses = tuple(_times(DETECTIVE_TICKETS, per_seat) for _ in range(players))
    held = [sum(p[k] for p in purses) for k in range(3)]
    by_table = _by_table(config, seats, purse_of)
    if by_table and all(by_table) and _ai_level(config) is not None:
        raise SetupError("sy.setup.no_players", "the table cannot play both Mister X and every detective")
    return SYState(
        board=board_for(config.get("board")),
        seats=seats,
        names=(_name(config.get("mister_x", ""), MRX), *(_name(n, s) for n, s in zip(names, seats[1:], strict=True))),
        figures=figures,
        purse_of=purse_of,
        purses=purses,
        supply=(BOX[0] - held[0], BOX[1] - held[1], BOX[2] - held[2]),
        tracker_on=_flag(config, "tracker"),
        bobbies_keep_game_alive=_flag(config, "bobbies_keep_game_alive"),
        positions=tuple(0 for _ in figures),
        moved=tuple(False for _ in figures),
        x_ai=_ai_level(config),
        d_ai=_ai_level(config, "detectives_ai"),
        by_table=by_table,
    )


def _times(tickets: Tickets, n: int) -> Tickets:
    return (tickets[0] * n, tickets[1] * n, tickets[2] * n)


# ------------------------------------------------------------------------------------------ apply


def apply(state: SYState, event: Event) -> SYState:
    """Trusted: ``event`` was produced by :func:`decide` (or read back from the log)."""
    if isinstance(event, FigureMoved):
        i = state.figures.index(event.figure)
        # The table's move is an instruction until confirmed; any other move confirms the last one.
        instruction = Instruction(event.figure, event.ticket, event.station) if event.by_table else None
        purses, supply = state.purses, state.supply
        purse = state.purse_of[i]
        if purse >= 0:  # a detective pays into the supply; a bobby rides free
            k = NORMAL.index(event.ticket)
            purses = (*purses[:purse], moves.add(purses[purse], k, -1), *purses[purse + 1 :])
            supply = moves.add(supply, k, 1)
        return replace(
            state,
            positions=(*state.positions[:i], event.station, *state.positions[i + 1 :]),
            moved=(*state.moved[:i], True, *state.moved[i + 1 :]),
            purses=purses,
            supply=supply,
            candidates=tracker.after_landing(state.candidates, event.station),
            instruction=instruction,
        )
    if isinstance(event, MoveConfirmed):
        return replace(state, instruction=None)
    if isinstance(event, XMoved):
        return _apply_x_moved(state, event)
    if isinstance(event, RoundEnded):
        return replace(state, round=state.round + 1, phase="x", moved=tuple(False for _ in state.figures))
    if isinstance(event, GameEnded):
        candidates = state.candidates
        if event.reason == "captured" and event.station is not None:
            candidates = tracker.after_reveal(event.station)  # the capture is announced
        ending = Ending(event.reason, event.figure, event.station)
        return replace(state, phase="over", end=ending, candidates=candidates)
    if isinstance(event, TrackerSwitched):
        return replace(state, tracker_on=event.on)
    if isinstance(event, DetectivesPlaced):
        where = dict(event.stations)
        positions = tuple(where[f] for f in state.figures)
        candidates = state.candidates
        for station in positions:
            candidates = tracker.after_landing(candidates, station)
        return replace(state, positions=positions, candidates=candidates, phase="x" if state.x_station else "start")
    if isinstance(event, XPlaced):
        return replace(state, x_station=event.station, phase="x" if state.positions[0] else "start")
    raise TypeError(f"not a Scotland Yard event: {event!r}")


def _apply_x_moved(state: SYState, event: XMoved) -> SYState:
    supply, black = moves.pay(state.supply, state.x_black, event.ticket)
    # The tracker sees the ticket, the figures' stations and a reveal; never the hidden station.
    revealed = event.field in REVEALS
    if revealed:
        candidates = tracker.after_reveal(event.station)
    else:
        candidates = tracker.after_x_move(state.board, state.candidates, event.ticket, state.positions)
    return replace(
        state,
        x_station=event.station,
        supply=supply,
        x_black=black,
        x_double=state.x_double - 1 if event.step == 1 else state.x_double,
        route=(*state.route, LogField(event.field, state.round, event.ticket, event.station, event.step)),
        shown=event.station if revealed else 0,
        candidates=candidates,
        phase="x" if event.step == 1 else "detectives",
        instruction=None,  # his move confirms the table's last instruction
    )


# ----------------------------------------------------------------------------------------- decide


def _table_only(actor: Audience) -> None:
    require_table(actor, "sy.table_only", "only the touchscreen can do this")


def _x_only(actor: Audience) -> None:
    require_seat(actor, MRX, "sy.x_own_phone", "only Mister X's own phone can move Mister X")


def decide(state: SYState, intent: Intent, actor: Audience, rng: random.Random) -> tuple[Event, ...]:
    """Strict: check the actor's rights and the rules; return the events, change nothing."""
    if isinstance(intent, Move):
        return _move(state, intent, actor)
    if isinstance(intent, XMove):
        _x_only(actor)
        _x_turn(state)
        return _x_turn_over(state, (_x_step(state, intent.ticket, intent.station, 0),))
    if isinstance(intent, XDouble):
        return _x_double(state, intent, actor)
    if isinstance(intent, Confirm):
        return _confirm(state, intent, actor)
    if isinstance(intent, DrawStart):
        return _draw_start(state, actor, rng)
    if isinstance(intent, PlaceDetectives):
        return _place_detectives(state, intent, actor)
    if isinstance(intent, PlaceX):
        return _place_x(state, intent, actor)
    if isinstance(intent, SetTracker):
        _table_only(actor)
        if intent.on == state.tracker_on:
            raise IllegalMove("sy.tracker_unchanged", "the tracker is already like that", on=intent.on)
        return (TrackerSwitched(intent.on),)
    if isinstance(intent, EndGame):
        _table_only(actor)
        return (GameEnded("ended_by_table"),)
    raise IllegalMove("sy.unknown_intent", f"not a Scotland Yard intent: {intent.kind}", kind=intent.kind[:40])


def _started(state: SYState, events: tuple[Event, ...]) -> tuple[Event, ...]:
    """Start events, plus the end if Mister X cannot make his first move."""
    after = folded(apply, state, events)
    if after.phase == "x" and not moves.x_singles(after):
        return (*events, GameEnded("x_trapped"))
    return events


def _draw_start(state: SYState, actor: Audience, rng: random.Random) -> tuple[Event, ...]:
    if state.phase != "start":
        raise IllegalMove("sy.already_started", "the start stations are already drawn")
    events: list[Event] = []
    taken = set(state.positions)
    if actor.is_table:
        if not state.positions[0]:
            drawn = rng.sample(D_CARDS, len(state.figures))
            events.append(DetectivesPlaced(tuple(zip(state.figures, drawn, strict=True)), drawn=True))
            taken.update(drawn)
    elif not actor.is_seat(MRX):
        raise Forbidden("sy.table_only", "only the touchscreen can do this")
    elif state.x_station:
        raise IllegalMove("sy.already_placed", "your start station is already set")
    if not state.x_station:
        events.append(XPlaced(rng.choice([s for s in X_CARDS if s not in taken]), drawn=True))
    return _started(state, tuple(events))


def _place_detectives(state: SYState, intent: PlaceDetectives, actor: Audience) -> tuple[Event, ...]:
    _table_only(actor)
    if state.phase != "start":
        raise IllegalMove("sy.already_started", "the start stations are already drawn")
    if state.positions[0]:
        raise IllegalMove("sy.already_placed", "the detectives already stand on their start stations")
    where = dict(intent.stations)
    if len(where) != len(intent.stations) or set(where) != set(state.figures):
        raise IllegalMove("sy.placement.figures", "give one station for every figure", figures=list(state.figures))
    if len(set(where.values())) != len(where):
        raise IllegalMove("sy.placement.same_station", "two figures cannot start on one station")
    for figure in state.figures:
        if where[figure] not in D_CARDS:
            raise IllegalMove("sy.not_d_card", "no D start card shows that station", station=where[figure])
    stations = tuple((f, where[f]) for f in state.figures)
    return _started(state, (DetectivesPlaced(stations, drawn=False),))


def _place_x(state: SYState, intent: PlaceX, actor: Audience) -> tuple[Event, ...]:
    _x_only(actor)
    if state.phase != "start":
        raise IllegalMove("sy.already_started", "the start stations are already drawn")
    if state.x_station:
        raise IllegalMove("sy.already_placed", "your start station is already set")
    if intent.station not in X_CARDS:
        raise IllegalMove("sy.not_x_card", "no X start card shows that station", station=intent.station)
    if intent.station in state.positions:
        raise IllegalMove("sy.occupied", "a detective or bobby stands there", station=intent.station)
    return _started(state, (XPlaced(intent.station, drawn=False),))


def _confirm(state: SYState, intent: Confirm, actor: Audience) -> tuple[Event, ...]:
    """Anyone at the table (the touchscreen, any phone) confirms the pawn of the table's move."""
    if not (actor.is_table or (actor.seat is not None and actor.seat in RULES.seats(state))):
        raise Forbidden("sy.unknown_seat", "there is no such seat in this game")
    if state.instruction is None:
        raise IllegalMove("sy.nothing_to_confirm", "the table has no move waiting for its pawn")
    if intent.figure != state.instruction.figure:
        raise IllegalMove(
            "sy.confirm_other", "the table's move waiting is another figure's", figure=state.instruction.figure
        )
    return (MoveConfirmed(intent.figure),)


def _move(state: SYState, intent: Move, actor: Audience) -> tuple[Event, ...]:
    if intent.figure not in state.figures:
        raise IllegalMove("sy.unknown_figure", "there is no such figure", figure=intent.figure[:10])
    i = state.figures.index(intent.figure)
    owner = state.seat_of(i)
    yard = actor.is_seat(YARD)
    if state.table_plays(i) != yard:
        if yard:
            raise Forbidden("sy.not_your_figure", "you do not move this figure", figure=intent.figure)
        raise Forbidden("sy.table_plays", "the table plays this figure: it says where it goes", figure=intent.figure)
    allowed = (
        yard
        or actor.is_table
        or (actor.seat is not None and actor.seat in state.seats[1:] and owner in (None, actor.seat))
    )
    if not allowed:
        raise Forbidden("sy.not_your_figure", "you do not move this figure", figure=intent.figure)
    if yard and state.instruction is not None:
        raise IllegalMove("sy.confirm_first", "the table's last move waits for its pawn", figure=intent.figure)
    if state.phase == "start":
        raise IllegalMove("sy.not_started", "the start stations are not drawn yet")
    if state.phase != "detectives":
        raise IllegalMove("sy.not_detective_turn", "it is Mister X's turn")
    if state.moved[i]:
        raise IllegalMove("sy.already_moved", "this figure has already moved this round", figure=intent.figure)
    if intent.ticket == "black":
        raise IllegalMove("sy.black_x_only", "only Mister X uses black tickets", figure=intent.figure)
    purse = state.purse_of[i]
    if purse >= 0 and state.purses[purse][NORMAL.index(intent.ticket)] == 0:
        raise IllegalMove("sy.no_ticket", "no ticket of that kind left", figure=intent.figure, ticket=intent.ticket)
    _check_destination(state, state.positions[i], intent.ticket, intent.station)
    event = FigureMoved(intent.figure, intent.ticket, intent.station, by_table=yard)
    if intent.station == state.x_station:
        return (event, GameEnded("captured", intent.figure, intent.station))
    after = apply(state, event)
    if not moves.phase_done(after):
        return (event,)
    if state.round >= ROUNDS:
        return (event, GameEnded("x_escaped"))
    skipped = tuple(f for f, done in zip(state.figures, after.moved, strict=True) if not done)
    ended = RoundEnded(state.round, skipped)
    if not moves.x_singles(apply(after, ended)):
        return (event, ended, GameEnded("x_trapped"))
    return (event, ended)


def _check_destination(state: SYState, here: int, ticket: Ticket, station: int, **params: JSON) -> None:
    """``station`` is one ``ticket`` step from ``here`` and free. Errors name only the destination."""
    if not state.board.is_station(station):
        raise IllegalMove("sy.unknown_station", "there is no such station", station=station, **params)
    if station not in state.board.neighbours(ticket, here):
        raise IllegalMove(
            "sy.not_connected", "no line of that kind goes there", ticket=ticket, station=station, **params
        )
    if station in state.positions:
        raise IllegalMove("sy.occupied", "a detective or bobby stands there", station=station, **params)


def _x_turn(state: SYState) -> None:
    if state.phase == "start":
        raise IllegalMove("sy.not_started", "the start stations are not drawn yet")
    if state.phase != "x":
        raise IllegalMove("sy.not_x_turn", "it is not Mister X's turn")


def _x_step(state: SYState, ticket: Ticket, station: int, step: Literal[0, 1, 2]) -> XMoved:
    if ticket == "black":
        if state.x_black <= 0:
            raise IllegalMove("sy.no_ticket", "no ticket of that kind left", ticket=ticket, step=step)
    elif state.supply[NORMAL.index(ticket)] <= 0:
        raise IllegalMove("sy.supply_empty", "the supply has no ticket of that kind", ticket=ticket, step=step)
    _check_destination(state, state.x_station, ticket, station, step=step)
    return XMoved(len(state.route) + 1, ticket, station, step)


def _x_double(state: SYState, intent: XDouble, actor: Audience) -> tuple[Event, ...]:
    _x_only(actor)
    last = state.route[-1] if state.route else None
    if state.phase == "detectives" and last is not None and last.round == state.round and last.step == 2:
        raise IllegalMove("sy.one_double_per_round", "only one double move per round")
    _x_turn(state)
    if state.x_double <= 0:
        raise IllegalMove("sy.no_double", "no double-move ticket left")
    first = _x_step(state, intent.first.ticket, intent.first.station, 1)
    second = _x_step(apply(state, first), intent.second.ticket, intent.second.station, 2)
    return _x_turn_over(state, (first, second))


def _x_turn_over(state: SYState, steps: tuple[XMoved, ...]) -> tuple[Event, ...]:
    """Mister X's move, plus his win if no detective can move in the phase it starts."""
    after = folded(apply, state, steps)
    if moves.detectives_stuck(after):
        return (*steps, GameEnded("detectives_stuck"))
    return steps


# ---------------------------------------------------------------------------------------- outcome


def outcome(state: SYState) -> Outcome | None:
    if state.end is None:
        return None
    winner = WINNER[state.end.reason]
    winners = (MRX,) if winner == MRX else state.seats[1:] if winner == "detectives" else ()
    return Outcome(f"sy.{state.end.reason}", winners)


class ScotlandYardRules(Rules[SYState]):
    name = "scotland_yard"
    events: KindCodec[Event] = KindCodec(EVENTS)
    intents: KindCodec[Intent] = KindCodec(INTENTS)
    facts = FACTS
    preferences = PREFERENCES
    hardware = HARDWARE

    def setup(self, config: JSONObject) -> SYState:
        return setup(config)

    def seats(self, state: SYState) -> tuple[str, ...]:
        # A seat the table plays (Mister X, or detectives) has no phone link: nobody can open its view.
        table = state.table_seats()
        return tuple(s for s in state.seats if s not in table and not (s == MRX and state.x_ai))

    def decide(self, state: SYState, intent: Intent, actor: Audience, rng: random.Random) -> tuple[Event, ...]:
        return decide(state, intent, actor, rng)

    def apply(self, state: SYState, event: Event) -> SYState:
        return apply(state, event)

    def view(self, state: SYState, audience: Audience) -> JSONObject:
        return views.view(state, audience)

    def legal(self, state: SYState, actor: Audience) -> JSON:
        return views.legal(state, actor)

    def acting(self, state: SYState) -> tuple[str, ...]:
        return views.acting(state)

    def summary(self) -> Summary:
        from companion.games.scotland_yard.summary import SUMMARY

        return SUMMARY

    def announcements(self, before: JSONObject, after: JSONObject) -> tuple[Line, ...]:
        from companion.games.scotland_yard.speech import announcements

        return announcements(before, after)

    def outcome(self, state: SYState) -> Outcome | None:
        return outcome(state)

    def table_turn(self, state: SYState, seed: int, cpu_budget: float | None) -> TableTurn | None:
        return ai_turn.table_turn(state, seed, cpu_budget)

    def recorded_intents(self, state: SYState, events: tuple[Event, ...]) -> list[tuple[Intent, Audience]]:
        return recorded.recorded_intents(state, events)

    def describe_action(self, state: SYState, events: tuple[Event, ...], audience: Audience) -> Line:
        return recorded.describe_action(state, events, audience)


RULES = ScotlandYardRules()
