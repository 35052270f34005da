"""Scotland Yard's colours on the touchscreen."""

from __future__ import annotations

from ui import theme

# The transport colours as on the board (keyed like the game's facts' tickets and lines)
TRANSPORT = {
    "taxi": theme.rgb("#e8c21c"),
    "bus": theme.rgb("#1f9d6b"),
    "underground": theme.rgb("#d23b3b"),
    "black": theme.rgb("#050505"),
    "ferry": theme.rgb("#2a6fdb"),
    "bobby": theme.rgb("#6b7280"),
}
# text on those colours
ON_TRANSPORT = {"taxi": theme.rgb("#111111"), "bus": theme.TEXT, "underground": theme.TEXT, "black": theme.TEXT}


def text_on(ticket: str) -> theme.RGBA:
    return ON_TRANSPORT.get(ticket, theme.TEXT)
