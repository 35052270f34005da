"""Scotland Yard on the touchscreen: Mister X's public travel log, the detectives and bobbies, and
detective moves entered by tapping a figure, then a legal destination grouped by transport.

Mister X moves only on his phone; the table never sees his station except on reveal fields, while
the view shows him, and at the end (all from the public view).

The table screen's panels: :mod:`.mister_x` (his travel log and what is known of him) beside one of
:mod:`.figures` (the figures, or one figure's destinations) and :mod:`.start` (the start cards);
:mod:`.end` is the end screen, :mod:`.setup` the new-game form. The panels draw from
:class:`.screen.Screen` (the snapshot read, what the screen remembers); :mod:`.table` puts them
together.
"""

from ui.games.scotland_yard.setup import SetupForm
from ui.games.scotland_yard.table import TableView

__all__ = ["SetupForm", "TableView"]
