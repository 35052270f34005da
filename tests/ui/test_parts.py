"""ui/parts.py: a screen's parts are kept while what they are drawn from is unchanged.

Real Kivy widgets (in this test's process, on the session's Xvfb display): the same widget
objects must stay on the screen — with their text textures, scroll positions, pressed states —
when a new snapshot changes something else, and only the part whose arguments changed is made
again."""

from __future__ import annotations

import os
from typing import Any

import pytest


@pytest.fixture
def kivy(display: str, tmp_path: Any) -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_HOME", str(tmp_path / "kivy"))
    os.environ["DISPLAY"] = display


def test_parts_are_kept_while_their_arguments_are_unchanged(kivy: None) -> None:
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.widget import Widget

    from ui.parts import Part, forget, sync

    made: list[tuple[str, Any]] = []

    def cell(name: str, value: Any) -> Widget:
        made.append((name, value))
        return Widget()

    def row() -> Widget:
        made.append(("row", None))
        return BoxLayout()

    shared = {"station": 13, "tickets": {"taxi": 10}}  # a piece of the view shared between snapshots
    box = BoxLayout()

    def screen(a: Any, b: Any, look: int = 0) -> list[Part]:
        return [
            Part("a", cell, "a", a),
            Part("row", row_of, look, children=[Part("b", cell, "b", b), Part("c", cell, "c", 1)]),
        ]

    def row_of(look: int) -> Widget:
        return row()

    first = sync(box, screen(shared, 1))
    assert [n for n, _ in made] == ["a", "row", "b", "c"]
    inner = list(first[1].children)
    made.clear()

    # the same piece of the view (the very object) and equal values: nothing is made again
    again = sync(box, screen(shared, 1))
    assert made == []
    assert again[0] is first[0] and again[1] is first[1] and list(again[1].children) == inner

    # an equal value built anew is "the same" too (views are plain JSON values)
    sync(box, screen({"station": 13, "tickets": {"taxi": 10}}, 1))
    assert made == []

    # one child changed: only it is made again; the row and its other child stay
    sync(box, screen(shared, 2))
    assert made == [("b", 2)]
    assert box.children[0] is first[1] and inner[0] in first[1].children  # "c" kept in place
    made.clear()

    # the row's own look changed: the row is made again, its unchanged children move into it
    kept_children = set(map(id, first[1].children))
    third = sync(box, screen(shared, 2, look=1))
    assert made == [("row", None)]
    assert third[1] is not first[1] and set(map(id, third[1].children)) == kept_children
    assert first[1].children == []  # nothing left behind in the old row
    made.clear()

    # a part left out is remembered and comes back as it was
    sync(box, [Part("a", cell, "a", shared)])
    assert len(box.children) == 1
    back = sync(box, screen(shared, 2, look=1))
    assert made == [] and back[1] is third[1]

    # forget: everything made anew (the language changed)
    forget(box)
    sync(box, screen(shared, 2, look=1))
    assert [n for n, _ in made] == ["a", "row", "b", "c"]

    with pytest.raises(ValueError):
        sync(box, [Part("a", cell, "a", 1), Part("a", cell, "a", 2)])
