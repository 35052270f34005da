"""The table's options and their dialogs: recording a segment, correcting a counter, setting a
mission, naming an agent of a face-up stack again, the game's log."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games.base import num, obj, seq_of, strs, txt
from ui.widgets import Btn, Choice, Dialog, Lbl, Stepper, autogrid, fit_height, hbox, scroll, vbox

if TYPE_CHECKING:
    from ui.games.victorian_masterminds.screen import Screen


def options(tv: Screen) -> list[tuple[str, Callable[[], object], str]]:
    acts = tv.actions()
    out: list[tuple[str, Callable[[], object], str]] = []
    if "vm.record_segment" in acts:
        out.append((tv.t("ui.vm.segment"), partial(segment_dialog, tv), "vm.options.segment"))
    if "vm.adjust" in acts:
        out.append((tv.t("ui.vm.adjust"), partial(adjust_dialog, tv), "vm.options.adjust"))
    if "vm.set_mission" in acts:
        out.append((tv.t("ui.vm.set_mission"), partial(mission_dialog, tv), "vm.options.mission"))
    if "vm.reidentify" in acts:  # the stack lies face up: the table names one of its agents again
        action = acts["vm.reidentify"]
        out.append((tv.t("ui.vm.reidentify"), lambda: reidentify_dialog(tv, action), "vm.options.reidentify"))
    out.append((tv.t("ui.vm.show_log"), partial(log_dialog, tv), "vm.options.log"))
    return out


def _form(tv: Screen, title: str, body: Widget, ok: Callable[[], object], tid: str) -> Dialog:
    dialog = Dialog(title, body, width=dp(640))

    def confirm_form() -> None:
        dialog.dismiss()
        ok()

    dialog.add_button(Btn(tv.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
    dialog.add_button(Btn(tv.t("ui.ok"), confirm_form, tid=f"{tid}.ok", colour=theme.GOOD))
    dialog.open()
    return dialog


def seat_choice(tv: Screen, seats: list[str], value: str, on: Callable[[Any], object], tid: str) -> Choice:
    return Choice([(s, tv.seat_label(s)) for s in seats], value, on, tid=tid)


def segment_dialog(tv: Screen) -> None:
    seats = [txt(s) for s in seq_of(tv.actions().get("vm.record_segment", {}).get("seats"))]
    if not seats:
        return
    form: dict[str, Any] = {"seat": seats[0], "chaos": 0, "unlock": "none", "bolts": 0, "copper": 0}

    def setter(key: str) -> Callable[[Any], None]:
        return lambda value: form.__setitem__(key, value)

    body = fit_height(vbox(spacing=dp(6)))
    body.add_widget(seat_choice(tv, seats, form["seat"], setter("seat"), "vm.segment.seat"))
    for key, high in (("chaos", 20), ("bolts", 12), ("copper", 12)):
        body.add_widget(
            hbox(
                Lbl(tv.t(f"ui.vm.segment.{key}")),
                Stepper(0, 0, high, setter(key), tid=f"vm.segment.{key}"),
                size_hint_y=None,
                height=theme.TOUCH,
            )
        )
    body.add_widget(
        Choice(
            [(u, tv.t(f"ui.vm.unlock.{u}")) for u in strs(tv.facts.get("unlocks"))],
            "none",
            setter("unlock"),
            tid="vm.segment.unlock",
        )
    )
    _form(
        tv,
        tv.t("ui.vm.segment"),
        body,
        lambda: tv.send({"kind": "vm.record_segment", **form, "label": ""}),
        "vm.segment",
    )


def adjust_dialog(tv: Screen) -> None:
    action = tv.actions().get("vm.adjust", {})
    counters = [txt(c) for c in seq_of(action.get("counters"))]
    fixed = action.get("seat")
    seats = [fixed] if isinstance(fixed, str) else [txt(p.get("seat")) for p in tv.players()]
    if not counters:
        return
    form: dict[str, Any] = {"seat": seats[0], "counter": counters[0], "delta": 1}
    body = fit_height(vbox(spacing=dp(6)))
    body.add_widget(seat_choice(tv, seats, form["seat"], lambda v: form.__setitem__("seat", v), "vm.adjust.seat"))
    body.add_widget(
        Choice(
            [(c, tv.t(f"ui.vm.counter.{c}")) for c in counters],
            form["counter"],
            lambda v: form.__setitem__("counter", v),
            tid="vm.adjust.counter",
            cols=4,
        )
    )
    body.add_widget(Choice([(-1, "−1"), (1, "+1")], 1, lambda v: form.__setitem__("delta", v), tid="vm.adjust.delta"))

    def send() -> None:
        seat = None if form["counter"] == "level" else form["seat"]
        tv.send({"kind": "vm.adjust", "counter": form["counter"], "delta": form["delta"], "seat": seat, "value": None})

    _form(tv, tv.t("ui.vm.adjust"), body, send, "vm.adjust")


def mission_dialog(tv: Screen) -> None:
    cities = [txt(c) for c in seq_of(tv.actions().get("vm.set_mission", {}).get("cities"))]
    if not cities:
        return
    form: dict[str, Any] = {"city": cities[0], "reward": 2}
    body = fit_height(vbox(spacing=dp(6)))
    body.add_widget(
        Choice(
            [(c, tv.name("city", c)) for c in cities],
            cities[0],
            lambda v: form.__setitem__("city", v),
            tid="vm.mission.city",
        )
    )
    body.add_widget(
        Choice([(2, "2"), (3, "3"), (4, "4")], 2, lambda v: form.__setitem__("reward", v), tid="vm.mission.reward")
    )
    _form(
        tv,
        tv.t("ui.vm.set_mission"),
        body,
        lambda: tv.send({"kind": "vm.set_mission", "city": form["city"], "reward": form["reward"], "label": ""}),
        "vm.mission",
    )


def log_dialog(tv: Screen) -> None:
    lines = [tv.log_text(obj(line)) for line in seq_of(tv.view.get("log"))]
    body = fit_height(vbox(*(Lbl(line, wrap=True, size=theme.FONT_SMALL) for line in reversed(lines)), spacing=dp(4)))
    view = scroll(body)
    view.size_hint_y = None
    view.height = dp(260)
    dialog = Dialog(tv.t("ui.vm.show_log"), view, width=dp(680))
    dialog.add_button(Btn(tv.t("ui.close"), dialog.dismiss, tid="confirm.no"))
    dialog.open()


def reidentify_dialog(tv: Screen, action: JSONObject, index: int | None = None) -> None:
    """Name an agent of the stack being turned over again, as its face-up disc shows it: first
    which one, then what it is."""
    agents = [obj(a) for a in seq_of(action.get("agents"))]
    box = fit_height(vbox(spacing=dp(6)))
    chosen = next((a for a in agents if num(a.get("index")) == index), None)
    if chosen is None:
        dialog = Dialog(tv.t("ui.vm.reidentify_which"), box)
        grid = autogrid(3, dp(4))
        for a in agents:
            seat, i = txt(a.get("seat")), num(a.get("index"))
            label = f"{i + 1}. {tv.seat_label(seat)}: {tv.name('agent', txt(a.get('agent')))}"

            def pick(i: int = i) -> None:
                dialog.dismiss()
                reidentify_dialog(tv, action, i)

            grid.add_widget(Btn(label, pick, tid=f"vm.reidentify.{i}", size=theme.FONT_SMALL))
        box.add_widget(grid)
    else:
        was = txt(chosen.get("agent"))
        dialog = Dialog(
            tv.t(
                "ui.vm.reidentify_as",
                n=num(chosen.get("index")) + 1,
                player=tv.seat_label(txt(chosen.get("seat"))),
            ),
            box,
        )
        grid = autogrid(3, dp(4))
        for name in strs(action.get("names")):

            def named(name: str = name) -> None:
                dialog.dismiss()
                tv.send({"kind": "vm.reidentify", "index": num(chosen.get("index")), "agent": name})

            # the agent it is now stays in its place, unavailable: every name keeps its place
            button = Btn(tv.name("agent", name), named, tid=f"vm.reidentify.as.{name}", disabled=name == was)
            grid.add_widget(button)
        box.add_widget(grid)
    dialog.add_button(Btn(tv.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
    dialog.open()
