"""What to do now, at the top row's right: the start, placing an agent (by phone, by a scanned disc or
unidentified, or recycling a discard agent), forcing a resolution, what may follow a placement (an
extra turn, a capture, the end of the turn). While a stack is resolved, :mod:`.resolution` is drawn
there instead."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games.base import seq_of, txt
from ui.games.victorian_masterminds import resolution
from ui.widgets import Btn, Dialog, Lbl, Panel, fit_height, flow, hbox, scroll, vbox

if TYPE_CHECKING:
    from ui.games.victorian_masterminds.screen import Screen


def action_panel(tv: Screen, msg: JSONObject, recycling: str | None, scanned: tuple[str, ...]) -> Widget:
    v = tv.view
    acts = tv.actions()
    phase = txt(v.get("phase"))
    box = Panel(orientation="vertical", padding=dp(6), spacing=dp(4))
    if phase == "setup":
        box.add_widget(Lbl(tv.t("ui.vm.start_note"), wrap=True, colour=theme.MUTED))
        if "vm.start" in acts:
            box.add_widget(
                tv.action_button(
                    tv.t("ui.vm.start"),
                    {"kind": "vm.start"},
                    "vm.start",
                    colour=theme.GOOD,
                    bold=True,
                )
            )
        return box
    if v.get("resolution") is not None:
        return resolution.resolution_panel(tv, box, acts)
    active = txt(v.get("active"))
    who = tv.seat_label(active)
    place = acts.get("vm.place")
    if place is not None:
        return place_panel(tv, box, place, who)
    if "vm.force_resolve" in acts:
        force = acts["vm.force_resolve"]
        box.add_widget(Lbl(tv.t("ui.vm.force", player=who), wrap=True, bold=True))
        cities = [txt(c) for c in seq_of(force.get("cities"))]
        box.add_widget(
            flow(
                tv.action_button(
                    tv.name("city", c),
                    {"kind": "vm.force_resolve", "seat": active, "city": c},
                    f"vm.force.{c}",
                    width=dp(110),
                )
                for c in cities
            )
        )
        return box
    after = [k for k in ("vm.extra_turn", "vm.capture", "vm.end_turn") if k in acts]
    if after:
        box.add_widget(Lbl(tv.t("ui.vm.after", player=who), wrap=True, bold=True))
        buttons = hbox(size_hint_y=None, height=theme.TOUCH)
        if "vm.extra_turn" in acts:
            buttons.add_widget(
                tv.action_button(
                    tv.t("ui.vm.extra_turn"),
                    {"kind": "vm.extra_turn", "seat": active},
                    "vm.extra_turn",
                    size=theme.FONT_SMALL,
                )
            )
        if "vm.capture" in acts:
            buttons.add_widget(
                Btn(
                    tv.t("ui.vm.capture"),
                    lambda: capture(tv, acts["vm.capture"], active),
                    tid="vm.capture",
                    size=theme.FONT_SMALL,
                )
            )
        if "vm.end_turn" in acts:
            buttons.add_widget(
                tv.action_button(
                    tv.t("ui.vm.end_turn"),
                    {"kind": "vm.end_turn", "seat": active},
                    "vm.end_turn",
                    colour=theme.GOOD,
                    size=theme.FONT_SMALL,
                )
            )
        box.add_widget(buttons)
        box.add_widget(Widget())
        box.add_widget(Lbl(tv.last_log(), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True, tid="vm.last"))
        return box
    box.add_widget(Lbl(tv.last_log() or tv.t("ui.vm.waiting"), wrap=True, colour=theme.MUTED))
    return box


def place_panel(tv: Screen, box: Panel, place: JSONObject, who: str) -> Widget:
    if tv.recycling is not None:
        box.add_widget(
            Lbl(
                tv.t("ui.vm.recycle_where", player=who, agent=tv.name("agent", tv.recycling)),
                wrap=True,
                bold=True,
            )
        )
        box.add_widget(Btn(tv.t("ui.cancel"), tv.cancel_recycle, tid="vm.recycle.cancel", width=dp(140)))
        return box
    if txt(place.get("seat")) in tv.scanned:
        line = tv.t("ui.vm.place_scanned", player=who)
    elif place.get("unidentified"):
        line = tv.t("ui.vm.place", player=who)
    else:
        line = tv.t("ui.vm.place_phone", player=who)
    box.add_widget(Lbl(line, wrap=True, bold=True, tid="vm.prompt"))
    if tv.view.get("extra_turn"):
        box.add_widget(Lbl(tv.t("ui.vm.extra_turn_now"), size=theme.FONT_SMALL, colour=theme.WARN, wrap=True))
    recycle = [txt(a) for a in seq_of(place.get("recycle"))]
    if recycle:
        box.add_widget(Lbl(tv.t("ui.vm.recycle"), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True))
        if len(recycle) <= 3:  # one row of buttons
            buttons = [recycle_button(tv, a) for a in recycle]
        else:  # more than a row holds: chosen in a dialog
            buttons = [
                Btn(
                    tv.t("ui.vm.recycle_choose"),
                    partial(recycle_dialog, tv, recycle),
                    tid="vm.recycle.choose",
                    width=dp(240),
                    height=theme.TOUCH_SMALL,
                    size=theme.FONT_SMALL,
                )
            ]
        box.add_widget(hbox(*buttons, Widget(), size_hint_y=None, height=theme.TOUCH_SMALL, spacing=dp(6)))
    box.add_widget(Widget())
    if not recycle and not tv.view.get("extra_turn"):  # the panel has room for what happened last
        box.add_widget(Lbl(tv.last_log(), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True, tid="vm.last"))
    return box


def recycle_button(tv: Screen, agent: str, then: Callable[[], object] | None = None) -> Btn:
    def chosen() -> None:
        if then is not None:
            then()
        tv.start_recycle(agent)

    return Btn(
        tv.name("agent", agent),
        chosen,
        tid=f"vm.recycle.{agent}",
        width=dp(120),
        height=theme.TOUCH_SMALL,
        size=theme.FONT_SMALL,
    )


def recycle_dialog(tv: Screen, agents: list[str]) -> None:
    box = flow(spacing=dp(6))
    dialog = Dialog(tv.t("ui.vm.recycle"), box)
    for agent in agents:
        box.add_widget(recycle_button(tv, agent, dialog.dismiss))
    dialog.add_button(Btn(tv.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
    dialog.open()


def capture(tv: Screen, action: JSONObject, seat: str) -> None:
    box = fit_height(vbox(spacing=dp(6)))
    dialog = Dialog(tv.t("ui.vm.capture_which", player=tv.seat_label(seat)), scroll(box))
    dialog.box.children[1].size_hint_y = None
    dialog.box.children[1].height = dp(250)
    for pair in seq_of(action.get("buildings")):
        city, building = (txt(x) for x in seq_of(pair)[:2])

        def chosen(c: str = city, b: str = building) -> None:
            dialog.dismiss()
            tv.send({"kind": "vm.capture", "seat": seat, "city": c, "building": b})

        box.add_widget(
            Btn(
                tv.t("ui.pair", label=tv.name("city", city), value=tv.name("building", building)),
                chosen,
                tid=f"vm.capture.{city}.{building}",
            )
        )
    dialog.add_button(Btn(tv.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
    dialog.open()
