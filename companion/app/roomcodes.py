"""Room codes: five letters a player can type instead of scanning a seat's QR code.

A code stands for one seat's link while it is shown (under the seat's QR code on the touchscreen
and the host page). It is good for one use, for :data:`LIFETIME` seconds, and only while its seat
is unclaimed: the landing page (``GET /``) trades it for the seat's link, and the phone page then
claims the seat as if the QR code had been scanned. Codes live in memory only (a restart forgets
them; the screens show fresh ones).

Codes use 20 capital letters that cannot be mistaken for digits or each other (no I, L, O, U, V,
Z): 20^5 = 3.2 million codes, of which only a handful are valid at a time. Every presented code
is compared in constant time with every valid one; one address's codes are looked at one at a
time and slowed by the server as its wrong ones add up; and every code, from any address, waits for
its turn among at most :data:`GUESSES_PER_MINUTE` a minute (:class:`Turns`). Wrong codes never get a
right one refused — they can only make it wait its turn — and guessing stays bounded however many
addresses guess: at most 30 codes a minute are looked at, a 9.4·10⁻⁶ chance of a hit per minute a
code is valid (see ``docs/host.md`` for an evening's figure).
"""

from __future__ import annotations

import asyncio
import heapq
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

ALPHABET = "ABCDEFGHJKMNPQRSTWXY"
LENGTH = 5
LIFETIME = 15 * 60.0  # seconds a code stays valid after it was shown
GUESSES_PER_MINUTE = 30  # codes looked at per minute, from all addresses together ...
GUESS_BURST = 5  # ... of which this many at once after a quiet while
LONGEST_WAIT = 60.0  # seconds a code may wait for its turn; later ones are told busy (try again)


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
        """The (game, seat) of a valid code, which is used up; ``None`` for anything else. Every
        valid code is compared, in constant time, whatever was typed. (The rate of guesses is
        bounded before this is asked: :class:`Turns`.)"""
        probe = (normalise(text) or "?" * LENGTH).encode("ascii")
        now = self._clock()
        with self._lock:
            self._expire(now)
            found = None
            for key, entry in self._codes.items():
                if hmac.compare_digest(probe, entry.code.encode("ascii")):
                    found = key
            if found is None:
                return None
            del self._codes[found]
            return found

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


class Turns:
    """Turns for typed codes, for everyone together: at most :data:`GUESSES_PER_MINUTE` a minute
    (:data:`GUESS_BURST` at once after a quiet while). A code waits for its turn instead of being
    refused, so wrong codes typed anywhere only delay a right one — and a code from an address
    that typed no wrong one lately (``first``) goes before the codes of addresses that did, so a
    player waits one turn at most while others guess. A code that would wait more than
    :data:`LONGEST_WAIT` seconds (dozens of addresses guessing at once) is told busy, and the page
    asks again. In any ``t`` seconds at most ``GUESS_BURST + t / 2`` codes are looked at.
    Runs on one event loop (``clock``: its time, for tests)."""

    def __init__(
        self,
        per_minute: float = GUESSES_PER_MINUTE,
        burst: int = GUESS_BURST,
        longest: float = LONGEST_WAIT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.interval = 60.0 / per_minute
        self.burst = burst
        self.longest = longest
        self._clock = clock
        self._tokens = float(burst)
        self._stamp = clock()
        self._queue: list[tuple[int, int, asyncio.Future[None]]] = []  # (0: first / 1: others, order, waiter)
        self._order = 0
        self._timer: asyncio.TimerHandle | None = None

    async def wait(self, first: bool = False) -> bool:
        """Wait for a turn; ``False`` (at once) when it would come later than :attr:`longest`."""
        self._refill()
        if not self._queue and self._tokens >= 1:
            self._tokens -= 1
            return True
        rank = 0 if first else 1
        ahead = sum(1 for r, _, _ in self._queue if r <= rank)
        if (ahead + 1 - self._tokens) * self.interval > self.longest:
            return False
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._order += 1
        heapq.heappush(self._queue, (rank, self._order, waiter))
        self._arm()
        try:
            await waiter
        except asyncio.CancelledError:  # the page left: its place goes to the next one
            self._queue = [entry for entry in self._queue if entry[2] is not waiter]
            heapq.heapify(self._queue)
            if waiter.done() and not waiter.cancelled():
                self._tokens += 1  # given just now, never used
            raise
        return True

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._stamp) / self.interval)
        self._stamp = now

    def _arm(self) -> None:
        if self._timer is None and self._queue:
            delay = max(0.0, (1 - self._tokens) * self.interval)
            self._timer = asyncio.get_running_loop().call_later(delay, self._give)

    def _give(self) -> None:
        self._timer = None
        self._refill()
        while self._queue and self._tokens >= 1:
            _, _, waiter = heapq.heappop(self._queue)
            if not waiter.done():
                self._tokens -= 1
                waiter.set_result(None)
        self._arm()
