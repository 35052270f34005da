"""What each screen sees, and what each actor may do now.

Mister X's secrets are his current station and the stations of his log. Public views show a
log station only on a reveal field, his current station only while a reveal is shown (until his
next move), and everything once the game is over. Every station value in a view sits under a
key named ``station`` (figures, Mister X, log fields, the capture), so a test can search views
for leaks; the tracker's set is under ``candidates``; legal destinations under ``moves``/``x``.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.core.audience import Audience
from companion.core.errors import Forbidden
from companion.core.jsonvalue import JSON, JSONObject
from companion.core.shared import Layered, per_state
from companion.games.scotland_yard import moves
from companion.games.scotland_yard.board import D_CARDS, X_CARDS
from companion.games.scotland_yard.model import LOG_FIELDS, MRX, NORMAL, REVEALS, ROUNDS, WINNER, SYState, Tickets


def _ints(values: Iterable[int]) -> list[JSON]:
    return [v for v in values]


def _tickets(tickets: Tickets) -> JSONObject:
    return {line: tickets[k] for k, line in enumerate(NORMAL)}


@per_state
def _controls_by_seat(state: SYState) -> dict[str | None, list[JSON]]:
    """Each detective seat's figures, and under ``None`` the bobbies alone (once per state: the
    public picture, a seat's view and its legal moves all name them; the lists are shared, never
    changed)."""
    owners = [state.seat_of(i) for i in range(len(state.figures))]
    return {
        seat: [f for f, owner in zip(state.figures, owners, strict=True) if owner in (None, seat)]
        for seat in (None, *state.seats[1:])
    }


def _controls(state: SYState, seat: str) -> list[JSON]:
    """Figures a detective seat moves: its own detectives and every bobby (only the bobbies for a
    seat that is not a detective's)."""
    by_seat = _controls_by_seat(state)
    return by_seat.get(seat, by_seat[None])


@per_state
def acting(state: SYState) -> tuple[str, ...]:
    """Who acts now: Mister X while he must draw his start card or move (none of the seats when the
    table plays him: he has no seat then); in the detectives' part of a round, every detective seat
    with a figure still to move (the bobbies are every detective seat's); nobody once the game is
    over."""
    if state.phase in ("start", "x"):
        return (MRX,) if state.x_ai is None and not (state.phase == "start" and state.x_station) else ()
    if state.phase != "detectives":
        return ()
    # The table's own figures wait for nobody's phone: it moves them (see ``instruction``).
    waiting: set[JSON] = {
        f
        for i, f in enumerate(state.figures)
        if not state.moved[i] and not state.table_plays(i) and moves.can_move(state, i)
    }
    return tuple(seat for seat in state.seats[1:] if waiting.intersection(_controls(state, seat)))


@per_state
def public(state: SYState) -> JSONObject:
    """What every screen sees (built once per state: every audience's view holds these objects)."""
    over = state.phase == "over"
    playing = state.phase == "detectives"
    figures: list[JSON] = [
        {
            "figure": figure,
            "bobby": state.is_bobby(i),
            "seat": state.seat_of(i),
            "station": state.positions[i] or None,
            "moved": state.moved[i],
            "can_move": playing and not state.moved[i] and moves.can_move(state, i),
            "table": state.table_plays(i),  # the table plays it: its moves come as instructions
        }
        for i, figure in enumerate(state.figures)
    ]
    seats: list[JSON] = [{"seat": MRX, "name": state.names[0], "role": "mrx"}]
    seats += [
        {
            "seat": seat,
            "name": state.names[k + 1],
            "role": "detective",
            "figures": _controls(state, seat),
            "tickets": _tickets(state.purses[k]),
        }
        for k, seat in enumerate(state.seats[1:])
    ]
    log: list[JSON] = [
        {
            "field": f.field,
            "round": f.round,
            "ticket": f.ticket,
            "double": f.step != 0,
            "reveal": f.field in REVEALS,
            "station": f.station if over or f.field in REVEALS else None,
        }
        for f in state.route
    ]
    end: JSON = None
    if state.end is not None:
        end = {
            "reason": state.end.reason,
            "winner": WINNER[state.end.reason],
            "figure": state.end.figure,
            "station": state.end.station,
        }
    tracker: JSONObject = {"on": state.tracker_on}
    if state.tracker_on and not over:  # once over, his route says where he was: no guesses left to show
        tracker["candidates"] = _ints(sorted(state.candidates))
    return {
        "phase": state.phase,
        "round": state.round,
        "rounds": ROUNDS,
        "turn": MRX if state.phase == "x" else "detectives" if playing else None,
        "acting": list(acting(state)),
        "next_field": len(state.route) + 1 if len(state.route) < LOG_FIELDS else None,
        "reveal_fields": _ints(sorted(REVEALS)),
        "seats": seats,
        "figures": figures,
        "mrx": {
            "placed": state.x_station != 0,
            "station": (state.x_station or None) if over else (state.shown or None),
            "black": state.x_black,
            "double": state.x_double,
            "ai": state.x_ai,  # the level when the table plays him, else None
        },
        "supply": _tickets(state.supply),
        "log": log,
        "last_reveal": last_reveal(state),
        "tracker": tracker,
        "options": {"tracker": state.tracker_on, "bobbies_keep_game_alive": state.bobbies_keep_game_alive},
        "end": end,
        "table_detectives": state.d_ai,  # the level of the table's detectives, else None
        "instruction": _instruction(state),
    }


def _instruction(state: SYState) -> JSON:
    """The table's last move for one of its figures, until the pawn is confirmed (public: every
    screen shows it, so whoever stands nearest moves the pawn)."""
    move = state.instruction
    if move is None:
        return None
    i = state.figures.index(move.figure)
    return {"figure": move.figure, "bobby": state.is_bobby(i), "ticket": move.ticket, "station": move.station}


def last_reveal(state: SYState) -> JSON:
    """Where Mister X was last shown (public: a reveal field), kept until his next reveal: its field,
    round and station; ``now`` while the detectives of that round move (however he came to show
    himself: a single move, or the first or second step of a double move); ``here`` while he still
    stands there (a single move onto the reveal field, until his next move)."""
    field = next((f for f in reversed(state.route) if f.field in REVEALS), None)
    if field is None:
        return None
    return {
        "field": field.field,
        "round": field.round,
        "station": field.station,
        "now": state.phase == "detectives" and field.round == state.round,
        "here": state.shown == field.station and state.phase != "over",
    }


def secret(state: SYState) -> JSONObject:
    """Mister X's own knowledge: where he is, his whole route, and whether his next field is a reveal."""
    return {
        "station": state.x_station or None,
        "route": [{"field": f.field, "ticket": f.ticket, "station": f.station} for f in state.route],
        "next_is_reveal": len(state.route) + 1 in REVEALS,
    }


def _human_x(state: SYState) -> None:
    """Mister X played by the table has no seat: nobody may see his view."""
    if state.x_ai is not None:
        raise Forbidden("sy.unknown_seat", "there is no such seat in this game")


def view(state: SYState, audience: Audience) -> JSONObject:
    if audience.is_table:
        return Layered(public(state), {})
    if audience.is_debug:
        return {**public(state), "secret": secret(state), "candidates": _ints(sorted(state.candidates))}
    if audience.is_seat(MRX):
        _human_x(state)
        return Layered(public(state), {"secret": secret(state)})
    if audience.seat is not None and audience.seat in state.seats and audience.seat not in state.table_seats():
        return Layered(public(state), {"controls": _controls(state, audience.seat)})
    raise Forbidden("sy.unknown_seat", "there is no such seat in this game")


@per_state
def _all_moves(state: SYState) -> JSONObject:
    """Every figure still to move, and where each of its tickets takes it (once per state: the
    table and each detective's phone are offered parts of the same)."""
    return {
        state.figures[i]: {line: _ints(dest) for line, dest in moves.figure_options(state, i).items()}
        for i in moves.to_move(state)
    }


def _figure_moves(state: SYState, figures: list[JSON]) -> JSONObject:
    """Moves offered to a screen: never a figure the table plays (it moves them itself)."""
    theirs = {f for i, f in enumerate(state.figures) if state.table_plays(i)}
    return {
        figure: options for figure, options in _all_moves(state).items() if figure in figures and figure not in theirs
    }


def legal(state: SYState, actor: Audience) -> JSON:
    """``{"intents": [kinds...], ...}`` with the choices each kind offers (see the protocol doc)."""
    phase = state.phase
    if actor.is_debug or phase == "over":
        return {"intents": []}
    out: JSONObject = {}
    intents: list[JSON] = []
    if actor.is_table:
        if phase == "start":
            intents.append("sy.draw_start")
            if not state.positions[0]:
                intents.append("sy.place_detectives")
                out["figures"] = [f for f in state.figures]
                out["d_cards"] = _ints(D_CARDS)
        elif phase == "detectives":
            mine = _figure_moves(state, list(state.figures))
            if mine or not state.by_table:
                out["moves"] = mine
                intents.append("sy.move")
        if state.instruction is not None:
            intents.append("sy.confirm")
        intents += ["sy.set_tracker", "sy.end_game"]
    elif actor.is_seat(MRX):
        _human_x(state)
        if phase == "start" and not state.x_station:
            intents += ["sy.draw_start", "sy.place_x"]
            out["x_cards"] = _ints(s for s in X_CARDS if s not in state.positions)
        elif phase == "x":
            single = moves.x_singles(state)
            doubles = moves.x_doubles(state)
            out["x"] = {
                "single": {ticket: _ints(dest) for ticket, dest in single.items()},
                "double": [
                    {"ticket": t, "station": s, "then": {t2: _ints(d2) for t2, d2 in then.items()}}
                    for t, s, then in doubles
                ],
            }
            intents.append("sy.x_move")
            if doubles:
                intents.append("sy.x_double")
        if state.instruction is not None:
            intents.append("sy.confirm")  # a lone Mister X confirms the table's detectives' pawns
    elif actor.seat is not None and actor.seat in state.seats and actor.seat not in state.table_seats():
        if actor.seat in acting(state):
            mine = _figure_moves(state, _controls(state, actor.seat))
            if mine:
                out["moves"] = mine
                intents.append("sy.move")
        if state.instruction is not None:
            intents.append("sy.confirm")
    else:
        raise Forbidden("sy.unknown_seat", "there is no such seat in this game")
    out["intents"] = intents
    return out
