"""Mykerinos' colours on the touchscreen: the patrons' (with the initials that head their columns)
and the players'."""

from __future__ import annotations

from kivy.metrics import dp

from ui import theme

PATRON_COLOUR = {
    "lady_violet": theme.rgb("#8e5cc8"),
    "lord_lemon": theme.rgb("#e2cf2a"),
    "sir_brown": theme.rgb("#8b5a2b"),
    "mrs_blackmore": theme.rgb("#3a3a3a"),
    "colonel_tangerine": theme.rgb("#e58a2e"),
}
PATRON_TEXT = {"lord_lemon": theme.rgb("#111111")}
# a patron's column head in the players' panel: its initial on its colour (the names are the same in
# every language: the rulebooks keep them); the museum's wing heads say the whole names
PATRON_INITIAL = {
    "lady_violet": "V",
    "lord_lemon": "L",
    "sir_brown": "Br",
    "mrs_blackmore": "Bl",
    "colonel_tangerine": "T",
}
CARD_WIDTH = dp(21)  # a patron's column in the players' panel: how many of its cards a player holds
MYK_COLOUR = {
    "blue": theme.PLAYER["blue"],
    "red": theme.PLAYER["red"],
    "green": theme.PLAYER["green"],
    "white": theme.PLAYER["white"],
}
