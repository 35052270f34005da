"""The touchscreen's parts of hosting, in the real app: a seat's QR code with its room code (which
the landing page trades for that seat's link), the host page's QR code on the Phones screen, the
BG Stats QR code on an end screen and in the play history — each read back with zbar from a
screenshot of the 800×480 window, as a phone's camera would read the screen."""

from __future__ import annotations

import asyncio
import html
import json
import re
import urllib.request
from pathlib import Path

import aiohttp
from driver import AppProcess
from PIL import Image
from pyzbar.pyzbar import decode

from companion.app import bgstats
from companion.app.history import History
from companion.app.store import Store
from companion.app.table import Table
from companion.core import TABLE, Audience
from companion.games.scotland_yard.model import Move, PlaceDetectives, PlaceX, XMove


def codes_on(path: Path) -> list[str]:
    return [d.data.decode("utf-8") for d in decode(Image.open(path))]


def prepare(data: Path) -> tuple[int, int]:
    """A finished Scotland Yard game (D1 catches Mister X in round 1), then a new one left open."""

    async def play() -> tuple[int, int]:
        store = Store(data / "companion.sqlite3")
        table = Table(store)
        await table.start()
        mrx = Audience.of_seat("mrx")
        over = await table.new_game("scotland_yard", {"mister_x": "Xavier", "detectives": ["Dora"]}, "Caught")
        for intent, actor in (
            (PlaceDetectives((("D1", 13), ("D2", 26), ("B1", 29), ("B2", 34))), TABLE),
            (PlaceX(51), mrx),
            (XMove("taxi", 67), mrx),
            (Move("D1", "underground", 67), TABLE),
        ):
            await table.submit(intent, actor, table.seq, game_id=over)
        running = await table.new_game("scotland_yard", {"mister_x": "Yves", "detectives": ["Emil", "Fay"]}, "Open")
        await table.stop()
        store.close()
        return over, running

    data.mkdir(parents=True, exist_ok=True)
    return asyncio.run(play())


def join(base: str, code: str) -> dict[str, str]:
    request = urllib.request.Request(
        base + "/join", data=json.dumps({"code": code}).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=20) as answer:
        result: dict[str, str] = json.loads(answer.read())
        return result


def host_page_opens(url: str) -> bool:
    async def hello() -> bool:
        base, token = url.split("/h/")
        async with aiohttp.ClientSession() as session, session.ws_connect(base + "/host/ws") as ws:
            await ws.send_str(json.dumps({"type": "hello", "token": token}))
            first = await ws.receive_json(timeout=20)
            return bool(first["type"] == "welcome")

    return asyncio.run(hello())


def forwarded(short: str) -> str:
    """The whole createPlay link a short BG Stats link on the Pi forwards to."""
    with urllib.request.urlopen(short, timeout=20) as answer:
        page = answer.read().decode("utf-8")
    (target,) = set(re.findall(r'href="([^"]+)"', page))
    return html.unescape(target)


def test_room_codes_host_link_and_bgstats_on_the_touchscreen(display: str, tmp_path: Path) -> None:
    app = AppProcess(display, tmp_path)
    over, running = prepare(app.data)
    base = f"http://127.0.0.1:{app.port}"
    app.start()
    try:
        app.wait_screen("game")
        app.tap("game.seats")
        app.wait_screen("seats")
        app.tap("seats.show.mrx")
        try:
            state = app.wait(lambda s: "seats.qr.code" in s["tids"], what="the room code")
        except AssertionError:
            print(app.log()[-5000:])
            raise
        shot = app.screenshot("seats-room-code")
        (seat_url,) = codes_on(shot)
        code_line = state["tids"]["seats.qr.code"]["text"]
        code = code_line.split()[2]
        assert code_line == f"or type {code} at {base}/"
        assert join(base, code) == {"link": seat_url.removeprefix(base)}
        assert state["tids"]["seats.qr.url"]["text"].replace("\n", "") == seat_url  # whole, to be typed
        assert app.clipped() == []

        app.tap("seats.host")
        app.wait(lambda s: "host" in s["tids"].get("seats.qr.caption", {}).get("text", "").lower(), what="host QR")
        (host_url,) = codes_on(app.screenshot("seats-host-link"))
        assert host_url.startswith(f"{base}/h/") and host_page_opens(host_url)
        # a laptop has no camera: the link is shown whole (address, then token), nothing cut off
        shown = app.state()["tids"]["seats.qr.url"]["text"]
        assert shown == f"{base}/h/\n{host_url.rsplit('/', 1)[1]}", shown
        assert app.clipped() == []

        app.tap("seats.back")
        app.tap("game.home")
        app.wait_screen("start")
        app.tap("start.history")
        app.wait_screen("history")
        app.tap(f"history.bgstats.{over}")
        app.wait(lambda s: "history.qr" in s["tids"], what="the history's BG Stats code")
        with Store(app.data / "companion.sqlite3") as store:
            expected = bgstats.play_data(History(store).play(over))
        (short,) = codes_on(app.screenshot("history-bgstats"))  # the Pi's short link, forwarding to the whole one
        assert short.startswith(f"{base}/b/") and bgstats.decode(forwarded(short)) == expected

        app.tap("history.back")
        app.tap("start.saved")
        app.tap(f"saved.open.{over}")
        app.wait_screen("end")
        app.screenshot("end-result")
        app.tap("end.bgstats_toggle")  # the end screen's "BG Stats" button
        app.wait(lambda s: "end.bgstats" in s["tids"], what="the end screen's BG Stats code")
        (code,) = codes_on(app.screenshot("end-bgstats"))
        assert code == short
        app.tap("end.bgstats_toggle")
        app.wait(lambda s: "end.headline" in s["tids"], what="the result again")
        assert expected["players"] == [  # type: ignore[comparison-overlap]
            {"name": "Xavier", "sourcePlayerId": "xavier", "startPlayer": True, "winner": False, "role": "Mister X"},
            {"name": "Dora", "sourcePlayerId": "dora", "startPlayer": False, "winner": True, "role": "Detective"},
        ]
    finally:
        app.stop()
    assert running != over
