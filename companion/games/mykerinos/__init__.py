"""Mykerinos (Nicolas Oury, Ystari 2006): seasons, survey, museum, two-player neutral, exhibition.

See ``docs/protocol/mykerinos.md`` for the setup options, intents, events and views.
"""

from companion.games.mykerinos.facts import FACTS, PREFERENCES
from companion.games.mykerinos.hardware import HARDWARE
from companion.games.mykerinos.rules import MykerinosRules
from companion.games.mykerinos.state import MykState

RULES = MykerinosRules()

__all__ = ["FACTS", "HARDWARE", "PREFERENCES", "RULES", "MykState", "MykerinosRules"]
