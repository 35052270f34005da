"""No leak, end to end: random Victorian Masterminds games (2, 3 and 4 players) played through the real
server with every seat and the table link connected. Every byte each client receives is recorded, and
no player (nor the table) may ever receive another player's pile or the identity of another player's
unresolved agents.

Each received state is checked two ways against the game's own states (test-side knowledge only):
- it is exactly that client's view and legal options at that seq (nothing of another audience);
- it does not depend on any other seat's secrets: the same state with that seat's hidden agents
  shuffled (its pile, and its face-down agents in unresolved stacks) gives the client the very same
  view and options, and the table's speaker the very same words about the action that led to it (in
  every language: everyone at the table hears them). The owner's own view must change under that
  shuffle now and then, which proves the shuffle really touches what a leak would show.
An announcer on the same table, with a stand-in voice that records, says exactly those words.
Along the way, hostile phones probe for a secret through refusals: naming each agent in turn for the
active player, or as the agent being revealed, must always be refused in the very same words.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from harness import Phone, lift_flood_limit, rig

from companion.app.seats import TABLE_SEAT
from companion.app.speech import Announcer
from companion.core import TABLE, Audience, Game, encode
from companion.games.victorian_masterminds.model import AGENTS, VMState
from hardware.voice import RecordingVoice

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "victorian_masterminds"))
from spoken import actions as action_spans
from spoken import all_said, expected_speech, recording_speaker, spoken
from vm_helpers import config, random_intent


def hidden_twin(state: VMState, seat: str, rng: random.Random) -> VMState:
    """``state`` with ``seat``'s hidden agents dealt anew over the same hidden places: its pile, and
    its face-down agents in the stacks not yet turned over (a recycled agent was face up: public)."""
    i = state.seats.index(seat)
    player = state.players[i]
    slots = [("pile", k, 0) for k in range(len(player.pile))]
    slots += [
        ("stack", c, k)
        for c, stack in enumerate(state.stacks)
        for k, pl in enumerate(stack)
        if pl.seat == seat and pl.agent is not None and not pl.recycled
    ]
    dealt = [player.pile[k] if where == "pile" else state.stacks[c][k].agent for where, c, k in slots]
    rng.shuffle(dealt)
    pile = list(player.pile)
    stacks = [list(s) for s in state.stacks]
    for (where, c, k), agent in zip(slots, dealt, strict=True):
        if where == "pile":
            pile[k] = agent  # type: ignore[assignment]
        else:
            stacks[c][k] = replace(stacks[c][k], agent=agent)
    players = list(state.players)
    players[i] = replace(player, pile=tuple(pile))
    return replace(state, players=tuple(players), stacks=tuple(tuple(s) for s in stacks))


def audience(client: str) -> Audience:
    return TABLE if client == TABLE_SEAT else Audience.of_seat(client)


class Checker:
    def __init__(self, game: Game[VMState], rng: random.Random, states: dict[int, VMState]) -> None:
        self.game = game
        self.rules = game.rules
        self.rng = rng
        self.owner_saw_change = 0
        self.checked = 0
        self.spoken = 0
        # the seq before the action that led to each seq (no speech for an undo)
        self.came_from = {after: before for before, after, undo in action_spans(game) if not undo}
        self.states = states

    def sees(self, state: VMState, client: str) -> tuple[Any, Any]:
        return self.rules.view(state, audience(client)), self.rules.legal(state, audience(client))

    def heard(self, seq: int, secret_seat: str | None = None) -> tuple[str, ...]:
        """What the table's speaker says about the action that led to ``seq``; with ``secret_seat``,
        in twins where that seat's hidden agents are dealt anew (before and after the action)."""
        before = self.came_from.get(seq)
        if before is None:
            return ()
        first, then = self.states[before], self.states[seq]
        if secret_seat is not None:
            first, then = hidden_twin(first, secret_seat, self.rng), hidden_twin(then, secret_seat, self.rng)
        return spoken(self.rules, first, then)

    def check(self, client: str, message: dict[str, Any], states: dict[int, VMState]) -> None:
        if message["type"] != "state":
            # Welcomes, acks and refusals name no agent at all.
            assert not any(a in json.dumps(message) for a in AGENTS), (client, message)
            return
        state = states[message["seq"]]
        view, legal = self.sees(state, client)
        assert message["view"] == view and message["legal"] == legal, f"{client} got another audience's snapshot"
        heard = self.heard(message["seq"])
        self.spoken += bool(heard)
        for seat in state.seats:
            if seat == client:
                continue
            twin = hidden_twin(state, seat, self.rng)
            assert self.sees(twin, client) == (view, legal), f"{client} can tell {seat}'s hidden agents apart"
            assert self.heard(message["seq"], seat) == heard, f"the table's words tell {seat}'s hidden agents apart"
            if self.sees(twin, seat) != self.sees(state, seat):
                self.owner_saw_change += 1
        self.checked += 1


async def probe(phone: Phone, seq: int, state: VMState) -> None:
    """A phone that is not the one asked names each agent in turn; the refusals must not differ."""
    active = state.active_seat
    kinds = [
        lambda a: {"kind": "vm.place", "seat": active, "city": "london", "agent": a, "recycle": False},
        lambda a: {"kind": "vm.reveal", "agent": a},
    ]
    for make in kinds:
        answers = []
        for agent in AGENTS:
            reply = await phone.intent(seq, make(agent))
            assert reply["type"] == "refused", reply
            answers.append((reply["code"], reply["params"], reply["text"]))
        assert len(set(map(json.dumps, answers))) == 1, answers


async def play(tmp_path: Path, players: int, seed: int, lang: str) -> tuple[int, int]:
    async with rig(tmp_path, "victorian_masterminds", config(players, start=3)) as r:
        game = r.table.game
        assert game is not None
        announcer = Announcer(r.table, recording_speaker(), language=lambda: lang, pref=lambda k, d: k == "speech" or d)
        announcer.start()
        clients = [*game.rules.seats(game.state), TABLE_SEAT]
        phones = await r.connect_all(clients)
        rng = random.Random(seed)
        states = {game.seq: game.state}
        actions = 0
        while game.outcome() is None:
            assert actions < 1500, "the random game should end"
            intent, actor = random_intent(game.state, rng)
            who = TABLE_SEAT if actor.is_table else actor.seat
            assert who is not None
            res = game.state.resolution
            asked = res.current.seat if res is not None and res.current is not None else None
            others = [c for c in clients if c not in (who, TABLE_SEAT, game.state.active_seat, asked)]
            if others and actions % 25 == 7:
                await probe(phones[rng.choice(others)], game.seq, game.state)
            reply = await phones[who].intent(game.seq, {"kind": intent.kind, **encode(intent)})  # type: ignore[dict-item]
            if reply["type"] == "refused" and reply["code"] == "vm.place_on_phone" and who == TABLE_SEAT:
                continue  # every seat has a phone: while its pile is unsure, that phone names the agent
            assert reply["type"] == "ack", reply
            states[game.seq] = game.state
            actions += 1
        for phone in phones.values():  # let the last state arrive everywhere
            if not any(json.loads(m).get("seq") == game.seq for m in phone.received):
                await phone.until("state", seq=game.seq)

        checker = Checker(game, random.Random(seed), states)
        for client, phone in phones.items():
            for raw in phone.received:
                checker.check(client, json.loads(raw), states)
        assert checker.checked >= actions  # every client got the states (a slow one may skip some)
        assert checker.owner_saw_change > actions // 4, "the shuffle never touched what an owner sees"
        assert checker.spoken > 0, "the table said something"
        assert all_said(announcer.speaker) == expected_speech(game, states, lang)
        assert isinstance(voice := announcer.speaker.voice, RecordingVoice)
        assert {u.lang for u in voice.said} == {lang}
        announcer.close()
        return actions, checker.checked


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed", "lang"), [(2, 1, "en"), (3, 2, "es"), (4, 3, "fr")])
def test_no_player_ever_receives_another_players_agents_or_pile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: int, seed: int, lang: str
) -> None:
    lift_flood_limit(monkeypatch)
    actions, checked = asyncio.run(play(tmp_path, players, seed, lang))
    assert actions > 50 and checked > 3 * actions
