"""The codecs are exact and strict: what goes out comes back equal; bad input is refused."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core import Event, KindCodec, MalformedInput, decode, encode
from companion.core.jsonvalue import dumps, loads


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Inner:
    station: int
    label: str | None = None


@dataclass(frozen=True)
class Sample(Event):
    kind: ClassVar[str] = "test.sample"
    count: int
    name: str
    flag: bool
    colour: Colour
    mode: Literal["taxi", "bus"]
    path: tuple[int, ...]
    pair: tuple[int, str]
    inner: Inner
    inners: tuple[Inner, ...] = ()
    ratio: float = 0.5


@dataclass(frozen=True)
class Other(Event):
    kind: ClassVar[str] = "test.other"


CODEC: KindCodec[Event] = KindCodec([Sample, Other])

inner = st.builds(Inner, st.integers(), st.none() | st.text())
samples = st.builds(
    Sample,
    count=st.integers(),
    name=st.text(),
    flag=st.booleans(),
    colour=st.sampled_from(Colour),
    mode=st.sampled_from(["taxi", "bus"]),
    path=st.lists(st.integers()).map(tuple),
    pair=st.tuples(st.integers(), st.text()),
    inner=inner,
    inners=st.lists(inner, max_size=4).map(tuple),
    ratio=st.floats(allow_nan=False, allow_infinity=False),
)


@settings(deadline=None)  # speed is the benchmark's business, never a test's
@given(samples)
def test_round_trip_is_exact(value: Sample) -> None:
    data = CODEC.encode(value)
    assert CODEC.decode(data) == value
    # Through JSON text and back, and encode(decode(x)) == x for canonical x.
    text = dumps(data)
    assert CODEC.decode(loads(text)) == value
    assert dumps(CODEC.encode(CODEC.decode(loads(text)))) == text


GOOD = {
    "kind": "test.sample",
    "count": 1,
    "name": "x",
    "flag": True,
    "colour": "red",
    "mode": "bus",
    "path": [1, 2],
    "pair": [3, "y"],
    "inner": {"station": 5, "label": None},
}


def test_good_sample_decodes() -> None:
    value = CODEC.decode(GOOD)
    assert isinstance(value, Sample)
    assert value.inner == Inner(5, None)
    assert value.colour is Colour.RED
    assert value.inners == () and value.ratio == 0.5


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"count": True}, "malformed.field"),  # a bool is not an int
        ({"count": "1"}, "malformed.field"),
        ({"count": 1.5}, "malformed.field"),
        ({"flag": 1}, "malformed.field"),
        ({"colour": "green"}, "malformed.choice"),
        ({"mode": "ferry"}, "malformed.choice"),
        ({"path": [1, "2"]}, "malformed.field"),
        ({"path": {"a": 1}}, "malformed.field"),
        ({"pair": [1]}, "malformed.length"),
        ({"inner": {"station": 5, "extra": 1}}, "malformed.extra_field"),
        ({"inner": {}}, "malformed.missing_field"),
        ({"surprise": 1}, "malformed.extra_field"),
        ({"kind": "test.nope"}, "malformed.unknown_kind"),
        ({"kind": 7}, "malformed.missing_field"),
    ],
)
def test_bad_input_is_refused_with_a_code(change: dict[str, object], code: str) -> None:
    with pytest.raises(MalformedInput) as info:
        CODEC.decode({**GOOD, **change})
    assert info.value.code == code
    assert isinstance(info.value, ValueError)


def test_missing_field_and_non_objects() -> None:
    data = dict(GOOD)
    del data["name"]
    with pytest.raises(MalformedInput, match="name"):
        CODEC.decode(data)
    for garbage in (None, [], "x", 3):
        with pytest.raises(MalformedInput):
            CODEC.decode(garbage)


def test_unknown_kind_param_is_bounded() -> None:
    with pytest.raises(MalformedInput) as info:
        CODEC.decode({"kind": "k" * 10_000})
    assert len(str(info.value.params["kind"])) <= 40


def test_json_text_refuses_nan() -> None:
    with pytest.raises(ValueError):
        loads('{"a": NaN}')


def test_registering_a_kind_twice_fails() -> None:
    with pytest.raises(TypeError):
        KindCodec([Sample, Sample])
    assert encode(Other()) == {}
    assert decode(Inner, {"station": 1}) == Inner(1)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"inners": [{"station": 1}, {"station": "x"}]}, "inners[1].station"),
        ({"inner": {"station": 5, "label": 3}}, "inner.label"),
        ({"pair": [1, 2]}, "pair[1]"),
        ({"path": [1, None]}, "path[1]"),
    ],
)
def test_a_refusal_names_the_nested_field(change: dict[str, object], field: str) -> None:
    """Decoders are built once per type; the path of a bad value still names where it is."""
    with pytest.raises(MalformedInput) as info:
        CODEC.decode({**GOOD, **change})
    assert info.value.params["field"] == field
    assert CODEC.decode(GOOD) == CODEC.decode(dict(GOOD))  # built once, used again
