"""The views' shared parts: built once per state, serialised once — and never different from
what building and serialising every screen's message afresh would give."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from drivers import DRIVERS
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core import DEBUG, TABLE, Audience, Game
from companion.core.jsonvalue import dumps, text_encoder
from companion.core.shared import Layered, Piece, SharedText, forget_parts, per_part, per_state
from companion.games import get_rules
from companion.games.mykerinos import views as myk_views
from companion.games.scotland_yard import views as sy_views
from companion.games.victorian_masterminds import views as vm_views

leaves = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()  # lone surrogates, quotes, control characters, non-ASCII
)
values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
        | st.dictionaries(st.integers() | st.booleans() | st.none(), inner, max_size=3)  # keys json converts
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.dictionaries(st.text(max_size=6), values, max_size=5), min_size=1, max_size=3), st.data())
def test_shared_text_is_json_dumps(bases: list[dict[str, Any]], data: st.DataObject) -> None:
    """Messages whose views share a part (as every audience's view holds the state's public
    picture) read exactly as ``json.dumps`` writes each of them, in whatever order they come —
    also when views hold pieces kept from one state to the next (alone, or in a list that starts
    with one, in the shared part, in an audience's own keys and in the message)."""
    shared = SharedText(keep=4)
    pool = [Piece(d) for d in data.draw(st.lists(st.dictionaries(st.text(max_size=6), values, max_size=3), max_size=3))]
    if pool:
        pieces = st.sampled_from(pool)
        for base in bases:
            if data.draw(st.booleans()):
                base["\u00e9quipe"] = data.draw(st.lists(pieces, min_size=1, max_size=3))
                if data.draw(st.booleans()):
                    base["\u00e9quipe"].append(data.draw(values))  # a list that only starts with a piece
            if data.draw(st.booleans()):
                base["one"] = data.draw(pieces)
    for _ in range(5):
        base = data.draw(st.sampled_from(bases))
        keys = st.text(max_size=6).filter(lambda k, base=base: k not in base)
        own = data.draw(st.dictionaries(keys, values, max_size=3))
        if pool and "me" not in base and data.draw(st.booleans()):
            own["me"] = data.draw(st.sampled_from(pool))
        view = Layered(base, own)
        items: list[tuple[str, Any]] = [
            ("type", "state"),
            ("seq", data.draw(st.integers())),
            ("view", view),
            ("legal", data.draw(values)),
            ("last", data.draw(values)),
        ]
        if data.draw(st.booleans()):
            items.append(("other", Layered(data.draw(st.sampled_from(bases)), {})))
        if pool and data.draw(st.booleans()):
            items.append(("piece", data.draw(st.sampled_from(pool))))
        # Plain values are serialised in runs between the views: any order, a view first or last.
        message: dict[Any, Any] = dict(data.draw(st.permutations(items)))
        if data.draw(st.booleans()):
            message[data.draw(st.integers() | st.none())] = "a key json.dumps converts"
        assert shared.dumps(message) == json.dumps(message, ensure_ascii=False)
        assert shared.dumps(message) == json.dumps(message, ensure_ascii=False), "kept text"
        assert shared.dumps(view) == json.dumps(view, ensure_ascii=False)
        assert json.loads(shared.dumps(view)) == json.loads(json.dumps({**base, **own}))


@settings(max_examples=300, deadline=None)
@given(values)
def test_the_built_encoders_write_what_json_dumps_writes(value: Any) -> None:
    """The encoders built once (companion.core.jsonvalue.text_encoder) give json.dumps's text."""
    try:
        expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except TypeError:  # keys of types sort_keys cannot compare
        with pytest.raises(TypeError):
            dumps(value)
    else:
        assert dumps(value) == expected
    plain = text_encoder(sort_keys=False, separators=(", ", ": "))
    assert plain(value) == json.dumps(value, ensure_ascii=False)


def test_the_built_encoders_refuse_what_is_not_json() -> None:
    for bad in (object(), {"a": {1, 2}}, [b"bytes"], {(1, 2): 3}):
        with pytest.raises(TypeError):
            dumps(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            text_encoder(sort_keys=False, separators=(", ", ": "))(bad)


def test_views_and_pieces_refuse_to_be_changed() -> None:
    """A kept text is only right while what it was written from stays as it was."""
    piece = Piece({"a": 1})
    view = Layered({"b": 2}, {"c": piece})
    for thing in (piece, view):
        for change in (
            lambda d: d.__setitem__("x", 1),
            lambda d: d.__delitem__(next(iter(d))),
            lambda d: d.update(x=1),
            lambda d: d.pop(next(iter(d))),
            lambda d: d.popitem(),
            lambda d: d.setdefault("x", 1),
            lambda d: d.clear(),
        ):
            with pytest.raises(TypeError, match="never changed"):
                change(thing)
        with pytest.raises(TypeError):
            thing |= {"x": 1}
    assert piece == {"a": 1} and view == {"b": 2, "c": {"a": 1}}
    assert SharedText().dumps(view) == json.dumps(view, ensure_ascii=False)


def test_layered_is_its_keys_and_refuses_to_hide_shared_ones() -> None:
    base = {"figures": [{"station": 13}], "round": 2}
    view = Layered(base, {"controls": ["D1"]})
    assert view == {"figures": [{"station": 13}], "round": 2, "controls": ["D1"]}
    assert list(view) == ["figures", "round", "controls"]
    with pytest.raises(ValueError, match="round"):
        Layered(base, {"round": 3})


def test_shared_text_serialises_a_shared_part_once() -> None:
    """The part every audience holds is serialised for the first view only (its text is kept);
    an equal part that is another object is serialised on its own."""
    calls: list[object] = []

    class Counting(dict[str, Any]):  # a part that tells when the JSON encoder reads it
        def items(self) -> Any:
            calls.append(self)
            return super().items()

    base = {"figures": Counting({"d1": 13})}
    shared = SharedText(keep=8)
    texts = [shared.dumps({"view": Layered(base, {"me": seat})}) for seat in ("d1", "d2", "d3")]
    assert [json.loads(t)["view"]["me"] for t in texts] == ["d1", "d2", "d3"]
    assert len(calls) == 1
    other = {"figures": Counting({"d1": 14})}
    assert '"d1": 14' in shared.dumps({"view": Layered(other, {})})
    assert len(calls) == 2
    for i in range(20):  # what is kept stays bounded
        shared.dumps({"view": Layered({"n": i}, {})})
    assert len(shared._texts) <= 8


def test_per_state_builds_once_per_state_object() -> None:
    calls: list[object] = []

    @per_state
    def build(state: tuple[int, ...]) -> dict[str, Any]:
        """the docstring stays"""
        calls.append(state)
        return {"sum": sum(state)}

    a, b = (1, 2), (3, 4)
    assert build(a) is build(a)
    assert build(b) == {"sum": 7}
    assert build(tuple([1, 2])) == {"sum": 3}  # an equal state, another object: built anew
    assert len(calls) == 3
    assert build.__doc__ == "the docstring stays"


def test_per_part_keeps_a_piece_for_each_part_object() -> None:
    calls: list[object] = []

    @per_part
    def build(part: tuple[int, ...]) -> dict[str, Any]:
        """the docstring stays"""
        calls.append(part)
        return {"n": len(part)}

    a, b = (1, 2), (3,)
    first = build(a)
    assert type(first) is Piece and first == {"n": 2}
    assert build(b) == {"n": 1} and build(a) is first, "each part's piece is kept, not only the last one's"
    assert calls == [a, b]
    equal = tuple([1, 2])
    assert equal == a and equal is not a
    assert build(equal) is not first and calls[-1] is equal, "kept for the very object, not an equal one"
    forget_parts()
    assert build(a) is not first and calls[-1] is a
    assert build.__doc__ == "the docstring stays"
    shared = SharedText()
    message = {"type": "state", "players": [first, build(b)], "me": first}
    assert shared.dumps(message) == json.dumps(message, ensure_ascii=False)


PUBLIC: dict[str, tuple[Any, ...]] = {  # every game's builders kept per state
    "scotland_yard": (sy_views.public, sy_views._all_moves),
    "mykerinos": (myk_views.public,),
    "victorian_masterminds": (vm_views._shared,),
}


PARTS: dict[str, tuple[tuple[Any, Callable[[Any], Any]], ...]] = {  # builders kept per part of the state
    "victorian_masterminds": ((vm_views.public_player, lambda state: state.players),),
}


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_views_with_shared_parts_equal_views_built_afresh(name: str) -> None:
    """Through random games of every box: each audience's snapshot, built one after the other as
    the table does (so they share the state's public picture), equals the same snapshot built with
    nothing shared; no audience's view changed a part another holds; and the text the table sends
    is ``json.dumps`` of the message."""
    rules_name, config, choose = DRIVERS[name]
    builders = PUBLIC[name]
    shared = SharedText()
    rng = random.Random(5)
    for seed in range(6):
        game: Game[Any] = Game(get_rules(rules_name), config, seed)
        audiences = [TABLE, DEBUG, *(Audience.of_seat(s) for s in game.rules.seats(game.state))]
        for _ in range(120):
            snaps = []
            for audience in audiences:
                try:
                    snaps.append((audience, game.snapshot(audience)))
                except Exception as exc:  # a seat nobody may see (Mister X played by the table)
                    snaps.append((audience, type(exc).__name__))
            for builder in builders:
                assert builder(game.state) == builder.__wrapped__(game.state), "no view changed a shared part"
            for piece, parts in PARTS.get(name, ()):
                for part in parts(game.state):  # kept since an earlier state, or built for this one
                    assert piece(part) == piece.__wrapped__(part), "no view changed a kept piece"
            for audience, snap in snaps:
                if isinstance(snap, str):
                    continue
                alone = _unshared(game, audience, builders)
                assert snap == alone, f"{name} {audience.label()} at {game.seq}"
                assert shared.dumps(snap) == json.dumps(snap, ensure_ascii=False)
            choice = None if game.outcome() is not None else choose(game, rng)
            if choice is None:
                break
            game.commit(game.decide(choice[0], choice[1], game.seq))


def _unshared(game: Game[Any], audience: Audience, builders: tuple[Any, ...]) -> Any:
    """The audience's snapshot built as if it were the first screen to ask about this state, and
    nothing were kept from the states before it."""
    for builder in builders:
        builder(game.rules.setup(game.config))  # another state object: the builder forgets this one
    forget_parts()
    return game.snapshot(audience)
