"""Links and QR codes for phones: the Pi's address, seat URLs, PNG and terminal QR codes.

The address is read from the network interfaces each time it is asked for (a few system calls), so
it follows the network: a Pi that booted before its Wi-Fi came up shows the right address once it
is there. :func:`lan_address` is None while the machine has no address a phone could reach (only
loopback, or a link-local address left by a failed DHCP); screens then say "no network yet" rather
than show a code that cannot work. :mod:`companion.app.netwatch` says when it may have changed.
"""

from __future__ import annotations

import array
import fcntl
import io
import ipaddress
import socket
import struct
from typing import Any

SIOCGIFADDR = 0x8915


def local_addresses() -> list[str]:
    """IPv4 addresses of this machine's network interfaces (no traffic is sent), LAN ones first;
    neither loopback nor link-local (169.254.x.x: no DHCP answered) ones."""
    found: list[str] = []
    for _index, name in socket.if_nameindex():
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue
        address = socket.inet_ntoa(packed[20:24])
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified):
            found.append(address)
    found.sort(key=lambda a: (not ipaddress.ip_address(a).is_private, a))
    return found


def lan_address(configured: str = "") -> str | None:
    """The address phones should use now: the configured one, else the first LAN address; None
    while there is no network a phone could reach this machine on."""
    if configured:
        return configured
    addresses = local_addresses()
    return addresses[0] if addresses else None


def phone_address(configured: str = "") -> str:
    """:func:`lan_address`, or 127.0.0.1 without a network (for links printed at a terminal)."""
    return lan_address(configured) or "127.0.0.1"


def base_url(address: str, port: int) -> str:
    """``http://address:port/`` (an IPv6 address in brackets)."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/"


def seat_url(address: str, port: int, token: str) -> str:
    return f"{base_url(address, port)}s/{token}"


def _make(text: str, error: str = "M") -> Any:
    """M (15% may be damaged) for short links; L (7%) packs a long one into fewer, bigger modules."""
    import qrcode  # type: ignore[import-untyped]  # (and Pillow): loaded for the first code drawn

    correction = {"L": qrcode.constants.ERROR_CORRECT_L, "M": qrcode.constants.ERROR_CORRECT_M}[error]
    qr = qrcode.QRCode(error_correction=correction, border=2, box_size=8)
    qr.add_data(text)
    qr.make(fit=True)
    return qr


def qr_png(text: str, box_size: int = 8, error: str = "M") -> bytes:
    qr = _make(text, error)
    qr.box_size = box_size
    buffer = io.BytesIO()
    qr.make_image(fill_color="black", back_color="white").save(buffer)
    return buffer.getvalue()


def qr_terminal(text: str, error: str = "M") -> str:
    """A QR code drawn with half-block characters, dark on light, for ``companion serve``."""
    matrix = _make(text, error).get_matrix()
    rows = []
    for y in range(0, len(matrix), 2):
        top, bottom = matrix[y], matrix[y + 1] if y + 1 < len(matrix) else [False] * len(matrix[y])
        line = array.array("u")
        for a, b in zip(top, bottom, strict=True):
            line.append({(False, False): "█", (True, False): "▄", (False, True): "▀", (True, True): " "}[(a, b)])
        rows.append(line.tounicode())
    return "\n".join(rows)
