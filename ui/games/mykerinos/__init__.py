"""Mykerinos on the touchscreen: season and whose turn, the pass track, every player's supply, score,
projected exhibition and patron cards, the survey flow (counts per zone with large +/- controls, then
the ranked choices with only the legal museum rooms) and the museum with its occupancy.

Everything in Mykerinos is public, so the table sees what the phones see.

The table screen's panels: :mod:`.players` (the players, the pass track, the general supply) beside
:mod:`.actions` (what to do now: the start, :mod:`.start`; a turn's excavations or the neutral step;
the survey's choices, :mod:`.survey`); below, :mod:`.counts` (the zone counts being entered, the
last zone's notes) or :mod:`.museum`. :mod:`.corrections` is the options menu, :mod:`.end` the end
screen, :mod:`.setup` the new-game form, :mod:`.look` the colours. The panels draw from
:class:`.screen.Screen` (the snapshot read, what the screen remembers); :mod:`.table` puts them
together.
"""

from ui.games.mykerinos.setup import SetupForm
from ui.games.mykerinos.table import TableView

__all__ = ["SetupForm", "TableView"]
