"""`companion hotspot` against a NetworkManager stand-in, `companion status`, `--version`, texts."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.app.config import load_config
from companion.app.i18n import LANGUAGES, package_texts, text
from companion.app.store import Store
from companion.app.table import Table
from companion.appliance import hotspot, status
from companion.appliance.hotspot import Hotspot, HotspotError

ROOT = Path(__file__).resolve().parents[2]

# nmcli as far as the hotspot needs it: keeps its connections in a folder, logs every call.
NMCLI = r"""#!/bin/sh
state="$NMCLI_STATE"
echo "$*" >> "$state/calls"
case "$*" in
  "-t -f NAME connection show --active") cat "$state/active" 2>/dev/null || true ;;
  "-t -f NAME connection show") cat "$state/known" 2>/dev/null || true ;;
  "connection add "*) echo companion-hotspot >> "$state/known"; printf '%s\n' "$@" > "$state/added"
    rm -f "$state/autoconnect" ;;
  "-t -f 802-11-wireless.ssid,connection.autoconnect connection show id companion-hotspot")
    grep -qx companion-hotspot "$state/known" 2>/dev/null || { echo "Error: no such connection" >&2; exit 10; }
    echo "802-11-wireless.ssid:$(awk 'p{print;exit} $0=="ssid"{p=1}' "$state/added")"
    echo "connection.autoconnect:$(cat "$state/autoconnect" 2>/dev/null || echo yes)" ;;
  "-t -f TYPE,STATE device")
    echo "wifi:$(cat "$state/wifi" 2>/dev/null || echo connected)"; echo "loopback:unmanaged" ;;
  "connection up id companion-hotspot") echo companion-hotspot > "$state/active" ;;
  "connection down id companion-hotspot")
    [ -s "$state/active" ] || { echo "Error: not active" >&2; exit 10; }
    : > "$state/active" ;;
  "connection delete id companion-hotspot") : > "$state/known"; : > "$state/active" ;;
  "connection modify id companion-hotspot connection.autoconnect no") echo no > "$state/autoconnect" ;;
  *) echo "Error: unexpected $*" >&2; exit 2 ;;
esac
"""


@pytest.fixture
def nmcli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir, state = tmp_path / "bin", tmp_path / "nm"
    bin_dir.mkdir()
    state.mkdir()
    (bin_dir / "nmcli").write_text(NMCLI)
    (bin_dir / "nmcli").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.setenv("NMCLI_STATE", str(state))
    return state


def test_a_hotspot_that_went_down_is_said_until_it_is_up_or_switched_off(nmcli: Path) -> None:
    """Issue 42: the phones' own Wi-Fi can fail quietly (the radio blocked, the chip not starting
    the access point): phones look for a network that is not there and the table says nothing.
    Set up to come up at boot but not up now is a warning, with the Wi-Fi device's state; never set
    up, up, or switched off on purpose (``companion hotspot off``) is none."""
    assert hotspot.quiet_failure() is None  # never set up: no connection
    h = Hotspot()
    h.on("Spieleabend", "boardgames")
    assert hotspot.quiet_failure() is None  # up
    (nmcli / "active").write_text("")  # it went down: the radio is blocked (rfkill)
    (nmcli / "wifi").write_text("unavailable")
    assert hotspot.quiet_failure() == {"ssid": "Spieleabend", "state": "unavailable"}
    down = {"ssid": "Spieleabend", "state": "unavailable"}
    words = text("appliance.health.hotspot_down", down, "en", ("companion.appliance",))
    assert words.startswith("The phones' Wi-Fi “Spieleabend” is set up but not on (Wi-Fi: unavailable)")
    h.on("Spieleabend", "boardgames")  # brought up again: the warning goes
    assert hotspot.quiet_failure() is None
    h.off()  # off on purpose: no warning, though it is down
    assert not (nmcli / "active").read_text().strip()
    assert hotspot.quiet_failure() is None


def test_on_creates_a_wpa2_access_point_and_off_returns_to_the_home_wifi(nmcli: Path) -> None:
    h = Hotspot()
    h.on("Companion", "boardgames")
    added = (nmcli / "added").read_text().split("\n")
    pairs = dict(zip(added[2::2], added[3::2], strict=False))
    assert pairs["802-11-wireless.mode"] == "ap" and pairs["ipv4.method"] == "shared"
    assert pairs["ssid"] == "Companion" and pairs["wifi-sec.psk"] == "boardgames"
    assert pairs["wifi-sec.key-mgmt"] == "wpa-psk" and pairs["wifi-sec.pmf"] == "1"
    assert pairs["autoconnect"] == "yes" and pairs["connection.autoconnect-priority"] == "100"
    assert h.active()
    h.on("Companion", "")  # again, now open: the old connection goes, no security at all
    added = (nmcli / "added").read_text()
    assert "wifi-sec" not in added
    assert "connection delete id companion-hotspot" in (nmcli / "calls").read_text()
    assert h.off() and not h.active()
    assert (nmcli / "autoconnect").read_text().strip() == "no"  # not back at the next boot either
    assert h.off()  # already down: still fine


@pytest.mark.parametrize("password", ["short", "x" * 64 + "y", "naïve-password"])
def test_bad_passwords_are_refused_before_networkmanager_is_asked(nmcli: Path, password: str) -> None:
    with pytest.raises(HotspotError) as caught:
        Hotspot().on("Companion", password)
    assert caught.value.code == "appliance.hotspot.password"
    assert not (nmcli / "calls").exists()


def test_networkmanagers_refusal_becomes_a_coded_error(nmcli: Path) -> None:
    with pytest.raises(HotspotError) as caught:
        Hotspot(ifname="wlan9")._nmcli("device", "frobnicate")
    assert caught.value.code == "appliance.hotspot.nmcli" and "unexpected" in caught.value.message


def say_in(lang: str) -> Any:
    """What the command line hands the parts' commands: their words in ``lang``."""
    return lambda code, params: text(code, params, lang, extra=("hardware", "companion.appliance"))


def test_the_command_stores_ssid_and_password_once(
    nmcli: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "companion.toml"
    path.write_text((ROOT / "deploy" / "companion.default.toml").read_text())
    args = argparse.Namespace(
        action="on", ssid="Spieltisch", password="geheim123", open=False, ifname="wlan0", say=say_in("fr")
    )
    if os.geteuid() != 0:
        with pytest.raises(HotspotError) as caught:
            hotspot.cmd_hotspot(args, load_config(path))
        assert caught.value.code == "appliance.hotspot.root"
        return
    calls: list[list[str]] = []

    def run(command: list[str]) -> subprocess.CompletedProcess[str]:
        calls.append(list(command))
        if command[0] == "systemctl":
            return subprocess.CompletedProcess(command, 0, "", "")
        return subprocess.run(command, capture_output=True, text=True, check=False)

    assert hotspot.cmd_hotspot(args, load_config(path), run) == 0
    said = capsys.readouterr().out  # in the configured language (here French), as the command line passes it
    assert "Point d’accès actif\u00a0: réseau Spieltisch (WPA2)" in said and "appliance." not in said
    config = load_config(path)
    assert (config.hotspot_ssid, config.hotspot_password) == ("Spieltisch", "geheim123")  # what the QR code shows
    assert Hotspot().active()
    assert ["systemctl", "try-restart", "companion.service"] in calls  # the touchscreen rereads the config
    calls.clear()
    again = argparse.Namespace(action="on", ssid=None, password=None, open=False, ifname="wlan0", say=say_in("en"))
    assert hotspot.cmd_hotspot(again, load_config(path), run) == 0  # from the stored values, no restart
    assert not [c for c in calls if c[0] == "systemctl"]


def test_companion_status_shows_the_current_game_read_only(tmp_path: Path) -> None:
    import asyncio

    data = tmp_path / "data"
    data.mkdir()

    async def make() -> None:
        with Store(data / "companion.sqlite3") as store:
            table = Table(store)
            await table.start()
            await table.new_game("scotland_yard", {"detectives": ["Dora"]}, "Friday")
            await table.stop()

    asyncio.run(make())
    before = (data / "companion.sqlite3").stat().st_mtime_ns
    game = status.stored_game(data)
    assert game is not None and game["saved_games"] == 1
    assert game["current"]["rules"] == "scotland_yard" and game["current"]["title"] == "Friday"
    assert (data / "companion.sqlite3").stat().st_mtime_ns == before
    env = {**os.environ, "COMPANION_DATA_DIR": str(data)}
    env.pop("COMPANION_CONFIG", None)
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "status", "--json"], cwd=ROOT, env=env, capture_output=True, timeout=60
    )
    report = json.loads(done.stdout)
    assert report["game"]["current"]["id"] == 1 and report["storage"]["data_dir"] == str(data)


REPORT: dict[str, Any] = {  # what status.collect gathers on a Pi: a running unit, a game, a low-voltage warning
    "version": "companion 0.1.0",
    "config": "/etc/companion/companion.toml",
    "service": {
        "scope": "system",
        "ActiveState": "active",
        "SubState": "running",
        "ActiveEnterTimestamp": "Mon 2026-11-23 19:02:11 CET",
        "NRestarts": "1",
        "StatusText": "game 3 scotland_yard at seq 41; 4 phones connected",
    },
    "game": {"saved_games": 3, "current": {"id": 3, "rules": "scotland_yard", "status": "playing", "events": 41}},
    "storage": {"data_dir": "/var/lib/companion", "fstype": "ext4", "mount": "/", "free_bytes": 5e9, "volatile": ""},
    "power": {"flags": ["under-voltage now"], "value": "0x50005"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_status_report_speaks_the_tables_language(lang: str) -> None:
    """Every line in the configured language, plurals by the language's rule, labels lined up."""
    report = status.format_status(REPORT, say_in(lang))
    lines = report.splitlines()
    assert lines[0] == "companion 0.1.0" and "appliance." not in report and "{" not in report
    starts = {re.match(r"[^:]+: +", line).end() for line in lines[1:]}  # type: ignore[union-attr]
    assert len(starts) == 1, report  # every value starts in the same column
    expected = {
        "en": ["3 saved games; current game 3 scotland_yard (41 events, playing)", "WARNING: under-voltage now"],
        "de": ["3 gespeicherte Spiele; aktuelles Spiel 3 scotland_yard (41 Ereignisse, ", "WARNUNG: under-voltage now"],
        "fr": ["3 parties enregistrées\u00a0; partie en cours 3", "ATTENTION\u00a0: under-voltage now"],
        "es": ["3 partidas guardadas; partida actual 3 scotland_yard (41 eventos, ", "AVISO: under-voltage now"],
    }[lang]
    assert all(words in report for words in expected), report
    one = status.format_status({**REPORT, "game": {"saved_games": 1, "current": None}}, say_in(lang))
    assert {
        "en": "1 saved game",
        "de": "1 gespeichertes Spiel",
        "fr": "1 partie enregistrée",
        "es": "1 partida guardada",
    }[lang] in one


def test_status_line_of_the_running_app() -> None:
    class Header:
        id, rules = 4, "mykerinos"

    class Current:
        header = Header()

    class FakeTable:
        current, seq = Current(), 17

    class Server:
        def connected_seats(self) -> set[tuple[int, str]]:
            return {(4, "blue"), (4, "red")}

    assert status.status_line(FakeTable(), Server()) == "game 4 mykerinos at seq 17; 2 phones connected"

    class Empty:
        current = None

    assert status.status_line(Empty()) == "no game open; 0 phones connected"


def test_version_names_the_installed_commit(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "--version"], cwd=ROOT, capture_output=True, text=True
    )
    assert re.fullmatch(r"companion \d+\.\d+\.\d+( \(.*\))?\n", done.stdout)


def test_every_appliance_error_has_words_in_every_language() -> None:
    texts = package_texts("companion.appliance")
    assert set(texts) == set(LANGUAGES)
    for lang in LANGUAGES:
        assert set(texts[lang]) == set(texts["en"]), lang
    codes = set()
    for source in (ROOT / "companion" / "appliance").glob("*.py"):
        codes |= set(re.findall(r'"(appliance\.[a-z_.]+)"', source.read_text()))
    assert codes and codes <= set(texts["en"]), codes - set(texts["en"])


def test_status_says_when_the_data_directory_is_not_readable() -> None:
    """Like `companion status` run by pi on Lite, where /var/lib/companion is 0750 companion:companion."""
    import shutil
    import tempfile

    outer = Path(tempfile.mkdtemp())
    try:
        outer.chmod(0o755)
        data = outer / "data"
        data.mkdir(mode=0o700)
        (data / "companion.sqlite3").write_bytes(b"")
        probe = (
            "from pathlib import Path; from companion.appliance.status import stored_game; "
            f"print(stored_game(Path({str(data)!r})))"
        )
        command = [sys.executable, "-c", probe]
        if os.geteuid() == 0:  # be someone else, as a user at the Pi would be
            command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
        else:
            data.chmod(0o000)
        done = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)}
        )
        assert done.stdout.strip() == repr({"unreadable": str(data)}), done.stderr
        report = status.format_status({**REPORT, "game": {"unreadable": str(data)}}, say_in("es"))
        assert f"{data} no es legible para este usuario (sudo -u companion companion status)" in report
    finally:
        (outer / "data").chmod(0o700)
        shutil.rmtree(outer)
