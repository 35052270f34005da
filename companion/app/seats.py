"""Seats and phone links.

Each seat of the current game has a long random token; its link ``http://<pi>:<port>/s/<token>``
is shown as a QR code on request. The first device that opens it claims the seat (the page keeps
a random device secret; we keep only its hash). Any other device gets "seat taken". The table
can release a seat: a new token is issued and the old one is dead at once.

Tokens are never logged in full (:func:`redact`) and are compared in constant time.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import secrets
import sqlite3
import string
from collections.abc import Sequence
from dataclasses import dataclass

from companion.app.store import Store
from companion.core.audience import Audience

TOKEN_BYTES = 24  # 192 bits
TABLE_SEAT = "@table"  # the link that opens the public table screen in a browser (``companion serve``)
DEVICE_MIN_LEN = 32  # hex characters of the page's device secret (>= 128 bits)
TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "-_")  # secrets.token_urlsafe's alphabet


@dataclass(frozen=True)
class SeatLink:
    game_id: int
    seat: str
    token: str
    claimed: bool


@dataclass(frozen=True)
class Claim:
    """The answer to a phone that presents a token: which seat, and whether it may have it."""

    game_id: int
    seat: str
    ok: bool  # False: another device holds this seat

    @property
    def audience(self) -> Audience:
        return Audience.table() if self.seat == TABLE_SEAT else Audience.of_seat(self.seat)


def redact(token: str) -> str:
    return token[:4] + "…" if token else ""


def device_hash(device: str) -> str:
    return hashlib.sha256(device.encode("utf-8")).hexdigest()


def valid_device(device: object) -> bool:
    return (
        isinstance(device, str)
        and DEVICE_MIN_LEN <= len(device) <= 128
        and all(c in "0123456789abcdef" for c in device)
    )


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


class SeatLinks:
    """Tokens and claims, kept in the store so phones reconnect after a power cut too."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def ensure(self, game_id: int, seats: Sequence[str]) -> list[SeatLink]:
        """The links of a game's seats, issuing tokens for seats that have none yet."""

        def work(db: sqlite3.Connection) -> list[SeatLink]:
            db.execute("BEGIN IMMEDIATE")
            have = {
                row[0]: (row[1], row[2] is not None)
                for row in db.execute("SELECT seat, token, device FROM seat_links WHERE game_id = ?", (game_id,))
            }
            out = []
            for seat in seats:
                if seat not in have:
                    token = secrets.token_urlsafe(TOKEN_BYTES)
                    db.execute(
                        "INSERT INTO seat_links (game_id, seat, token, device, issued) VALUES (?, ?, ?, NULL, ?)",
                        (game_id, seat, token, _now()),
                    )
                    have[seat] = (token, False)
                token, claimed = have[seat]
                out.append(SeatLink(game_id, seat, token, claimed))
            db.execute("COMMIT")
            return out

        return self.store.call(work)

    def claimed(self, game_id: int, seat: str) -> bool:
        """Whether a phone holds the seat's link in game ``game_id`` (and so keeps its secrets)."""

        def work(db: sqlite3.Connection) -> bool:
            row = db.execute("SELECT device FROM seat_links WHERE game_id = ? AND seat = ?", (game_id, seat)).fetchone()
            return row is not None and row[0] is not None

        return self.store.call(work)

    def release(self, game_id: int, seat: str) -> SeatLink:
        """Forget the seat's device and issue a new token; the old link stops working at once."""
        token = secrets.token_urlsafe(TOKEN_BYTES)

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO seat_links (game_id, seat, token, device, issued) VALUES (?, ?, ?, NULL, ?) "
                "ON CONFLICT(game_id, seat) DO UPDATE SET token = excluded.token, device = NULL, "
                "issued = excluded.issued",
                (game_id, seat, token, _now()),
            )

        self.store.call(work)
        return SeatLink(game_id, seat, token, False)

    def resolve(self, token: object) -> tuple[int, str] | None:
        """Which (game, seat) a presented token opens; ``None`` for anything else.

        Every stored token is compared in constant time, so timing tells nothing about how
        much of a guess was right."""
        if not isinstance(token, str) or not 16 <= len(token) <= 64 or not set(token) <= TOKEN_CHARS:
            return None  # not even shaped like a link (e.g. a lone surrogate, which has no UTF-8 form)
        rows = self.store.call(lambda db: db.execute("SELECT game_id, seat, token FROM seat_links").fetchall())
        found = None
        probe = token.encode("utf-8")
        for game_id, seat, stored in rows:
            if hmac.compare_digest(probe, stored.encode("utf-8")):
                found = (int(game_id), str(seat))
        return found

    def claim(self, token: object, device: object) -> Claim | None:
        """Bind the seat to ``device`` if it is free; ``None`` if the token or device is not valid."""
        where = self.resolve(token)
        if where is None or not valid_device(device):
            return None
        game_id, seat = where
        assert isinstance(device, str)
        digest = device_hash(device)

        def work(db: sqlite3.Connection) -> bool:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute("SELECT device FROM seat_links WHERE game_id = ? AND seat = ?", (game_id, seat)).fetchone()
            if row is None:
                db.execute("ROLLBACK")
                return False
            if row[0] is None:
                db.execute("UPDATE seat_links SET device = ? WHERE game_id = ? AND seat = ?", (digest, game_id, seat))
                db.execute("COMMIT")
                return True
            db.execute("ROLLBACK")
            return hmac.compare_digest(str(row[0]), digest)

        return Claim(game_id, seat, self.store.call(work))


def wifi_payload(ssid: str, password: str) -> str:
    """The standard Wi-Fi QR text, with ``\\ ; , " :`` escaped in the values; ``T:nopass`` for an open network."""

    def esc(value: str) -> str:
        return "".join("\\" + c if c in '\\;,":' else c for c in value)

    if not password:
        return f"WIFI:T:nopass;S:{esc(ssid)};;"
    return f"WIFI:T:WPA;S:{esc(ssid)};P:{esc(password)};;"
