"""The undo bookkeeping a game keeps as it grows equals what the whole log says.

:class:`~companion.core.game.Game` keeps the actions that still count (with a state checkpoint
every few of them) instead of scanning the log for every undo and every snapshot. These
properties compare it, after every step of random games with undos, against the log read from
scratch: the fold, the last action that counts, who may undo it, and a game rebuilt from the log.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from toygame import RULES, Add, AddTwice, Draw

from companion.core import TABLE, Audience, Entry, Game, IllegalMove, Undo, Undone, UndoRefused, fold
from companion.core.events import may_undo
from companion.core.game import CHECKPOINT, undone_actions

A, B = Audience.of_seat("a"), Audience.of_seat("b")
CONFIG = {"target": 10**6}


def reference_last_action(entries: list[Entry]) -> list[Entry]:
    """The last action that counts, read from the whole log."""
    skip = undone_actions(entries)
    live = [e for e in entries if e.action not in skip and not isinstance(e.event, Undone)]
    if not live:
        return []
    return [e for e in live if e.action == live[-1].action]


def assert_matches_log(game: Game[Any]) -> None:
    entries = list(game.entries)
    assert game.state == fold(RULES, game.start, entries)
    last = reference_last_action(entries)
    assert game.last_action() == last
    for actor in (TABLE, A, B):
        expected = bool(last) and all(may_undo(e.event, actor) for e in last)
        assert game.can_undo(actor) == expected
    # What undoing the last action gives back: the whole log without that action.
    assert game.state_before_last() == fold(RULES, game.start, [e for e in entries if e not in last])
    if last:
        marker = Undone(last[0].action)
        after_undo = fold(RULES, game.start, [*entries, *game.entries_for([marker])])
        assert game.after([marker]) == after_undo
    rebuilt: Game[Any] = Game(RULES, CONFIG, game.seed, entries)
    assert rebuilt.state == game.state and rebuilt.last_action() == last


steps = st.lists(
    st.tuples(st.sampled_from(["add", "add", "twice", "undo_table", "undo_owner", "undo_other"]), st.integers(1, 3)),
    min_size=1,
    max_size=4 * CHECKPOINT,
)


@settings(max_examples=80, deadline=None)
@given(steps)
def test_live_bookkeeping_equals_the_log_after_every_step(script: list[tuple[str, int]]) -> None:
    game: Game[Any] = Game(RULES, CONFIG, seed=3)
    game.commit(game.decide(Draw(), TABLE, game.seq))
    for op, amount in script:
        seat = game.state.seats[game.state.turn]
        owner = Audience.of_seat(seat)
        intent = {"add": Add(seat, amount), "twice": AddTwice(seat, amount)}.get(op, Undo())
        actor = {"undo_table": TABLE, "undo_other": B if seat == "a" else A}.get(op, owner)
        try:
            events = game.decide(intent, actor, game.seq)
        except (UndoRefused, IllegalMove):
            assert_matches_log(game)
            continue
        state = game.after(events)
        preview = game.snapshots_after(events, state)
        pending = game.last_action_after(events)
        game.commit(events, state if amount == 1 else None)
        assert_matches_log(game)
        assert pending == (game.last_action(), game.state_before_last())
        # The screens' next snapshots, built while the events are being written, are the ones
        # the committed game gives.
        assert preview is not None
        for audience in (TABLE, A, B):
            assert preview(audience) == game.snapshot(audience)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.integers(1, 3), st.tuples(st.just("undo"), st.integers(-2, 80))), max_size=60))
def test_markers_no_table_writes_still_fold_like_the_log(script: list[Any]) -> None:
    """Markers aimed anywhere (undone twice, at markers, at actions not yet written): a file may
    hold them, so the game must read them exactly as the fold does."""
    game: Game[Any] = Game(RULES, CONFIG, seed=5)
    game.commit(game.decide(Draw(), TABLE, game.seq))
    for step in script:
        if isinstance(step, tuple):
            marker = [Undone(step[1])]
            preview = game.snapshots_after(marker, game.after(marker))
            game.commit(marker)
            if preview is not None:  # known before the commit only for the undo a table decides
                assert all(preview(a) == game.snapshot(a) for a in (TABLE, A, B))
        else:
            seat = game.state.seats[game.state.turn]
            intent = Add(seat, step) if game.state.secrets else Draw()  # the draw itself may be taken back
            game.commit(game.decide(intent, TABLE, game.seq))
        assert_matches_log(game)


@settings(max_examples=40, deadline=None)
@given(steps)
def test_replaying_event_by_event_equals_the_game(script: list[tuple[str, int]]) -> None:
    """``append`` (a playthrough stops after every event, even inside a double addition)."""
    game: Game[Any] = Game(RULES, CONFIG, seed=9)
    game.commit(game.decide(Draw(), TABLE, game.seq))
    for op, amount in script:
        seat = game.state.seats[game.state.turn]
        intent = {"add": Add(seat, amount), "twice": AddTwice(seat, amount)}.get(op, Undo())
        try:
            game.commit(game.decide(intent, TABLE, game.seq))
        except (UndoRefused, IllegalMove):
            continue
    replay: Game[Any] = Game(RULES, CONFIG, seed=9)
    for entry in game.entries:
        replay.append(entry)
        assert replay.state == fold(RULES, replay.start, replay.entries)
    assert replay.entries == game.entries and replay.last_action() == game.last_action()
    assert_matches_log(replay)
