"""What a test reads off the touchscreen: a QR code in a screenshot (a seat scanned by a phone), the
English words of a code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from driver import AppProcess
from phones import SyncPhone
from PIL import Image
from pyzbar.pyzbar import decode

from companion.app.i18n import text


def decode_qr(path: Path) -> str:
    """The one QR code in a screenshot (a seat's link)."""
    found = decode(Image.open(path))
    assert len(found) == 1, f"expected one QR code on {path.name}, found {len(found)}"
    return str(found[0].data.decode())


def ui_text(code: str, **params: Any) -> str:
    """A touchscreen text in English, as the screens say it."""
    return text(code, params, "en", ("ui",))


def scan_seat(app: AppProcess, seat: str, shot: str) -> tuple[str, SyncPhone]:
    """On the Phones screen: show ``seat``'s code, scan it from a screenshot with a phone, and see
    the code go once the phone holds the seat. Returns the link and the connected phone."""
    app.tap(f"seats.show.{seat}")
    app.wait(lambda s: "seats.qr" in s["tids"], what=f"{seat}'s QR code")
    url = decode_qr(app.screenshot(shot))
    phone = SyncPhone(url)
    assert phone.connect()["type"] == "welcome"
    app.wait(lambda s: "seats.qr" not in s["tids"], what="the code gone once claimed")
    return url, phone
