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


def test_labels_buttons_and_chips_are_changed_in_place_and_look_as_if_made_anew(kivy: None) -> None:
    """A part whose words, colour or boldness changed keeps its widget and is given them
    (``update``); what it then draws is what a widget made with them draws, pixel for pixel. Any
    other change of its looks makes it again."""
    from kivy.uix.boxlayout import BoxLayout

    from ui import theme
    from ui.parts import forget, sync
    from ui.widgets import Btn, Chip, Lbl, button_part, chip_part, text_part

    def drawn(label: Any) -> tuple[Any, float, bytes]:
        label.texture_update()
        return label.texture_size, label.font_size, bytes(label.texture.pixels)

    box = BoxLayout()
    styles: list[dict[str, Any]] = [
        {"wrap": True, "bold": True, "tid": "t.prompt"},
        {"one_line": True, "colour": theme.MUTED},
        {"size": 22, "fit": 15, "padding": (8, 0)},  # the header's status line
    ]
    for n, style in enumerate(styles):
        long = "Season 1/4 · the first player places the museum card, then chooses a room for it"
        first = sync(box, [text_part("line", long, **style)])[0]
        assert isinstance(first, Lbl)
        first.size = (300, 40)  # laid out: its text is wrapped or fitted to its width as it is set
        changed = {**style, "bold": not style.get("bold", False), "colour": theme.WARN}
        again = sync(box, [text_part("line", "Blue → London, then tap its city (2 scientists)", **changed)])[0]
        assert again is first, f"style {n}: the label was made again"
        fresh = Lbl("Blue → London, then tap its city (2 scientists)", **changed)
        fresh.size = (300, 40)
        assert (again.text, again.markup, again.bold, tuple(again.color)) == (
            fresh.text,
            fresh.markup,
            fresh.bold,
            tuple(fresh.color),
        )
        assert drawn(again) == drawn(fresh), f"style {n}: drawn otherwise than a new label"
        other = sync(box, [text_part("line", "Blue", **{**changed, "halign": "right"})])[0]
        assert other is not first, "a change of its looks other than colour and boldness makes it again"
        forget(box)

    # a button: an equal intent keeps it untouched; new words and a new action change it in place
    pressed: list[str] = []

    class Act:
        def __init__(self, name: str) -> None:
            self.name = name

        def __call__(self) -> None:
            pressed.append(self.name)

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Act) and other.name == self.name

    button = sync(box, [button_part("go", "End the turn", Act("end"), tid="vm.end_turn")])[0]
    assert isinstance(button, Btn)
    changed_button = sync(box, [button_part("go", "Extra turn", Act("extra"), tid="vm.end_turn", colour=theme.GOOD)])[0]
    assert changed_button is button
    button.dispatch("on_release")
    assert pressed == ["extra"]
    fresh_button = Btn("Extra turn", None, tid="vm.end_turn", colour=theme.GOOD)
    assert (button.text, tuple(button.background_color)) == (fresh_button.text, tuple(fresh_button.background_color))
    assert sync(box, [button_part("go", "Extra turn", Act("extra"), tid="vm.other")])[0] is not button
    # a button held down when its action changes is replaced: the finger's press keeps its meaning
    held = sync(box, [button_part("go", "End the turn", Act("end"), tid="vm.end_turn")])[0]
    held.state = "down"
    assert sync(box, [button_part("go", "End the turn", Act("blue"), tid="vm.end_turn")])[0] is not held
    forget(box)

    # a chip: text, colours, boldness and fading change in place; its size, or a text with a short
    # form (shown where the whole one does not fit), makes it again
    red, blue = theme.player_colour("red"), theme.player_colour("blue")
    chip = sync(box, [chip_part("agent", "Red · Gunner", red, 1.0, bold=False)])[0]
    assert isinstance(chip, Chip)
    now = sync(box, [chip_part("agent", "Blue → Gunner", blue, 0.55, bold=True, text_colour=theme.MUTED)])[0]
    fresh_chip = Chip("Blue → Gunner", blue, theme.MUTED, bold=True)
    assert now is chip and chip.opacity == 0.55
    assert (chip.text, chip.markup, chip.bold, tuple(chip.color), tuple(chip._bg_colour.rgba)) == (
        fresh_chip.text,
        fresh_chip.markup,
        fresh_chip.bold,
        tuple(fresh_chip.color),
        tuple(fresh_chip._bg_colour.rgba),
    )
    assert sync(box, [chip_part("agent", "Blue → Gunner", blue, 0.55, bold=True, size=20)])[0] is not chip
    short = sync(box, [chip_part("agent", "Tangerine Dream", red, short="Tangerine")])[0]
    assert sync(box, [chip_part("agent", "Crimson Tide", red, short="Tangerine")])[0] is not short
