"""Every announcement the games make, gathered from real play: seeded random games of each boxed
game (Scotland Yard also with Mister X, or the detectives, played by the table), each action's public table views before
and after it given to the game's ``announcements``. A few endings random play seldom reaches are
made from a real view with one public field changed (the way the game itself would show them).
Shared by the words test (tests/games/test_speech_words.py) and the voice test
(tests/hardware/test_voice.py)."""

from __future__ import annotations

import functools
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.app.i18n import package_texts
from companion.core import TABLE, Audience, Game
from companion.core.events import Undone
from companion.core.jsonvalue import JSON, JSONObject
from companion.core.summary import Line
from companion.games import entry, get_rules
from companion.games.scotland_yard.model import Confirm

TESTS = Path(__file__).resolve().parents[1]
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

from drivers import DRIVERS  # noqa: E402

GAMES = ("scotland_yard", "victorian_masterminds", "mykerinos")
Sample = tuple[str, JSONObject, JSONObject, tuple[Line, ...]]  # game, before, after, lines


def codes(value: Line | JSON) -> set[str]:
    """The message codes a line uses: its own and every nested text's (``{"t": code}``)."""
    if isinstance(value, Line):
        return {value.code} | codes(dict(value.params))
    if isinstance(value, dict):
        found = {value["t"]} if isinstance(value.get("t"), str) else set()
        return found.union(*(codes(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(codes(v) for v in value))
    return set()


def say_codes(game: str) -> set[str]:
    """Every spoken text of a game's catalogue (``<prefix>.say.…``)."""
    return {code for code in package_texts(entry(game).package)["en"] if ".say." in code}


def play(game: str, config: JSONObject, seed: int, table_x: bool = False) -> Iterator[Sample]:
    rules = get_rules(game)
    played: Game[Any] = Game(rules, config, seed)
    choose = DRIVERS[game][2]
    rng = random.Random(seed)
    before = rules.view(played.state, TABLE)
    for _ in range(3000):
        if played.outcome() is not None:
            return
        turn = rules.table_turn(played.state, seed, None) if table_x else None
        waiting = getattr(played.state, "instruction", None)  # the table's detectives' pawn
        if turn is not None:
            intent, actor = turn.decide(), Audience.of_seat(turn.seat)
        elif waiting is not None and (played.state.phase != "x" or rng.random() < 0.5):
            intent, actor = Confirm(waiting.figure), TABLE  # else his move confirms it
        else:
            choice = choose(played, rng)
            if choice is None:
                return
            intent, actor = choice
        events = played.decide(intent, actor, played.seq)
        played.commit(events)
        after = rules.view(played.state, TABLE)
        if not any(isinstance(e, Undone) for e in events):
            yield game, before, after, rules.announcements(before, after)
        before = after


def with_end(view: JSONObject, reason: str, winner: str | None) -> JSONObject:
    """A Scotland Yard view (over) that ended another way: its public ``end`` changed."""
    end = dict(view["end"]) if isinstance(view.get("end"), dict) else {}
    return {**view, "end": {**end, "reason": reason, "winner": winner, "figure": None}}


@functools.cache
def samples() -> tuple[Sample, ...]:
    found: list[Sample] = []
    for seed in (1, 2, 3):
        for game in GAMES:
            _, config, _ = DRIVERS[game]
            found += play(game, config, seed)
        found += play("scotland_yard", {**DRIVERS["scotland_yard"][1], "mister_x_ai": "normal"}, seed, table_x=True)
        found += play("mykerinos", {"seats": ["white", "red", "green"], "layout": "ring5"}, seed)
        yard = {"detectives": ["", "", ""], "detectives_ai": "normal"}  # a lone Mister X, the table's detectives
        found += play("scotland_yard", yard, seed, table_x=True)
    found += play("victorian_masterminds", DRIVERS["victorian_masterminds"][1], 28)  # a Gunner finds nothing left
    # Endings random play seldom reaches: the last view of a finished game, its end told otherwise.
    sy = get_rules("scotland_yard")
    over = next(s for s in found if s[0] == "scotland_yard" and s[2].get("end"))
    for reason, winner in (("x_trapped", "detectives"), ("detectives_stuck", "mrx"), ("ended_by_table", None)):
        after = with_end(over[2], reason, winner)
        found.append(("scotland_yard", over[1], after, sy.announcements(over[1], after)))
    # A tie (two winners) and a correction that lowers the Secret Service level.
    vm = get_rules("victorian_masterminds")
    ended = next(s for s in found if s[0] == "victorian_masterminds" and s[2].get("result"))
    result = dict(ended[2]["result"])  # type: ignore[arg-type]
    tied = {**ended[2], "result": {**result, "winners": [str(p["seat"]) for p in ended[2]["players"][:2]]}}  # type: ignore[index]
    found.append(("victorian_masterminds", ended[1], tied, vm.announcements(ended[1], tied)))
    mid = next(s for s in found if s[0] == "victorian_masterminds" and isinstance(s[1].get("level"), int))
    lower = {**mid[1], "level": mid[1]["level"] - 1}  # type: ignore[operator]
    found.append(("victorian_masterminds", mid[1], lower, vm.announcements(mid[1], lower)))
    myk = get_rules("mykerinos")
    last = next(s for s in found if s[0] == "mykerinos" and s[2].get("result"))
    won = dict(last[2]["result"])  # type: ignore[arg-type]
    shared = {**last[2], "result": {**won, "winners": list(last[2]["seats"])[:2]}}  # type: ignore[call-overload]
    found.append(("mykerinos", last[1], shared, myk.announcements(last[1], shared)))
    return tuple(found)


def distinct_lines() -> dict[frozenset[str], tuple[str, Line]]:
    """One line (and its game) for every different set of codes a line is made of."""
    out: dict[frozenset[str], tuple[str, Line]] = {}
    for game, _, _, lines in samples():
        for item in lines:
            out.setdefault(frozenset(codes(item)), (game, item))
    return out
