"""QR codes decode back to the exact links (rendered with qrcode, read back with zbar)."""

from __future__ import annotations

import io

from PIL import Image
from pyzbar.pyzbar import decode

from companion.app.qr import qr_png, qr_terminal, seat_url
from companion.app.seats import wifi_payload


def read(png: bytes) -> list[str]:
    return [d.data.decode("utf-8") for d in decode(Image.open(io.BytesIO(png)))]


def test_seat_links_decode_to_the_exact_url() -> None:
    for address in ("192.168.4.1", "10.42.0.1", "fe80::1"):
        url = seat_url(address, 8080, "Zx-_9aB3" * 4)
        assert read(qr_png(url)) == [url]
    assert seat_url("fe80::1", 80, "t") == "http://[fe80::1]:80/s/t"


def test_wifi_code_decodes_with_escaping() -> None:
    # ASCII only: zbar guesses a legacy charset for non-ASCII bytes when reading back.
    payload = wifi_payload('Cafe;"Net",2', "p:a\\ss;word")
    assert payload == 'WIFI:T:WPA;S:Cafe\\;\\"Net\\"\\,2;P:p\\:a\\\\ss\\;word;;'
    assert read(qr_png(payload)) == [payload]


def test_open_network_code_says_nopass_and_has_no_password_field() -> None:
    payload = wifi_payload("Companion:Table", "")
    assert payload == "WIFI:T:nopass;S:Companion\\:Table;;"
    assert read(qr_png(payload)) == [payload]


def test_terminal_qr_is_square_blocks() -> None:
    lines = qr_terminal("http://10.0.0.2:8080/s/abc").splitlines()
    assert len({len(line) for line in lines}) == 1
    assert set("".join(lines)) <= {"█", "▀", "▄", " "}
