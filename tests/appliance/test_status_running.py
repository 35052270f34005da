"""``companion status`` asks the running table (issue 42, items 1 and 14): its help promised the
phones, but it showed only what systemd was told. A real ``companion serve`` with a Scotland Yard
game, a phone on Mister X's seat (a real web socket), and speech switched on from the host page
while the Pi has no speaker: the report names the game, the phone by its player's name, and says
the voice cannot be heard, with ALSA's reason, in the table's language."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path
from typing import Any

import aiohttp
from served import Box, stop

SETUP = json.dumps({"mister_x": "Xavier", "detectives": ["Dora"]})


async def _phone_and_speech(box: Box, token: str, host: str) -> Any:
    session = aiohttp.ClientSession()
    phone = await session.ws_connect(f"http://127.0.0.1:{box.port}/ws")
    await phone.send_json({"type": "hello", "token": token, "device": "ab" * 32})
    page = await session.ws_connect(f"http://127.0.0.1:{box.port}/host/ws")
    await page.send_json({"type": "hello", "token": host})
    await page.send_json({"type": "do", "id": 1, "op": "setting", "args": {"key": "speech", "value": True}})
    while True:
        data = json.loads((await page.receive(timeout=30)).data)
        if data["type"] == "done" and data.get("id") == 1:
            break
    return session, phone, page


def _report(box: Box, *args: str, until: str = "", timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        done = box.cli(*args, "status")
        assert done.returncode == 0, done.stderr
        if until in done.stdout or time.monotonic() > deadline:
            return done.stdout
        time.sleep(0.5)


def test_status_shows_the_running_tables_game_phones_and_a_voice_nobody_hears(tmp_path: Path) -> None:
    box = Box(tmp_path)
    box.config.write_text(box.config.read_text() + '[speech]\nvoice = "espeak"\ndevice = "nospeakerhere"\n')
    assert box.cli("new", "scotland_yard", "--setup", SETUP).returncode == 0
    server = box.serve()
    try:
        made = box.cli("host-link")
        host = made.stdout.strip().rsplit("/h/", 1)[1]

        async def scenario() -> None:
            session, phone, page = await _phone_and_speech(box, box.token("mrx"), host)
            try:
                report = await asyncio.to_thread(_report, box, until="nospeakerhere")
                table = next(line for line in report.splitlines() if line.startswith("table:"))
                assert "game 1 scotland_yard" in table and "1 phone connected: Xavier (mrx)" in table, report
                warning = [line for line in report.splitlines() if "cannot be heard" in line]
                assert len(warning) == 1 and "Unknown PCM nospeakerhere" in warning[0], report
                data = json.loads(await asyncio.to_thread(lambda: box.cli("status", "--json").stdout))
                assert data["table"]["phones"] == [{"seat": "mrx", "name": "Xavier"}]
                assert [code for code, _params in data["table"]["warnings"]] == ["appliance.health.voice"]
                german = await asyncio.to_thread(_report, box, "--lang", "de", until="Tisch")
                assert any(line.startswith("Tisch:") and "1 Handy verbunden" in line for line in german.splitlines())
            finally:
                await phone.close()
                await page.close()
                await session.close()

        asyncio.run(scenario())
    finally:
        stop(server, signal.SIGTERM)
