"""Room codes: five unambiguous letters, one use, a limited time, only while the seat is free,
and a global limit on wrong guesses."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.app import roomcodes
from companion.app.roomcodes import ALPHABET, LENGTH, LIFETIME, WRONG_PER_MINUTE, RoomCodes, normalise


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


def test_too_many_wrong_codes_close_the_door_for_a_minute_even_for_the_right_one() -> None:
    clock = Clock()
    codes = RoomCodes(clock)
    right = codes.issue(1, "mrx").code
    wrong = next(c for c in ("AAAAA", "BBBBB") if c != right)
    for _ in range(WRONG_PER_MINUTE):
        assert codes.redeem(wrong) is None
    assert codes.locked()
    assert codes.redeem(right) is None  # refused while locked, and not used up
    clock.now += 61
    assert not codes.locked()
    assert codes.redeem(right) == (1, "mrx")


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
