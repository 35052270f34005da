"""The widget kit every screen is built from, one room per kind of thing a maintainer looks for:

- :mod:`ui.widgets.text`: texts as a label can draw them (glyphs the font lacks), measuring and
  the large-text mode's fitting;
- :mod:`ui.widgets.basic`: labels that wrap instead of overflowing, big buttons, panels, chips;
- :mod:`ui.widgets.layout`: rows, columns, grids, flows, scroll views and spacers;
- :mod:`ui.widgets.controls`: a typed name, +/- steppers, one-of-n choices;
- :mod:`ui.widgets.dialogs`: confirmation dialogs and the message toast;
- :mod:`ui.widgets.inplace`: labels, buttons and chips as parts of a screen, changed in place.

Screens import what they use from here (``from ui.widgets import Btn, Lbl``). The rooms import
Kivy, :mod:`ui.theme`, :mod:`ui.parts` and each other in that order (text ← basic ← the rest),
never a screen.

Every interactive widget can carry a ``tid`` (test id): the test control channel (``ui/control.py``)
finds widgets by it and taps them with real touch events. A ``tid`` is a stable, readable name such
as ``"start.new"`` or ``"sy.dest.taxi.34"``; it is never shown.
"""

from __future__ import annotations

from ui.widgets.basic import Btn, Chip, Lbl, Panel, TapPanel
from ui.widgets.controls import Choice, NameInput, Stepper, choice_id
from ui.widgets.dialogs import Dialog, Toast, confirm
from ui.widgets.inplace import LIVE, Style, button_part, chip_part, style_of, text_part
from ui.widgets.layout import autogrid, fit_height, flow, hbox, scroll, spacer, vbox
from ui.widgets.text import FALLBACK_FONT, MISSING_GLYPHS, drawable, large_where_it_fits, one_size, plain

__all__ = [
    "FALLBACK_FONT",
    "LIVE",
    "MISSING_GLYPHS",
    "Btn",
    "Chip",
    "Choice",
    "Dialog",
    "Lbl",
    "NameInput",
    "Panel",
    "Stepper",
    "Style",
    "TapPanel",
    "Toast",
    "autogrid",
    "button_part",
    "chip_part",
    "choice_id",
    "confirm",
    "drawable",
    "fit_height",
    "flow",
    "hbox",
    "large_where_it_fits",
    "one_size",
    "plain",
    "scroll",
    "spacer",
    "style_of",
    "text_part",
    "vbox",
]
