"""The moves' side while the game runs: whose move it is, a row per detective and bobby (tap one to
move it; each row redrawn only when its figure changes), the ticket supply; or, once a figure is
picked, its legal destinations grouped by transport."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON, JSONObject
from ui import theme
from ui.games.base import num, obj, seq_of, strs, txt
from ui.games.scotland_yard.look import TRANSPORT, text_on
from ui.parts import Part
from ui.widgets import Btn, Chip, Lbl, Panel, TapPanel, fit_height, flow, hbox, scroll, vbox

if TYPE_CHECKING:
    from ui.games.scotland_yard.screen import Screen


def panel(tv: Screen) -> Part:
    v = tv.view
    phase = txt(v.get("phase"))
    children = [*heading(tv, phase)]
    moves = tv.moves()
    for figure in seq_of(v.get("figures")):
        f = obj(figure)
        name = txt(f.get("figure"))
        children.append(figure_part(tv, f, tv.tickets_of(name), name in moves, phase))
    supply = obj(v.get("supply"))
    children.append(
        Part("supply", supply_line, tv, num(supply.get("taxi")), num(supply.get("bus")), num(supply.get("underground")))
    )
    return Part("figures", figures_box, children=children)


def figures_box() -> Widget:
    box = fit_height(vbox(spacing=dp(6), padding=(0, 0, dp(8), 0)))
    view = scroll(box, tid="sy.figures")
    view.content = box
    return view


def heading(tv: Screen, phase: str) -> list[Part]:
    """What the table waits for: Mister X (played by the table, on his phone, or without one
    yet), or the detectives."""
    mrx = txt(tv.facts.get("mister_x"))  # Mister X's seat
    instruction = tv.instruction()
    if instruction and "sy.confirm" in tv.intents():  # the table's pawn waits for the players' hands
        return [Part("instruction", instruction_box, tv, tv.instruction_words(instruction), txt(instruction["figure"]))]
    if phase == "x" and tv.table_plays_x():
        # No phone: the table decides his move in secret, then it appears in the travel log.
        level = tv.t(f"sy.ai.{txt(obj(tv.view.get('mrx')).get('ai'))}")
        return [Part("thinking", banner, tv.t("ui.sy.table_thinking", level=level), "sy.thinking", theme.ACCENT)]
    if phase == "x" and mrx not in tv.ctl.connected():
        return [Part("x_no_phone", x_no_phone, tv, mrx)]
    if phase == "x":
        return [Part("waiting", banner, tv.t("ui.sy.waiting_x"), "sy.waiting", None)]
    if phase == "detectives":
        parts = []
        if tv.table_moving():  # the table decides its detectives' next move (then says it)
            words = tv.t("ui.sy.table_moving", level=tv.table_level())
            parts.append(Part("moving", banner, words, "sy.table_moving", theme.ACCENT))
        if tv.moves() or not parts:
            hint = tv.t("ui.sy.pick_figure") if tv.moves() else tv.t("ui.sy.no_moves")
            parts.append(Part("hint", hint_line, hint))
        return parts
    return []


def instruction_box(tv: Screen, words: str, figure: str) -> Widget:
    """The table's move, for a player to carry out on the board, and Done once the pawn stands
    there (anyone's next move confirms it too). As high as its words need (large text, French)."""
    lines = fit_height(
        vbox(
            Lbl(tv.t("ui.sy.table_says", level=tv.table_level()), colour=theme.MUTED, wrap=True),
            Lbl(words, size=theme.FONT_BIG, bold=True, wrap=True, tid="sy.instruction"),
            spacing=dp(2),
            pos_hint={"center_y": 0.5},
        )
    )
    done = Btn(tv.t("ui.sy.confirm"), partial(tv.confirm, figure), tid="sy.confirm", colour=theme.GOOD, width=dp(130))
    box = Panel(
        lines,
        done,
        orientation="horizontal",
        colour=theme.PANEL_HI,
        border=theme.ACCENT,
        size_hint_y=None,
        height=dp(96),
        spacing=dp(8),
    )
    pad = theme.PAD * 2

    def fit(_w: Widget, height: float) -> None:
        box.height = max(dp(96), height + pad)

    lines.bind(height=fit)
    return box


def banner(words: str, tid: str, border: theme.RGBA | None) -> Widget:
    """One big line across the moves' side while Mister X's move is awaited."""
    return Panel(
        Lbl(words, size=theme.FONT_BIG, bold=True, wrap=True, tid=tid, pos_hint={"center_y": 0.5}),
        colour=theme.PANEL_HI,
        border=border,
        size_hint_y=None,
        height=dp(64),
    )


def x_no_phone(tv: Screen, mrx: str) -> Widget:
    """He moves only on his own phone: say so, and offer his QR code in one tap."""
    return Panel(
        Lbl(tv.t("ui.sy.x_no_phone"), bold=True, wrap=True, tid="sy.x_no_phone"),
        Btn(
            tv.t("ui.sy.x_link"),
            lambda: tv.app.pages["seats"].open_for(mrx),
            tid="sy.link_x",
            colour=theme.ACCENT,
            width=dp(150),
        ),
        orientation="horizontal",
        colour=theme.PANEL_HI,
        border=theme.WARN,
        size_hint_y=None,
        height=dp(84),
        spacing=dp(8),
    )


def hint_line(hint: str) -> Widget:
    return Lbl(hint, colour=theme.MUTED, wrap=True, tid="sy.hint")


def supply_line(tv: Screen, taxi: int, bus: int, underground: int) -> Widget:
    words = tv.t("ui.sy.supply", taxi=taxi, bus=bus, underground=underground)
    return Lbl(words, colour=theme.MUTED, size=theme.FONT_SMALL, wrap=True)


def figure_part(tv: Screen, figure: JSONObject, tickets: JSONObject | None, movable: bool, phase: str) -> Part:
    """A detective or bobby: where it stands, its tickets, and whether it can move (tap it); each
    of these made again only when it changes (a move changes one figure's place and tickets, a new
    round every figure's note)."""
    name = txt(figure.get("figure"))
    bobby = bool(figure.get("bobby"))
    station = figure.get("station")
    if tickets is None:
        detail = tv.t("ui.sy.bobby_free")
    else:
        lines = strs(tv.facts.get("lines"))
        detail = "  ".join(f"{tv.t(f'ui.sy.short.{line}')} {num(tickets.get(line))}" for line in lines)
    where = tv.t("ui.sy.at", station=station) if isinstance(station, int) else tv.t("ui.sy.not_placed")
    moved = bool(figure.get("moved"))
    if movable:
        note = ""
    elif moved:
        note = tv.t("ui.sy.moved")
    elif figure.get("table") and phase != "x":  # the table moves it, and says how
        note = tv.t("ui.sy.table_figure")
    else:
        note = "" if phase == "x" else tv.t("ui.sy.cannot_move")
    return Part(
        f"figure.{name}",
        row_box,
        tv,
        name,
        movable,
        children=[
            Part("chip", figure_chip, name, bobby),
            Part("info", figure_info, f"{tv.figure_called(name, bobby)} · {where}", detail),
            Part("state", state_label, tv, name, movable, note, moved),
        ],
    )


def figure_row(tv: Screen, figure: JSONObject, tickets: JSONObject | None, movable: bool, phase: str) -> Widget:
    """The row at once (the start screen's list of figures)."""
    part = figure_part(tv, figure, tickets, movable, phase)
    row = part.make()
    for child in part.children or ():
        row.add_widget(child.make())
    return row


def row_box(tv: Screen, name: str, movable: bool) -> Widget:
    if movable:
        return TapPanel(partial(tv.select, name), tid=f"sy.figure.{name}", size_hint_y=None, height=dp(60))
    row = Panel(orientation="horizontal", size_hint_y=None, height=dp(60))
    row.tid = f"sy.figure.{name}"
    return row


def figure_chip(name: str, bobby: bool) -> Widget:
    return Chip(name, TRANSPORT["bobby"] if bobby else theme.ACCENT, size=theme.FONT_BIG, width=dp(56), bold=True)


def figure_info(title: str, detail: str) -> Widget:
    return vbox(
        Lbl(title, bold=True, one_line=True),
        Lbl(detail, colour=theme.MUTED, size=theme.FONT_SMALL, one_line=True),
        spacing=0,
    )


def state_label(tv: Screen, name: str, movable: bool, note: str, moved: bool) -> Widget:
    if movable:
        return Lbl(
            tv.t("ui.sy.tap_to_move"),
            colour=theme.TEXT,
            halign="right",
            size=theme.FONT_SMALL,
            size_hint_x=None,
            width=dp(92),
            tid=f"sy.figure.{name}.movable",
        )
    colour = theme.GOOD if moved else theme.MUTED
    return Lbl(note, colour=colour, halign="right", size=theme.FONT_SMALL, size_hint_x=None, width=dp(92))


def destinations_part(tv: Screen, figure: str) -> Part:
    station = next(
        (obj(f).get("station") for f in seq_of(tv.view.get("figures")) if obj(f).get("figure") == figure), None
    )
    return Part("destinations", destinations, tv, figure, obj(tv.moves().get(figure)), station, tv.figure_name(figure))


def destinations(tv: Screen, figure: str, options: JSONObject, station: JSON, name: str) -> Widget:
    """Where the picked figure may go, a row of stations per transport, and Cancel."""
    title = hbox(
        Lbl(tv.t("ui.sy.where_to", figure=name, station=station), size=theme.FONT_BIG, bold=True, one_line=True),
        Btn(tv.t("ui.cancel"), tv.unselect, tid="sy.cancel", width=dp(120)),
        size_hint_y=None,
        height=theme.TOUCH,
    )
    box = fit_height(vbox(spacing=dp(8), padding=(0, 0, dp(8), 0)))
    box.add_widget(title)
    for line in strs(tv.facts.get("lines")):
        stations = [num(s) for s in seq_of(options.get(line))]
        if stations:
            box.add_widget(line_row(tv, figure, line, stations))
    return scroll(box, tid="sy.destinations")


def line_row(tv: Screen, figure: str, line: str, stations: list[int]) -> Widget:
    label = Chip(
        tv.t(f"sy.ticket.{line}"), TRANSPORT[line], text_on(line), width=dp(118), height=theme.TOUCH, bold=True
    )
    buttons = flow(
        tv.action_button(
            str(s),
            partial(tv.move, figure, line, s),
            f"sy.dest.{line}.{s}",
            width=dp(70),
            colour=TRANSPORT[line],
            text_colour=text_on(line),
            size=theme.FONT_BIG,
            bold=True,
        )
        for s in stations
    )
    row = hbox(vbox(label, Widget(), size_hint_x=None, width=dp(118)), buttons, size_hint_y=None)
    buttons.bind(height=lambda _w, h, r=row: setattr(r, "height", max(h, theme.TOUCH)))
    row.height = theme.TOUCH
    return row
