"""The kit's labels, buttons and chips as parts of a screen (:mod:`ui.parts`), changed in place.

A label or button whose text, colour or boldness changed is given them (about a tenth of what making
it costs: a Kivy widget applies its class rules and builds its canvas when made); any other change of
its looks makes it again. :func:`text_part`, :func:`button_part` and :func:`chip_part` are what the
screens use; the rest is how a part is made and updated.

Imports Kivy, :mod:`ui.theme`, :mod:`ui.parts`, :mod:`ui.widgets.basic` and
:func:`ui.widgets.text.drawable` only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.widget import Widget

from ui import theme
from ui.parts import Part
from ui.theme import RGBA
from ui.widgets.basic import Btn, Chip, Lbl
from ui.widgets.text import drawable

Style = tuple[tuple[str, Any], ...]
LIVE = ("text_colour", "colour", "bold")  # what a kept label or button is given in place


def style_of(style: dict[str, Any]) -> Style:
    return tuple(sorted(style.items()))


def _fixed(style: Style) -> Style:
    return tuple(item for item in style if item[0] not in LIVE)


def text_part(name: str, text: str, **style: Any) -> Part:
    """A :class:`Lbl` (``style``: its arguments) as a part that a new text, colour or boldness
    changes in place. In the large-text mode it is made again: a crowded panel may have given the
    label back its normal size, which a new text may not need."""
    return Part(name, _label, text, style_of(style), update=_relabel)


def _label(text: str, style: Style) -> Lbl:
    label = Lbl(text, **dict(style))
    label.part_style = style
    return label


def _relabel(label: Widget, text: str, style: Style) -> bool:
    if not isinstance(label, Lbl) or theme.large_text() or _fixed(label.part_style) != _fixed(style):
        return False
    looks = dict(style)
    label.show(text, looks.get("colour", theme.TEXT), looks.get("bold", False))
    label.part_style = style
    return True


def button_part(name: str, text: str, on: Callable[[], object] | None, **style: Any) -> Part:
    """A :class:`Btn` (``style``: its arguments but ``on``) as a part that a new text, colour,
    boldness or action changes in place. ``on`` is compared with ``==``: a bound method or an
    action that compares by value (:class:`ui.games.base.Sends`, which
    :meth:`~ui.games.base.TableView.action_part` uses) keeps the button untouched while it is
    unchanged; a :func:`functools.partial` or a lambda never compares equal, so the button is given
    it again at every draw (cheap, but not untouched)."""
    return Part(name, _button, text, on, style_of(style), update=_rebutton)


def _button(text: str, on: Callable[[], object] | None, style: Style) -> Btn:
    button = Btn(text, on, **dict(style))
    button.part_style = style
    return button


def _rebutton(button: Widget, text: str, on: Callable[[], object] | None, style: Style) -> bool:
    # a button held down keeps what it meant when the finger came down: a new one takes its place
    if not isinstance(button, Btn) or button.state == "down" or _fixed(button.part_style) != _fixed(style):
        return False
    looks = dict(style)
    button.show(
        text, on, looks.get("colour", theme.BUTTON), looks.get("text_colour", theme.TEXT), looks.get("bold", False)
    )
    button.part_style = style
    return True


def chip_part(name: str, text: str, colour: RGBA, opacity: float = 1.0, **style: Any) -> Part:
    """A :class:`Chip` as a part that a new text (unless it has a ``short`` form), colour,
    boldness or opacity (a stack's agent being resolved, then resolved) changes in place."""
    return Part(name, _chip, text, colour, opacity, style_of(style), update=_rechip)


def _chip(text: str, colour: RGBA, opacity: float, style: Style) -> Chip:
    looks = dict(style)
    tid = looks.pop("tid", "")
    chip = Chip(text, colour, **looks)
    chip.opacity, chip.tid, chip.part_style = opacity, tid, (text, style)
    return chip


def _rechip(chip: Widget, text: str, colour: RGBA, opacity: float, style: Style) -> bool:
    if not isinstance(chip, Chip) or theme.large_text():
        return False
    was_text, was = chip.part_style
    looks = dict(style)
    if _fixed(was) != _fixed(style) or (text != was_text and looks.get("short")):
        return False
    if text != was_text:
        shown, chip.markup = drawable(text, bool(looks.get("markup")))
        chip.text = shown
    chip._bg_colour.rgba = colour
    chip.color, chip.bold, chip.opacity = looks.get("text_colour", theme.TEXT), looks.get("bold", False), opacity
    chip.part_style = (text, style)
    return True
