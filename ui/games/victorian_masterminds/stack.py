"""The stack turned over, where the tallies usually are: every agent of the stack being resolved (or
of the one resolved last, while nothing else happened since), first placed first, with its loot and
what its ability did."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON, JSONObject
from ui import theme
from ui.games.base import num, obj, seq_of, txt
from ui.parts import Part
from ui.widgets import Btn, Panel, chip_part, fit_height, hbox, scroll, text_part, vbox

if TYPE_CHECKING:
    from ui.games.victorian_masterminds.screen import Screen


# log lines that belong to turning a stack over: while the newest line is one of them, the screen
# shows the stack's whole resolution where the tally usually is
STACK_LINES = frozenset(
    {
        "vm.log.flipped",
        "vm.log.agent",
        "vm.log.captured",
        "vm.log.mission",
        "vm.log.engineer",
        "vm.log.order",
        "vm.log.placed_under",
        "vm.log.reshuffled",
        "vm.log.final_round",
        "vm.log.final_resolution",
    }
)


def stack_to_show(tv: Screen) -> JSONObject | None:
    """The stack being resolved, or the one resolved last while nothing else happened since
    (unless the tally was asked for meanwhile)."""
    current = obj(tv.view.get("resolution"))
    lines = seq_of(tv.view.get("log"))
    newest = obj(lines[-1]) if lines else {}
    if tv.scores_instead is not None and tv.scores_instead == num(newest.get("n")):
        return None
    if current:
        return current
    last = obj(tv.view.get("last_stack"))
    if last and txt(newest.get("what")) in STACK_LINES and txt(tv.view.get("phase")) != "ended":
        return last
    return None


def gains_text(tv: Screen, gains: JSON) -> str:
    parts = []
    for g in seq_of(gains):
        g = obj(g)
        res, amount, lost = txt(g.get("resource")), num(g.get("amount")), num(g.get("lost"))
        words = tv.t(f"ui.vm.gain.{res}", n=amount)
        if res == "codex" and amount and num(g.get("value"), 1) == 2:
            words += " " + tv.t("ui.vm.gain.worth2")
        if lost:
            words += " " + tv.t("ui.vm.gain.lost", n=lost)
        parts.append(words)
    return ", ".join(parts)


def step_text(tv: Screen, a: JSONObject) -> tuple[str, str]:
    """(the city's loot, what the ability did) for one agent of a turned-over stack."""
    loot = gains_text(tv, a.get("loot"))
    outcome = txt(a.get("outcome"))
    if a.get("building"):  # shown from the capture on (the loot may still wait)
        ability = tv.t("ui.vm.step.captured", building=tv.name("building", txt(a.get("building"))))
    elif a.get("mission"):
        ability = tv.t("ui.vm.step.mission", reward=num(a.get("mission")))
    elif not outcome:
        ability = tv.t("ui.vm.step.pending")
    else:
        ability = tv.t(f"ui.vm.outcome.{outcome}")
    gains = gains_text(tv, a.get("gains"))
    if gains and not a.get("mission"):
        ability += f" ({gains})"
    if a.get("ability_first"):
        ability = tv.t("ui.vm.step.ability_first") + " – " + ability
    return loot, ability


def stack_part(tv: Screen, r: JSONObject, current: bool) -> Part:
    """Every agent of the stack, first placed first: its loot and what its ability did. A row per
    agent, changed in place when that agent's step changes (or whether it is the one being resolved)."""
    city = tv.name("city", txt(r.get("city")))
    title = tv.t("ui.vm.stack.now" if current else "ui.vm.stack.last", city=city)
    index = num(r.get("index"))
    rows = [
        step_part(tv, i, obj(a), current and i == index, current and i < index)
        for i, a in enumerate(seq_of(r.get("agents")))
    ]
    head = Part(
        "head",
        stack_head,
        children=[
            text_part("title", title, bold=True, one_line=True, tid="vm.stack.title"),
            Part("scores", scores, tv),
        ],
    )
    return Part("stack", stack_box, children=[head, Part("steps", steps_scroll, city, children=rows)])


def stack_box() -> Widget:
    panel = Panel(orientation="vertical", padding=dp(4), spacing=dp(2))
    panel.tid = "vm.stack"
    return panel


def stack_head() -> Widget:
    return hbox(size_hint_y=None, height=theme.TOUCH_SMALL)


def scores(tv: Screen) -> Widget:
    return Btn(
        tv.t("ui.vm.stack.scores"),
        tv.show_scores,
        tid="vm.stack.scores",
        width=dp(130),
        height=theme.TOUCH_SMALL,
        size=theme.FONT_SMALL,
    )


def steps_scroll(city: str) -> Widget:
    """A stack taller than three (a Steam Mole's agent beneath) scrolls instead of pushing the title
    up; another city's stack is shown from its top (a new scroll, its rows kept)."""
    rows = fit_height(vbox(spacing=dp(2)))
    view = scroll(rows)
    view.content = rows
    return view


def step_part(tv: Screen, i: int, a: JSONObject, now: bool, done: bool) -> Part:
    """One agent of the stack: who and which agent (in bold while it is resolved, dimmed once it
    was, while the stack is being resolved), its loot, what its ability did — each changed in place."""
    seat = txt(a.get("seat"))
    agent = a.get("agent")
    name = tv.name("agent", agent) if isinstance(agent, str) else "?"
    colour = tv.colour_of(seat)
    loot, ability = step_text(tv, a)
    if a.get("cancelled") and not a.get("outcome"):
        ability = tv.t("ui.vm.sabotaged")
    small = dp(14)
    return Part(
        f"step.{i}",
        step_row,
        children=[
            chip_part(
                "agent",
                f"{tv.seat_label(seat)} · {name}",
                theme.player_colour(colour),
                0.8 if done else 1.0,
                text_colour=theme.on_player_colour(colour),
                size=small,
                bold=now,
                width=dp(210),
            ),
            text_part("loot", loot, size=small, fit=dp(10), size_hint_x=None, width=dp(180), tid=f"vm.step.{i}.loot"),
            # a long outcome ("+0 Wissenschaftler (1 verfallen)") gets smaller before it is shortened
            text_part("ability", ability, size=small, fit=dp(10), tid=f"vm.step.{i}.ability"),
        ],
    )


def step_row() -> Widget:
    return hbox(spacing=dp(6), size_hint_y=None, height=dp(24))
