"""The systemd units and the desktop autostart: what starts the table, as whom, with which environment."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
EXEC = "/opt/companion/.venv/bin/companion run"


def unit(name: str) -> dict[str, list[str]]:
    """Every key of a unit file, all its values in order (systemd allows repeating a key)."""
    keys: dict[str, list[str]] = {}
    section = ""
    for raw in (DEPLOY / name).read_text("utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        keys.setdefault(f"{section}.{key}", []).append(value)
    return keys


def environment(keys: dict[str, list[str]]) -> dict[str, str]:
    return dict(v.partition("=")[::2] for v in keys.get("Service.Environment", []))


def test_lite_unit_starts_at_console_boot_with_kms_and_the_shared_config() -> None:
    u = unit("companion.service")
    assert u["Install.WantedBy"] == ["multi-user.target"]  # Lite never reaches graphical.target
    assert u["Service.Type"] == ["notify"] and u["Service.NotifyAccess"] == ["main"]
    assert int(u["Service.WatchdogSec"][0]) >= 10
    assert u["Service.ExecStart"] == [EXEC]
    assert u["Service.User"] == ["companion"]
    env = environment(u)
    assert env["SDL_VIDEODRIVER"] == "kmsdrm" and env["KIVY_WINDOW"] == "sdl2"
    assert env["COMPANION_CONFIG"] == "/etc/companion/companion.toml"
    assert "COMPANION_DATA_DIR" not in env  # the data directory lives in the config, for every command
    assert env["KIVY_LOG_MODE"] == "PYTHON" and env["KIVY_NO_FILELOG"] == "1"
    assert env["KIVY_HOME"].startswith("/var/lib/companion/")


def test_lite_unit_names_no_groups_and_is_hardened() -> None:
    u = unit("companion.service")
    # systemd refuses to start a unit naming a group the system lacks (gpio on plain Debian):
    # the installer puts the user into the groups that exist instead.
    assert "Service.SupplementaryGroups" not in u
    assert u["Service.ProtectSystem"] == ["strict"]
    assert u["Service.ReadWritePaths"] == ["/var/lib/companion"]
    for key in ("NoNewPrivileges", "PrivateTmp", "ProtectHome", "ProtectKernelTunables", "RestrictSUIDSGID"):
        assert u[f"Service.{key}"] == ["yes"], key
    # The display, touch, GPIO and serial readers live in /dev: nothing may close the device list.
    # ProtectClock= implies DeviceAllow=char-rtc, which blocks every other device on systemd 252.
    for key in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock"):
        assert f"Service.{key}" not in u, key
    # Never gives up (a display or disk that came late at boot), never waits for the network.
    assert u["Unit.StartLimitIntervalSec"] == ["0"] and u["Service.Restart"] == ["always"]
    assert not any("network-online" in v for k in ("Unit.After", "Unit.Wants", "Unit.Requires") for v in u.get(k, []))


def test_desktop_unit_runs_in_the_session_through_xwayland() -> None:
    u = unit("companion-desktop.service")
    assert "Service.User" not in u and "Install.WantedBy" not in u  # a user unit, started at login
    assert u["Service.Type"] == ["notify"] and u["Service.ExecStart"] == [EXEC]
    env = environment(u)
    assert env["SDL_VIDEODRIVER"] == "x11" and env["COMPANION_FULLSCREEN"] == "1"
    assert env["COMPANION_CONFIG"] == environment(unit("companion.service"))["COMPANION_CONFIG"]
    assert "Service.PrivateTmp" not in u  # the X socket lives in /tmp


def test_desktop_autostart_entry_starts_the_user_unit() -> None:
    entry = dict(
        line.partition("=")[::2] for line in (DEPLOY / "companion.desktop").read_text().splitlines() if "=" in line
    )
    assert entry["Type"] == "Application" and entry.get("Hidden", "false") == "false"
    start = Path(entry["Exec"])
    assert start.parent == Path("/opt/companion/deploy")
    script = DEPLOY / start.name
    assert os.access(script, os.X_OK)
    text = script.read_text()
    assert "import-environment DISPLAY WAYLAND_DISPLAY" in text
    assert "systemctl --user restart companion.service" in text


@pytest.mark.parametrize(("name", "scope"), [("companion.service", []), ("companion-desktop.service", ["--user"])])
def test_systemd_analyze_verify_is_clean(name: str, scope: list[str], tmp_path: Path) -> None:
    tool = shutil.which("systemd-analyze")
    assert tool, "systemd-analyze is missing: install the Debian package systemd (make test does)"
    # verify checks that ExecStart= exists: point it at a stand-in of the installed command.
    stand_in = tmp_path / "companion"
    stand_in.write_text("#!/bin/sh\n")
    stand_in.chmod(0o755)
    copy = tmp_path / "companion.service"
    copy.write_text((DEPLOY / name).read_text().replace("/opt/companion/.venv/bin/companion", str(stand_in)))
    env = {**os.environ, "XDG_RUNTIME_DIR": str(tmp_path)}
    done = subprocess.run(
        [tool, *scope, "verify", str(copy)], capture_output=True, text=True, timeout=60, env=env, check=False
    )
    assert (done.returncode, done.stdout + done.stderr) == (0, "")
