"""The header's options menu for Mykerinos: correct a player's score, and switch the museum's layout
(a row of four rooms of value 2 or a ring of five) until the first archaeologist enters it."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.metrics import dp
from kivy.uix.widget import Widget

from ui import theme
from ui.games.base import seq_of, txt
from ui.widgets import Btn, Choice, Dialog, Lbl, Stepper, fit_height, hbox, vbox

if TYPE_CHECKING:
    from ui.games.mykerinos.screen import Screen


def options(tv: Screen) -> list[tuple[str, Callable[[], object], str]]:
    acts = tv.actions()
    out: list[tuple[str, Callable[[], object], str]] = []
    if "myk.correct_score" in acts:
        out.append((tv.t("ui.myk.correct_score"), partial(score_dialog, tv), "myk.options.score"))
    if "myk.set_layout" in acts:
        out.append((tv.t("ui.myk.set_layout"), partial(layout_dialog, tv), "myk.options.layout"))
    return out


def layout_dialog(tv: Screen) -> None:
    """Row of four 2-rooms or ring of five: switchable until the first archaeologist enters the museum."""
    layouts = [txt(x) for x in seq_of(tv.actions().get("myk.set_layout", {}).get("layouts"))]
    box = fit_height(vbox(spacing=dp(6)))
    current = txt(tv.view.get("layout"))
    box.add_widget(
        Lbl(
            tv.t("ui.myk.layout_now", layout=tv.t(f"ui.settings.myk.{current}")),
            size=theme.FONT_SMALL,
            colour=theme.MUTED,
            wrap=True,
        )
    )
    dialog = Dialog(tv.t("ui.settings.myk.layout"), box)
    for layout in layouts:

        def chosen(layout: str = layout) -> None:
            dialog.dismiss()
            tv.send({"kind": "myk.set_layout", "layout": layout})

        box.add_widget(Btn(tv.t(f"ui.settings.myk.{layout}"), chosen, tid=f"myk.layout.{layout}"))
    dialog.add_button(Btn(tv.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
    dialog.open()


def score_dialog(tv: Screen) -> None:
    seats = [txt(s) for s in seq_of(tv.view.get("seats"))]
    form: dict[str, Any] = {"seat": seats[0], "delta": 0}
    body = fit_height(vbox(spacing=dp(8)))
    body.add_widget(
        Choice(
            [(s, tv.colour_name(s)) for s in seats],
            seats[0],
            lambda v: form.__setitem__("seat", v),
            tid="myk.score.seat",
        )
    )
    body.add_widget(
        hbox(
            Stepper(0, -20, 20, lambda v: form.__setitem__("delta", v), tid="myk.score.delta"),
            Widget(),
            size_hint_y=None,
            height=theme.TOUCH,
        )
    )
    dialog = Dialog(tv.t("ui.myk.correct_score"), body)

    def ok() -> None:
        dialog.dismiss()
        if form["delta"]:
            tv.send({"kind": "myk.correct_score", "seat": form["seat"], "delta": form["delta"]})

    dialog.add_button(Btn(tv.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
    dialog.add_button(Btn(tv.t("ui.ok"), ok, tid="myk.score.ok", colour=theme.GOOD))
    dialog.open()
