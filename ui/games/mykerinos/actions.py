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
from ui.games.mykerinos.counts import counts_done
from ui.widgets import Btn, Lbl, Panel, autogrid, fit_height, scroll, vbox

if TYPE_CHECKING:
    from ui.games.mykerinos.screen import Screen


def panel(tv: Screen, msg: JSONObject, room_for: str | None, patron_order: tuple[str, ...]) -> Widget:
    """Drawn from the whole snapshot and the screen's own choices (its arguments say when)."""
    v = tv.view
    acts = tv.actions()
    phase = txt(v.get("phase"))
    box = Panel(orientation="vertical", padding=dp(6), spacing=dp(4))
    if phase == "setup":
        return start.panel(tv, box, acts)
    if "myk.zone_counts" in acts:
        return zone_counts_panel(tv, box)
    if phase == "survey":
        return survey.panel(tv, box, acts)
    turn = obj(v.get("turn"))
    seat = txt(turn.get("seat"))
    if "myk.neutral" in acts:
        return neutral_panel(tv, box, acts["myk.neutral"], seat)
    if seat:
        final = tv.t("ui.myk.final_action") if turn.get("final") else ""
        box.add_widget(
            Lbl(
                tv.t("ui.myk.your_turn", player=tv.colour_name(seat)) + final,
                wrap=True,
                bold=True,
                tid="myk.prompt",
            )
        )
    if tv.room_for == "sir_brown":
        box.add_widget(Lbl(tv.t("ui.myk.pick_room_sir_brown"), wrap=True, colour=theme.WARN))
        box.add_widget(Btn(tv.t("ui.cancel"), tv.cancel_room, tid="myk.room.cancel", width=dp(140)))
        box.add_widget(Widget())
        return box
    grid = autogrid(3, dp(4))
    excavate = acts.get("myk.excavate")
    if excavate is not None:
        for option in seq_of(excavate.get("options")):
            action, patron = [*seq_of(option), None, None][:2]
            a, p = txt(action), patron if isinstance(patron, str) else None
            with_patron = tv.t("ui.pair", label=tv.patron(p), value=tv.t(f"ui.myk.with.{a}")) if p else ""
            label = tv.t(f"ui.myk.{a}") if p is None else with_patron
            grid.add_widget(
                tv.action_button(
                    label,
                    {"kind": "myk.excavate", "seat": seat, "action": a, "patron": p},
                    f"myk.excavate.{a}.{p or 'plain'}",
                    size=theme.FONT_SMALL,
                )
            )
    if "myk.sir_brown" in acts:
        grid.add_widget(
            Btn(tv.t("ui.myk.sir_brown"), tv.pick_room_sir_brown, tid="myk.sir_brown", size=theme.FONT_SMALL)
        )
    if "myk.pass" in acts:
        grid.add_widget(
            tv.action_button(
                tv.t("ui.myk.pass"),
                {"kind": "myk.pass", "seat": seat},
                "myk.pass",  # a plain button: passing ends the player's season, never the first choice
                size=theme.FONT_SMALL,
            )
        )
    actions = vbox(grid)
    if excavate is not None:  # what the numbers on the buttons mean
        actions.add_widget(
            Lbl(tv.t("ui.myk.costs_note"), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True, tid="myk.costs")
        )
    box.add_widget(scroll(fit_height(actions), tid="myk.actions"))
    return box


def zone_counts_panel(tv: Screen, box: Panel) -> Widget:
    """A zone of the survey to count: where it is (never cut: it wraps), what to count; the
    counters and their button are below (the last zone's button stays here)."""
    survey_ = obj(tv.view.get("survey"))
    box.add_widget(Lbl(tv.zone_where(), bold=True, colour=theme.WARN, wrap=True, tid="myk.zone_where"))
    if not obj(survey_.get("last")):
        box.add_widget(Lbl(tv.t("ui.myk.counts_question"), wrap=True, bold=True))
        box.add_widget(Lbl(tv.t("ui.myk.counts_note"), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True))
        box.add_widget(Widget())
        return box
    # the last zone: its note below says what to count and fills the panel, the button stays here
    box.add_widget(Widget())
    box.add_widget(counts_done(tv))
    return box


def neutral_panel(tv: Screen, box: Panel, neutral: JSONObject, seat: str) -> Widget:
    """The neutral colour's step a player takes (two players): one button per action offered."""
    box.add_widget(Lbl(tv.t("ui.myk.neutral_step", player=tv.colour_name(seat)), wrap=True, bold=True))
    grid = autogrid(3, dp(4))
    for action in seq_of(neutral.get("actions")):
        a = txt(action)
        grid.add_widget(
            tv.action_button(
                tv.t(f"ui.myk.neutral.{a}"),
                {"kind": "myk.neutral", "seat": seat, "action": a},
                f"myk.neutral.{a}",
                size=theme.FONT_SMALL,
            )
        )
    box.add_widget(grid)
    box.add_widget(Widget())
    return box
