"""A plain-data report of every part, for ``companion doctor`` and the diagnostics screen.

Everything in the report is JSON (str, int, float, bool, None, lists, dicts), so a screen
can show it and a phone can receive it without knowing any hardware class.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from hardware.frames import card_number

if TYPE_CHECKING:
    from hardware.enrollment import TagTable
    from hardware.readers import ReaderInfo
    from hardware.system import Hardware


def environment_summary() -> dict[str, str]:
    """The environment variables that change which GPIO code runs."""
    keys = ("GPIOZERO_PIN_FACTORY", "GPIOZERO_MOCK_REVISION", "LG_WD")
    return {k: os.environ[k] for k in keys if k in os.environ}


def _when(timestamp: float | None) -> str | None:
    if timestamp is None:
        return None
    return datetime.datetime.fromtimestamp(timestamp).astimezone().isoformat(timespec="seconds")


def reader_hint(info: ReaderInfo) -> str:
    """One sentence that helps the person wiring the box, or ''."""
    if info.status == "disconnected":
        return "port missing or lost: check the port name, the cable, and that the user is in the dialout group"
    if info.status == "error" and info.type == "pn532":
        return "the PN532 does not answer: check its HSU switch setting, TX↔RX crossed, power and the baud rate"
    if info.status == "error":
        return "the reader failed; see the detail"
    if info.status == "connected" and info.frames == 0 and info.dropped_bytes >= 16:
        return "bytes arrive but no valid frame: wrong reader type or baud rate, or a noisy line"
    if info.status == "connected" and info.frames == 0 and info.type != "pn532":
        return "no tag read yet: hold a tag on the reader (the port is open, the module cannot be probed)"
    return ""


def reader_report(info: ReaderInfo, tags: TagTable | None = None) -> dict[str, Any]:
    piece = tags.lookup(info.last_uid) if (tags is not None and info.last_uid) else None
    entry: dict[str, Any] = {
        "name": info.name,
        "type": info.type,
        "port": info.port,
        "simulated": info.simulated,
        "status": info.status,
        "detail": info.detail,
        "last_uid": info.last_uid,
        "last_piece": None if piece is None else {**piece.to_json()},
        "last_seen_at": _when(info.last_seen_at),
        "last_seen_ago_s": None if info.last_seen_ago is None else round(info.last_seen_ago, 1),
        "present": list(info.present),
        "frames": info.frames,
        "bad_frames": info.bad_frames,
        "dropped_bytes": info.dropped_bytes,
        "connects": info.connects,
        "hint": reader_hint(info),
    }
    if info.last_uid and info.type != "pn532" and len(info.last_uid) == 10:
        entry["last_card_number"] = card_number(info.last_uid)
    return entry


def report(
    hw: Hardware,
    *,
    tags: TagTable | None = None,
    config_path: str | None = None,
    phones: Iterable[str] | None = None,
) -> dict[str, Any]:
    """Everything about the box, as JSON.

    ``phones``: the seats whose phones are connected now. Only the process that runs the phone
    server knows them (the touchscreen app passes ``PhoneServer.connected_seats()`` for the open
    game); ``companion doctor`` runs in a process of its own and passes nothing, and the report
    then says ``"phones": null`` (not known here) rather than "none connected".
    """
    factory = hw.pin_factory_name or "none (no GPIO device configured)"
    buttons = [
        {"name": s.name, "role": s.role, "pin": f"GPIO{s.pin}", "pressed": s.pressed, "raw_pressed": s.raw}
        for s in (hw.buttons.states() if hw.buttons is not None else [])
    ]
    pins = dict(hw.config.seat_lights)
    indicators = hw.indicators.states()
    indicators["seat_lights"] = {
        seat: {"pin": f"GPIO{pins[seat]}", "lit": lit} for seat, lit in indicators["seat_lights"].items()
    }
    if hw.config.buzzer is not None and indicators["buzzer"] is not None:
        indicators["buzzer"]["pin"] = f"GPIO{hw.config.buzzer.pin}"
    return {
        "config_file": config_path,
        "mode": hw.mode,
        "configured_mode": hw.config.mode,
        "pin_factory": factory,
        "environment": environment_summary(),
        "buttons": buttons,
        "indicators": indicators,
        "readers": [reader_report(r.info(), tags) for r in hw.readers.values()],
        "tags": None if tags is None else {"path": str(tags.path) if tags.path else None, "enrolled": len(tags)},
        "phones": None if phones is None else sorted(set(phones)),
    }


def format_report(data: dict[str, Any]) -> str:
    """The report as text for a terminal."""
    lines = [
        f"configuration: {data.get('config_file') or 'none (simulated demo setup)'}",
        f"mode:          {data['mode']} (configured: {data['configured_mode']})",
        f"pin factory:   {data['pin_factory']}",
    ]
    for key, value in data["environment"].items():
        lines.append(f"  {key}={value}")
    lines.append(f"buttons ({len(data['buttons'])}):")
    for b in data["buttons"]:
        state = "PRESSED" if b["pressed"] else "up"
        lines.append(f"  {b['name']:<16} {b['role']:<14} {b['pin']:<7} {state}")
    ind = data["indicators"]
    if ind["seat_lights"]:
        lit = ", ".join(f"{seat} {v['pin']} {'on' if v['lit'] else 'off'}" for seat, v in ind["seat_lights"].items())
        lines.append(f"seat lights:   {lit}")
    if ind["buzzer"] is not None:
        lines.append(f"buzzer:        {ind['buzzer'].get('pin', '')}")
    for track, bar in ind["tracks"].items():
        lines.append(f"track {track}: {bar['value']}/{bar['maximum']} ({bar['lit']} of {bar['leds']} LEDs lit)")
    lines.append(f"readers ({len(data['readers'])}):")
    for r in data["readers"]:
        lines.append(f"  {r['name']:<10} {r['type']:<8} {r['port']:<16} {r['status']}  {r['detail']}".rstrip())
        if r["last_uid"]:
            what = r["last_piece"]["label"] or r["last_piece"]["piece"] if r["last_piece"] else "unknown tag"
            lines.append(f"{'':13}last tag {r['last_uid']} ({what}) {r['last_seen_ago_s']} s ago")
        lines.append(f"{'':13}frames {r['frames']}, bad {r['bad_frames']}, noise bytes {r['dropped_bytes']}")
        if r["hint"]:
            lines.append(f"{'':13}hint: {r['hint']}")
    if data["tags"] is not None:
        lines.append(f"tags enrolled: {data['tags']['enrolled']} ({data['tags']['path']})")
    phones = data.get("phones")
    if phones is None:
        lines.append("phones:        not known here (shown by the running app's diagnostics screen)")
    else:
        lines.append(f"phones:        {', '.join(phones) if phones else 'none connected'}")
    return "\n".join(lines)
