"""Colours and sizes for the touchscreen: a dark theme readable at arm's length on 800×480.

Sizes are in pixels through :func:`kivy.metrics.dp` (density 1 on the official 7" display).
Every touch target is at least :data:`TOUCH` high.
"""

from __future__ import annotations

from kivy.metrics import dp

RGBA = tuple[float, float, float, float]


def rgb(hex_colour: str, alpha: float = 1.0) -> RGBA:
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255, alpha)


BACKGROUND = rgb("#121418")
PANEL = rgb("#1e2128")
PANEL_HI = rgb("#2a2f38")
LINE = rgb("#3a404c")
TEXT = rgb("#f2f2f2")
MUTED = rgb("#a9b0bc")
ACCENT = rgb("#3d8bfd")
GOOD = rgb("#2fa56a")
WARN = rgb("#e0a526")
DANGER = rgb("#d9534f")
BUTTON = rgb("#343a46")
BUTTON_DOWN = rgb("#4a5263")
DISABLED = rgb("#262a31")

# Colours by their names (the players' colours of the games)
PLAYER = {
    "red": rgb("#d64545"),
    "blue": rgb("#3b7ddd"),
    "green": rgb("#2f9e5b"),
    "yellow": rgb("#e6c229"),
    "white": rgb("#e9e9e9"),
    "black": rgb("#444444"),
    "purple": rgb("#8e5cc8"),
    "orange": rgb("#e58a2e"),
}
ON_PLAYER = {"yellow": rgb("#111111"), "white": rgb("#111111")}


# Each player colour paired with a shape, on every touchscreen screen and phone page (the phone
# modules' styles give the same shapes): red and green, blue and purple look alike to many
# colour-blind players, their shapes never do. Drawn with DejaVu Sans (ui/widgets/text.py: drawable).
PLAYER_MARK = {
    "red": "\u25b2",  # ▲
    "blue": "\u25cf",  # ●
    "green": "\u25a0",  # ■
    "yellow": "\u2605",  # ★
    "white": "\u25c6",  # ◆
    "black": "\u271a",  # ✚
    "purple": "\u2665",  # ♥
    "orange": "\u2716",  # ✖
}


def player_mark(name: str) -> str:
    """The shape that goes with a player colour ("" for a colour the table typed in)."""
    return PLAYER_MARK.get(name, "")


def marked(colour: str, words: str) -> str:
    """A player's name (or colour in words) with its colour's shape in front: "▲ Ann"."""
    mark = player_mark(colour)
    return f"{mark}\u00a0{words}" if mark else words


def player_colour(name: str) -> RGBA:
    return PLAYER.get(name, ACCENT)


def on_player_colour(name: str) -> RGBA:
    return ON_PLAYER.get(name, TEXT)


TOUCH = dp(56)  # standard touch target height (>= 48 px)
TOUCH_SMALL = dp(48)  # the smallest target we ever draw
HEADER = dp(56)
GAP = dp(6)
PAD = dp(8)

# Large text (the table's setting, Settings → Large text): every text this much larger where its
# place has room for it, never smaller than the size every screen is laid out for, so every screen
# still fits (ui/widgets/text.py; tests/ui/test_texts_fit.py checks both sizes in the four languages).
LARGE_TEXT = 1.2
_scale = [1.0]


def set_large_text(on: bool) -> None:
    _scale[0] = LARGE_TEXT if on else 1.0


def large_text() -> bool:
    return _scale[0] > 1.0


def font(size: float) -> float:
    """A font size as drawn now: ``size``, larger in the large-text mode."""
    return float(round(size * _scale[0]))


FONT_SMALL = dp(15)
FONT = dp(18)
FONT_BIG = dp(22)
FONT_TITLE = dp(26)
