"""ui/memory.py: the full collections during play walk only what is new, and a game's start frees
the screens of the game before.

Real Kivy widgets in this test's process (on the session's Xvfb display) and Python's real
collector: no timing, only which objects a collection can see and which are freed."""

from __future__ import annotations

import gc
import os
import weakref
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def kivy(display: str, tmp_path: Any) -> Iterator[None]:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_HOME", str(tmp_path / "kivy"))
    os.environ["DISPLAY"] = display
    threshold = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
        gc.enable()
        gc.collect()


def panel(rows: int) -> Any:
    from ui.widgets import Btn, Lbl, Panel

    box = Panel(orientation="vertical")
    for i in range(rows):
        box.add_widget(Lbl(f"row {i}", wrap=True))
        box.add_widget(Btn(f"act {i}", lambda: None, tid=f"act.{i}"))
    return box


def seen(obj: object) -> bool:
    """Would a full collection walk ``obj`` (is it in a generation, not frozen)?"""
    return any(o is obj for o in gc.get_objects())


def test_a_collection_during_play_walks_only_what_is_new_and_a_game_start_frees_the_old_screens(kivy: None) -> None:
    from ui.memory import Collector

    collector = Collector()
    collector.started = True
    gc.disable()  # only the collector's own collections run
    old_screen = panel(20)  # a game's screen, alive for many moves
    widget = weakref.ref(old_screen.children[0])
    collector.collect()
    assert not seen(old_screen) and not seen(old_screen.children[0])  # frozen: no later collection walks it
    new_part = panel(1)  # made during play
    assert seen(new_part)
    collector.collect()
    assert not seen(new_part)

    # A Kivy widget is a reference cycle of its own, so dropping it frees nothing by reference
    # counting; frozen, it waits for the next game's start.
    del old_screen
    collector.collect()
    assert widget() is not None
    collector.game_opened()
    assert collector.after_frame  # after the new game's first frame ...
    collector.collect()
    assert widget() is None  # ... everything is collected: the old screen is gone
    assert collector.thawed == 1


def test_a_quiet_table_collects_everything_once(kivy: None) -> None:
    import time

    from ui import memory

    collector = memory.Collector()
    collector.started = True
    gc.disable()
    dropped = panel(2)
    widget = weakref.ref(dropped)
    collector.collect()
    del dropped
    collector.last_activity = time.monotonic() - memory.THAW_QUIET - 1
    collector.tick()
    assert widget() is None and collector.thawed == 1
    collector.tick()  # nothing frozen since: no second collection of everything
    assert collector.thawed == 1
