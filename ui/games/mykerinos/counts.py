"""The survey's zone counts below the players: a large counter per colour and the button under
them that sends them; and, for the last zone of a season, what the books leave there (shown with
the zone, above) and, once it is counted lower, what that points back to in the earlier zones."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games.base import num, obj, seq_of
from ui.games.mykerinos.look import MYK_COLOUR
from ui.widgets import Btn, Chip, Lbl, Panel, Stepper, autogrid, hbox

if TYPE_CHECKING:
    from ui.games.mykerinos.screen import Screen


def counts_panel(tv: Screen, action: JSONObject, zone: tuple[int, int, int] | None, last: JSONObject) -> Widget:
    cap = obj(action.get("max"))
    grid = autogrid(2, dp(8), row_force_default=True, row_default_height=theme.TOUCH)
    for colour in cap:
        high = num(cap.get(colour))

        def changed(value: int, c: str = colour) -> None:
            tv.counts[c] = value

        grid.add_widget(
            hbox(
                Chip(
                    tv.colour_name(colour),
                    MYK_COLOUR.get(colour, theme.ACCENT),
                    theme.on_player_colour(colour),
                    width=dp(96),
                    height=theme.TOUCH,
                    bold=True,
                ),
                Stepper(tv.counts.get(colour, 0), 0, high, changed, tid=f"myk.count.{colour}", button=dp(76)),
                Lbl(tv.t("ui.myk.on_board", n=high), size=theme.FONT_SMALL, colour=theme.MUTED),
            )
        )
    # the button under its counters, for every zone (the last zone's note is above, with the zone)
    return Panel(grid, counts_done(tv), Widget(), orientation="vertical")


def counts_done(tv: Screen) -> Widget:
    return Btn(tv.t("ui.myk.counts_done"), tv.send_counts, tid="myk.counts.done", colour=theme.GOOD, bold=True)


# the last zone of a season: the books' count to confirm, and what a lower count points back to
def zone_counts_words(tv: Screen, counts: JSONObject) -> str:
    parts = [f"{tv.colour_name(c)} {num(n)}" for c, n in counts.items()]
    return ", ".join(parts) if parts else tv.t("myk.last_zone.nobody")


def earlier_zones(tv: Screen, last: JSONObject) -> str:
    return " · ".join(
        tv.t(
            "myk.last_zone.zone",
            zone=num(obj(z).get("zone")),
            counts=zone_counts_words(tv, obj(obj(z).get("counts"))),
        )
        for z in seq_of(last.get("earlier"))
    )


def last_zone_note(tv: Screen) -> Widget | None:
    """While the table counts the last zone: what the books leave there, and the earlier zones."""
    last = obj(obj(tv.view.get("survey")).get("last"))
    if not last:
        return None
    words = tv.t("myk.last_zone.expected", counts=zone_counts_words(tv, obj(last.get("expected"))))
    earlier = earlier_zones(tv, last)
    if earlier:
        words += "\n" + tv.t("myk.last_zone.earlier", zones=earlier)
    return Lbl(words, colour=theme.WARN, size=theme.FONT_SMALL, wrap=True, tid="myk.last_zone")


def missed_note(tv: Screen, last: JSONObject) -> Widget:
    """Once the last zone is counted lower than the books: that many stood in earlier zones."""
    return last_zone_missed(tv) or Widget()


def last_zone_missed(tv: Screen) -> Widget | None:
    last = obj(obj(tv.view.get("survey")).get("last"))
    missed = obj(last.get("missed"))
    if not missed:
        return None
    words = tv.t("myk.last_zone.missed", counts=zone_counts_words(tv, missed), zones=earlier_zones(tv, last) or "–")
    return Lbl(words, colour=theme.WARN, size=theme.FONT_SMALL, wrap=True, tid="myk.last_zone_missed")
