"""The small helpers every game uses: the audience checks of ``decide`` and the scratch state that
lets one action's later events see its earlier ones."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from toygame import RULES, Added, SecretsDrawn, ToyState

from companion.core import DEBUG, TABLE, Audience, Forbidden
from companion.core.audience import require_seat, require_table, require_table_or_seat
from companion.core.scratch import Scratch, folded

A, B = Audience.of_seat("a"), Audience.of_seat("b")


def test_audience_checks_refuse_with_the_games_own_code() -> None:
    require_table(TABLE, "x.table_only")
    for actor in (A, DEBUG):
        with pytest.raises(Forbidden) as caught:
            require_table(actor, "x.table_only")
        assert caught.value.code == "x.table_only"
    require_seat(A, "a", "x.own_phone")
    for actor in (TABLE, B):
        with pytest.raises(Forbidden, match="only that seat"):
            require_seat(actor, "a", "x.own_phone")
    require_table_or_seat(TABLE, "a", "x.not_yours")
    require_table_or_seat(A, "a", "x.not_yours")
    with pytest.raises(Forbidden) as caught:
        require_table_or_seat(B, "a", "x.not_yours", "you may only act for your own seat")
    assert (caught.value.code, caught.value.params, str(caught.value)) == (
        "x.not_yours",
        {"seat": "a"},
        "you may only act for your own seat",
    )


@given(st.lists(st.tuples(st.sampled_from(["a", "b"]), st.integers(1, 3), st.booleans()), max_size=12))
def test_a_scratch_state_is_the_fold_of_its_events(steps: list[tuple[str, int, bool]]) -> None:
    start = RULES.apply(RULES.setup({}), SecretsDrawn((5, 7)))
    events = [Added(seat, amount, ends) for seat, amount, ends in steps]
    scratch = Scratch(RULES.apply, start)
    seen = []
    for event in events:
        seen.append(scratch.emit(event).total)  # each step sees the ones before it
    assert scratch.events == events and scratch.state == folded(RULES.apply, start, events)
    assert seen == [sum(e.amount for e in events[: i + 1]) for i in range(len(events))]
    assert start.total == 0  # the state it started from is untouched (frozen)


def test_settle_adds_what_follows_by_itself_and_stops_a_runaway() -> None:
    start = RULES.apply(RULES.setup({"target": 6}), SecretsDrawn((1, 2)))

    def until_target(state: ToyState) -> Added | None:
        return Added(state.seats[state.turn], 1) if state.total < state.target else None

    scratch = Scratch(RULES.apply, start)
    scratch.emit(Added("a", 3))
    events = scratch.settle(until_target, limit=10)
    assert [e.amount for e in events if isinstance(e, Added)] == [3, 1, 1, 1] and scratch.state.total == 6
    with pytest.raises(RuntimeError, match="did not settle"):
        Scratch(RULES.apply, start).settle(lambda s: Added("a", 1), limit=5)
