"""What each screen sees (everything in Mykerinos is public) and what each actor may do now."""

from __future__ import annotations

from companion.core import JSON, Audience, Forbidden, JSONObject, Outcome, encode
from companion.core.shared import Layered, per_state
from companion.games.mykerinos import flow
from companion.games.mykerinos.intents import CORRECTIONS
from companion.games.mykerinos.museum import PATRONS, layouts
from companion.games.mykerinos.state import BLANK_POINTS, PATRON_POINTS, MykState, zone_place, zones_in


def _by_patron(values: tuple[int, ...]) -> JSONObject:
    return {p: n for p, n in zip(PATRONS, values, strict=True) if n}


def _players(state: MykState) -> JSONObject:
    out: JSONObject = {}
    for i, seat in enumerate(state.seats):
        row: JSONObject = {
            "score": state.score[i],
            "projection": flow.projection(state, seat),
            "supply": state.supply[i],
            "cards": _by_patron(state.cards[i]),
            "ready": _by_patron(state.ready(seat)),
            "blank": state.blank[i],
        }
        if state.neutral:
            row["neutral_supply"] = state.neutral_supply[i]
        out[seat] = row
    return out


def _survey(state: MykState) -> JSON:
    zone = state.zone
    if state.phase != "survey" or zone is None:
        return None
    pending = flow.zone_pending(state)
    row, side = zone_place(zone.index + 1)
    out: JSONObject = {
        "zone": zone.index + 1,
        "of": zones_in(state.season),
        "row": row,
        "side": side,
        "counts": {c: n for c, n in zip(state.colours, zone.counts, strict=True) if n} if zone.counted else None,
        "ranking": list(zone.ranking),
        "parcels": zone.parcels,
        "waiting": {"for": pending.kind, "seat": pending.seat, "rank": pending.rank + 1},
    }
    if zone.index + 1 == zones_in(state.season):
        # The last zone holds what is left on the board by the books: the table sees that count to
        # confirm it, and the earlier zones as counted, which a different count points back to.
        left = {c: n for c, n in zip(state.colours, state.board, strict=True) if n}
        missed: JSONObject = {  # counted fewer than the books had: that many stood in earlier zones, counted too low
            c: n - seen for c, n in left.items() if zone.counted and n > (seen := zone.counts[state.ci(c)])
        }
        out["last"] = {
            "expected": dict[str, JSON](left),
            "earlier": [
                {
                    "zone": k + 1,
                    "row": zone_place(k + 1)[0],
                    "side": zone_place(k + 1)[1],
                    "counts": {c: n for c, n in zip(state.colours, counts, strict=True) if n},
                }
                for k, counts in enumerate(state.counted[: zone.index])
            ],
            "missed": missed,
        }
    return out


def _result(state: MykState) -> JSON:
    if state.phase != "over":
        return None
    result = outcome(state)
    assert result is not None
    key = standing(state)
    order: list[JSON] = [*sorted(state.seats, key=key.__getitem__, reverse=True)]  # best first; ties keep seat order
    return {
        "winners": list(result.winners),
        "order": order,
        "exhibition": dict(zip(state.seats, state.exhibition, strict=True)),
    }


def acting(state: MykState) -> tuple[str, ...]:
    """Who acts now: the player whose turn it is in the excavation; in the survey, the player who
    chooses a parcel or a room (nobody while the table counts a zone); nobody before the first
    season or once the game is over."""
    if state.phase == "excavation":
        return () if state.turn is None else (state.turn.seat,)
    if state.phase == "survey" and state.zone is not None:
        pending = flow.zone_pending(state)
        return (pending.seat,) if pending.seat is not None and pending.kind != "counts" else ()
    return ()


@per_state
def public(state: MykState) -> JSONObject:
    """What every screen sees (built once per state: every audience's view holds these objects)."""
    turn = state.turn
    return {
        "phase": state.phase,
        "season": state.season,
        "zones": zones_in(state.season) if state.season else 0,
        "layout": state.layout,
        "seats": list(state.seats),
        "names": {seat: name for seat, name in zip(state.seats, state.names, strict=False) if name},
        "neutral": state.neutral,
        "start_player": state.start_player,
        "first_player": state.first_player,
        "wings": list(state.patrons),
        "general": dict(zip(state.colours, state.general, strict=True)),
        "board": {c: n for c, n in zip(state.colours, state.board, strict=True) if n},
        "players": _players(state),
        "museum": dict(state.museum),
        "pass_track": [[c, space] for c, space in state.pass_track],
        "turn": None if turn is None else {"seat": turn.seat, "step": turn.step, "final": turn.final},
        "acting": list(acting(state)),
        "survey": _survey(state),
        "corrections": [[n.season, n.kind, n.subject, n.value] for n in state.corrections],
        "result": _result(state),
    }


def view(state: MykState, audience: Audience) -> JSONObject:
    if audience.is_table:
        return Layered(public(state), {})
    if audience.kind == "seat":
        seat = audience.seat or ""
        if seat not in state.seats:
            raise Forbidden("myk.unknown_seat", "no such seat in this game", seat=seat[:40])
        choices = legal(state, audience)
        # ``choices``: this seat's own options now (the same as its legal list)
        return Layered(public(state), {"me": seat, "choices": choices, "to_act": bool(choices)})
    if audience.is_debug:
        return {**public(state), "state": encode(state)}
    raise Forbidden("myk.unknown_audience", "unknown audience", audience=audience.kind)


# --- legal ---------------------------------------------------------------------------------------
def _setup_options(state: MykState) -> list[JSON]:
    out: list[JSON] = []
    if state.start_player is None:
        out += [{"kind": "myk.draw_start_player"}, {"kind": "myk.choose_start_player", "seats": list(state.seats)}]
    if not state.patrons:
        out += [{"kind": "myk.draw_patrons"}, {"kind": "myk.enter_patrons", "patrons": list(PATRONS)}]
    return out


def _turn_options(state: MykState) -> list[JSON]:
    turn = state.turn
    if turn is None:
        return []
    seat = turn.seat
    if turn.step == "neutral":
        return [{"kind": "myk.neutral", "seat": seat, "actions": list(flow.neutral_options(state, seat))}]
    if turn.step != "action":
        return []
    out: list[JSON] = []
    options = flow.excavation_options(state, seat)
    if options:
        out.append({"kind": "myk.excavate", "seat": seat, "options": [[a, p] for a, p in options]})
    rooms = flow.sir_brown_rooms(state, seat)
    if rooms:
        out.append({"kind": "myk.sir_brown", "seat": seat, "rooms": list(rooms)})
    out.append({"kind": "myk.pass", "seat": seat})
    return out


def _survey_options(state: MykState, actor: Audience) -> list[JSON]:
    zone = state.zone
    if zone is None:
        return []
    pending = flow.zone_pending(state)
    if pending.kind == "counts":
        if not actor.is_table:
            return []
        cap: JSONObject = {c: n for c, n in zip(state.colours, state.board, strict=True) if n}
        entry: JSONObject = {"kind": "myk.zone_counts", "zone": zone.index + 1, "max": cap}
        if zone.index + 1 == zones_in(state.season):  # the last zone: what the books leave there, to confirm
            entry["expected"] = cap
        return [entry]
    seat = pending.seat
    if seat is None:
        return []
    if pending.kind == "neutral_pick":
        return [{"kind": "myk.neutral_pick", "seat": seat}]
    out: list[JSON] = []
    if zone.parcels:
        out.append(
            {
                "kind": "myk.take_parcel",
                "seat": seat,
                "patrons": list(PATRONS),
                "points": list(PATRON_POINTS),
                "blank": not any(state.blank),
                "blank_points": BLANK_POINTS,
            }
        )
    if pending.rank < 2:
        rooms = flow.museum_rooms(state, seat)
        if rooms:
            out.append({"kind": "myk.museum", "seat": seat, "rooms": list(rooms)})
    else:
        out.append({"kind": "myk.decline", "seat": seat})
    return out


def _layout_option(state: MykState) -> list[JSON]:
    """The table may switch the museum layout while no room is taken."""
    if state.museum or state.phase == "over":
        return []
    return [{"kind": "myk.set_layout", "layouts": [n for n in layouts() if n != state.layout]}]


def legal(state: MykState, actor: Audience) -> JSON:
    if actor.is_debug:
        return []
    if actor.kind == "seat" and (actor.seat or "") not in state.seats:
        raise Forbidden("myk.unknown_seat", "no such seat in this game", seat=(actor.seat or "")[:40])
    if state.phase == "setup":
        return [*_setup_options(state), *_layout_option(state)] if actor.is_table else []
    if state.phase == "excavation":
        options = _turn_options(state)
    elif state.phase == "survey":
        options = _survey_options(state, actor)
    else:
        return []
    if actor.is_table:
        corrections: list[JSON] = [{"kind": k} for k in CORRECTIONS]
        return [*options, *_layout_option(state), *corrections]
    if actor.seat not in acting(state):
        return []
    return [o for o in options if isinstance(o, dict) and o.get("seat") == actor.seat]


def standing(state: MykState) -> dict[str, tuple[int, int]]:
    """What ranks the players: score, then archaeologists left in the personal supply."""
    return {s: (state.score[i], state.supply[i]) for i, s in enumerate(state.seats)}


def outcome(state: MykState) -> Outcome | None:
    if state.phase != "over":
        return None
    key = standing(state)
    best = max(key.values())
    winners = tuple(s for s in state.seats if key[s] == best)
    return Outcome("myk.over", winners, tuple(zip(state.seats, state.score, strict=True)))
