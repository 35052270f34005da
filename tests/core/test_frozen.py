"""``companion.core.frozen.replace``: the same answer as ``dataclasses.replace``, only faster."""

from __future__ import annotations

import dataclasses
from dataclasses import InitVar, dataclass, field

import pytest

from companion.core.frozen import replace


@dataclass(frozen=True)
class Plain:
    a: int
    b: tuple[int, ...] = ()
    c: str = "x"


@dataclass(frozen=True)
class Checked:
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("a must not be negative")


@dataclass(frozen=True)
class Derived:
    a: int
    double: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "double", 2 * self.a)


@dataclass(frozen=True)
class WithInitVar:
    a: int
    scale: InitVar[int] = 1


@dataclass(frozen=True, slots=True)
class Slotted:
    a: int
    b: int = 0


def test_same_as_dataclasses_replace() -> None:
    old = Plain(1, (2, 3))
    new = replace(old, b=(4,), c="y")
    assert new == dataclasses.replace(old, b=(4,), c="y") == Plain(1, (4,), "y")
    assert type(new) is Plain and new is not old
    assert old == Plain(1, (2, 3)), "the original is left as it was"
    assert replace(old) == old and replace(old) is not old
    assert hash(new) == hash(Plain(1, (4,), "y"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.a = 5  # type: ignore[misc]


def test_an_unknown_field_is_refused() -> None:
    with pytest.raises(TypeError, match="nope"):
        replace(Plain(1), nope=2)
    with pytest.raises(TypeError):
        replace((1, 2), a=1)  # not a dataclass


def test_classes_the_shortcut_would_get_wrong_go_through_dataclasses() -> None:
    with pytest.raises(ValueError, match="negative"):
        replace(Checked(1), a=-1)  # __post_init__ still checks
    assert replace(Derived(2), a=5).double == 10  # a field derived in __post_init__ follows
    assert replace(WithInitVar(1), a=2, scale=3) == WithInitVar(2)
    assert replace(Slotted(1), b=2) == Slotted(1, 2)
