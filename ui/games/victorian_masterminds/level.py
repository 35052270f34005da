"""The Secret Service level, the biggest thing on screen, with the final round's countdown under it;
and the line under the top row that says why the level changed last (who captured what where, or the
table's correction)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON
from ui import theme
from ui.games.base import num, obj, txt
from ui.widgets import Lbl, Panel

if TYPE_CHECKING:
    from ui.games.victorian_masterminds.screen import Screen


def level_why_line(why: str) -> Widget:
    return Lbl(
        why, size=theme.FONT_SMALL, colour=theme.ACCENT, size_hint_y=None, height=dp(20), fit=dp(11), tid="vm.level_why"
    )


def level_panel(tv: Screen, level_: JSON, final_round: JSON) -> Widget:
    level = Lbl(str(num(level_)), size=dp(84), bold=True, halign="center", colour=theme.WARN, tid="vm.level")
    box = Panel(
        Lbl(
            tv.t("ui.vm.level"),
            size=theme.FONT_SMALL,
            colour=theme.MUTED,
            halign="center",
            size_hint_y=None,
            height=dp(20),
        ),
        level,
        orientation="vertical",
        size_hint_x=None,
        width=dp(150),
        padding=dp(4),
        spacing=0,
    )
    final = obj(final_round)
    if final.get("triggered"):
        left = final.get("turns_left")
        words = tv.t("ui.vm.final_now") if left is None else tv.t("ui.vm.final_left", turns=num(left))
        box.add_widget(
            Lbl(
                words,
                size=theme.FONT_SMALL,
                colour=theme.DANGER,
                bold=True,
                halign="center",
                wrap=True,
                tid="vm.final",
            )
        )
    return box


def level_why(tv: Screen) -> str:
    """The level's last change in words: from, to, and why (who captured what where, or the table)."""
    change = obj(tv.view.get("level_change"))
    why = txt(change.get("why"))
    if not why:
        return ""
    seat, city, building = txt(change.get("seat")), txt(change.get("city")), txt(change.get("building"))
    reason = tv.t(
        f"vm.level_why.{why}",
        seat=tv.seat_label(seat) if seat else "",
        city=tv.name("city", city) if city else "",
        building=tv.name("building", building) if building else "",
    )
    words: dict[str, JSON] = {"from": num(change.get("from")), "to": num(change.get("to")), "why": reason}
    return tv.t("vm.level_change", **words)
