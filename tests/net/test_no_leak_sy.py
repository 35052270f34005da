"""No leak, end to end: random Scotland Yard games played through the real server with every
seat connected (Mister X, each detective, the table link). Every byte each client receives is
recorded; no detective or table connection may ever receive Mister X's station except while a
reveal shows him, at a capture, or after the end.

The table's speaker is heard by everyone at the table, so it is held to the same rule: an announcer
on the same table, with a stand-in voice that records, says exactly what the public table views
give (worked out on the test side), and never Mister X's station while it is hidden."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from harness import Phone, lift_flood_limit, rig

from companion.app.autoplay import TablePlayer
from companion.app.seats import TABLE_SEAT
from companion.app.speech import Announcer
from companion.core import Game, encode
from companion.core.jsonvalue import JSON, JSONObject
from companion.games.scotland_yard.model import REVEALS, XMoved
from companion.games.scotland_yard.moves import x_singles

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "scotland_yard"))
from spoken import actions as action_spans
from spoken import all_said, expected_speech, numbers, recording_speaker, spoken
from sy_support import random_intent

CONFIG = {"mister_x": "X", "detectives": ["Ann", "Bob"], "tracker": True}


def stations(value: JSON, path: str = "") -> list[tuple[str, int]]:
    """Every number under a key named ``station`` (the SY views keep all stations there), and
    every number in a list under ``candidates`` is deliberately NOT counted: the tracker is public."""
    found: list[tuple[str, int]] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "station" and isinstance(v, int):
                found.append((path + "." + k, v))
            else:
                found += stations(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += stations(v, f"{path}[{i}]")
    return found


def check_public(message: dict[str, Any], states: dict[int, Any], who: str) -> None:
    assert "secret" not in json.dumps(message), f"{who} received Mister X's secret section"
    if message.get("type") != "state":
        # Acks, refusals and errors carry no stations at all.
        assert stations(message) == [], f"{who} got a station in {message['type']}"
        return
    state = states[message["seq"]]
    over = state.phase == "over"
    x = state.x_station
    figures = {p for p in state.positions if p}
    revealed = [f.station for f in state.route if f.field in REVEALS]
    for path, value in stations(message["view"]):
        if path.startswith(".last_reveal"):  # where he was last shown: that reveal field's station, nothing newer
            assert revealed and value == revealed[-1], f"{who} saw {value} as his last reveal"
            continue
        if value != x or x == 0 or path.startswith(".log["):
            continue  # log fields are judged by the reveal rule below
        # Mister X's true station may appear only when he is shown, caught, or the game is over.
        assert over or value == state.shown or value in figures, f"{who} saw Mister X at {value} via {path}"
    for field in message["view"]["log"]:
        if field["station"] is not None:
            assert over or field["reveal"], f"{who} saw a hidden log field {field}"


def listening(r: Any, lang: str) -> Announcer:
    """An announcer on the rig's table with speech on in ``lang``, its voice a recording stand-in."""
    on = {"speech": True}
    announcer = Announcer(r.table, recording_speaker(), language=lambda: lang, pref=lambda k, d: on.get(k, d))
    announcer.start()
    return announcer


def check_speech(game: Game[Any], states: dict[int, Any], announcer: Announcer, lang: str) -> int:
    """The announcer said exactly what the public views give, and no spoken line of any action, in
    any language, names Mister X's station while the table may not see it."""
    said = all_said(announcer.speaker)
    assert said == expected_speech(game, states, lang)
    for before, after, undo in action_spans(game):
        state = states[after]
        x = state.x_station
        if undo or not x or state.phase == "over" or state.shown == x:
            continue
        assert x not in numbers(spoken(game.rules, states[before], state)), f"the table said where Mister X is ({x})"
    return len(said)


async def check_all_received(game: Game[Any], phones: dict[str, Phone], actions: int) -> dict[int, Any]:
    """Once the last state has arrived everywhere, every message each of ``phones`` (none of them
    Mister X's) ever received passes :func:`check_public`; returns every state by seq."""
    for phone in phones.values():
        seen = [json.loads(m) for m in phone.received]
        if not any(m["type"] == "state" and m["seq"] == game.seq for m in seen):
            await phone.until("state", seq=game.seq)
    # Every state the game passed through, from the log (debug knowledge, test side only).
    states = {n: Game(game.rules, game.config, game.seed, game.entries[:n]).state for n in range(game.seq + 1)}
    checked = 0
    for seat, phone in phones.items():
        for raw in phone.received:
            check_public(json.loads(raw), states, seat)
            checked += 1
    assert checked > actions  # every client really got every state
    return states


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "lang"), [(1, "en"), (2, "de"), (3, "fr")])
def test_no_detective_or_table_connection_ever_sees_mister_x(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, lang: str
) -> None:
    lift_flood_limit(monkeypatch)

    async def scenario() -> None:
        async with rig(tmp_path, "scotland_yard", CONFIG) as r:
            game = r.table.game
            assert game is not None
            announcer = listening(r, lang)
            seats = [*game.rules.seats(game.state), TABLE_SEAT]
            phones = await r.connect_all(seats)
            rng = random.Random(seed)
            actions = 0
            while game.outcome() is None and actions < 400:
                intent, actor = random_intent(game, rng, chase=0.6, double=0.3)
                who = TABLE_SEAT if actor.is_table else actor.seat
                assert who is not None
                reply = await phones[who].intent(game.seq, {"kind": intent.kind, **encode(intent)})  # type: ignore[dict-item]
                assert reply["type"] == "ack", reply
                actions += 1
            assert game.outcome() is not None, "the random game should end"
            states = await check_all_received(game, {s: p for s, p in phones.items() if s != "mrx"}, actions)
            assert check_speech(game, states, announcer, lang) > 0  # the end at least is said
            announcer.close()
            # Mister X's phone did see his station (the check above is about others only).
            assert any('"secret"' in raw for raw in phones["mrx"].received)

    asyncio.run(scenario())


@pytest.mark.slow
@pytest.mark.parametrize(("level", "seed", "lang"), [("easy", 4, "es"), ("normal", 5, "en"), ("hard", 6, "de")])
def test_with_mister_x_played_by_the_table_no_connection_ever_sees_him(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, level: str, seed: int, lang: str
) -> None:
    """The table's Mister X has no seat: no link is offered for him, a link made by hand for his seat
    is refused at once (no view, no move), nobody else can move him, and every detective phone and
    the table link see only what a reveal shows."""
    lift_flood_limit(monkeypatch)
    config = {**CONFIG, "mister_x_ai": level}

    async def scenario() -> None:
        async with rig(tmp_path, "scotland_yard", config) as r:
            game = r.table.game
            assert game is not None
            announcer = listening(r, lang)  # his moves are said: the ticket, as the log shows it
            player = TablePlayer(r.table, thinking=0, cpu_budget=None)
            player.start()
            seats = [*game.rules.seats(game.state), TABLE_SEAT]
            assert "mrx" not in seats
            phones = await r.connect_all(seats)
            intruder = await r.phone(r.tokens(["mrx"])["mrx"])  # a link no screen offers, made by hand
            refused = await intruder.recv()
            assert (refused["type"], refused["code"]) == ("error", "link.invalid"), refused
            rng = random.Random(seed)
            actions = 0
            while game.outcome() is None and actions < 400:
                if game.state.phase == "x":  # the table thinks; nobody may move him
                    ticket, dests = next(iter(x_singles(game.state).items()))  # a legal move (test side only)
                    move: JSONObject = {"kind": "sy.x_move", "ticket": ticket, "station": dests[0]}
                    for who in (TABLE_SEAT, "d1"):  # (or he has moved already: not his turn any more)
                        refused = await phones[who].intent(game.seq, move)
                        assert refused["type"] == "refused", refused
                    await player.idle()
                    continue
                intent, actor = random_intent(game, rng, chase=0.6, double=0.3)
                who = TABLE_SEAT if actor.is_table else actor.seat
                assert who is not None
                reply = await phones[who].intent(game.seq, {"kind": intent.kind, **encode(intent)})  # type: ignore[dict-item]
                assert reply["type"] == "ack", reply
                actions += 1
            assert game.outcome() is not None, "the game should end"
            assert any(isinstance(e.event, XMoved) for e in game.entries), "the table moved Mister X"
            states = await check_all_received(game, phones, actions)
            moves = sum(isinstance(e.event, XMoved) and e.event.step < 2 for e in game.entries)
            assert check_speech(game, states, announcer, lang) >= moves  # a line per move of his, at least
            announcer.close()
            with contextlib.suppress(TimeoutError):
                while not (await intruder.recv(timeout=0.5))["type"].startswith("<"):
                    pass  # everything the server ever sent that connection, until it closed
            assert [json.loads(raw)["type"] for raw in intruder.received] == ["error"], intruder.received
            await player.stop()

    asyncio.run(scenario())
