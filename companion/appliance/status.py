"""``companion status``: is the table up, which game, how many phones, and is the Pi healthy.

The running app tells systemd its state in ``STATUS=`` (:func:`status_line`, sent by the
heartbeat), so this command reads it with ``systemctl show`` and never touches the running app.
Without a running service it reads the current game from the store file, read-only.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from companion.appliance import facts
from companion.appliance.version import version_text

UNIT = "companion.service"
SHOW_KEYS = ("LoadState", "ActiveState", "SubState", "StatusText", "ActiveEnterTimestamp", "NRestarts", "Result")


# --------------------------------------------------------------------------- inside the running app


def status_line(table: Any, server: Any = None) -> str:
    """One line for ``systemctl status``: the open game and the phones connected to it."""
    current = getattr(table, "current", None)
    if current is None:
        game = "no game open"
    else:
        header = current.header
        game = f"game {header.id} {header.rules} at seq {getattr(table, 'seq', '?')}"
    phones = 0
    if server is not None:
        try:
            phones = len(server.connected_seats())
        except Exception:
            phones = 0
    return f"{game}; {phones} phone{'' if phones == 1 else 's'} connected"


# --------------------------------------------------------------------------- from outside


def parse_show(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            out[key] = value
    return out


def service(user: bool = False) -> dict[str, str] | None:
    """``systemctl show`` of the unit (system, or ``--user``); None without systemctl or unit."""
    exe = shutil.which("systemctl")
    if exe is None:
        return None
    command = [exe, *(["--user"] if user else []), "show", UNIT, "-p", ",".join(SHOW_KEYS)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    shown = parse_show(done.stdout)
    if done.returncode != 0 or shown.get("LoadState") in (None, "not-found"):
        return None
    shown["scope"] = "user" if user else "system"
    return shown


def stored_game(data_dir: Path) -> dict[str, Any] | None:
    """The current game in the store file, read-only (the running app stays the only writer)."""
    path = data_dir / "companion.sqlite3"
    if data_dir.is_dir() and not os.access(data_dir, os.R_OK | os.X_OK):
        return {"error": f"{data_dir} is not readable for this user (sudo -u companion companion status)"}
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=2)
    except sqlite3.Error as exc:
        return {"error": str(exc)}
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'current_game'").fetchone()
        count = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        game: dict[str, Any] = {"saved_games": count, "current": None}
        if row is not None:
            g = db.execute(
                "SELECT id, rules, title, status, updated, (SELECT COUNT(*) FROM events WHERE game_id = games.id) "
                "FROM games WHERE id = ?",
                (int(row[0]),),
            ).fetchone()
            if g is not None:
                game["current"] = dict(zip(("id", "rules", "title", "status", "updated", "events"), g, strict=True))
        return game
    except (sqlite3.Error, ValueError) as exc:
        return {"error": str(exc)}
    finally:
        db.close()


def collect(config: Any) -> dict[str, Any]:
    unit = service() or service(user=True)
    data_dir = Path(config.data_dir)
    game = stored_game(data_dir)
    return {
        "version": version_text(),
        "config": str(config.path) if config.path else None,
        "service": unit,
        "game": game,
        "storage": facts.storage(data_dir),
        "power": facts.throttled(),
    }


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TB"


def format_status(data: dict[str, Any]) -> str:
    lines = [data["version"]]
    unit = data["service"]
    if unit is None:
        lines.append("service:  not installed as a service (companion.service)")
    else:
        state = f"{unit.get('ActiveState', '?')} ({unit.get('SubState', '?')})"
        since = unit.get("ActiveEnterTimestamp") or ""
        scope = "" if unit["scope"] == "system" else " [user unit]"
        lines.append(f"service:  {UNIT}{scope} {state}" + (f" since {since}" if since else ""))
        if unit.get("StatusText"):
            lines.append(f"app:      {unit['StatusText']}")
        if unit.get("NRestarts", "0") not in ("", "0"):
            lines.append(f"restarts: {unit['NRestarts']} (see the log)")
    game = data["game"]
    if game is None:
        lines.append("games:    no saved games yet")
    elif "error" in game:
        lines.append(f"games:    cannot read the store: {game['error']}")
    else:
        cur = game["current"]
        opened = f"current game {cur['id']} {cur['rules']} ({cur['events']} events, {cur['status']})" if cur else ""
        lines.append(f"games:    {game['saved_games']} saved" + (f"; {opened}" if opened else ""))
    st = data["storage"]
    room = f", {_size(st['free_bytes'])} free" if "free_bytes" in st else ""
    lines.append(f"data:     {st['data_dir']} ({st['fstype'] or '?'} on {st['mount'] or '?'}{room})")
    if st["volatile"]:
        lines.append(f"WARNING:  saved games are lost at power-off: {st['volatile']}")
    lines.append(f"config:   {data['config'] or '(none: defaults)'}")
    power = data["power"]
    if power is None:
        lines.append("power:    (no vcgencmd: not a Raspberry Pi OS)")
    elif "error" in power:
        lines.append(f"power:    vcgencmd failed: {power['error']}")
    elif power["flags"]:
        now = [f for f in power["flags"] if f.endswith("now")]
        word = "WARNING" if now else "note"
        flags = ", ".join(power["flags"])
        lines.append(f"power:    {word}: {flags} (throttled={power['value']}; use the official power supply)")
    else:
        lines.append(f"power:    ok (throttled={power['value']})")
    if unit is not None:
        lines.append(f"logs:     journalctl {'--user ' if unit['scope'] == 'user' else ''}-u companion -f")
    return "\n".join(lines)


def add_commands(subparsers: Any) -> None:
    p = subparsers.add_parser("status", help="the service, the open game, phones, data directory, disk and power")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_status)


def cmd_status(args: argparse.Namespace, config: Any) -> int:
    data = collect(config)
    print(json.dumps(data, indent=1) if args.json else format_status(data))
    return 0
