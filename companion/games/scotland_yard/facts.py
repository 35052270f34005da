"""The constants Scotland Yard's screens need (the touchscreen and the phone read them from here,
through the registry; they never copy them)."""

from __future__ import annotations

from typing import get_args

from companion.core.jsonvalue import JSONObject
from companion.games.scotland_yard.ai import LEVELS
from companion.games.scotland_yard.model import LOG_FIELDS, MRX, NORMAL, Ticket

FACTS: JSONObject = {
    "tickets": list(get_args(Ticket)),  # Mister X's tickets, in the order screens list them
    "lines": list(NORMAL),  # the detectives' tickets (and the bobbies' lines)
    "log_fields": LOG_FIELDS,  # the fields of Mister X's travel log
    "mister_x": MRX,  # Mister X's seat
    "ai_levels": list(LEVELS),  # the levels of Mister X played by the table (setup option mister_x_ai)
    "end_intent": "sy.end_game",  # the table ends the game now (the touchscreen's and the host page's button)
}

# The table's preferences for this game: each pre-fills a setup option of a new game.
PREFERENCES: tuple[JSONObject, ...] = (
    {"key": "sy.tracker", "choices": [False, True], "default": False, "setup_key": "tracker"},
    {
        "key": "sy.bobbies_keep_game_alive",
        "choices": [False, True],
        "default": False,
        "setup_key": "bobbies_keep_game_alive",
    },
)
