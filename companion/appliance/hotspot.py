"""``companion hotspot on|off|status``: the Pi's own Wi-Fi for the phones, through NetworkManager.

The SSID and password live in one place, the ``[hotspot]`` section of the configuration file: the
touchscreen reads them for its Wi-Fi QR code, this command for NetworkManager. ``--ssid`` and
``--password`` (or ``--open``) store new values there first.

``on`` (re)creates the NetworkManager connection ``companion-hotspot`` (access point, 2.4 GHz,
``ipv4.method shared``: NetworkManager hands out addresses and the Pi is ``10.42.0.1``), with WPA2
when there is a password and open without one, marks it to come up at every boot ahead of other
Wi-Fi connections, and brings it up. The Pi has one Wi-Fi radio: while it serves the hotspot it is
**not** on the home Wi-Fi. ``off`` brings it down and stops it coming back at boot, so
NetworkManager rejoins the home network. Both need root (``sudo companion hotspot on``).

Protected management frames stay off (``pmf`` 1 = disable): the Pi's Wi-Fi chip (brcmfmac) does not
do them as an access point and phones then fail to join.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from typing import Any

from companion.appliance.configfile import update
from companion.core.errors import CompanionError

CONNECTION = "companion-hotspot"

Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


class HotspotError(CompanionError):
    default_code = "appliance.hotspot"


def check_ssid(ssid: str) -> None:
    if not 1 <= len(ssid.encode("utf-8")) <= 32:
        raise HotspotError("appliance.hotspot.ssid", "the SSID must be 1 to 32 bytes long")


def check_password(password: str) -> None:
    """WPA2-PSK: 8..63 printable ASCII characters, or 64 hex digits; "" is an open network."""
    if not password:
        return
    hex64 = len(password) == 64 and all(c in "0123456789abcdefABCDEF" for c in password)
    printable = 8 <= len(password) <= 63 and all(" " <= c <= "~" for c in password)
    if not (hex64 or printable):
        raise HotspotError(
            "appliance.hotspot.password", "the password must be 8 to 63 printable ASCII characters (or empty: open)"
        )


def add_command(ssid: str, password: str, ifname: str) -> list[str]:
    """The ``nmcli connection add`` for the access point."""
    command = [
        "nmcli", "connection", "add", "type", "wifi", "ifname", ifname, "con-name", CONNECTION,
        "autoconnect", "yes", "connection.autoconnect-priority", "100", "ssid", ssid,
        "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg",
        "ipv4.method", "shared", "ipv6.method", "ignore",
    ]  # fmt: skip
    if password:
        command += ["wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.psk", password, "wifi-sec.pmf", "1"]
    return command


def _run(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), capture_output=True, text=True, timeout=60, check=False)


class Hotspot:
    def __init__(self, runner: Runner = _run, ifname: str = "wlan0") -> None:
        self.runner = runner
        self.ifname = ifname

    def _nmcli(self, *args: str, allow_fail: bool = False) -> str:
        done = self.runner(["nmcli", *args])
        if done.returncode != 0 and not allow_fail:
            said = (done.stderr or done.stdout).strip() or f"exit status {done.returncode}"
            raise HotspotError("appliance.hotspot.nmcli", f"nmcli {' '.join(args[:4])}: {said}", detail=said)
        return done.stdout

    def exists(self) -> bool:
        names = self._nmcli("-t", "-f", "NAME", "connection", "show").splitlines()
        return CONNECTION in names

    def active(self) -> bool:
        names = self._nmcli("-t", "-f", "NAME", "connection", "show", "--active").splitlines()
        return CONNECTION in names

    def on(self, ssid: str, password: str) -> None:
        check_ssid(ssid)
        check_password(password)
        if self.exists():
            self._nmcli("connection", "delete", "id", CONNECTION)
        add = add_command(ssid, password, self.ifname)
        self._nmcli(*add[1:])
        self._nmcli("connection", "up", "id", CONNECTION)

    def off(self) -> bool:
        """Down and no longer started at boot; False when there was no hotspot."""
        if not self.exists():
            return False
        self._nmcli("connection", "modify", "id", CONNECTION, "connection.autoconnect", "no")
        self._nmcli("connection", "down", "id", CONNECTION, allow_fail=True)  # fails when already down
        return True


def quiet_failure(runner: Runner = _run) -> dict[str, str] | None:
    """The hotspot set up to come up at boot (``companion hotspot on``) but not up now — phones then
    look for a Wi-Fi that is not there, and nothing at the table says so. ``{"ssid", "state"}``
    (``state``: the Wi-Fi device's, e.g. ``unavailable`` when the radio is blocked), or None: no
    NetworkManager, no hotspot, switched off on purpose, or up. Blocking: run it off the loop."""
    if shutil.which("nmcli") is None:
        return None
    try:
        shown = runner(
            ["nmcli", "-t", "-f", "802-11-wireless.ssid,connection.autoconnect", "connection", "show", "id", CONNECTION]
        )
        if shown.returncode != 0:
            return None  # no such connection: the hotspot was never set up
        fields = dict(line.partition(":")[::2] for line in shown.stdout.splitlines())
        if fields.get("connection.autoconnect") != "yes":
            return None  # ``companion hotspot off``
        active = runner(["nmcli", "-t", "-f", "NAME", "connection", "show", "--active"])
        if active.returncode == 0 and CONNECTION in active.stdout.splitlines():
            return None
        devices = runner(["nmcli", "-t", "-f", "TYPE,STATE", "device"])
        states = [line.partition(":")[2] for line in devices.stdout.splitlines() if line.startswith("wifi:")]
    except (OSError, subprocess.SubprocessError):
        return None  # NetworkManager not answering is not the hotspot's own failure
    if states and "connecting" in states[0]:
        return None  # on its way up (at boot): not a failure yet
    ssid = fields.get("802-11-wireless.ssid", "").replace("\\:", ":").replace("\\\\", "\\")  # terse mode escapes
    return {"ssid": ssid, "state": states[0] if states else "no Wi-Fi device"}


def add_commands(subparsers: Any) -> None:
    p = subparsers.add_parser("hotspot", help="the Pi's own Wi-Fi for the phones (NetworkManager)")
    p.add_argument("action", choices=("on", "off", "status"), help="on: open the network, off: close it, status: tell")
    p.add_argument("--ssid", help="store this network name in the configuration first")
    p.add_argument("--password", help="store this password (8-63 characters) in the configuration first")
    p.add_argument("--open", action="store_true", help="store an empty password: an open network")
    p.add_argument("--ifname", default="wlan0", help="the Wi-Fi interface (default wlan0)")
    p.set_defaults(func=cmd_hotspot, without_config=True)  # status only: on/off need root, who reads it


def cmd_hotspot(args: argparse.Namespace, config: Any, runner: Runner = _run) -> int:
    if shutil.which("nmcli") is None and args.action == "status":
        print(str(args.say("appliance.hotspot.say.no_nmcli", {})))
        return 0
    if shutil.which("nmcli") is None:
        raise HotspotError("appliance.hotspot.no_nmcli", "NetworkManager (nmcli) is not installed")
    hotspot = Hotspot(runner, args.ifname)

    def say(code: str, **params: Any) -> str:
        return str(args.say(f"appliance.hotspot.say.{code}", params))

    if args.action == "status":
        state = "on" if hotspot.active() else ("configured" if hotspot.exists() else "off")
        unreadable = getattr(config, "unreadable", "")
        ssid = unreadable if unreadable else (config.hotspot_ssid or say("no_ssid"))
        print(say("status", state=say(f"state.{state}"), ssid=ssid))
        return 0
    if getattr(config, "unreadable", "") or os.geteuid() != 0:
        raise HotspotError("appliance.hotspot.root", "changing the network needs root: sudo companion hotspot ...")
    if args.action == "off":
        if hotspot.off():
            print(say("off"))
        else:
            print(say("none"))
        return 0
    ssid = args.ssid if args.ssid is not None else config.hotspot_ssid
    password = "" if args.open else (args.password if args.password is not None else config.hotspot_password)
    if not ssid:
        raise HotspotError("appliance.hotspot.no_ssid", "no SSID: give --ssid NAME (stored in the configuration)")
    check_ssid(ssid)
    check_password(password)
    changed = False
    if (ssid, password) != (config.hotspot_ssid, config.hotspot_password):
        if config.path is None:
            raise HotspotError("appliance.hotspot.no_config", "no configuration file to store the SSID in: --config")
        changed = update(config.path, "hotspot", {"ssid": ssid, "password": password})
        print(say("stored", path=str(config.path)))
    hotspot.on(ssid, password)
    print(say("on", ssid=ssid, kind=say("wpa2" if password else "open")))
    print(say("left_home"))
    if changed and shutil.which("systemctl"):
        runner(["systemctl", "try-restart", "companion.service"])
        print(say("restarted"))
    return 0
