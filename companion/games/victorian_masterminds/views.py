"""What each audience sees, and what each actor may do now.

The table (touchscreen) sees public information only: stack heights, never who or what is in a
stack until it is flipped. A seat sees the same public summary plus its own pile (the top
agent; the whole pile once it has had 5 codex tokens) and its own agents in the stacks.
"""

from __future__ import annotations

from companion.core.audience import Audience
from companion.core.codec import encode
from companion.core.errors import Forbidden
from companion.core.jsonvalue import JSON, JSONObject, as_list
from companion.core.shared import Layered, per_part, per_state
from companion.games.victorian_masterminds.engine import (
    can_capture,
    can_extra_turn,
    lone_cities,
    places,
    possible_entries,
    score_of,
)
from companion.games.victorian_masterminds.flow import ability_acted, engineer_owner
from companion.games.victorian_masterminds.model import (
    AGENTS,
    CITIES,
    COUNTERS,
    Gain,
    Mission,
    Player,
    Resolution,
    VMState,
)


def _mission(m: Mission | None) -> JSON:
    return None if m is None else {"reward": m.reward, "label": m.label}


def phase(s: VMState) -> str:
    if not s.started:
        return "setup"
    if s.ended:
        return "ended"
    if s.final:
        return "final_resolution"
    return "resolution" if s.resolution is not None else "turn"


@per_part
def public_player(p: Player) -> JSONObject:
    """A player's public tallies (kept for the player's very object: the next state's views hold
    the same piece for every player the action did not touch)."""
    sc = score_of(p)
    return {
        "seat": p.seat,
        "name": p.name,
        "colour": p.colour,
        "machine": p.machine,
        "machine_name": p.machine_name,
        "firepower": p.firepower,
        "scientists": p.scientists,
        "lab_cells": p.lab_cells,
        "codex": len(p.codex),
        "codex_value": p.codex_value,
        "codex_power": p.codex_power,
        "bolts": p.bolts,
        "copper": p.copper,
        "segments": [{"chaos": g.chaos, "unlock": g.unlock, "label": g.label} for g in p.segments],
        "buildings": [[c, b] for c, b in p.buildings],
        "missions": [_mission(m) for m in p.missions],
        "chaos_tokens": p.chaos_tokens,
        "pile_size": p.pile_size,
        "discard": list(p.discard),
        "score": {
            "segments": sc.segments,
            "buildings": sc.buildings,
            "missions": sc.missions,
            "chaos_tokens": sc.chaos_tokens,
            "codex": sc.codex,
            "total": sc.total,
        },
    }


def waiting_for(s: VMState) -> JSONObject | None:
    """The question the resolution waits on (public: the stack is face up by then)."""
    r = s.resolution
    if r is None or r.current is None:
        return None
    current = r.current
    if current.agent is None:
        return {"kind": "reveal", "seat": current.seat, "by": ["table", current.seat]}
    if r.stage in ("order", "gunner", "engineer", "take_loot"):
        return {"kind": r.stage, "seat": current.seat, "by": ["table", current.seat]}
    if r.stage == "henchman":
        return {"kind": "henchman", "seat": current.seat, "by": ["table"]}
    return None


def acting(s: VMState) -> tuple[str, ...]:
    """Who acts now: the player a resolution asks (which agent it was, loot or ability first, the
    Gunner's building, the Engineer's power); nobody while it asks the table alone (the Henchman's
    mission); else, outside the final resolution, the player whose turn it is; nobody before the
    start or once the game is over."""
    if not s.started or s.ended:
        return ()
    waiting = waiting_for(s)
    if waiting is not None:
        return (str(waiting["seat"]),) if waiting["seat"] in as_list(waiting["by"]) else ()
    return () if s.final else (s.active_seat,)


def _gains(gains: tuple[Gain, ...]) -> JSON:
    return [{"resource": g.resource, "amount": g.amount, "lost": g.lost, "value": g.value} for g in gains]


def stack_view(r: Resolution) -> JSONObject:
    """A turned-over stack, first placed first, with what each agent did so far (public)."""
    agents: list[JSON] = []
    for i, pl in enumerate(r.agents):
        step = r.step_of(i)
        agents.append(
            {
                "seat": pl.seat,
                "agent": pl.agent,
                "cancelled": i in r.cancelled,
                "done": i < r.index,
                "loot": _gains(step.loot),
                "outcome": step.outcome or None,
                "gains": _gains(step.gains),
                "building": step.building or None,
                "mission": step.mission or None,
                "ability_first": step.ability_first,
            }
        )
    return {"city": r.city, "reason": r.reason, "agents": agents, "index": r.index}


def resolution_view(s: VMState) -> JSON:
    r = s.resolution
    if r is None:
        return None
    return {**stack_view(r), "waiting": waiting_for(s)}


def common(s: VMState) -> JSONObject:
    return {
        "phase": phase(s),
        "level": s.level,
        "active": s.active_seat,
        "acting": list(acting(s)),
        "turn_phase": s.turn_phase,
        "extra_turn": s.extra_turn,
        "stacks": {c: len(s.stack(c)) for c in CITIES},
        "final_round": {"triggered": s.triggered, "turns_left": s.final_turns_left},
        "resolution": resolution_view(s),
        "last_stack": None if s.last_stack is None else stack_view(s.last_stack),
        "level_change": level_change(s),
        "result": result(s),
    }


def level_change(s: VMState) -> JSON:
    """The level's last change and why (public: a capture is seen by all, a correction made aloud)."""
    c = s.level_change
    if c is None:
        return None
    return {"from": c.before, "to": c.after, "why": c.why, "seat": c.seat, "city": c.city, "building": c.building}


def result(s: VMState) -> JSON:
    if not s.ended:
        return None
    ranks = places(s)
    return {"places": {seat: ranks[seat] for seat in s.seats}, "winners": [x for x in s.seats if ranks[x] == 1]}


@per_state
def _shared(s: VMState) -> JSONObject:
    """What the table and every phone show, built once per state: the phases and stacks, the
    cities and every player's tallies."""
    out = common(s)
    out.update(
        {
            "cities": {c: {"standing": list(s.standing_in(c)), "mission": _mission(s.mission(c))} for c in CITIES},
            "scientist_supply": s.scientist_supply(),
            "players": [public_player(p) for p in s.players],
        }
    )
    return out


def table_view(s: VMState) -> JSONObject:
    """The shared picture, and what only the touchscreen shows: the settings, the mission deck and
    the log."""
    own: JSONObject = {
        "settings": {
            "start_level": s.settings.start_level,
            "gunner_rule": s.settings.gunner_rule,
            "capture_city_loot": s.settings.capture_city_loot,
            "first_player": s.settings.first_player,
        },
        "mission_deck": s.mission_deck,
        "log": [
            {"n": line.n, "what": line.what, "seat": line.seat, "city": line.city, "detail": line.detail}
            for line in s.log
        ],
    }
    return Layered(_shared(s), own)


def private_pile(p: Player) -> JSONObject:
    """The seat's own pile as far as it may know it."""
    exact = p.pile_exact
    top = p.pile[0] if exact and p.pile else None
    whole: JSON = list(p.pile) if p.codex_power else None
    return {"size": p.pile_size, "exact": exact, "top": top, "agents": whole}


def seat_view(s: VMState, seat: str) -> JSONObject:
    p = s.player(seat)
    mine: list[JSON] = []
    for c in CITIES:
        stack = s.stack(c)
        mine += [
            {"city": c, "position": i + 1, "height": len(stack), "agent": pl.agent}
            for i, pl in enumerate(stack)
            if pl.seat == seat
        ]
    # The public picture a phone shows beside its own (other players' tallies, the cities; the log
    # and settings stay on the touchscreen), plus what only this seat may know: its pile and where
    # its own face-down agents lie.
    shared = _shared(s)
    players = shared["players"]
    assert isinstance(players, list)
    told: JSON = None if p.told is None else {"city": p.told[0], "agent": p.told[1]}
    own: JSONObject = {"seat": seat, "me": players[s.seats.index(seat)], "pile": private_pile(p), "placed": mine}
    own["told"] = told  # what the table placed for this seat, whose phone keeps its pile
    return Layered(shared, own)


def view(s: VMState, audience: Audience) -> JSONObject:
    if audience.is_debug:
        state = encode(s)
        return {"state": state, "table": table_view(s)}
    if audience.is_table:
        return table_view(s)
    if audience.kind == "seat" and audience.seat is not None:
        if audience.seat not in s.seats:
            raise Forbidden("vm.unknown_audience", "no such seat in this game")
        return seat_view(s, audience.seat)
    raise ValueError(f"unknown audience {audience!r}")


# -- legal -------------------------------------------------------------------------------


def _pile_choices(p: Player) -> JSON:
    """What the seat's phone may name from its pile: the top, or any once it has had 5 codex
    tokens (or when the pile is not exact, having had agents placed unidentified)."""
    choices = p.pile if (p.codex_power or not p.pile_exact) else p.pile[:1]
    return list[JSON](sorted(set(choices), key=AGENTS.index))


def _turn_actions(s: VMState, actor: Audience) -> list[JSON]:
    seat = s.active_seat
    if not (actor.is_table or actor.seat in acting(s)):
        return []
    p = s.players[s.active]
    out: list[JSON] = []
    if s.turn_phase == "place":
        recycle = sorted(set(p.discard), key=AGENTS.index) if not s.extra_turn and p.scientists >= 1 else []
        if p.pile_size > 0 or recycle:
            agents: JSON
            if not actor.is_table and p.pile_size > 0:
                agents = _pile_choices(p)
            else:
                agents = None  # the table: a scanned tag, or nothing (an unidentified agent)
            out.append(
                {
                    "kind": "vm.place",
                    "seat": seat,
                    "cities": list(CITIES),
                    "from_pile": p.pile_size > 0,
                    "agents": agents,
                    "unidentified": actor.is_table and p.pile_size > 0,
                    "recycle": list(recycle),
                }
            )
        else:
            cities = [c for c in CITIES if 0 < len(s.stack(c)) < s.threshold]
            if not actor.is_table:
                cities = [c for c in cities if any(pl.seat == seat for pl in s.stack(c))]
            out.append({"kind": "vm.force_resolve", "seat": seat, "cities": list[JSON](cities)})
        return out
    if can_extra_turn(s):
        out.append({"kind": "vm.extra_turn", "seat": seat})
    if can_capture(s):
        out.append(
            {"kind": "vm.capture", "seat": seat, "buildings": [[c, b] for c in CITIES for b in s.standing_in(c)]}
        )
    out.append({"kind": "vm.end_turn", "seat": seat})
    return out


def _answers(s: VMState, actor: Audience) -> list[JSON]:
    r = s.resolution
    waiting = waiting_for(s)
    if r is None or r.current is None or waiting is None:
        return []
    owner = r.current.seat
    if not (actor.is_table or (actor.is_seat(owner) and owner in acting(s))):
        return []
    kind = waiting["kind"]
    if kind == "reveal":
        # Every agent not lying face up: what the books expect is not offered apart, as that
        # would tell the table what the seat still holds elsewhere.
        return [{"kind": "vm.reveal", "agents": list(possible_entries(s, owner))}]
    if kind == "order":
        return [{"kind": "vm.choose_order", "options": ["loot", "ability"]}]
    if kind == "take_loot":
        return [{"kind": "vm.take_loot"}]
    if kind == "gunner":
        return [{"kind": "vm.choose_building", "buildings": [*s.standing_in(r.city), None]}]
    if kind == "henchman":
        m = s.mission(r.city)
        return [{"kind": "vm.henchman", "reward_needed": m is not None and m.reward is None}]
    out: list[JSON] = [{"kind": "vm.engineer_done"}]
    if not r.looted:  # the power went first: the loot may be taken at any point, else at Done
        out.append({"kind": "vm.take_loot"})
    p = s.player(owner)
    cities = lone_cities(s)
    if not r.placed_under and p.pile_size > 0 and cities:
        out.append(
            {
                "kind": "vm.place_under",
                "seat": owner,
                "cities": list(cities),
                "agents": None if actor.is_table else _pile_choices(p),
                "unidentified": actor.is_table,
            }
        )
    return out


def _reidentify(s: VMState) -> list[JSON]:
    """The table may name again an agent of the stack being turned over that is not resolved yet
    (the discs lie face up): each one's index, owner and name."""
    r = s.resolution
    assert r is not None
    agents: list[JSON] = [
        {"index": i, "seat": pl.seat, "agent": pl.agent}
        for i, pl in enumerate(r.agents)
        if i >= r.index and pl.agent is not None and not pl.recycled and not ability_acted(r, i)
    ]
    return [{"kind": "vm.reidentify", "agents": agents, "names": list(AGENTS)}] if agents else []


def legal(s: VMState, actor: Audience) -> JSON:
    if actor.is_debug or s.ended:
        return {"actions": []}
    if actor.kind == "seat" and actor.seat not in s.seats:
        return {"actions": []}
    if not s.started:
        return {"actions": [{"kind": "vm.start"}] if actor.is_table else []}
    actions: list[JSON] = []
    if s.resolution is not None:
        actions += _answers(s, actor)
        if actor.is_table:
            actions += _reidentify(s)
    elif not s.final:
        actions += _turn_actions(s, actor)
    if actor.is_table:
        actions += [
            {"kind": "vm.adjust", "counters": list(COUNTERS)},
            {"kind": "vm.record_segment", "seats": list(s.seats)},
            {"kind": "vm.remove_segment"},
            {"kind": "vm.set_mission", "cities": [c for c in CITIES if s.mission(c) is not None]},
        ]
    else:
        seat = actor.seat or ""
        if engineer_owner(s) == seat:
            actions.append({"kind": "vm.adjust", "counters": [c for c in COUNTERS if c != "level"], "seat": seat})
        actions.append({"kind": "vm.record_segment", "seats": [seat]})
    return {"actions": actions}
