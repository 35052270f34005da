"""Before the first move: drawing the start cards, or entering the detectives' D cards by hand."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON
from ui import theme
from ui.games.base import num, obj, seq_of, txt
from ui.games.scotland_yard import figures
from ui.parts import Part
from ui.widgets import Btn, Choice, Lbl, autogrid, fit_height, scroll, vbox

if TYPE_CHECKING:
    from ui.games.scotland_yard.screen import Screen


def panel(tv: Screen) -> Part:
    v = tv.view
    legal = obj(tv.legal)
    placing = None
    if "sy.place_detectives" in tv.intents():
        figures_left = tuple(txt(f) for f in seq_of(legal.get("figures")))
        cards = tuple(num(c) for c in seq_of(legal.get("d_cards")))
        placing = (figures_left, cards, tuple(tv.placing.items()), tv.placing_figure)
    return Part(
        "start",
        start_panel,
        tv,
        tuple(tv.intents()),
        placing,
        v.get("figures"),
        bool(obj(v.get("mrx")).get("placed")),
        tv.table_plays_x(),
    )


def start_panel(
    tv: Screen,
    intents: tuple[JSON, ...],
    placing: tuple[tuple[str, ...], tuple[int, ...], tuple[tuple[str, int], ...], str | None] | None,
    all_figures: JSON,
    x_placed: bool,
    table_plays_x: bool,
) -> Widget:
    box = fit_height(vbox(spacing=dp(8), padding=(0, 0, dp(8), 0)))
    placed = all(isinstance(obj(f).get("station"), int) for f in seq_of(all_figures))
    if "sy.draw_start" in intents:
        box.add_widget(
            tv.action_button(
                tv.t("ui.sy.draw_start"),
                {"kind": "sy.draw_start"},
                "sy.draw_start",
                colour=theme.GOOD,
                size=theme.FONT_BIG,
                bold=True,
            )
        )
        note = tv.t("ui.sy.draw_start_note_table") if table_plays_x else tv.t("ui.sy.draw_start_note")
        box.add_widget(Lbl(note, colour=theme.MUTED, size=theme.FONT_SMALL, wrap=True))
    if placing is not None:
        box.add_widget(placement(tv, *placing))
    elif placed:
        phase = txt(tv.view.get("phase"))
        for figure in seq_of(all_figures):
            f = obj(figure)
            box.add_widget(figures.figure_row(tv, f, tv.tickets_of(txt(f.get("figure"))), False, phase))
    if not x_placed:
        draws = tv.t("ui.sy.x_draws_table") if table_plays_x else tv.t("ui.sy.x_draws")
        box.add_widget(Lbl(draws, colour=theme.WARN, wrap=True, tid="sy.x_draws"))
    # A tap on a card draws the panel again: it keeps where it was scrolled to (in large text the
    # cards' last rows need scrolling, and jumping back to the top hid the row just tapped).
    view = scroll(box, tid="sy.start")
    view.scroll_y = tv.start_scroll
    view.bind(scroll_y=lambda _view, y: setattr(tv, "start_scroll", y))
    return view


def placement(
    tv: Screen,
    names: tuple[str, ...],
    cards: tuple[int, ...],
    entered: tuple[tuple[str, int], ...],
    current: str | None,
) -> Widget:
    """The D cards the table drew, entered figure by figure."""
    chosen = dict(entered)
    box = fit_height(vbox(spacing=dp(6)))
    done = tv.action_button(
        tv.t("ui.sy.place_confirm"),
        {"kind": "sy.place_detectives", "stations": [[f, s] for f, s in entered]},
        "sy.place.confirm",
        colour=theme.GOOD,
    )
    done.disabled = len(chosen) != len(names)
    # the confirmation under the title, above the figures and the cards: at 800×480 it stays in sight
    box.add_widget(Lbl(tv.t("ui.sy.enter_d_cards"), bold=True, wrap=True, tid="sy.place.title"))
    box.add_widget(done)
    box.add_widget(
        Choice(
            [(f, tv.t("ui.pair", label=f, value=chosen.get(f, "–"))) for f in names],
            current,
            tv.placing_figure_chosen,
            tid="sy.place.figure",
        )
    )
    used = set(chosen.values())
    grid = autogrid(6, dp(4), row_force_default=True, row_default_height=theme.TOUCH_SMALL)
    for card in cards:
        mine = chosen.get(current or "") == card
        btn = Btn(
            str(card), partial(tv.place, card), tid=f"sy.place.card.{card}", selected=mine, height=theme.TOUCH_SMALL
        )
        btn.disabled = card in used and not mine
        grid.add_widget(btn)
    box.add_widget(grid)
    return box
