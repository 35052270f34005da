"""The host page's socket and the landing page's room codes against a real server: the host token
opens it (and nothing else does), nothing secret is in what it is sent, a game is started and its
seats handed out by QR code or room code, seats are released, and a finished game comes with its
BG Stats link."""

from __future__ import annotations

import asyncio
import base64
import html
import io
import json
import re
import secrets
from pathlib import Path
from typing import Any

from hostrig import HostRig, host_rig
from PIL import Image
from pyzbar.pyzbar import decode

from companion.app import bgstats
from companion.app.roomcodes import GUESSES_PER_MINUTE, Turns
from companion.core import TABLE, Audience
from companion.games.scotland_yard.model import Move, PlaceDetectives, PlaceX, XMove

SY = {"mister_x": "Xavier", "detectives": ["Dora"]}


def qr_of(data_url: str) -> str:
    png = base64.b64decode(data_url.split(",", 1)[1])
    (found,) = decode(Image.open(io.BytesIO(png)))
    return found.data.decode("utf-8")


async def forwarded(r: HostRig, short: str) -> str:
    """Where a short BG Stats link on the Pi forwards a phone (its page's link and refresh agree)."""
    async with r.session.get(short) as answer:
        assert answer.status == 200
        page = await answer.text()
    (target,) = set(re.findall(r'href="([^"]+)"', page))
    assert f'content="1;url={target}"' in page
    return html.unescape(target)


def run(tmp_path: Path, scenario: Any) -> None:
    async def main() -> None:
        async with host_rig(tmp_path) as r:
            await scenario(r)

    asyncio.run(main())


def test_only_the_host_token_opens_the_host_page_and_failures_slow_down(tmp_path: Path) -> None:
    async def scenario(r: HostRig) -> None:
        for token in ("", "x" * 32, r.host.link.token()[:-1] + "?", 42):
            page = await r.host_page(token)  # type: ignore[arg-type]
            assert (await page.recv())["code"] == "host.invalid"
            assert (await page.recv())["type"].startswith("<")
        assert r.server.failures.delay("127.0.0.1") > 0  # the fourth failure already waits
        r.server.failures.succeeded("127.0.0.1")
        page = await r.host_page()
        assert (await page.recv())["type"] == "welcome"
        state = await page.until(lambda s: True)
        assert state["current"] is None and state["games"] == []
        assert {s["rules"] for s in state["setup"]} >= {"scotland_yard", "victorian_masterminds", "mykerinos"}
        # The token file is the service's: a new one cuts every page opened with the old one off.
        old = r.host.link.token()
        new = r.host.link.rotate()
        assert new != old and r.host.link.check(new) and not r.host.link.check(old)
        assert (Path(tmp_path) / "host-token").stat().st_mode & 0o777 == 0o600

    run(tmp_path, scenario)


def test_a_game_started_on_the_host_page_and_its_seats_handed_out(tmp_path: Path) -> None:
    async def scenario(r: HostRig) -> None:
        page = await r.host_page()
        await page.recv()
        await page.until(lambda s: True)
        refused = await page.do("new_game", rules="scotland_yard", setup={"mister_x": "Xavier"}, title="")
        assert refused["code"] == "host.setup_missing" and "detectives" in refused["text"]
        result = await page.ok("new_game", rules="scotland_yard", setup=SY, title="Friday")
        state = await page.until(lambda s: s["current"] is not None)
        current = state["current"]
        assert (current["id"], current["title"], current["game"]) == (result["game_id"], "Friday", "Scotland Yard")
        assert [(s["seat"], s["label"], s["claimed"]) for s in current["seats"]] == [
            ("mrx", "Xavier", False),
            ("d1", "Dora", False),
            ("@table", "Table screen (public)", False),
        ]
        tokens = r.tokens(["mrx", "d1", "@table"])
        # Nothing secret in what the host page is pushed: no seat token, no room code.
        for raw in page.received:
            assert not any(token in raw for token in tokens.values())

        shown = await page.ok("show_seat", seat="mrx")
        assert shown["url"] == f"{r.base}/s/{tokens['mrx']}"
        assert qr_of(shown["qr"]) == shown["url"]
        again = await page.ok("show_seat", seat="mrx")
        assert again["code"] == shown["code"]  # one code per shown seat
        status, answer = await r.join(shown["code"].lower())
        assert (status, answer) == (200, {"link": f"/s/{tokens['mrx']}"})
        status, answer = await r.join(shown["code"])  # one use
        assert status == 403 and answer["code"] == "room.invalid"

        x = await r.phone(tokens["mrx"])
        assert (await x.recv())["type"] == "welcome"
        state = await page.until(lambda s: s["current"]["seats"][0]["claimed"])
        assert state["current"]["seats"][0]["connected"]
        taken = await page.do("show_seat", seat="mrx")
        assert taken["code"] == "host.seat_taken"

        d1 = await page.ok("show_seat", seat="d1")
        dora = await r.phone(tokens["d1"])  # Dora scans the QR code instead of typing
        assert (await dora.recv())["type"] == "welcome"
        await page.until(lambda s: s["current"]["seats"][1]["claimed"])
        status, _ = await r.join(d1["code"])  # the code died when the seat was taken
        assert status == 403

        await page.ok("release_seat", seat="mrx")
        assert (await x.until("error"))["code"] == "link.released"
        state = await page.until(lambda s: not s["current"]["seats"][0]["claimed"])
        fresh = await page.ok("show_seat", seat="mrx")
        assert fresh["url"] != shown["url"] and fresh["code"] != shown["code"]
        assert (await page.do("show_seat", seat="d9"))["code"] == "host.no_seat"

        # Another game: the old game's codes are dead too.
        await page.ok("new_game", rules="mykerinos", setup={"seats": ["blue", "red"]}, title="")
        await page.until(lambda s: s["current"]["rules"] == "mykerinos")
        assert (await r.join(fresh["code"]))[0] == 403
        games = (await page.until(lambda s: len(s["games"]) == 2))["games"]
        assert {(g["rules"], g["current"]) for g in games} == {("mykerinos", True), ("scotland_yard", False)}

    run(tmp_path, scenario)


def test_wrong_room_codes_never_refuse_a_right_one(tmp_path: Path) -> None:
    """On main, after 30 wrong codes in a minute from anyone, every right code answered ``room.busy``."""

    async def scenario(r: HostRig) -> None:
        await r.table.new_game("scotland_yard", SY, "t")
        page = await r.host_page()
        await page.recv()
        shown = await page.ok("show_seat", seat="d1")
        r.host.join_failures.delay = lambda address: 0.0  # type: ignore[method-assign]  # only the turns here
        r.host.turns = Turns(per_minute=6000)  # the rate itself is tested in tests/app/test_roomcodes.py
        wrong = next(c for c in ("AAAAA", "BBBBB") if c != shown["code"])
        for _ in range(3 * GUESSES_PER_MINUTE):
            assert (await r.join(wrong))[0] == 403
        status, answer = await r.join(shown["code"])
        assert status == 200 and answer["link"].startswith("/s/")
        # Not a code at all, deeply nested JSON (on main: HTTP 500), a lone surrogate, too much: a code each.
        bodies = ["not json", json.dumps([1]), json.dumps({"code": 12345}), "[" * 2000 + "]" * 2000]
        for body in [*bodies, '{"code": "\\ud800BCDE"}', "x" * 10_000]:
            async with r.session.post(r.base + "/join", data=body) as resp:
                answer = await resp.json()
                assert resp.status in (403, 413) and answer["code"] in ("room.invalid", "malformed"), answer

    run(tmp_path, scenario)


def test_settings_saved_games_and_the_history_with_bgstats(tmp_path: Path) -> None:
    async def scenario(r: HostRig) -> None:
        page = await r.host_page()
        await page.recv()
        await page.ok("setting", key="sy.tracker", value=True)
        state = await page.until(lambda s: s["settings"]["sy.tracker"] is True)
        sy_setup = next(s for s in state["setup"] if s["rules"] == "scotland_yard")
        assert sy_setup["defaults"] == {"tracker": True, "bobbies_keep_game_alive": False}
        for key, value in (("sy.tracker", "yes"), ("vm.start_level.3", 12), ("nonsense", 1), ("language", "xx")):
            assert (await page.do("setting", key=key, value=value))["code"].startswith("setting.")
        # The table's speech: on or off, and a volume of 0 to 100 %; offered beside the games' preferences.
        assert {p["key"]: p for p in state["preferences"] if p["game"] == ""} == {
            "speech": {"key": "speech", "default": False, "choices": [False, True], "game": ""},
            "speech_volume": {"key": "speech_volume", "default": 80, "low": 0, "high": 100, "game": ""},
        }
        assert (state["settings"]["speech"], state["settings"]["speech_volume"]) == (False, 80)
        for key, value in (("speech", "on"), ("speech_volume", 101), ("speech_volume", True), ("speech_volume", -1)):
            assert (await page.do("setting", key=key, value=value))["code"] == "setting.value"
        await page.ok("setting", key="speech", value=True)
        await page.ok("setting", key="speech_volume", value=45)
        await page.until(lambda s: s["settings"]["speech"] is True and s["settings"]["speech_volume"] == 45)
        assert (r.prefs.get("speech"), r.prefs.get("speech_volume")) == (True, 45)
        await page.ok("setting", key="language", value="de")
        state = await page.until(lambda s: s["lang"] == "de")

        game_id = (await page.ok("new_game", rules="scotland_yard", setup=SY, title="Kurz"))["game_id"]
        t, mrx = r.table, Audience.of_seat("mrx")
        await t.submit(PlaceDetectives((("D1", 13), ("D2", 26), ("B1", 29), ("B2", 34))), TABLE, t.seq, game_id=game_id)
        await t.submit(PlaceX(51), mrx, t.seq, game_id=game_id)
        await t.submit(XMove("taxi", 67), mrx, t.seq, game_id=game_id)
        await t.submit(Move("D1", "underground", 67), TABLE, t.seq, game_id=game_id)
        state = await page.until(lambda s: s["current"] is not None and s["current"]["over"])
        result = state["current"]["result"]
        assert "Mister X ist gefasst" in result["how"]  # the table's language
        short = qr_of(result["bgstats"]["qr"])  # the code: a short link on the Pi ...
        assert short == result["bgstats"]["short"] and short.startswith(r.base + "/b/") and len(short) < 60
        link = result["bgstats"]["link"]  # ... that gives the whole link, as the page's button does
        assert await forwarded(r, short) == link
        data = bgstats.decode(link)
        assert isinstance(data, dict) and data["game"]["bggId"] == 438  # type: ignore[index]
        assert [p["winner"] for p in data["players"]] == [False, True]  # type: ignore[index,union-attr]
        assert data == bgstats.play_data(r.host.history.play(game_id, "de"))
        for wrong in (short[:-1] + ("0" if short[-1] != "0" else "1"), r.base + "/b/1", r.base + "/b/99-abcdefabcdef"):
            async with r.session.get(wrong) as answer:
                assert answer.status == 404 and "createPlay" not in await answer.text()

        history = await page.ok("history")
        plays = history["plays"]
        assert [p["game_id"] for p in plays] == [game_id] and "bgstats" not in plays[0]
        assert (history["page"], history["total"]) == (0, 1)
        assert qr_of((await page.ok("bgstats", game_id=game_id))["bgstats"]["qr"]) == short
        assert (await page.do("history", page=-1))["code"] == "malformed.field"

        await page.ok("close_game")
        await page.until(lambda s: s["current"] is None)
        await page.ok("open_game", id=game_id)
        await page.until(lambda s: s["current"] is not None and s["current"]["id"] == game_id)
        await page.ok("delete_game", id=game_id)
        await page.until(lambda s: s["games"] == [] and s["current"] is None)
        assert (await page.do("open_game", id=game_id))["code"] == "store.no_game"
        assert (await page.do("open_game", id="1"))["code"] == "malformed.field"
        assert (await page.do("launch_missiles"))["code"] == "malformed.unknown_kind"

    run(tmp_path, scenario)


def test_garbage_from_a_host_page_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async def scenario(r: HostRig) -> None:
        page = await r.host_page()
        await page.recv()
        await page.until(lambda s: True)
        for raw in ("{", "[]", json.dumps({"type": "do", "id": 1, "op": "new_game"}), json.dumps({"type": "x"})):
            await page.ws.send_str(raw)
            answer = await page.recv()
            while answer["type"] == "host":
                answer = await page.recv()
            assert answer["type"] == "refused" and answer["code"].startswith("malformed"), answer
        big = json.dumps({"type": "do", "id": 2, "op": "new_game", "args": {"x": secrets.token_hex(20000)}})
        await page.ws.send_str(big)
        assert (await page.recv())["type"].startswith("<")  # too big: the page is let go
        assert r.table.current is None

    run(tmp_path, scenario)


def test_a_host_link_made_by_root_belongs_to_the_data_directory_owner(tmp_path: Path) -> None:
    """`sudo companion host-link` before the service ever made one: the file is the service's."""
    import os

    from companion.app.hostlink import HostLink

    data = tmp_path / "data"
    data.mkdir()
    if os.geteuid() == 0:
        os.chown(data, 4321, 4321)  # the service's user owns its data directory
    token = HostLink(data).token()
    stat = (data / "host-token").stat()
    assert stat.st_mode & 0o777 == 0o600
    assert stat.st_uid == data.stat().st_uid
    assert HostLink(data).check(token) and not HostLink(data).check(token[::-1])


def test_ids_no_game_can_have_are_refused_with_a_code(tmp_path: Path, caplog: Any) -> None:
    """Issue 26, item 6: on main an id of 2^63 or more (``open_game``, ``delete_game``,
    ``bgstats``) was an error in SQLite, logged as "a host request failed" with a traceback."""

    async def scenario(r: HostRig) -> None:
        page = await r.host_page()
        await page.recv()
        for op, key in (("open_game", "id"), ("delete_game", "id"), ("bgstats", "game_id")):
            for value in (2**63, 2**64 + 5, -(2**63) - 1):
                answer = await page.do(op, **{key: value})
                assert answer["type"] == "refused" and answer["code"] == "malformed.field", (op, value, answer)
        assert (await page.do("open_game", id=2**63 - 1))["code"] == "store.no_game"  # the largest there can be

    run(tmp_path, scenario)
    assert not [r for r in caplog.records if r.exc_info or "failed" in r.getMessage()]


def test_a_new_games_form_starts_with_who_played_the_last_game_of_that_box(tmp_path: Path) -> None:
    """Players' names are optional at every setup and remembered: the host page's new-game form of a
    box starts from the names (and colours) of the last game of that box; the table's settings stay."""

    async def scenario(r: HostRig) -> None:
        page = await r.host_page()
        await page.until(lambda s: True)
        vm_players = [
            {"seat": "p1", "colour": "red", "machine": 1, "name": "Ann"},
            {"seat": "p2", "colour": "blue", "machine": 2},
        ]
        await page.ok(
            "new_game", rules="victorian_masterminds", setup={"players": vm_players, "secret_service_start": 4}
        )
        await page.ok("new_game", rules="mykerinos", setup={"seats": ["red", "blue"], "names": {"red": "Ann"}})
        await page.ok("new_game", rules="scotland_yard", setup={"mister_x": "Xavier", "detectives": ["Dora", "Emil"]})
        state = await page.until(lambda s: len(s["games"]) == 3)
        defaults = {s["rules"]: s["defaults"] for s in state["setup"]}
        assert defaults["victorian_masterminds"]["players"] == vm_players
        assert defaults["mykerinos"]["seats"] == ["red", "blue"] and defaults["mykerinos"]["names"] == {"red": "Ann"}
        assert defaults["scotland_yard"] == {
            "mister_x": "Xavier",
            "detectives": ["Dora", "Emil"],
            "tracker": False,
            "bobbies_keep_game_alive": False,
        }
        keys = {k["key"]: k["remembered"] for s in state["setup"] if s["rules"] == "mykerinos" for k in s["keys"]}
        assert keys == {"seats": True, "layout": False, "neutral": False, "names": True, "last_zone": False}
        assert (
            await page.do("new_game", rules="mykerinos", setup={"seats": ["red", "blue"], "names": {"green": "X"}})
        )["code"] == "myk.setup.names"

    run(tmp_path, scenario)


def test_the_host_page_ends_a_game_as_the_touchscreen_does(tmp_path: Path) -> None:
    """The touchscreen's "End the game now" is on the host page too (Scotland Yard: the table stops
    the game, nobody wins, his route is shown to everyone); a game that offers no such end is not."""

    async def scenario(r: HostRig) -> None:
        page = await r.host_page()
        await page.until(lambda s: True)
        await page.ok("new_game", rules="mykerinos", setup={"seats": ["red", "blue"]})
        state = await page.until(lambda s: s["current"] is not None and s["current"]["rules"] == "mykerinos")
        assert state["current"]["can_end"] is False
        assert (await page.do("end_game", seq=r.table.seq))["code"] == "host.cannot_end"
        await page.ok("new_game", rules="scotland_yard", setup=SY)
        state = await page.until(lambda s: s["current"] is not None and s["current"]["rules"] == "scotland_yard")
        assert state["current"]["can_end"] is True
        stale = r.table.seq - 1
        assert (await page.do("end_game", seq=stale))["code"] == "stale"
        await page.ok("end_game", seq=r.table.seq)
        state = await page.until(lambda s: s["current"] is not None and s["current"]["over"])
        assert (
            state["current"]["can_end"] is False
            and state["current"]["result"]["how"] == "The game was ended at the table."
        )
        assert r.table.current is not None and r.table.current.source(r.table.seq) == "host"

    run(tmp_path, scenario)
