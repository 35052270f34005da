"""Helpers for the Mykerinos tests: a tiny script language for whole games, invariants, a random driver."""

from __future__ import annotations

import random
from typing import Any

from companion.core import TABLE, Audience, Event, Game, Intent, Undo
from companion.core.jsonvalue import JSONObject
from companion.games import get_rules
from companion.games.mykerinos import intents as it
from companion.games.mykerinos.museum import PATRONS, exhibition
from companion.games.mykerinos.state import PER_COLOUR, MykState

RULES = get_rules("mykerinos")

SHORT = {
    "violet": "lady_violet",
    "lemon": "lord_lemon",
    "brown": "sir_brown",
    "blackmore": "mrs_blackmore",
    "tangerine": "colonel_tangerine",
}


def new_game(config: JSONObject, seed: int = 1) -> Game[Any]:
    return Game(RULES, config, seed)


def do(game: Game[Any], intent: Intent, actor: Audience = TABLE) -> tuple[Event, ...]:
    events = game.decide(intent, actor, game.seq)
    game.commit(events)
    check(game.state)
    return events


def parse(line: str) -> tuple[Intent, Audience]:
    """One step of a script. Seat steps are sent from that seat's phone; counts from the table.

    ``blue start [patron]`` ``blue extend [patron]`` ``blue pass`` ``blue brown <room>``
    ``blue neutral start|extend|skip`` ``counts blue=2 red=1`` ``blue parcel <patron|blank> <points>``
    ``blue museum <room>`` ``blue decline`` ``blue pick``; a leading ``table:`` sends it from the table.
    (``counted blue=2`` in :func:`play` checks counts the companion entered itself.)
    """
    actor_override = line.startswith("table:")
    words = line.removeprefix("table:").split()
    if words[0] == "counts":
        pairs = tuple((w.split("=")[0], int(w.split("=")[1])) for w in words[1:])
        return it.ZoneCounts(pairs), TABLE
    seat, verb, rest = words[0], words[1], words[2:]
    actor = TABLE if actor_override else Audience.of_seat(seat)
    intent: Intent
    if verb in ("start", "extend"):
        intent = it.Excavate(seat, verb, SHORT[rest[0]] if rest else None)  # type: ignore[arg-type]
    elif verb == "pass":
        intent = it.Pass(seat)
    elif verb == "brown":
        intent = it.SirBrown(seat, rest[0])
    elif verb == "neutral":
        intent = it.Neutral(seat, rest[0])  # type: ignore[arg-type]
    elif verb == "parcel":
        intent = it.TakeParcel(seat, None if rest[0] == "blank" else SHORT[rest[0]], int(rest[1]))
    elif verb == "museum":
        intent = it.Museum(seat, rest[0])
    elif verb == "decline":
        intent = it.Decline(seat)
    elif verb == "pick":
        intent = it.NeutralPick(seat)
    else:
        raise AssertionError(f"unknown script step {line!r}")
    return intent, actor


def counted(game: Game[Any], line: str) -> None:
    """``counted blue=2 red=1``: the zone under survey was counted by the companion itself (the last
    zone of a season holds every archaeologist still on the board), with exactly these counts."""
    state: MykState = game.state
    zone = state.zone
    want = {w.split("=")[0]: int(w.split("=")[1]) for w in line.split()[1:]}
    assert zone is not None and zone.counted, f"{line!r}: the zone is not counted"
    got = {c: n for c, n in zip(state.colours, zone.counts, strict=True) if n}
    assert got == want, f"{line!r}: counted {got}"


def play(game: Game[Any], *lines: str) -> None:
    for line in lines:
        if line.startswith("counted"):
            counted(game, line)
            continue
        intent, actor = parse(line)
        try:
            do(game, intent, actor)
        except Exception as exc:
            raise AssertionError(f"step {line!r} failed: {exc!r}") from exc


def step(game: Game[Any], line: str) -> tuple[Event, ...]:
    intent, actor = parse(line)
    return do(game, intent, actor)


def refused(game: Game[Any], line: str) -> str:
    """Run a step that must be refused; return the error code. Nothing may change."""
    intent, actor = parse(line)
    before = (game.state, len(game.entries))
    try:
        game.decide(intent, actor, game.seq)
    except Exception as exc:
        assert (game.state, len(game.entries)) == before
        code: str = getattr(exc, "code", "")
        return code
    raise AssertionError(f"step {line!r} was not refused")


def check(state: MykState) -> None:
    """Invariants at every step: 25 per colour, nothing negative, museum rooms unique."""
    for colour in state.colours:
        assert state.total(colour) == PER_COLOUR, (colour, state)
    for values in (state.general, state.board, state.supply, state.neutral_supply, state.score, state.blank):
        assert all(v >= 0 for v in values)
    for i in range(len(state.seats)):
        assert all(0 <= u <= h for u, h in zip(state.used[i], state.cards[i], strict=True))
    rooms = [r for r, _ in state.museum]
    assert len(rooms) == len(set(rooms))
    assert all(c in state.seats for _, c in state.museum)  # the neutral never enters the museum
    assert sum(state.blank) <= 1


def exhibition_now(state: MykState, seat: str) -> int:
    i = state.si(seat)
    return exhibition(state.the_layout, state.patrons, state.museum_map(), seat, state.cards[i]).total


# --- a random legal player ------------------------------------------------------------------------
def _actor(rng: random.Random, seat: str | None) -> Audience:
    if seat is None or rng.random() < 0.5:
        return TABLE
    return Audience.of_seat(seat)


def random_step(game: Game[Any], rng: random.Random, corrections: bool = True) -> tuple[Intent, Audience] | None:
    """A legal (intent, actor), chosen from what ``legal`` offers the table, or None at the end."""
    state: MykState = game.state
    if game.outcome() is not None:
        return None
    if rng.random() < 0.04 and game.can_undo(TABLE):
        return Undo(), TABLE
    options = [o for o in RULES.legal(state, TABLE) if isinstance(o, dict)]  # type: ignore[union-attr]
    play = [o for o in options if not str(o["kind"]).startswith("myk.correct_")]
    if rng.random() > 0.05:  # switching the museum layout: now and then
        play = [o for o in play if o["kind"] != "myk.set_layout"]
    if corrections and state.phase in ("excavation", "survey") and rng.random() < 0.03:
        correction = _random_correction(state, rng)
        if correction is not None:
            return correction, TABLE
    if not play:
        return None
    kinds = {str(o["kind"]) for o in play}
    if "myk.pass" in kinds and "myk.excavate" in kinds:
        seat = state.turn.seat if state.turn else ""
        supply = state.supply[state.si(seat)]
        if rng.random() < (0.5 if supply < 4 else 0.15):
            play = [o for o in play if o["kind"] == "myk.pass"]
    option = rng.choice(play)
    kind, seat = str(option["kind"]), option.get("seat")
    seat = seat if isinstance(seat, str) else None
    intent: Intent
    if kind == "myk.draw_start_player":
        intent = it.DrawStartPlayer()
    elif kind == "myk.choose_start_player":
        intent = it.ChooseStartPlayer(rng.choice(state.seats))
    elif kind == "myk.draw_patrons":
        intent = it.DrawPatrons()
    elif kind == "myk.enter_patrons":
        intent = it.EnterPatrons(tuple(rng.sample(PATRONS, 5)))
    elif kind == "myk.excavate":
        action, patron = rng.choice(option["options"])  # type: ignore[arg-type,misc]
        intent = it.Excavate(str(seat), action, patron)
    elif kind == "myk.sir_brown":
        intent = it.SirBrown(str(seat), rng.choice(option["rooms"]))  # type: ignore[arg-type]
    elif kind == "myk.pass":
        intent = it.Pass(str(seat))
    elif kind == "myk.neutral":
        intent = it.Neutral(str(seat), rng.choice(option["actions"]))  # type: ignore[arg-type]
    elif kind == "myk.zone_counts":
        intent = it.ZoneCounts(_random_counts(state, option["max"], rng))  # type: ignore[arg-type]
    elif kind == "myk.take_parcel":
        if option["blank"] and rng.random() < 0.1:
            intent = it.TakeParcel(str(seat), None, 5)
        else:
            intent = it.TakeParcel(str(seat), rng.choice(PATRONS), rng.choice((0, 2, 3)))
    elif kind == "myk.museum":
        intent = it.Museum(str(seat), rng.choice(option["rooms"]))  # type: ignore[arg-type]
    elif kind == "myk.decline":
        intent = it.Decline(str(seat))
    elif kind == "myk.neutral_pick":
        intent = it.NeutralPick(str(seat))
    elif kind == "myk.set_layout":
        intent = it.SetLayout(rng.choice(option["layouts"]))  # type: ignore[arg-type]
    else:
        raise AssertionError(kind)
    return intent, _actor(rng, seat)


def _random_counts(state: MykState, cap: dict[str, int], rng: random.Random) -> tuple[tuple[str, int], ...]:
    assert state.zone is not None
    last = state.zone.index == (6 if state.season == 4 else 4) - 1
    out = []
    for colour, most in cap.items():
        if last and rng.random() < 0.9:
            n = most
        else:
            n = rng.randint(0, most) if rng.random() < 0.7 else min(most, rng.randint(0, 2))
        if n or rng.random() < 0.3:
            out.append((colour, n))
    return tuple(out)


def _random_correction(state: MykState, rng: random.Random) -> Intent | None:
    seat = rng.choice(state.seats)
    roll = rng.randrange(4)
    if roll == 0:
        return it.CorrectScore(seat, rng.choice((1, 2, 3)))
    if roll == 1:
        colour = rng.choice(state.colours)
        holder = rng.choice(state.seats) if colour == state.neutral else None
        return (
            it.CorrectArchaeologists(colour, "general", "supply", 1, holder)
            if state.general[state.ci(colour)]
            else None
        )
    if roll == 2:
        return it.CorrectCards(seat, rng.choice(PATRONS), 1)
    free = [r for r in state.the_layout.ids if r not in state.museum_map()]
    if not free or state.general[state.ci(seat)] < 1:
        return None
    return it.CorrectMuseum(rng.choice(free), seat)


def random_game(
    config: JSONObject,
    seed: int,
    driver_seed: int,
    max_actions: int = 2000,
    corrections: bool = True,
    draws: bool = False,
) -> Game[Any]:
    """A random legal game (``draws``: start player and patrons drawn by the companion first)."""
    game = new_game(config, seed)
    if draws:
        do(game, it.DrawStartPlayer())
        do(game, it.DrawPatrons())
    rng = random.Random(driver_seed)
    for _ in range(max_actions):
        step = random_step(game, rng, corrections)
        if step is None:
            break
        do(game, *step)
    return game
