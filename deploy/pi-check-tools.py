"""Host-side helpers of deploy/check-arm64.sh (standard library only, run by the host's python3).

    pi-check-tools.py notify NAME LOG STATUS_FILE   play systemd's notification socket (@NAME)
    pi-check-tools.py png XWD PNG                   Xvfb's frame buffer file -> PNG, fail if blank
    pi-check-tools.py unit FILE                     the unit's start as shell words (see below)

``unit`` prints what systemd would use to start the service, one ``KEY=value`` line each (values
shell-quoted): USER, GROUP, WORKDIR, UMASK, ENV (the Environment= assignments, as one string of
quoted words) and EXEC (ExecStart=). A unit with a setting the check cannot honour (e.g. a second
ExecStart=) is refused.
"""

from __future__ import annotations

import shlex
import socket
import struct
import sys
import time
import zlib
from pathlib import Path


def notify(name: str, log_path: str, status_path: str) -> None:
    """systemd's side of NOTIFY_SOCKET: every datagram with its sender's process id, for an hour.
    The last STATUS= goes to ``status_path`` too (the systemctl stand-in's ``show`` reads it)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)  # abstract namespace: proot does not map sendto()'s path; systemd uses such names too
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    sock.settimeout(1.0)
    end = time.monotonic() + 3600
    with open(log_path, "a") as out:
        while time.monotonic() < end:
            try:
                data, anc, _, _ = sock.recvmsg(65536, socket.CMSG_SPACE(12))
            except TimeoutError:
                continue
            pid = next((struct.unpack("3i", d)[0] for _, kind, d in anc if kind == socket.SCM_CREDENTIALS), 0)
            text = data.decode(errors="replace")
            out.write(f"{time.time():.1f} pid={pid} " + text.replace("\n", " | ") + "\n")
            out.flush()
            for line in text.split("\n"):
                if line.startswith("STATUS="):
                    Path(status_path).write_text(line[len("STATUS=") :] + "\n")


def png(xwd_path: str, png_path: str) -> None:
    data = Path(xwd_path).read_bytes()
    for order in (">", "<"):  # the XWD header's byte order is the writer's
        head = struct.unpack(order + "25I", data[:100])
        if 100 <= head[0] < 4096 and head[1] == 7:
            break
    else:
        raise SystemExit("not an XWD frame buffer")
    size, width, height = head[0], head[4], head[5]
    bpp, bpl, ncolors = head[11], head[12], head[19]
    if bpp != 32:
        raise SystemExit(f"{bpp} bits per pixel")
    pixels = data[size + 12 * ncolors :]
    rows = []
    for y in range(height):
        row = pixels[y * bpl : y * bpl + width * 4]
        rows.append(b"\0" + b"".join(bytes((row[i + 2], row[i + 1], row[i])) for i in range(0, len(row), 4)))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    out += chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
    Path(png_path).write_bytes(out)
    distinct = len({rows[y][1 + 3 * x : 4 + 3 * x] for y in range(0, height, 8) for x in range(0, width, 8)})
    print(f"{width}x{height}, {distinct} distinct colours in a sample")
    if distinct < 4:
        raise SystemExit("the screen is (nearly) one colour: nothing was drawn")


def unit(path: str) -> None:
    """The [Service] settings that decide how the process starts, as shell assignments."""
    values: dict[str, list[str]] = {}
    section = ""
    for raw in Path(path).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        if section == "Service":
            key, _, value = line.partition("=")
            values.setdefault(key.strip(), []).append(value.strip())
    execs = values.get("ExecStart", [])
    if len(execs) != 1 or execs[0][:1] in "-@:+!":
        raise SystemExit(f"{path}: one plain ExecStart= expected, found {execs}")
    words: list[str] = []
    for assignment in values.get("Environment", []):
        words += shlex.split(assignment)  # systemd's quoting of Environment= is shell-like for these
    out = {
        "USER": values.get("User", ["root"])[-1],
        "GROUP": values.get("Group", [""])[-1],
        "WORKDIR": values.get("WorkingDirectory", ["/"])[-1].lstrip("-"),
        "UMASK": values.get("UMask", ["0022"])[-1],
        "ENV": " ".join(shlex.quote(w) for w in words),
        "EXEC": execs[0],
    }
    for key, value in out.items():
        print(f"{key}={shlex.quote(value)}")


if __name__ == "__main__":
    command, *rest = sys.argv[1:]
    {"notify": notify, "png": png, "unit": unit}[command](*rest)
