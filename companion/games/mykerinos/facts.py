"""The constants Mykerinos' screens need (the touchscreen and the phone read them from here,
through the registry; they never copy them)."""

from __future__ import annotations

from companion.core.jsonvalue import JSONObject
from companion.games.mykerinos.museum import PATRONS, layouts
from companion.games.mykerinos.state import COLOURS

FACTS: JSONObject = {
    "patrons": list(PATRONS),  # the patron cards, in the order screens list them
    "colours": list(COLOURS),  # the players' colours
}

# The table's preferences for this game: each pre-fills a setup option of a new game.
PREFERENCES: tuple[JSONObject, ...] = (
    {"key": "myk.layout", "choices": list(layouts()), "default": "line4", "setup_key": "layout"},
)
