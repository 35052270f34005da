"""Room codes: five letters a player can type instead of scanning a seat's QR code.

A code stands for one seat's link while it is shown (under the seat's QR code on the touchscreen
and the host page). It is good for one use, for :data:`LIFETIME` seconds, and only while its seat
is unclaimed: the landing page (``GET /``) trades it for the seat's link, and the phone page then
claims the seat as if the QR code had been scanned. Codes live in memory only (a restart forgets
them; the screens show fresh ones).

Codes use 20 capital letters that cannot be mistaken for digits or each other (no I, L, O, U, V,
Z): 20^5 = 3.2 million codes, of which only a handful are valid at a time. Every presented code
is compared in constant time with every valid one, wrong codes are throttled per address by the
server, and at most :data:`WRONG_PER_MINUTE` wrong codes a minute are accepted from everyone
together, so guessing one takes months, not minutes.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

ALPHABET = "ABCDEFGHJKMNPQRSTWXY"
LENGTH = 5
LIFETIME = 15 * 60.0  # seconds a code stays valid after it was shown
WRONG_PER_MINUTE = 30  # wrong codes accepted per minute from all addresses together


@dataclass(frozen=True)
class RoomCode:
    code: str
    game_id: int
    seat: str
    expires: float  # time.monotonic()


def normalise(text: object) -> str | None:
    """What a person typed, as a code: case and spaces do not matter; anything else is ``None``."""
    if not isinstance(text, str) or len(text) > 32:
        return None
    code = "".join(text.split()).upper()
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


class RoomCodes:
    """The codes shown now. Thread-safe; ``clock`` is ``time.monotonic`` (tests pass their own)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._codes: dict[tuple[int, str], RoomCode] = {}
        self._lock = threading.Lock()
        self._wrong: list[float] = []

    def issue(self, game_id: int, seat: str) -> RoomCode:
        """The seat's code: the one still valid, or a new one (distinct from every valid code)."""
        now = self._clock()
        with self._lock:
            self._expire(now)
            current = self._codes.get((game_id, seat))
            if current is not None:
                return current
            taken = {c.code for c in self._codes.values()}
            while True:
                code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
                if code not in taken:
                    break
            issued = RoomCode(code, game_id, seat, now + LIFETIME)
            self._codes[(game_id, seat)] = issued
            return issued

    def peek(self, game_id: int, seat: str) -> RoomCode | None:
        """The seat's valid code, if one is shown (no new one is made)."""
        with self._lock:
            self._expire(self._clock())
            return self._codes.get((game_id, seat))

    def redeem(self, text: object) -> tuple[int, str] | None:
        """The (game, seat) of a valid code, which is used up; ``None`` for anything else.

        Every valid code is compared, in constant time, whatever was typed; when too many wrong
        codes came in the last minute, even a right one is refused until the minute is over."""
        probe = (normalise(text) or "?" * LENGTH).encode("ascii")
        now = self._clock()
        with self._lock:
            self._expire(now)
            self._wrong = [t for t in self._wrong if now - t < 60.0]
            found = None
            for key, entry in self._codes.items():
                if hmac.compare_digest(probe, entry.code.encode("ascii")):
                    found = key
            if len(self._wrong) >= WRONG_PER_MINUTE:
                return None
            if found is None:
                self._wrong.append(now)
                return None
            del self._codes[found]
            return found

    def locked(self) -> bool:
        """Whether codes are refused now because too many wrong ones came in."""
        now = self._clock()
        with self._lock:
            return sum(1 for t in self._wrong if now - t < 60.0) >= WRONG_PER_MINUTE

    def forget(self, game_id: int, seat: str | None = None) -> None:
        """A seat was claimed or released (or a whole game closed): its code is dead."""
        with self._lock:
            for key in [k for k in self._codes if k[0] == game_id and seat in (None, k[1])]:
                del self._codes[key]

    def keep_only(self, game_id: int | None) -> None:
        """Another game was opened (or none is): the other games' codes are dead."""
        with self._lock:
            for key in [k for k in self._codes if k[0] != game_id]:
                del self._codes[key]

    def _expire(self, now: float) -> None:
        for key in [k for k, c in self._codes.items() if c.expires <= now]:
            del self._codes[key]
