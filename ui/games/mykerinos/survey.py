"""The action panel in the survey: where the zone lies, the ranking and the parcels left, whose
choice it is, and the choices (take a parcel — a dialog for the card's patron and points —, a
museum room, decline, the neutral colour's pick)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games.base import num, obj, seq_of, txt
from ui.widgets import Btn, Choice, Dialog, Lbl, Panel, autogrid, fit_height, vbox

if TYPE_CHECKING:
    from ui.games.mykerinos.screen import Screen


def panel(tv: Screen, box: Panel, acts: dict[str, JSONObject]) -> Widget:
    survey = obj(tv.view.get("survey"))
    waiting = obj(survey.get("waiting"))
    counts = obj(survey.get("counts"))
    ranking = [txt(c) for c in seq_of(survey.get("ranking"))]
    ranked = ", ".join(f"{i + 1}. {tv.colour_name(c)} ({num(counts.get(c))})" for i, c in enumerate(ranking))
    box.spacing = dp(2)  # where the zone is may take two lines (French), never cut
    box.add_widget(Lbl(tv.zone_where(), bold=True, colour=theme.WARN, wrap=True, tid="myk.zone_where"))
    box.add_widget(
        Lbl(
            tv.t("ui.myk.ranking", ranking=ranked or "–", parcels=num(survey.get("parcels"))),
            size=theme.FONT_SMALL,
            wrap=True,
            tid="myk.ranking",
        )
    )
    seat = txt(waiting.get("seat"))
    kind = txt(waiting.get("for"))
    if kind == "choose":
        box.add_widget(
            Lbl(
                tv.t("ui.myk.choose", player=tv.colour_name(seat), rank=num(waiting.get("rank"))),
                wrap=True,
                bold=True,
                tid="myk.prompt",
            )
        )
    elif kind == "neutral_pick":
        box.add_widget(
            Lbl(tv.t("ui.myk.neutral_pick", player=tv.colour_name(seat)), wrap=True, bold=True, tid="myk.prompt")
        )
    if tv.room_for == "museum":
        box.add_widget(Lbl(tv.t("ui.myk.pick_room"), wrap=True, colour=theme.WARN))
        box.add_widget(Btn(tv.t("ui.cancel"), tv.cancel_room, tid="myk.room.cancel", width=dp(140)))
        box.add_widget(Widget())
        return box
    box.add_widget(choices(tv, acts))
    box.add_widget(Widget())
    return box


def choices(tv: Screen, acts: dict[str, JSONObject]) -> Widget:
    grid = autogrid(3, dp(4))
    if "myk.take_parcel" in acts:
        grid.add_widget(
            Btn(
                tv.t("ui.myk.take_parcel"),
                lambda: parcel_dialog(tv, acts["myk.take_parcel"]),
                tid="myk.take_parcel",
                colour=theme.GOOD,
                size=theme.FONT_SMALL,
            )
        )
    if "myk.museum" in acts:
        grid.add_widget(Btn(tv.t("ui.myk.museum"), tv.pick_room_museum, tid="myk.museum", size=theme.FONT_SMALL))
    if "myk.decline" in acts:
        grid.add_widget(
            tv.action_button(
                tv.t("ui.myk.decline"),
                {"kind": "myk.decline", "seat": txt(acts["myk.decline"].get("seat"))},
                "myk.decline",
                size=theme.FONT_SMALL,
            )
        )
    if "myk.neutral_pick" in acts:
        grid.add_widget(
            tv.action_button(
                tv.t("ui.myk.neutral_picked"),
                {"kind": "myk.neutral_pick", "seat": txt(acts["myk.neutral_pick"].get("seat"))},
                "myk.neutral_pick",
                size=theme.FONT_SMALL,
            )
        )
    return grid


def parcel_dialog(tv: Screen, action: JSONObject) -> None:
    seat = txt(action.get("seat"))
    patrons = [txt(p) for p in seq_of(action.get("patrons"))]
    points = [num(p) for p in seq_of(action.get("points"))]
    options: list[tuple[Any, str]] = [(p, tv.patron(p)) for p in patrons]
    if action.get("blank"):
        options.append(("none", tv.t("ui.myk.blank_card", points=num(action.get("blank_points"), 5))))
    # nothing preselected: OK without reading the card would record a wrong parcel
    form: dict[str, Any] = {"patron": None, "points": None}
    body = fit_height(vbox(spacing=dp(8)))
    body.add_widget(Lbl(tv.t("ui.myk.parcel_patron"), colour=theme.MUTED, size_hint_y=None, height=dp(22)))
    body.add_widget(
        Choice(options, form["patron"], lambda v: form.__setitem__("patron", v), tid="myk.parcel.patron", cols=3)
    )
    body.add_widget(Lbl(tv.t("ui.myk.parcel_points"), colour=theme.MUTED, size_hint_y=None, height=dp(22)))
    body.add_widget(
        Choice(
            [(p, str(p)) for p in points],
            form["points"],
            lambda v: form.__setitem__("points", v),
            tid="myk.parcel.points",
        )
    )
    dialog = Dialog(tv.t("ui.myk.parcel_title", player=tv.colour_name(seat)), body, width=dp(640))

    def ok() -> None:
        if form["patron"] is None or (form["patron"] != "none" and form["points"] is None):
            missing = "ui.myk.parcel_need_patron" if form["patron"] is None else "ui.myk.parcel_need_points"
            tv.app.toast.show(tv.t(missing), "error")
            return
        dialog.dismiss()
        patron = None if form["patron"] == "none" else form["patron"]
        value = num(action.get("blank_points"), 5) if patron is None else form["points"]
        tv.send({"kind": "myk.take_parcel", "seat": seat, "patron": patron, "points": value})

    dialog.add_button(Btn(tv.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
    dialog.add_button(Btn(tv.t("ui.ok"), ok, tid="myk.parcel.ok", colour=theme.GOOD))
    dialog.open()
