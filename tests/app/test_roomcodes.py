"""Room codes: five unambiguous letters, one use, a limited time, only while the seat is free,
and turns for everyone's guesses together: a bounded rate that never refuses a right code."""

from __future__ import annotations

import asyncio

from hypothesis import given
from hypothesis import strategies as st

from companion.app import roomcodes
from companion.app.roomcodes import (
    ALPHABET,
    GUESSES_PER_MINUTE,
    LENGTH,
    LIFETIME,
    RoomCodes,
    Turns,
    normalise,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_alphabet_has_no_letters_people_confuse() -> None:
    assert len(set(ALPHABET)) == len(ALPHABET) == 20
    assert not set(ALPHABET) & set("ILOUVZ0125")
    assert ALPHABET.isupper() and ALPHABET.isalpha()


def test_a_code_opens_its_seat_once_and_is_then_gone() -> None:
    codes = RoomCodes(Clock())
    issued = codes.issue(7, "mrx")
    assert len(issued.code) == LENGTH and set(issued.code) <= set(ALPHABET)
    assert codes.issue(7, "mrx") == issued  # shown again: the same code
    typed = " ".join(issued.code.lower())  # case and spaces do not matter
    assert codes.redeem(typed) == (7, "mrx")
    assert codes.redeem(issued.code) is None


def test_codes_expire_and_die_when_their_seat_is_claimed_or_released() -> None:
    clock = Clock()
    codes = RoomCodes(clock)
    a, b, c = codes.issue(1, "mrx"), codes.issue(1, "d1"), codes.issue(2, "p1")
    assert len({a.code, b.code, c.code}) == 3
    codes.forget(1, "d1")  # d1 scanned the QR code instead
    assert codes.redeem(b.code) is None
    codes.forget(2)  # the game was closed
    assert codes.redeem(c.code) is None
    clock.now += LIFETIME
    assert codes.peek(1, "mrx") is None
    assert codes.redeem(a.code) is None


def test_wrong_codes_never_refuse_a_right_one() -> None:
    """On main, 30 wrong codes in a minute made even the right code answer ``room.busy``."""
    codes = RoomCodes(Clock())
    right = codes.issue(1, "mrx").code
    wrong = next(c for c in ("AAAAA", "BBBBB") if c != right)
    for _ in range(10 * GUESSES_PER_MINUTE):
        assert codes.redeem(wrong) is None
    assert codes.redeem(right) == (1, "mrx")


def test_turns_bound_the_rate_of_guesses_and_let_a_clean_address_go_first() -> None:
    """A burst at once, then one turn per interval; a code from an address without wrong codes
    goes before those waiting from guessing addresses; one that would wait longer than the
    longest wait is told so at once. However the codes come, the turns given in any stretch of
    time are at most the burst plus one per interval."""

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        turns = Turns(per_minute=600, burst=3, longest=1.0)  # a turn every 0.1 s
        given: list[tuple[float, str]] = []

        async def code(name: str, first: bool = False) -> bool:
            ok = await turns.wait(first=first)
            if ok:
                given.append((loop.time(), name))
            return ok

        guessing = [asyncio.create_task(code(f"guess{k}")) for k in range(8)]
        await asyncio.sleep(0)
        player = asyncio.create_task(code("player", first=True))
        late = await asyncio.gather(*(code("late") for _ in range(20)))
        assert late.count(False) >= 10  # more than a second away: told busy at once
        await asyncio.gather(player, *guessing)
        order = [name for _, name in given]
        assert order[:3] == ["guess0", "guess1", "guess2"]  # the burst
        assert order[3] == "player"  # the next turn, before every guessing address waiting
        times = [t for t, _ in given]
        for i, start in enumerate(times):  # any stretch: at most the burst plus one per interval
            inside = [t for t in times[i:] if t - start <= 0.5]
            assert len(inside) <= 3 + 0.5 / turns.interval + 1e-9

    asyncio.run(scenario())


@given(st.text(max_size=40))
def test_anything_typed_is_a_code_or_nothing(typed: str) -> None:
    code = normalise(typed)
    assert code is None or (len(code) == LENGTH and set(code) <= set(ALPHABET))
    assert RoomCodes(Clock()).redeem(typed) is None  # no code was shown


def test_issued_codes_are_spread_over_the_alphabet() -> None:
    codes = RoomCodes(Clock())
    seen = {codes.issue(1, f"s{i}").code for i in range(400)}
    assert len(seen) == 400
    assert set("".join(seen)) == set(ALPHABET)
    assert roomcodes.LIFETIME >= 60
