"""What to do now, beside the players: before the first season the start (:mod:`.start`); while a
zone is counted, where it lies and what to count; in the survey its choices (:mod:`.survey`); in a
turn whose turn it is and the legal excavations, Sir Brown's room and passing, or the neutral
colour's step a player takes (two players)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games.base import obj, seq_of, txt
from ui.games.mykerinos import start, survey
from ui.games.mykerinos.counts import last_zone_note
from ui.parts import Part
from ui.widgets import Lbl, Panel, autogrid, button_part, fit_height, scroll, text_part, vbox

if TYPE_CHECKING:
    from ui.games.mykerinos.screen import Screen


def action_part(tv: Screen) -> Part:
    """In a turn (and for the neutral colour's step), the panel as a part per line and button, each
    changed in place when only its words or intent change (whose turn it is); before the first
    season, while a zone is counted and in the survey, drawn whole from the snapshot (:func:`panel`)."""
    v = tv.view
    acts = tv.actions()
    if txt(v.get("phase")) in ("setup", "survey") or "myk.zone_counts" in acts:
        return Part("action", panel, tv, tv.msg, tv.room_for, tuple(tv.patron_order))
    if "myk.neutral" in acts:
        seat = txt(obj(v.get("turn")).get("seat"))
        return Part("turn", action_box, children=neutral_rows(tv, acts["myk.neutral"], seat))
    return Part("turn", action_box, children=turn_rows(tv, acts))


def action_box() -> Widget:
    return Panel(orientation="vertical", padding=dp(6), spacing=dp(4))


def panel(tv: Screen, msg: JSONObject, room_for: str | None, patron_order: tuple[str, ...]) -> Widget:
    """Drawn from the whole snapshot and the screen's own choices (its arguments say when)."""
    v = tv.view
    acts = tv.actions()
    phase = txt(v.get("phase"))
    box = action_box()
    if phase == "setup":
        return start.panel(tv, box, acts)
    if "myk.zone_counts" in acts:
        return zone_counts_panel(tv, box)
    return survey.panel(tv, box, acts)


def turn_rows(tv: Screen, acts: dict[str, JSONObject]) -> list[Part]:
    """Whose turn it is and the legal excavations, Sir Brown's room and passing."""
    turn = obj(tv.view.get("turn"))
    seat = txt(turn.get("seat"))
    rows: list[Part] = []
    if seat:
        final = tv.t("ui.myk.final_action") if turn.get("final") else ""
        prompt = tv.t("ui.myk.your_turn", player=tv.colour_name(seat)) + final
        rows.append(text_part("prompt", prompt, wrap=True, bold=True, tid="myk.prompt"))
    if tv.room_for == "sir_brown":
        rows.append(text_part("room", tv.t("ui.myk.pick_room_sir_brown"), wrap=True, colour=theme.WARN))
        rows.append(button_part("room_cancel", tv.t("ui.cancel"), tv.cancel_room, tid="myk.room.cancel", width=dp(140)))
        rows.append(Part("gap", Widget))
        return rows
    buttons: list[Part] = []
    small = theme.FONT_SMALL
    excavate = acts.get("myk.excavate")
    if excavate is not None:
        for option in seq_of(excavate.get("options")):
            action, patron = [*seq_of(option), None, None][:2]
            a, p = txt(action), patron if isinstance(patron, str) else None
            with_patron = tv.t("ui.pair", label=tv.patron(p), value=tv.t(f"ui.myk.with.{a}")) if p else ""
            label = tv.t(f"ui.myk.{a}") if p is None else with_patron
            tid = f"myk.excavate.{a}.{p or 'plain'}"
            intent: JSONObject = {"kind": "myk.excavate", "seat": seat, "action": a, "patron": p}
            buttons.append(tv.action_part(tid, label, intent, tid, size=small))
    if "myk.sir_brown" in acts:
        sir_brown = tv.t("ui.myk.sir_brown")
        buttons.append(button_part("myk.sir_brown", sir_brown, tv.pick_room_sir_brown, tid="myk.sir_brown", size=small))
    if "myk.pass" in acts:
        # a plain button: passing ends the player's season, never the first choice
        buttons.append(
            tv.action_part("myk.pass", tv.t("ui.myk.pass"), {"kind": "myk.pass", "seat": seat}, "myk.pass", size=small)
        )
    inside = [Part("grid", button_grid, children=buttons)]
    if excavate is not None:  # what the numbers on the buttons mean
        costs = tv.t("ui.myk.costs_note")
        inside.append(text_part("costs", costs, size=small, colour=theme.MUTED, wrap=True, tid="myk.costs"))
    # a new player's buttons are shown from the top (the scroll is made again, its buttons kept)
    rows.append(Part("actions", actions_scroll, seat, children=inside))
    return rows


def button_grid() -> Widget:
    return autogrid(3, dp(4))


def actions_scroll(seat: str) -> Widget:
    inside = fit_height(vbox())
    view = scroll(inside, tid="myk.actions")
    view.content = inside
    return view


def zone_counts_panel(tv: Screen, box: Panel) -> Widget:
    """A zone of the survey to count: where it is (never cut: it wraps), what to count (for the
    last zone of a season, what the books leave there); the counters and their button are below,
    in the same place for every zone."""
    box.add_widget(Lbl(tv.zone_where(), bold=True, colour=theme.WARN, wrap=True, tid="myk.zone_where"))
    note = last_zone_note(tv)
    if note is not None:
        box.add_widget(note)
    else:
        box.add_widget(Lbl(tv.t("ui.myk.counts_question"), wrap=True, bold=True))
        box.add_widget(Lbl(tv.t("ui.myk.counts_note"), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True))
    box.add_widget(Widget())
    return box


def neutral_rows(tv: Screen, neutral: JSONObject, seat: str) -> list[Part]:
    """The neutral colour's step a player takes (two players): one button per action offered."""
    buttons = []
    for action in seq_of(neutral.get("actions")):
        a = txt(action)
        intent: JSONObject = {"kind": "myk.neutral", "seat": seat, "action": a}
        tid = f"myk.neutral.{a}"
        buttons.append(tv.action_part(tid, tv.t(f"ui.myk.neutral.{a}"), intent, tid, size=theme.FONT_SMALL))
    return [
        text_part("neutral", tv.t("ui.myk.neutral_step", player=tv.colour_name(seat)), wrap=True, bold=True),
        Part("neutral_grid", button_grid, children=buttons),
        Part("gap", Widget),
    ]
