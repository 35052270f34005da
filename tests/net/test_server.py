"""The phone server against real clients on a loopback port: join, claim, taken seats, release,
reconnect, stale and foreign intents, and hostile input that must not harm the game."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import aiohttp
from harness import Rig, rig

from companion.core import TABLE
from companion.net import server as server_module


def run(coro) -> None:  # type: ignore[no-untyped-def]
    asyncio.run(coro)


async def start_toy(r: Rig) -> None:
    from toygame import Draw

    await r.table.submit(Draw(), TABLE, r.table.seq, game_id=r.table.current.header.id)


def test_join_claim_taken_release_reconnect(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rig(tmp_path, "toy", {}) as r:
            await start_toy(r)
            tokens = r.tokens(["a", "b"])
            a = await r.phone(tokens["a"])
            welcome = await a.recv()
            assert {k: welcome[k] for k in ("type", "seat", "lang", "own_lang")} == {
                "type": "welcome",
                "seat": "a",
                "lang": "en",
                "own_lang": False,
            }
            state = await a.until("state")
            assert state["view"]["secret"] == r.table.game.state.secrets[0]  # type: ignore[index,union-attr]

            # A second device with the same link: "seat taken", and nothing else.
            thief = await r.phone(tokens["a"])
            taken = await thief.recv()
            assert taken["type"] == "error" and taken["code"] == "link.taken"
            assert (await thief.recv())["type"].startswith("<")  # closed
            assert all("secret" not in m for m in thief.received)

            # The same device again (reload, sleep, new network): same seat, current view at once.
            await a.close()
            again = await r.phone(tokens["a"], device=a.device)
            assert (await again.recv())["seat"] == "a"
            assert (await again.until("state"))["seq"] == r.table.seq

            # The table releases the seat: the phone is told and dropped, the old token is dead.
            new_token = await r.server.release(r.table.current.header.id, "a")  # type: ignore[union-attr]
            assert (await again.until("error"))["code"] == "link.released"
            old = await r.phone(tokens["a"], device=a.device)
            assert (await old.recv())["code"] == "link.invalid"
            fresh = await r.phone(new_token)
            assert (await fresh.recv())["type"] == "welcome"

    run(scenario())


def test_intents_are_checked_per_seat_and_acked_after_state(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rig(tmp_path, "toy", {}) as r:
            await start_toy(r)
            tokens = r.tokens(["a", "b"])
            a, b = await r.phone(tokens["a"]), await r.phone(tokens["b"])
            await a.until("state")
            await b.until("state")
            seq = r.table.seq
            # b may not act for a.
            refused = await b.intent(seq, {"kind": "toy.add", "seat": "a", "amount": 1})
            assert refused["code"] == "forbidden.seat" and refused["type"] == "refused"
            # a acts; the state it confirms arrives before the ack.
            a.received.clear()
            ack = await a.intent(seq, {"kind": "toy.add", "seat": "a", "amount": 2})
            assert ack == {"type": "ack", "id": 1, "seq": seq + 1}
            states = [json.loads(m) for m in a.received if json.loads(m)["type"] == "state"]
            assert states and states[-1]["seq"] == seq + 1
            # b, still looking at the old state, is refused as stale.
            stale = await b.intent(seq, {"kind": "toy.add", "seat": "b", "amount": 1})
            assert stale["code"] == "stale"
            assert r.table.seq == seq + 1

    run(scenario())


def test_garbage_and_floods_are_refused_while_the_game_goes_on(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rig(tmp_path, "toy", {}) as r:
            await start_toy(r)
            tokens = r.tokens(["a", "b"])
            a, b = await r.phone(tokens["a"]), await r.phone(tokens["b"])
            await a.until("state")
            await b.until("state")
            seq = r.table.seq
            for garbage in [
                "{",
                "null",
                "[]",
                '"x"',
                json.dumps({"type": "intent"}),
                json.dumps({"type": "intent", "id": 5, "seq": seq, "intent": {"kind": "nope"}}),
                json.dumps({"type": "hack", "id": 1, "seq": 0, "intent": {}}),
            ]:
                await b.send(garbage)
                reply = await b.until("refused")
                assert reply["code"].startswith("malformed"), reply
            # Too big: the server closes that connection only.
            await b.send("x" * (server_module.MAX_MESSAGE + 10))
            closing = await b.recv()
            assert closing["type"].startswith("<")
            # a plays on unharmed.
            ack = await a.intent(seq, {"kind": "toy.add", "seat": "a", "amount": 1})
            assert ack["type"] == "ack"

            # A flood: a burst far beyond the bucket is refused and the flooder is cut off.
            flooder = await r.phone(tokens["b"], device=b.device)
            await flooder.until("state")
            for i in range(200):
                await flooder.send(
                    {"type": "intent", "id": i, "seq": 0, "intent": {"kind": "toy.add", "seat": "b", "amount": 1}}
                )
            kinds = []
            while True:
                msg = await flooder.recv()
                kinds.append(msg.get("code", msg["type"]))
                if msg["type"].startswith("<"):
                    break
            assert "flood" in kinds, (len(kinds), kinds[-3:])
            assert r.table.seq == seq + 1  # nothing from the flood reached the game (all were stale anyway)
            ack = await a.intent(r.table.seq, {"kind": "core.undo"})
            assert ack["type"] == "ack"

    run(scenario())


def test_guessed_tokens_look_like_malformed_hellos_and_are_slowed_down(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rig(tmp_path, "toy", {}) as r:
            real = r.tokens(["a"])["a"]
            answers = []
            for hello in [
                {"type": "hello", "token": real[:-1] + ("A" if real[-1] != "A" else "B"), "device": "ab" * 32},
                {"type": "hello", "token": "x" * 32, "device": "ab" * 32},
                {"type": "hello", "token": real, "device": "short"},
                {"type": "hello"},
                "not json",
            ]:
                ws = await r.session.ws_connect(r.base + "/ws")
                await ws.send_str(hello if isinstance(hello, str) else json.dumps(hello))
                started = time.monotonic()
                msg = await ws.receive(timeout=20)
                answers.append((msg.data, time.monotonic() - started))
                await ws.close()
            assert len({data for data, _ in answers}) == 1, "every bad hello gets the same answer"
            assert json.loads(answers[0][0])["code"] == "link.invalid"
            assert answers[-1][1] >= 0.4 > answers[0][1], "repeated failures are slowed down"
            # The page itself is the same bytes for any token.
            async with r.session.get(r.base + "/s/" + real) as good, r.session.get(r.base + "/s/guess") as bad:
                assert good.status == bad.status == 200
                assert await good.read() == await bad.read()
            async with r.session.get(r.base + "/static/../store.py") as resp:
                assert resp.status == 404
            async with r.session.get(r.base + "/texts/de.json") as resp:
                texts = await resp.json()
                assert texts["phone.connected"] == "verbunden" and texts["stale"].startswith("Das Spiel")

    run(scenario())


def test_oversized_http_requests_are_refused(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rig(tmp_path, "toy", {}) as r:
            async with r.session.post(r.base + "/ws", data=b"x" * 100_000) as resp:
                assert resp.status in (405, 413)
            try:
                async with r.session.get(r.base + "/s/x", headers={"X-Big": "y" * 20_000}) as resp:
                    assert resp.status in (400, 431)
            except aiohttp.ClientError:
                pass  # the server may simply drop it

    run(scenario())
