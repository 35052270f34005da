"""The Pi's own warnings where people look: the touchscreen's start screen and the host page.

A power supply too weak for the Pi (under-voltage: SD cards break, readers drop out) and a Pi slowed
down by heat used to show only in ``companion status`` and the log, which nobody at a table reads.
``vcgencmd`` is the Pi's own tool; off a Pi a stand-in on the PATH answers as a Pi with a weak
supply does (``throttled=0x50005``: under-voltage and throttled now, and since boot).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import aiohttp
from driver import AppProcess

from companion.app.hostlink import HostLink


def vcgencmd(folder: Path, value: str) -> Path:
    folder.mkdir(exist_ok=True)
    exe = folder / "vcgencmd"
    exe.write_text(f'#!/bin/sh\n[ "$1" = get_throttled ] && echo "throttled={value}" || exit 1\n')
    exe.chmod(0o755)
    return folder


async def host_warnings(port: int, token: str) -> list[str]:
    async with aiohttp.ClientSession() as session, session.ws_connect(f"http://127.0.0.1:{port}/host/ws") as ws:
        await ws.send_str(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads((await ws.receive(timeout=30)).data)
            if message["type"] == "host":
                return list(message["warnings"])


def test_under_voltage_shows_on_the_start_screen_and_the_host_page(display: str, tmp_path: Path) -> None:
    import os

    bin_dir = vcgencmd(tmp_path / "bin", "0x50005")
    app = AppProcess(display, tmp_path, extra_env={"PATH": f"{bin_dir}:{os.environ['PATH']}"})
    app.start()
    try:
        state = app.wait(lambda s: "start.health" in s["tids"], timeout=30, what="the Pi's warnings")
        shown = [t for t in state["texts"] if t.startswith(("Under-voltage", "The Pi is slowed"))]
        assert shown == [
            "Under-voltage now: the power supply is too weak (use the official one). It corrupts SD cards "
            "and drops readers.",
            "The Pi is slowed down now (heat or power): it may answer slowly.",
        ]
        app.screenshot("start_under_voltage")
        token = HostLink(app.data).token()
        warnings = asyncio.run(host_warnings(app.info()["port"], token))
        assert warnings == shown
    finally:
        app.stop()


def nmcli_down(folder: Path, ssid: str) -> Path:
    """NetworkManager's nmcli as on a Pi whose hotspot is set up to come up at boot (``companion
    hotspot on``) but is not up: its Wi-Fi radio blocked (rfkill), the device "unavailable"."""
    folder.mkdir(exist_ok=True)
    exe = folder / "nmcli"
    exe.write_text(
        "#!/bin/sh\n"
        'case "$*" in\n'
        '  *"connection show id companion-hotspot")\n'
        f'    printf "802-11-wireless.ssid:{ssid}\\nconnection.autoconnect:yes\\n" ;;\n'
        '  *"connection show --active") echo "lo" ;;\n'
        '  *"TYPE,STATE device") printf "wifi:unavailable\\nloopback:unmanaged\\n" ;;\n'
        "  *) exit 2 ;;\n"
        "esac\n"
    )
    exe.chmod(0o755)
    return folder


def test_a_hotspot_set_up_but_down_is_said_on_the_start_screen_and_the_host_page(display: str, tmp_path: Path) -> None:
    """Issue 42: phones look for the table's own Wi-Fi, which is not there, and only NetworkManager
    knows. The start screen and the host page say so, with the network's name and the radio's state."""
    import os

    bin_dir = nmcli_down(vcgencmd(tmp_path / "bin", "0x0"), "Spieleabend")
    app = AppProcess(display, tmp_path, extra_env={"PATH": f"{bin_dir}:{os.environ['PATH']}"})
    app.start()
    try:
        state = app.wait(lambda s: "start.health" in s["tids"], timeout=30, what="the hotspot's warning")
        shown = [t for t in state["texts"] if t.startswith("The phones' Wi-Fi")]
        assert shown == [
            "The phones' Wi-Fi “Spieleabend” is set up but not on (Wi-Fi: unavailable): phones cannot join it. "
            "Check the Wi-Fi, then: sudo companion hotspot on"
        ]
        app.screenshot("start_hotspot_down")
        token = HostLink(app.data).token()
        assert asyncio.run(host_warnings(app.info()["port"], token)) == shown
    finally:
        app.stop()


def test_a_healthy_pi_shows_no_warning(display: str, tmp_path: Path) -> None:
    import os

    bin_dir = vcgencmd(tmp_path / "bin", "0x0")
    app = AppProcess(display, tmp_path, extra_env={"PATH": f"{bin_dir}:{os.environ['PATH']}"})
    app.start()
    try:
        app.wait(lambda s: s["screen"] == "start", timeout=30)
        token = HostLink(app.data).token()
        assert asyncio.run(host_warnings(app.info()["port"], token)) == []  # read by now: the page is up
        assert "start.health" not in app.state()["tids"]
    finally:
        app.stop()


def test_files_a_card_damaged_are_said_on_the_start_screen_in_the_tables_language(display: str, tmp_path: Path) -> None:
    """The saved games torn (as a card may leave them whatever was flushed): the table starts
    without them, the start screen says so and where the copy is kept, as does the host page. (The
    tag table is read only by a box with parts: tests/powercut/test_torn_files.py has it.)"""
    import os

    bin_dir = vcgencmd(tmp_path / "bin", "0x0")
    app = AppProcess(display, tmp_path, language="de", extra_env={"PATH": f"{bin_dir}:{os.environ['PATH']}"})
    app.data.mkdir(mode=0o700, parents=True, exist_ok=True)
    (app.data / "companion.sqlite3").write_bytes(bytes(4096) + b"SQLite format 3\x00" * 64)
    app.start()
    try:
        state = app.wait(lambda s: "start.health" in s["tids"], timeout=30, what="the damaged files")
        shown = [t for t in state["texts"] if "konnte" in t]
        assert len(shown) == 1, state["texts"]
        assert shown[0].startswith("Die gespeicherten Spiele konnten") and "companion.sqlite3.damaged-" in shown[0]
        app.screenshot("start_damaged_files_de")
        token = HostLink(app.data).token()
        assert asyncio.run(host_warnings(app.info()["port"], token)) == shown
    finally:
        app.stop()
    copies = sorted(p.name for p in app.data.iterdir() if ".damaged-" in p.name)
    assert [c.partition(".damaged-")[0] for c in copies] == ["companion.sqlite3"]


def test_speech_that_cannot_be_heard_says_so_until_a_speaker_is_there(display: str, tmp_path: Path) -> None:
    """Speech switched On with no speaker used to say nothing anywhere but the log, and Settings
    still said On. The real voice (espeak-ng into ALSA's aplay) on an ALSA device that does not
    exist yet: Settings, the start screen and the host page say the table cannot be heard and
    ALSA's reason. Then the device appears (the user's ALSA configuration names it: a speaker set
    up) and the next words are heard: every warning goes."""
    home = tmp_path / "home"
    home.mkdir()
    app = AppProcess(display, tmp_path, extra_env={"HOME": str(home)})
    app.config.write_text(
        app.config.read_text("utf-8").replace('voice = "record"', 'voice = "espeak"\ndevice = "tablespeaker"'), "utf-8"
    )
    app.start()
    try:
        app.tap("start.settings")
        app.wait_screen("settings")
        assert "settings.voice" not in app.state()["tids"]  # speech is off: nothing to say
        app.tap("settings.speech.on")  # the table says a sentence at once: it cannot be heard
        state = app.wait(lambda s: "settings.voice" in s["tids"], timeout=30, what="the voice's warning")
        words = state["tids"]["settings.voice"]["text"]
        assert words.startswith("Speech is on, but the table cannot be heard") and "tablespeaker" in words, words
        app.screenshot("settings_voice_unheard")
        token = HostLink(app.data).token()
        assert words in asyncio.run(host_warnings(app.info()["port"], token))
        app.tap("settings.back")
        assert words in app.wait(lambda s: "start.health" in s["tids"], what="the start screen's warning")["texts"]

        (home / ".asoundrc").write_text("pcm.tablespeaker { type null }\n")  # a speaker is set up
        app.tap("start.settings")
        app.wait_screen("settings")
        app.tap("settings.volume.60")  # the table says how loud it speaks: heard now
        app.wait(lambda s: "settings.voice" not in s["tids"], timeout=30, what="the warning gone")
        assert not any(t.startswith("Speech is on") for t in asyncio.run(host_warnings(app.info()["port"], token)))
    finally:
        app.stop()
