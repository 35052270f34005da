"""Victorian Masterminds on the touchscreen: the Secret Service level as the biggest thing on screen,
every player's firepower beside it, the five cities (stack heights only, standing buildings,
missions), whose turn it is, the resolution step by step asking only the real choices from
``legal``, the final-round countdown, tallies and scores.

Agents placed at the table without a phone or tag are *unidentified*: the touchscreen records only
the city, and the agent is named when its stack is turned over.

The table screen's panels: :mod:`.level` (the Secret Service level, the final round, why the level
changed) and :mod:`.players` (the firepower column, the tallies) beside :mod:`.turn` (what to do
now) or :mod:`.resolution` (the stack being resolved, step by step); :mod:`.cities` (the five
cities), :mod:`.stack` (the stack turned over, agent by agent); :mod:`.corrections` holds the table's
options and their dialogs, :mod:`.end` is the end screen, :mod:`.setup` the new-game form. The
panels draw from :class:`.screen.Screen` (the snapshot read, what the screen remembers);
:mod:`.table` puts them together.
"""

from ui.games.victorian_masterminds.setup import SetupForm
from ui.games.victorian_masterminds.table import TableView

__all__ = ["SetupForm", "TableView"]
