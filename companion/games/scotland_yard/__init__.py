"""Scotland Yard (Ravensburger, 2013 "Master" box, basic game without the app).

The companion keeps Mister X's secret travel log on his phone, validates every move on the
real 199-station map, shows reveals, keeps the ticket accounts, detects captures and the end,
and optionally tracks where Mister X can be from public information only.
See ``docs/protocol/scotland-yard.md`` for the setup config, intents, events and views.
"""

from companion.games.scotland_yard.facts import FACTS, PREFERENCES
from companion.games.scotland_yard.hardware import HARDWARE
from companion.games.scotland_yard.rules import RULES, ScotlandYardRules

__all__ = ["FACTS", "HARDWARE", "PREFERENCES", "RULES", "ScotlandYardRules"]
