"""What to do now, at the top row's right: the start, placing an agent (by phone, by a scanned disc or
unidentified, or recycling a discard agent), forcing a resolution, what may follow a placement (an
extra turn, a capture, the end of the turn). While a stack is resolved, :mod:`.resolution` is drawn
there instead."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games.base import seq_of, txt
from ui.games.victorian_masterminds import resolution
from ui.parts import Part
from ui.widgets import Btn, Dialog, Panel, button_part, fit_height, flow, hbox, scroll, text_part, vbox

if TYPE_CHECKING:
    from ui.games.victorian_masterminds.screen import Screen


def action_part(tv: Screen) -> Part:
    """The panel: a part per line and button, each changed in place when only its words, looks or
    intent change (whose turn it is), so a new snapshot rarely makes a widget here."""
    return Part("action", action_box, children=action_rows(tv))


def action_box() -> Widget:
    return Panel(orientation="vertical", padding=dp(6), spacing=dp(4))


def action_rows(tv: Screen) -> list[Part]:
    v = tv.view
    acts = tv.actions()
    if txt(v.get("phase")) == "setup":
        rows = [text_part("note", tv.t("ui.vm.start_note"), wrap=True, colour=theme.MUTED)]
        if "vm.start" in acts:
            start: JSONObject = {"kind": "vm.start"}
            rows.append(tv.action_part("start", tv.t("ui.vm.start"), start, "vm.start", colour=theme.GOOD, bold=True))
        return rows
    if v.get("resolution") is not None:
        return resolution.resolution_rows(tv, acts)
    active = txt(v.get("active"))
    who = tv.seat_label(active)
    place = acts.get("vm.place")
    if place is not None:
        return place_rows(tv, place, who)
    if "vm.force_resolve" in acts:
        cities = [txt(c) for c in seq_of(acts["vm.force_resolve"].get("cities"))]
        buttons = [
            tv.action_part(
                f"force.{c}",
                tv.name("city", c),
                {"kind": "vm.force_resolve", "seat": active, "city": c},
                f"vm.force.{c}",
                width=dp(110),
            )
            for c in cities
        ]
        return [
            text_part("force", tv.t("ui.vm.force", player=who), wrap=True, bold=True),
            Part("cities", flow, children=buttons),
        ]
    if any(k in acts for k in ("vm.extra_turn", "vm.capture", "vm.end_turn")):
        return after_rows(tv, acts, active, who)
    return [text_part("waiting", tv.last_log() or tv.t("ui.vm.waiting"), wrap=True, colour=theme.MUTED)]


def after_rows(tv: Screen, acts: dict[str, JSONObject], active: str, who: str) -> list[Part]:
    """What may follow a placement: an extra turn, a capture, the end of the turn."""
    buttons: list[Part] = []
    if "vm.extra_turn" in acts:
        extra: JSONObject = {"kind": "vm.extra_turn", "seat": active}
        buttons.append(
            tv.action_part("extra_turn", tv.t("ui.vm.extra_turn"), extra, "vm.extra_turn", size=theme.FONT_SMALL)
        )
    if "vm.capture" in acts:
        buttons.append(
            tv.action_part(
                "capture",
                tv.t("ui.vm.capture"),
                partial(capture, tv, acts["vm.capture"], active),
                "vm.capture",
                size=theme.FONT_SMALL,
            )
        )
    if "vm.end_turn" in acts:
        end: JSONObject = {"kind": "vm.end_turn", "seat": active}
        buttons.append(
            tv.action_part(
                "end_turn", tv.t("ui.vm.end_turn"), end, "vm.end_turn", colour=theme.GOOD, size=theme.FONT_SMALL
            )
        )
    return [
        text_part("after", tv.t("ui.vm.after", player=who), wrap=True, bold=True),
        Part("after_buttons", button_row, children=buttons),
        Part("gap", Widget),
        last_part(tv),
    ]


def button_row() -> Widget:
    return hbox(size_hint_y=None, height=theme.TOUCH)


def last_part(tv: Screen) -> Part:
    """What happened last, where the panel has room for it."""
    return text_part("last", tv.last_log(), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True, tid="vm.last")


def place_rows(tv: Screen, place: JSONObject, who: str) -> list[Part]:
    if tv.recycling is not None:
        where = tv.t("ui.vm.recycle_where", player=who, agent=tv.name("agent", tv.recycling))
        return [
            text_part("recycle_where", where, wrap=True, bold=True),
            button_part("recycle_cancel", tv.t("ui.cancel"), tv.cancel_recycle, tid="vm.recycle.cancel", width=dp(140)),
        ]
    if txt(place.get("seat")) in tv.scanned:
        line = tv.t("ui.vm.place_scanned", player=who)
    elif place.get("unidentified"):
        line = tv.t("ui.vm.place", player=who)
    else:
        line = tv.t("ui.vm.place_phone", player=who)
    rows = [text_part("prompt", line, wrap=True, bold=True, tid="vm.prompt")]
    if tv.view.get("extra_turn"):
        rows.append(
            text_part(
                "extra_turn_now", tv.t("ui.vm.extra_turn_now"), size=theme.FONT_SMALL, colour=theme.WARN, wrap=True
            )
        )
    recycle = [txt(a) for a in seq_of(place.get("recycle"))]
    if recycle:
        rows += recycle_parts(tv, recycle)
    rows.append(Part("gap", Widget))
    if not recycle and not tv.view.get("extra_turn"):  # the panel has room for what happened last
        rows.append(last_part(tv))
    return rows


def recycle_parts(tv: Screen, recycle: list[str]) -> list[Part]:
    """The agents the player may take back instead of placing one: a button each where one row
    holds them, else one button that opens a dialog to choose from."""
    small: dict[str, Any] = {"height": theme.TOUCH_SMALL, "size": theme.FONT_SMALL}
    if len(recycle) <= 3:  # one row of buttons
        buttons = [
            button_part(
                f"recycle.{a}",
                tv.name("agent", a),
                partial(tv.start_recycle, a),
                tid=f"vm.recycle.{a}",
                width=dp(120),
                **small,
            )
            for a in recycle
        ]
    else:  # more than a row holds: chosen in a dialog
        choose = partial(recycle_dialog, tv, recycle)
        buttons = [
            button_part(
                "recycle.choose",
                tv.t("ui.vm.recycle_choose"),
                choose,
                tid="vm.recycle.choose",
                width=dp(240),
                **small,
            )
        ]
    return [
        text_part("recycle", tv.t("ui.vm.recycle"), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True),
        Part("recycle_buttons", recycle_row, children=[*buttons, Part("fill", Widget)]),
    ]


def recycle_row() -> Widget:
    return hbox(size_hint_y=None, height=theme.TOUCH_SMALL, spacing=dp(6))


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
