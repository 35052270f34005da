"""The appliance's part of ``companion doctor``: display/OpenGL, GPIO, serial ports and storage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.appliance import facts


def report(data_dir: Path | None) -> dict[str, Any]:
    return {
        "display": facts.display(data_dir),
        "gpio": facts.gpio(),
        "serial": facts.serial_ports(),
        "storage": facts.storage(data_dir) if data_dir is not None else None,
    }


def format_report(data: dict[str, Any]) -> str:
    lines = ["Display"]
    d = data["display"]
    env = d["environment"]
    lines.append("  environment: " + (", ".join(f"{k}={v}" for k, v in env.items()) or "(no display variables set)"))
    dri = d["dri"]
    if dri:
        lines.append("  DRM devices: " + ", ".join(f"{x['node']}{'' if x['usable'] else ' (no access)'}" for x in dri))
    else:
        lines.append("  DRM devices: none (/dev/dri is empty: no KMS driver, e.g. dtoverlay=vc4-kms-v3d missing)")
    for out in d["outputs"]:
        mode = f" {out['mode']}" if out["mode"] else ""
        lines.append(f"  output {out['connector']}: {out['status']}{mode}")
    app = d.get("app")
    if app:
        lines.append(
            f"  the app's window (pid {app.get('pid')}, {app.get('recorded')}): {app.get('window')} "
            f"video driver {app.get('video_driver') or '?'}, {'x'.join(str(n) for n in app.get('size', []))}, "
            f"fullscreen {app.get('fullscreen')}"
        )
        lines.append(
            f"  OpenGL: {app.get('gl_version') or '?'}; renderer {app.get('gl_renderer') or '?'}"
            f" ({app.get('gl_vendor') or '?'}, backend {app.get('gl_backend') or '?'})"
        )
    elif "app" in d:
        lines.append("  the app's window: not recorded yet (the app writes display.json once its window is up)")
    g = data.get("gpio")
    if g is not None:
        lines.append("GPIO")
        lines.append(f"  board: {g['model'] or '(not a Raspberry Pi)'}")
        chips = ", ".join(f"{c['node']}{'' if c['usable'] else ' (no access: group gpio)'}" for c in g["chips"])
        lines.append(f"  chips: {chips or 'none'}")
        for m in g["modules"]:
            if m["ok"]:
                lines.append(f"  {m['module']} {m['version']} ({m['path']})")
            else:
                hint = (
                    " (on a Pi: from PyPI on Python 3.11, sudo apt install python3-lgpio on 3.13)"
                    if m["module"] == "lgpio"
                    else ""
                )
                lines.append(f"  {m['module']}: not available{hint}: {m['error']}")
        if g["pin_factory"]:
            lines.append(f"  GPIOZERO_PIN_FACTORY={g['pin_factory']}")
    se = data.get("serial")
    if se is not None:
        lines.append("Serial ports")
        for port in se["ports"]:
            target = f" -> {port['target']}" if port["target"] else ""
            lines.append(f"  {port['node']}{target}{'' if port['usable'] else ' (no access: group dialout)'}")
        if not se["ports"]:
            lines.append("  none (enable the UART: docs/wiring.md)")
        if se["serial_console"]:
            lines.append(
                f"  the kernel's console is on a serial port ({' '.join(se['serial_console'])}): "
                "a reader there gets console output (raspi-config: no login shell over serial)"
            )
    st = data["storage"]
    if st is not None:
        lines.append("Storage")
        lines.append(f"  data directory: {st['data_dir']} ({st['fstype'] or '?'} on {st['mount'] or '?'})")
        if st["volatile"]:
            lines.append(f"  WARNING: saved games are lost at power-off: {st['volatile']}")
            lines.append("  (turn raspi-config's Overlay File System off, or keep the data on a persistent disk)")
    return "\n".join(lines)
