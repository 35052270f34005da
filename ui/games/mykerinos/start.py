"""The action panel before the first season: draw or choose the start player, draw the patrons or
enter them by hand (a dialog: tap the patrons in the order of the wings), and who starts."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON, JSONObject
from ui import theme
from ui.games.base import seq_of, strs, txt
from ui.games.mykerinos.look import PATRON_COLOUR, PATRON_TEXT
from ui.widgets import Btn, Dialog, Lbl, Panel, autogrid, fit_height, vbox

if TYPE_CHECKING:
    from ui.games.mykerinos.screen import Screen


def panel(tv: Screen, box: Panel, acts: dict[str, JSONObject]) -> Widget:
    """Four buttons in places that never move: the start player on the left (draw, choose), the
    patrons on the right (draw, enter); one whose choice is made, or not offered, stays in its
    place, unavailable (issue 42: a reflow moved buttons under the finger)."""
    box.add_widget(Lbl(tv.t("ui.myk.setup_note"), wrap=True, size=theme.FONT_SMALL))
    # Four places that never move: the start player on the left (draw, choose), the patrons on
    # the right (draw, enter); a choice made or not offered stays in its place, unavailable.
    row = autogrid(2, dp(4))
    small = theme.FONT_SMALL
    choose = acts.get("myk.choose_start_player")
    for button in (
        Btn(tv.t("ui.myk.draw_start_player"), tv.draw_start, tid="myk.draw_start_player", size=small),
        tv.action_button(tv.t("ui.myk.draw_patrons"), {"kind": "myk.draw_patrons"}, "myk.draw_patrons", size=small),
        Btn(
            tv.t("ui.myk.choose_start_player"),
            lambda: choose_start(tv, choose or {}),
            tid="myk.choose_start_player",
            size=small,
        ),
        Btn(tv.t("ui.myk.enter_patrons"), partial(enter_patrons, tv), tid="myk.enter_patrons", size=small),
    ):
        button.disabled = button.tid not in acts  # its place stays once its choice is made
        row.add_widget(button)
    box.add_widget(row)
    start = txt(tv.view.get("start_player"))
    if start:  # drawn or chosen, while the patrons are still to be laid out
        box.add_widget(
            Lbl(tv.t("ui.myk.start_player_is", player=tv.colour_name(start)), bold=True, tid="myk.start_player")
        )
    box.add_widget(Widget())
    return box


def choose_start(tv: Screen, action: JSONObject) -> None:
    box = fit_height(vbox())
    dialog = Dialog(tv.t("ui.myk.choose_start_player"), box)
    for seat in (txt(s) for s in seq_of(action.get("seats"))):

        def chosen(s: str = seat) -> None:
            dialog.dismiss()
            tv.send({"kind": "myk.choose_start_player", "seat": s})

        box.add_widget(Btn(tv.colour_name(seat), chosen, tid=f"myk.start_player.{seat}"))
    dialog.add_button(Btn(tv.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
    dialog.open()


def enter_patrons(tv: Screen) -> None:
    order: list[str] = []
    body = fit_height(vbox())
    dialog = Dialog(tv.t("ui.myk.enter_patrons_title"), body, width=dp(620))

    def redraw() -> None:
        body.clear_widgets()
        body.add_widget(
            Lbl(
                " · ".join(tv.t("ui.pair", label=i + 1, value=tv.patron(p)) for i, p in enumerate(order)) or "–",
                wrap=True,
                colour=theme.ACCENT,
            )
        )
        grid = autogrid(3, dp(4))
        for patron in strs(tv.facts.get("patrons")):
            btn = Btn(
                tv.patron(patron),
                partial(add, patron),
                tid=f"myk.wing_patron.{patron}",
                colour=PATRON_COLOUR[patron],
                text_colour=PATRON_TEXT.get(patron, theme.TEXT),
                size=theme.FONT_SMALL,
            )
            btn.disabled = patron in order
            grid.add_widget(btn)
        body.add_widget(grid)

    def add(patron: str) -> None:
        order.append(patron)
        if len(order) == len(strs(tv.facts.get("patrons"))):
            dialog.dismiss()
            tv.send({"kind": "myk.enter_patrons", "order": list[JSON](order)})
        else:
            redraw()

    redraw()
    dialog.add_button(Btn(tv.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
    dialog.open()
