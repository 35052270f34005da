"""``companion doctor --bundle FILE``: one text file with everything a helper asks first.

Like Pi-hole's ``pihole -d`` or OctoPrint's system-info bundle: versions (Companion, Python, the
Python packages, the system, the board), the configuration with its secrets hidden, the service's
state and the last lines of its journal, the display, GPIO and serial facts, ``vcgencmd
get_throttled``, storage, the network addresses and the Pi's warnings. No secret goes in: the
hotspot password is replaced by its length, and seat and host links in the journal lose their
tokens. What cannot be read (the configuration for a user outside the group companion, the
journal without the group adm or systemd-journal) is named in its place.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from companion.appliance import doctor, facts, health, status
from companion.appliance.version import version_text

PACKAGES = ("aiohttp", "kivy", "gpiozero", "lgpio", "pyserial", "qrcode", "pillow", "companion")
JOURNAL_LINES = 200
SECRET_KEYS = {"password", "psk", "token"}
_LINK_TOKEN = re.compile(r"/(s|h)/[A-Za-z0-9_-]{12,}")


def hide_secrets(text: str) -> str:
    """The configuration file's text with every secret value replaced by its length (comments and
    every other line as they are)."""
    out = []
    for line in text.splitlines():
        m = re.match(r"^(\s*)([A-Za-z0-9_-]+)(\s*=\s*)(.*)$", line)
        if m and m.group(2) in SECRET_KEYS:
            value = m.group(4).split("#")[0].strip()
            try:
                parsed = tomllib.loads(f"v = {value}")["v"]
                size = f"{len(parsed)} characters" if isinstance(parsed, str) else "set"
            except tomllib.TOMLDecodeError:
                size = "set"
            hidden = "(empty)" if value in ('""', "''") else f"(hidden: {size})"
            line = f'{m.group(1)}{m.group(2)}{m.group(3)}"{hidden}"'
        out.append(line)
    return "\n".join(out)


def _run(*command: str, timeout: float = 15) -> str:
    exe = shutil.which(command[0])
    if exe is None:
        return f"({command[0]} is not installed)"
    try:
        done = subprocess.run([exe, *command[1:]], capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"({' '.join(command)} failed: {exc})"
    said = (done.stdout + done.stderr).strip()
    return said if done.returncode == 0 else f"{said}\n(exit status {done.returncode})"


def _os_release() -> str:
    try:
        text = Path("/etc/os-release").read_text()
    except OSError:
        return "?"
    values = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    return values.get("PRETTY_NAME", "?").strip('"')


def versions() -> list[str]:
    lines = [
        version_text(),
        f"Python {sys.version.split()[0]} ({sys.executable})",
        f"system: {_os_release()}; kernel {platform.release()} {platform.machine()}",
        f"board: {facts.board_model() or '(not a Raspberry Pi)'}",
    ]
    for name in PACKAGES:
        try:
            lines.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            lines.append(f"{name}: not installed")
    return lines


def configuration(config: Any) -> list[str]:
    path = getattr(config, "path", None)
    if getattr(config, "unreadable", ""):
        return [config.unreadable]
    if path is None:
        return ["(no configuration file: the defaults)"]
    try:
        return [f"{path}:", hide_secrets(Path(path).read_text("utf-8"))]
    except OSError as exc:
        return [f"cannot read {path}: {exc.strerror or exc}"]


def journal(unit: dict[str, str] | None) -> list[str]:
    scope = ["--user"] if unit is not None and unit.get("scope") == "user" else []
    said = _run("journalctl", *scope, "-u", "companion", "-n", str(JOURNAL_LINES), "--no-pager", "-o", "short-iso")
    return [_LINK_TOKEN.sub(r"/\1/(token hidden)", said)]


def collect(config: Any, network: tuple[str | None, list[str]] = (None, [])) -> str:
    """``network``: the phones' address (None: no network) and every address of this machine."""
    data_dir = Path(config.data_dir)
    state = status.collect(config)
    system = doctor.report(data_dir)
    phones, addresses = network

    sections: list[tuple[str, list[str]]] = [
        ("Versions", versions()),
        ("Configuration (secrets hidden)", configuration(config)),
        ("Service", [json.dumps(state["service"], indent=1) if state["service"] else "not installed as a service"]),
        (f"journal: the last {JOURNAL_LINES} lines", journal(state["service"])),
        ("Display, GPIO, serial ports, storage (companion doctor)", [doctor.format_report(system)]),
        ("Power: vcgencmd get_throttled", [_run("vcgencmd", "get_throttled"), json.dumps(state["power"])]),
        (
            "Network",
            [
                f"phones' address: {phones or 'none (no network)'}",
                f"addresses: {', '.join(addresses) or 'none'}",
            ],
        ),
        ("Warnings", [f"{code} {params}" for code, params in health.warnings(data_dir, state["power"])] or ["none"]),
        ("User", [_run("id")]),
    ]
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    parts = [f"# Companion debug bundle, {now} (no secrets: share it with whoever helps you)"]
    for title, lines in sections:
        parts.append(f"\n## {title}\n")
        parts.extend(lines)
    return "\n".join(parts) + "\n"


def write(config: Any, target: str, network: tuple[str | None, list[str]] = (None, [])) -> str:
    """Write the bundle to ``target`` ("-": standard output); returns where it went."""
    text = collect(config, network)
    if target == "-":
        sys.stdout.write(text)
        return "-"
    path = Path(target)
    path.write_text(text, "utf-8")
    os.chmod(path, 0o644)
    return str(path)
