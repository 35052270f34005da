"""The stack being resolved, step by step, in the action panel: its agents in the order they resolve,
the question it waits for, one button for each real answer in ``legal``, and the dialogs some answers
open (a mission's printed reward, the Steam Mole's city)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.metrics import dp
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games.base import num, obj, seq_of, strs, txt
from ui.games.victorian_masterminds import corrections
from ui.parts import Part
from ui.widgets import Btn, Dialog, Lbl, autogrid, button_part, chip_part, fit_height, hbox, one_size, text_part, vbox

if TYPE_CHECKING:
    from ui.games.victorian_masterminds.screen import Screen


def resolution_rows(tv: Screen, acts: dict[str, JSONObject]) -> list[Part]:
    """The panel's parts while a stack is resolved: at each step only the agents' chips whose
    boldness or fading changed, the question's words and the answers' buttons change in place."""
    r = obj(tv.view.get("resolution"))
    rows = [sequence_part(tv, r)]
    waiting = obj(r.get("waiting"))
    kind = txt(waiting.get("kind"))
    small = theme.FONT_SMALL
    if kind:
        who = tv.seat_label(txt(waiting.get("seat")))
        question = tv.t("ui.vm.question", player=who, question=tv.t(f"vm.waiting.{kind}"))
        rows.append(text_part("question", question, wrap=True, bold=True, size=small, tid="vm.question"))
    if "vm.take_loot" in acts and kind == "engineer":  # the power began before the loot: it waits for the owner
        waits = tv.t("ui.vm.loot_waits", city=tv.name("city", txt(r.get("city"))))
        rows.append(text_part("loot_waits", waits, size=small, colour=theme.MUTED, one_line=True, tid="vm.loot_waits"))
    answers = resolution_answers(tv, acts)
    if answers:
        rows.append(Part("answers", answer_grid, min(5, len(answers)), children=answers))
    elif kind:
        rows.append(text_part("on_phone", tv.t("ui.vm.on_phone"), size=small, colour=theme.MUTED, wrap=True))
    rows.append(Part("gap", Widget))
    return rows


def answer_grid(cols: int) -> Widget:
    return one_size(autogrid(cols, dp(4)))  # one size for every answer (large text)


def sequence_part(tv: Screen, r: JSONObject) -> Part:
    """The city and its stack's agents in the order they resolve: the current one bold, the
    resolved ones faded, a sabotaged one said so (or struck through where that is too long)."""
    index = num(r.get("index"))
    chips: list[Part] = [
        text_part(
            "city", tv.name("city", txt(r.get("city"))), bold=True, size_hint_x=None, width=dp(100), one_line=True
        )
    ]
    for i, a in enumerate(seq_of(r.get("agents"))):
        a = obj(a)
        seat = txt(a.get("seat"))
        agent = a.get("agent")
        label = tv.name("agent", txt(agent)) if isinstance(agent, str) else "?"
        short = ""
        if a.get("cancelled"):  # "Daredevil (sabotaged)", or the name struck through where that is too long
            label, short = escape_markup(f"{label} {tv.t('ui.vm.sabotaged')}"), f"[s]{escape_markup(label)}[/s]"
        colour = tv.colour_of(seat)
        chips.append(
            chip_part(
                f"agent.{i}",
                label,
                theme.player_colour(colour),
                0.55 if a.get("done") else 1.0,
                text_colour=theme.on_player_colour(colour),
                size=dp(14),
                bold=i == index,
                short=short,
                markup=bool(short),
                tid=f"vm.resolve.{i}",
            )
        )
    return Part("sequence", sequence_row, children=chips)


def sequence_row() -> Widget:
    return hbox(size_hint_y=None, height=dp(28), spacing=dp(4))


def small_button(name: str, label: str, on_press: Callable[[], None], tid: str, colour: Any = theme.BUTTON) -> Part:
    """A button of the resolution's answers that opens a dialog rather than acting at once."""
    return button_part(name, label, on_press, tid=tid, size=theme.FONT_SMALL, height=theme.TOUCH_SMALL, colour=colour)


def resolution_answers(tv: Screen, acts: dict[str, JSONObject]) -> list[Part]:
    """The answers the stack being resolved waits for, one button each, in the order asked."""
    answers: list[Part] = []

    def answer(label: str, intent: JSONObject, tid: str, colour: Any = theme.BUTTON) -> None:
        answers.append(
            tv.action_part(tid, label, intent, tid, size=theme.FONT_SMALL, height=theme.TOUCH_SMALL, colour=colour)
        )

    if "vm.reveal" in acts:  # every agent of the box in its order, so each keeps its place for every player
        offered = {txt(a) for a in seq_of(acts["vm.reveal"].get("agents"))}
        for a in strs(tv.facts.get("agents")):
            if a in offered:
                answer(tv.name("agent", a), {"kind": "vm.reveal", "agent": a}, f"vm.reveal.{a}")
            else:  # lying face up already: not this disc, but its place stays
                label, tid = tv.name("agent", a), f"vm.reveal.{a}"
                style: dict[str, Any] = {"size": theme.FONT_SMALL, "height": theme.TOUCH_SMALL}
                answers.append(button_part(tid, label, None, tid=tid, disabled=True, **style))
    for first in seq_of(acts.get("vm.choose_order", {}).get("options")):
        f = txt(first)
        answer(tv.t(f"ui.vm.order.{f}"), {"kind": "vm.choose_order", "first": f}, f"vm.order.{f}")
    if "vm.take_loot" in acts:
        answer(tv.t("ui.vm.take_loot"), {"kind": "vm.take_loot"}, "vm.take_loot", theme.GOOD)
    for building in seq_of(acts.get("vm.choose_building", {}).get("buildings")):
        b = building if isinstance(building, str) else None
        label = tv.name("building", b) if b else tv.t("ui.vm.no_building")
        answer(label, {"kind": "vm.choose_building", "building": b}, f"vm.building.{b or 'none'}")
    if "vm.henchman" in acts:
        if acts["vm.henchman"].get("reward_needed"):  # the mission card's printed reward: asked when met
            met_reward = partial(reward_dialog, tv)
            answers.append(
                small_button("vm.henchman.yes", tv.t("ui.vm.met"), met_reward, "vm.henchman.yes", theme.GOOD)
            )
        else:
            met: JSONObject = {"kind": "vm.henchman", "met": True, "reward": None, "label": None}
            answer(tv.t("ui.vm.met"), met, "vm.henchman.yes", theme.GOOD)
        not_met: JSONObject = {"kind": "vm.henchman", "met": False, "reward": None, "label": None}
        answer(tv.t("ui.vm.not_met"), not_met, "vm.henchman.no")
    if "vm.engineer_done" in acts:
        adjust = partial(corrections.adjust_dialog, tv)
        answers.append(small_button("vm.engineer.adjust", tv.t("ui.vm.adjust"), adjust, "vm.engineer.adjust"))
        if "vm.place_under" in acts:
            under = partial(under_dialog, tv, acts["vm.place_under"])
            answers.append(small_button("vm.under", tv.t("ui.vm.under"), under, "vm.under"))
        answer(tv.t("ui.vm.engineer_done"), {"kind": "vm.engineer_done"}, "vm.engineer_done", theme.GOOD)
    return answers


def reward_dialog(tv: Screen) -> None:
    """The mission is met but its reward was never entered: the chaos points printed on its card."""
    dialog = Dialog(tv.t("ui.vm.met_reward_note"))
    for reward in (2, 3, 4):

        def chosen(r: int = reward) -> None:
            dialog.dismiss()
            tv.send({"kind": "vm.henchman", "met": True, "reward": r, "label": None})

        label = tv.t("ui.vm.met_reward", reward=reward)
        dialog.add_button(Btn(label, chosen, tid=f"vm.henchman.yes.{reward}", colour=theme.GOOD))
    dialog.add_button(Btn(tv.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
    dialog.open()


def under_dialog(tv: Screen, action: JSONObject) -> None:
    """The steam mole: the owner's next agent goes under an agent lying alone in a city."""
    seat = txt(action.get("seat"))
    box = fit_height(vbox(spacing=dp(6)))
    box.add_widget(Lbl(tv.t("ui.vm.under_note"), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True))
    dialog = Dialog(tv.t("ui.vm.under_where", player=tv.seat_label(seat)), box)
    for c in seq_of(action.get("cities")):
        city = txt(c)

        def chosen(city: str = city) -> None:
            dialog.dismiss()
            intent: JSONObject = {"kind": "vm.place_under", "seat": seat, "city": city, "agent": None}
            tv.with_phone(seat, lambda books: tv.send({**intent, "books": books}))

        box.add_widget(Btn(tv.name("city", city), chosen, tid=f"vm.under.{city}"))
    dialog.add_button(Btn(tv.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
    dialog.open()
