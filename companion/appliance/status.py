"""``companion status``: is the table up, which game, how many phones, and is the Pi healthy.

The running app tells systemd its state in ``STATUS=`` (:func:`status_line`, sent by the
heartbeat), so this command reads it with ``systemctl show`` and never touches the running app.
Without a running service it reads the current game from the store file, read-only.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.appliance import facts, health
from companion.appliance.version import version_text
from companion.files import STORE_FILE

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
    path = data_dir / STORE_FILE
    if data_dir.is_dir() and not os.access(data_dir, os.R_OK | os.X_OK):
        return {"unreadable": str(data_dir)}
    if not path.is_file():
        return None
    try:
        return _read_game(path, "mode=ro")
    except sqlite3.OperationalError as exc:
        # A reader who may not write the folder cannot make the WAL index (-shm) that a WAL store
        # needs while no app has it open: read the file as it is (nothing writes it meanwhile).
        if "readonly" not in str(exc) and "unable to open" not in str(exc):
            return {"error": str(exc)}
        try:
            return _read_game(path, "mode=ro&immutable=1")
        except (sqlite3.Error, ValueError) as again:
            return {"error": str(again)}
    except (sqlite3.Error, ValueError) as exc:
        return {"error": str(exc)}


def _read_game(path: Path, mode: str) -> dict[str, Any]:
    db = sqlite3.connect(f"{path.as_uri()}?{mode}", uri=True, timeout=2)
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
    finally:
        db.close()


Running = Callable[[Path, str], "dict[str, Any] | None"]  # what the running app says of itself (or None)


def collect(config: Any, language: str = "en", running: Running | None = None) -> dict[str, Any]:
    """``running``: asks the running app (``companion.app.writer.running_status``, given by the
    command line: this layer does not reach into the app)."""
    unit = service() or service(user=True)
    data_dir = Path(config.data_dir)
    game = stored_game(data_dir)
    return {
        "table": running(data_dir, language) if running is not None else None,
        "version": version_text(),
        "config": str(config.path) if config.path else None,
        "config_unreadable": getattr(config, "unreadable", "") or None,
        "service": unit,
        "game": game,
        "storage": facts.storage(data_dir),
        "power": facts.throttled(),
        # files found damaged and set aside (the saved games, the tag table, the host token)
        "damaged": [[code, params] for code, params in health.damaged(data_dir)],
    }


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TB"


Say = Callable[[str, Mapping[str, Any]], str]  # (code, parameters) -> the words in the reader's language


def format_status(data: dict[str, Any], say: Say) -> str:
    """The report for a person, in ``say``'s language: one labelled line per part (the labels lined up)."""

    def _say(code: str, **params: Any) -> str:
        return say(f"appliance.status.{code}", params)

    rows: list[tuple[str, str]] = []
    unit = data["service"]
    if unit is None:
        rows.append(("service", _say("no_service", unit=UNIT)))
    else:
        state = f"{unit.get('ActiveState', '?')} ({unit.get('SubState', '?')})"
        since = unit.get("ActiveEnterTimestamp") or ""
        scope = "" if unit["scope"] == "system" else " " + _say("user_unit")
        rows.append(("service", f"{UNIT}{scope} {state}" + (" " + _say("since", since=since) if since else "")))
        if unit.get("StatusText"):
            rows.append(("app", unit["StatusText"]))
        if unit.get("NRestarts", "0") not in ("", "0"):
            rows.append(("restarts", _say("restarted", n=int(unit["NRestarts"]))))
    table = data.get("table")
    if isinstance(table, dict):
        if "unreachable" in table:
            rows.append(("table", _say("table_unreachable", why=table["unreachable"])))
        else:
            where = (
                _say("table_game", id=table["game_id"], rules=table["rules"], seq=table["seq"])
                if table.get("game_id") is not None
                else _say("table_no_game")
            )
            phones = table.get("phones") or []
            seats = ", ".join(f"{p['name']} ({p['seat']})" if p["name"] != p["seat"] else p["seat"] for p in phones)
            connected = _say("phones", n=len(phones), seats=seats) if phones else _say("no_phones")
            rows.append(("table", f"{where}; {connected}"))
            for code, params in table.get("warnings") or []:
                rows.append(("warning", say(code, params)))
    game = data["game"]
    if game is None:
        rows.append(("games", _say("no_games")))
    elif "unreadable" in game:
        rows.append(("games", _say("unreadable", dir=game["unreadable"])))
    elif "error" in game:
        rows.append(("games", _say("store_error", error=game["error"])))
    else:
        saved = _say("saved", n=game["saved_games"])
        cur = game["current"]
        if cur:
            status = say(f"cli.status.{cur['status']}", {}) if cur["status"] in ("playing", "finished") else ""
            current = _say("current", id=cur["id"], rules=cur["rules"], n=cur["events"], status=status or cur["status"])
            saved = _say("games", saved=saved, current=current)
        rows.append(("games", saved))
    st = data["storage"]
    where = _say("on", fstype=st["fstype"] or "?", mount=st["mount"] or "?")
    room = ", " + _say("free", size=_size(st["free_bytes"])) if "free_bytes" in st else ""
    rows.append(("data", f"{st['data_dir']} ({where}{room})"))
    if st["volatile"]:
        rows.append(("warning", _say("volatile", why=st["volatile"])))
    for code, params in data.get("damaged", []):
        rows.append(("warning", say(code, params)))
    if data.get("config_unreadable"):
        rows.append(("config", data["config_unreadable"]))
    else:
        rows.append(("config", data["config"] or _say("no_config")))
    power = data["power"]
    if power is None:
        rows.append(("power", _say("no_vcgencmd")))
    elif "error" in power:
        rows.append(("power", _say("vcgencmd_failed", error=power["error"])))
    elif power["flags"]:
        now = [f for f in power["flags"] if f.endswith("now")]
        word = _say("label.warning" if now else "note")
        rows.append(("power", _say("flags", word=word, flags=", ".join(power["flags"]), value=power["value"])))
    else:
        rows.append(("power", _say("power_ok", value=power["value"])))
    if unit is not None:
        rows.append(("logs", f"journalctl {'--user ' if unit['scope'] == 'user' else ''}-u companion -f"))
    labels = {key: _say("label", label=_say(f"label.{key}")) for key, _ in rows}
    width = max(len(label) for label in labels.values()) + 1
    return "\n".join([data["version"], *(f"{labels[key]:<{width}}{value}" for key, value in rows)])


def add_commands(subparsers: Any, running: Running | None = None) -> None:
    p = subparsers.add_parser("status", help="the service, the open game, phones, data directory, disk and power")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(
        func=functools.partial(cmd_status, running=running), without_config=True
    )  # shows what it can without the file


def cmd_status(args: argparse.Namespace, config: Any, running: Running | None = None) -> int:
    data = collect(config, getattr(args, "language", None) or "en", running)
    print(json.dumps(data, indent=1) if args.json else format_status(data, args.say))
    return 0
