"""Scotland Yard on the touchscreen: Mister X's public travel log, the detectives and bobbies, and
detective moves entered by tapping a figure, then a legal destination grouped by transport.

Mister X moves only on his phone; the table never sees his station except on reveal fields, while
the view shows him, and at the end (all from the public view).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON, JSONObject
from ui import theme
from ui.games import base
from ui.games.base import num, obj, preference, seq_of, strs, txt
from ui.widgets import (
    Btn,
    Chip,
    Choice,
    Lbl,
    NameInput,
    Panel,
    TapPanel,
    autogrid,
    confirm,
    fit_height,
    flow,
    hbox,
    scroll,
    vbox,
)

# The transport colours as on the board (keyed like the game's facts' tickets and lines)
TRANSPORT = {
    "taxi": theme.rgb("#e8c21c"),
    "bus": theme.rgb("#1f9d6b"),
    "underground": theme.rgb("#d23b3b"),
    "black": theme.rgb("#050505"),
    "ferry": theme.rgb("#2a6fdb"),
    "bobby": theme.rgb("#6b7280"),
}
# text on those colours
ON_TRANSPORT = {"taxi": theme.rgb("#111111"), "bus": theme.TEXT, "underground": theme.TEXT, "black": theme.TEXT}


def _text_on(ticket: str) -> Any:
    return ON_TRANSPORT.get(ticket, theme.TEXT)


PREF_TRACKER, _ = preference("scotland_yard", "tracker")
PREF_BOBBIES, _ = preference("scotland_yard", "bobbies_keep_game_alive")
PLAYER = "player"  # the setup's choice "a player is Mister X" (else: the level of the table playing him)


def _settings(page: Any) -> list[Widget]:
    """The Settings screen's rows for Scotland Yard (the new-game form's defaults)."""
    return [
        page.setting(
            page.t("ui.settings.sy.tracker"),
            page.on_off(PREF_TRACKER, False, "settings.sy.tracker"),
            page.t("ui.settings.sy.tracker_note"),
        ),
        page.setting(
            page.t("ui.settings.sy.bobbies"),
            page.on_off(PREF_BOBBIES, False, "settings.sy.bobbies"),
            page.t("ui.settings.sy.bobbies_note"),
        ),
    ]


class TableView(base.TableView):
    game = "scotland_yard"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.selected: str | None = None  # the figure whose destinations are shown
        self.placing: dict[str, int] = {}  # D cards entered by hand before the start
        self.placing_figure: str | None = None

    # -- reading the snapshot -----------------------------------------------------------------------
    def intents(self) -> list[JSON]:
        return seq_of(obj(self.legal).get("intents"))

    def moves(self) -> JSONObject:
        return obj(obj(self.legal).get("moves"))

    def figure_name(self, figure: str) -> str:
        bobby = any(obj(f).get("figure") == figure and obj(f).get("bobby") for f in seq_of(self.view.get("figures")))
        kind = "bobby" if bobby else "detective"
        return self.t(f"ui.sy.figure.{kind}", n=figure[1:])

    def seat_label(self, seat: str) -> str:
        for s in seq_of(self.view.get("seats")):
            s = obj(s)
            if s.get("seat") == seat:
                name = txt(s.get("name"))
                if seat == "mrx":
                    return name or self.t("ui.sy.mrx")
                figures = ", ".join(txt(f) for f in seq_of(s.get("figures")) if txt(f).startswith("D"))
                label = self.t("ui.sy.seat.detective", n=seat[1:], figures=figures)
                return f"{name} ({label})" if name else label
        return seat

    def tickets_of(self, figure: str) -> JSONObject | None:
        for s in seq_of(self.view.get("seats")):
            s = obj(s)
            if figure in seq_of(s.get("figures")) and figure.startswith("D"):
                return obj(s.get("tickets"))
        return None

    def table_plays_x(self, view: JSONObject | None = None) -> bool:
        """Mister X played by the table (the setup's level, in the public view)."""
        return bool(obj((self.view if view is None else view).get("mrx")).get("ai"))

    def status(self, msg: JSONObject) -> str:
        v = obj(msg.get("view"))
        phase = txt(v.get("phase"))
        if phase == "start":
            return self.t("ui.sy.status.start")
        if phase == "over":
            return self.t("ui.sy.status.over")
        if phase == "x":
            who = self.t("ui.sy.status.x_table") if self.table_plays_x(v) else self.t("ui.sy.status.x")
        else:
            who = self.t("ui.sy.status.detectives")
        return self.t("ui.sy.status.round", round=num(v.get("round")), rounds=num(v.get("rounds"), 22), who=who)

    def over(self, msg: JSONObject) -> bool:
        return txt(obj(msg.get("view")).get("phase")) == "over"

    def announcement(self, msg: JSONObject) -> str:
        end = obj(obj(msg.get("view")).get("end"))
        reason = txt(end.get("reason"))
        return self.t(f"sy.{reason}") if reason else ""

    def options(self) -> list[tuple[str, Callable[[], object], str]]:
        out: list[tuple[str, Callable[[], object], str]] = []
        intents = self.intents()
        if "sy.set_tracker" in intents:
            on = bool(obj(self.view.get("tracker")).get("on"))
            label = self.t("ui.sy.tracker_off") if on else self.t("ui.sy.tracker_on")
            out.append((label, lambda: self.send({"kind": "sy.set_tracker", "on": not on}), "sy.tracker"))
        if "sy.end_game" in intents:
            out.append((self.t("ui.sy.end_game"), self.end_game, "sy.end_game"))
        return out

    def end_game(self) -> None:
        confirm(
            self.t("ui.sy.end_confirm"),
            self.t("ui.sy.end_yes"),
            self.t("ui.cancel"),
            lambda: self.send({"kind": "sy.end_game"}),
            detail=self.t("ui.sy.end_detail"),
        )

    # -- the screen -------------------------------------------------------------------------------
    def build(self) -> None:
        phase = txt(self.view.get("phase"))
        if self.selected is not None and self.selected not in self.moves():
            self.selected = None
        if phase != "start":
            self.placing, self.placing_figure = {}, None
        left = self.x_panel()
        if phase == "start":
            right = self.start_panel()
        elif self.selected is not None:
            right = self.destinations(self.selected)
        else:
            right = self.figures_panel()
        self.add_widget(hbox(left, right))

    # Mister X: travel log and what is known about him
    def log_cell(self, field: int, entry: JSONObject | None, reveal: bool) -> Widget:
        border = theme.WARN if reveal else None
        if entry is None:
            nxt = num(self.view.get("next_field"), 0) == field and txt(self.view.get("phase")) != "over"
            colour = theme.PANEL_HI if nxt else theme.BACKGROUND
            main = Lbl("!" if reveal else "", size=theme.FONT_BIG, bold=True, colour=theme.WARN, halign="center")
            cell = Panel(
                Lbl(str(field), size=dp(14), colour=theme.MUTED, halign="center", size_hint_y=None, height=dp(16)),
                main,
                orientation="vertical",
                colour=colour,
                border=border,
                padding=dp(2),
                spacing=0,
            )
        else:
            ticket = txt(entry.get("ticket"))
            station = entry.get("station")
            fg = _text_on(ticket)
            top = Lbl(
                f"{field}" + (" ×2" if entry.get("double") else ""),
                size=dp(14),
                colour=fg,
                halign="center",
                size_hint_y=None,
                height=dp(16),
            )
            if isinstance(station, int):
                main = Lbl(str(station), size=theme.FONT_BIG, bold=True, colour=fg, halign="center")
            else:
                # a long ticket word ("U-Bahn") gets smaller rather than break over two lines
                main = Lbl(
                    self.t(f"ui.sy.short.{ticket}"), size=dp(14), bold=True, colour=fg, halign="center", fit=dp(10)
                )
            if border is None and ticket == "black":
                border = theme.MUTED  # a black field must not look like an empty one
            cell = Panel(
                top,
                main,
                orientation="vertical",
                colour=TRANSPORT.get(ticket, theme.PANEL_HI),
                border=border,
                padding=dp(2),
                spacing=0,
            )
        cell.tid = f"sy.log.{field}"
        main.tid = f"sy.log.{field}.main"
        return cell

    def log_grid(self, cols: int = 6, cell: float = dp(50)) -> Widget:
        entries = {num(obj(e).get("field")): obj(e) for e in seq_of(self.view.get("log"))}
        reveals = {num(r) for r in seq_of(self.view.get("reveal_fields"))}
        grid = autogrid(cols, dp(4), row_force_default=True, row_default_height=cell)
        for field in range(1, num(self.facts.get("log_fields")) + 1):
            grid.add_widget(self.log_cell(field, entries.get(field), field in reveals))
        return grid

    def x_panel(self) -> Widget:
        v = self.view
        mrx = obj(v.get("mrx"))
        title = hbox(
            Lbl(self.t("ui.sy.mrx"), size=theme.FONT_BIG, bold=True),
            Lbl(
                self.t("ui.sy.x_tickets", black=num(mrx.get("black")), double=num(mrx.get("double"))),
                colour=theme.MUTED,
                halign="right",
                size=theme.FONT_SMALL,
                tid="sy.x_tickets",
            ),
            size_hint_y=None,
            height=dp(30),
        )
        box = Panel(title, orientation="vertical", size_hint_x=None, width=dp(336))
        if self.table_plays_x():  # no player: the table moves him in secret
            level = self.t(f"sy.ai.{txt(mrx.get('ai'))}")
            by = Lbl(
                self.t("ui.sy.x_by_table", level=level),
                colour=theme.ACCENT,
                size=theme.FONT_SMALL,
                one_line=True,
                tid="sy.x_by_table",
                size_hint_y=None,
                height=dp(18),
            )
            box.add_widget(by)
        box.add_widget(self.log_grid())
        shown = obj(v.get("last_reveal"))  # his last reveal: announced while its round's detectives move
        if shown.get("now"):  # the same words however it came (a single move, or within a double move)
            where = Lbl(
                self.t("sy.reveal_now", station=num(shown.get("station")), field=num(shown.get("field"))),
                size=theme.FONT_BIG,
                bold=True,
                colour=theme.WARN,
                wrap=True,
                tid="sy.shown",
            )
        elif shown:
            where = Lbl(
                self.t("ui.sy.last_seen", station=num(shown.get("station")), field=num(shown.get("field"))),
                wrap=True,
                tid="sy.shown",
            )
        else:
            where = Lbl(self.t("ui.sy.not_seen"), colour=theme.MUTED, wrap=True, tid="sy.shown")
        box.add_widget(where)
        tracker = obj(v.get("tracker"))
        if tracker.get("on"):
            candidates = [str(num(c)) for c in seq_of(tracker.get("candidates"))]
            label = Lbl(
                self.t("ui.sy.tracker", count=len(candidates)) + " " + ", ".join(candidates),
                size=theme.FONT_SMALL,
                colour=theme.ACCENT,
                wrap=True,
                tid="sy.tracker",
            )
            box.add_widget(scroll(fit_height(vbox(label)), tid="sy.tracker.scroll"))
        else:
            box.add_widget(Widget())
        return box

    # detectives and bobbies
    def figure_row(self, figure: JSONObject) -> Widget:
        name = txt(figure.get("figure"))
        bobby = bool(figure.get("bobby"))
        station = figure.get("station")
        tickets = self.tickets_of(name)
        if tickets is None:
            detail = self.t("ui.sy.bobby_free")
        else:
            detail = "  ".join(
                f"{self.t(f'ui.sy.short.{line}')} {num(tickets.get(line))}" for line in strs(self.facts.get("lines"))
            )
        where = self.t("ui.sy.at", station=station) if isinstance(station, int) else self.t("ui.sy.not_placed")
        chip = Chip(name, TRANSPORT["bobby"] if bobby else theme.ACCENT, size=theme.FONT_BIG, width=dp(56), bold=True)
        info = vbox(
            Lbl(f"{self.figure_name(name)} · {where}", bold=True, one_line=True),
            Lbl(detail, colour=theme.MUTED, size=theme.FONT_SMALL, one_line=True),
            spacing=0,
        )
        movable = name in self.moves()
        if movable:
            state = Lbl(
                self.t("ui.sy.tap_to_move"),
                colour=theme.TEXT,
                halign="right",
                size=theme.FONT_SMALL,
                size_hint_x=None,
                width=dp(92),
                tid=f"sy.figure.{name}.movable",
            )
            row: Widget = TapPanel(partial(self.select, name), tid=f"sy.figure.{name}", size_hint_y=None, height=dp(60))
        else:
            moved = figure.get("moved")
            note = (
                self.t("ui.sy.moved")
                if moved
                else ("" if txt(self.view.get("phase")) == "x" else self.t("ui.sy.cannot_move"))
            )
            state = Lbl(
                note,
                colour=theme.GOOD if moved else theme.MUTED,
                halign="right",
                size=theme.FONT_SMALL,
                size_hint_x=None,
                width=dp(92),
            )
            row = Panel(orientation="horizontal", size_hint_y=None, height=dp(60))
            row.tid = f"sy.figure.{name}"
        for w in (chip, info, state):
            row.add_widget(w)
        return row

    def figures_panel(self) -> Widget:
        v = self.view
        box = fit_height(vbox(spacing=dp(6), padding=(0, 0, dp(8), 0)))
        phase = txt(v.get("phase"))
        mrx = txt(self.facts.get("mister_x"))  # Mister X's seat
        if phase == "x" and self.table_plays_x():
            # No phone: the table decides his move in secret, then it appears in the travel log.
            level = self.t(f"sy.ai.{txt(obj(v.get('mrx')).get('ai'))}")
            box.add_widget(self.banner(self.t("ui.sy.table_thinking", level=level), "sy.thinking", theme.ACCENT))
        elif phase == "x" and mrx not in self.ctl.connected():
            # He moves only on his own phone: say so, and offer his QR code in one tap.
            box.add_widget(
                Panel(
                    Lbl(self.t("ui.sy.x_no_phone"), bold=True, wrap=True, tid="sy.x_no_phone"),
                    Btn(
                        self.t("ui.sy.x_link"),
                        lambda: self.app.pages["seats"].open_for(mrx),
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
            )
        elif phase == "x":
            box.add_widget(self.banner(self.t("ui.sy.waiting_x"), "sy.waiting"))
        elif phase == "detectives":
            hint = self.t("ui.sy.pick_figure") if self.moves() else self.t("ui.sy.no_moves")
            box.add_widget(Lbl(hint, colour=theme.MUTED, wrap=True, tid="sy.hint"))
        for figure in seq_of(v.get("figures")):
            box.add_widget(self.figure_row(obj(figure)))
        supply = obj(v.get("supply"))
        box.add_widget(
            Lbl(
                self.t(
                    "ui.sy.supply",
                    taxi=num(supply.get("taxi")),
                    bus=num(supply.get("bus")),
                    underground=num(supply.get("underground")),
                ),
                colour=theme.MUTED,
                size=theme.FONT_SMALL,
                wrap=True,
            )
        )
        return scroll(box, tid="sy.figures")

    def half_done(self) -> bool:
        return self.selected is not None or bool(self.placing)

    def select(self, figure: str) -> None:
        self.redraw(selected=figure)

    def unselect(self) -> None:
        self.redraw(selected=None)

    def on_selection(self, selection: JSONObject | None) -> None:
        """A pawn put on a reader selects its figure: its destinations show at once."""
        figure = selection.get("figure") if selection and selection.get("game") == self.game else None
        self.redraw(selected=figure if isinstance(figure, str) and figure in self.moves() else None)

    def destinations(self, figure: str) -> Widget:
        options = obj(self.moves().get(figure))
        station = next(
            (obj(f).get("station") for f in seq_of(self.view.get("figures")) if obj(f).get("figure") == figure), None
        )
        title = hbox(
            Lbl(
                self.t("ui.sy.where_to", figure=self.figure_name(figure), station=station),
                size=theme.FONT_BIG,
                bold=True,
                one_line=True,
            ),
            Btn(self.t("ui.cancel"), self.unselect, tid="sy.cancel", width=dp(120)),
            size_hint_y=None,
            height=theme.TOUCH,
        )
        box = fit_height(vbox(spacing=dp(8), padding=(0, 0, dp(8), 0)))
        box.add_widget(title)
        for line in strs(self.facts.get("lines")):
            stations = [num(s) for s in seq_of(options.get(line))]
            if not stations:
                continue
            label = Chip(
                self.t(f"sy.ticket.{line}"),
                TRANSPORT[line],
                _text_on(line),
                width=dp(118),
                height=theme.TOUCH,
                bold=True,
            )
            buttons = flow(
                Btn(
                    str(s),
                    partial(self.move, figure, line, s),
                    tid=f"sy.dest.{line}.{s}",
                    width=dp(70),
                    colour=TRANSPORT[line],
                    text_colour=_text_on(line),
                    size=theme.FONT_BIG,
                    bold=True,
                )
                for s in stations
            )
            row = hbox(vbox(label, Widget(), size_hint_x=None, width=dp(118)), buttons, size_hint_y=None)
            buttons.bind(height=lambda _w, h, r=row: setattr(r, "height", max(h, theme.TOUCH)))
            row.height = theme.TOUCH
            box.add_widget(row)
        return scroll(box, tid="sy.destinations")

    def move(self, figure: str, line: str, station: int) -> None:
        self.selected = None
        self.send({"kind": "sy.move", "figure": figure, "ticket": line, "station": station})

    # before the first move: start cards
    def start_panel(self) -> Widget:
        legal = obj(self.legal)
        intents = self.intents()
        box = fit_height(vbox(spacing=dp(8), padding=(0, 0, dp(8), 0)))
        placed = all(isinstance(obj(f).get("station"), int) for f in seq_of(self.view.get("figures")))
        x_placed = bool(obj(self.view.get("mrx")).get("placed"))
        if "sy.draw_start" in intents:
            box.add_widget(
                Btn(
                    self.t("ui.sy.draw_start"),
                    lambda: self.send({"kind": "sy.draw_start"}),
                    tid="sy.draw_start",
                    colour=theme.GOOD,
                    size=theme.FONT_BIG,
                    bold=True,
                )
            )
            note = self.t("ui.sy.draw_start_note_table") if self.table_plays_x() else self.t("ui.sy.draw_start_note")
            box.add_widget(Lbl(note, colour=theme.MUTED, size=theme.FONT_SMALL, wrap=True))
        if "sy.place_detectives" in intents:
            box.add_widget(self.placement(legal))
        elif placed:
            for figure in seq_of(self.view.get("figures")):
                box.add_widget(self.figure_row(obj(figure)))
        if not x_placed:
            draws = self.t("ui.sy.x_draws_table") if self.table_plays_x() else self.t("ui.sy.x_draws")
            box.add_widget(Lbl(draws, colour=theme.WARN, wrap=True, tid="sy.x_draws"))
        return scroll(box, tid="sy.start")

    @staticmethod
    def banner(words: str, tid: str, border: theme.RGBA | None = None) -> Widget:
        """One big line across the moves' side while Mister X's move is awaited."""
        return Panel(
            Lbl(words, size=theme.FONT_BIG, bold=True, wrap=True, tid=tid, pos_hint={"center_y": 0.5}),
            colour=theme.PANEL_HI,
            border=border,
            size_hint_y=None,
            height=dp(64),
        )

    def placement(self, legal: JSONObject) -> Widget:
        figures = [txt(f) for f in seq_of(legal.get("figures"))]
        cards = [num(c) for c in seq_of(legal.get("d_cards"))]
        if self.placing_figure not in figures:
            self.placing_figure = next((f for f in figures if f not in self.placing), None)
        box = fit_height(vbox(spacing=dp(6)))
        ready = len(self.placing) == len(figures)
        done = Btn(self.t("ui.sy.place_confirm"), self._place_confirm, tid="sy.place.confirm", colour=theme.GOOD)
        done.disabled = not ready
        # the confirmation under the title, above the figures and the cards: at 800×480 it stays in sight
        box.add_widget(Lbl(self.t("ui.sy.enter_d_cards"), bold=True, wrap=True, tid="sy.place.title"))
        box.add_widget(done)
        box.add_widget(
            Choice(
                [(f, self.t("ui.pair", label=f, value=self.placing.get(f, "–"))) for f in figures],
                self.placing_figure,
                self._placing_figure,
                tid="sy.place.figure",
            )
        )
        used = set(self.placing.values())
        grid = autogrid(6, dp(4), row_force_default=True, row_default_height=theme.TOUCH_SMALL)
        for card in cards:
            mine = self.placing.get(self.placing_figure or "") == card
            btn = Btn(
                str(card),
                partial(self._place, card),
                tid=f"sy.place.card.{card}",
                selected=mine,
                height=theme.TOUCH_SMALL,
            )
            btn.disabled = card in used and not mine
            grid.add_widget(btn)
        box.add_widget(grid)
        return box

    def _placing_figure(self, figure: Any) -> None:
        self.placing_figure = str(figure)
        self.clear_widgets()
        self.build()

    def _place(self, card: int) -> None:
        if self.placing_figure is None:
            return
        self.placing[self.placing_figure] = card
        figures = [txt(f) for f in seq_of(obj(self.legal).get("figures"))]
        self.placing_figure = next((f for f in figures if f not in self.placing), self.placing_figure)
        self.clear_widgets()
        self.build()

    def _place_confirm(self) -> None:
        stations: list[JSON] = [[f, s] for f, s in self.placing.items()]
        self.send({"kind": "sy.place_detectives", "stations": stations})

    # -- the end ----------------------------------------------------------------------------------
    def end_body(self, msg: JSONObject) -> Widget:
        v = obj(msg.get("view"))
        end = obj(v.get("end"))
        winner = end.get("winner")
        banner_colour = theme.GOOD if winner == "detectives" else theme.DANGER if winner == "mrx" else theme.PANEL_HI
        headline = self.t(f"sy.{txt(end.get('reason'))}") if end else self.t("ui.end.over")
        banner = Panel(
            Lbl(headline, size=theme.FONT_TITLE, bold=True, halign="center", wrap=True, tid="end.headline"),
            colour=banner_colour,
            size_hint_y=None,
            height=dp(70),
        )
        route = Panel(
            Lbl(self.t("ui.sy.route"), size=theme.FONT_BIG, bold=True, size_hint_y=None, height=dp(30)),
            self.log_grid(cols=8, cell=dp(48)),
            Widget(),
            orientation="vertical",
        )
        figures = fit_height(vbox(spacing=dp(4)))
        x_station = obj(v.get("mrx")).get("station")
        figures.add_widget(
            Lbl(
                self.t("ui.sy.x_was", station=x_station) if isinstance(x_station, int) else "",
                bold=True,
                colour=theme.WARN,
                wrap=True,
                tid="end.x_station",
            )
        )
        if isinstance(end.get("figure"), str):
            figures.add_widget(
                Lbl(
                    self.t(
                        "ui.sy.caught_by", figure=self.figure_name(txt(end.get("figure"))), station=end.get("station")
                    ),
                    wrap=True,
                )
            )
        for f in seq_of(v.get("figures")):
            f = obj(f)
            figures.add_widget(
                Lbl(
                    self.t("ui.pair", label=self.figure_name(txt(f.get("figure"))), value=f.get("station")),
                    colour=theme.MUTED,
                    wrap=True,
                )
            )
        side = Panel(scroll(figures), orientation="vertical", size_hint_x=None, width=dp(230))
        return vbox(banner, hbox(route, side))


class SetupForm(base.SetupForm):
    settings = staticmethod(_settings)
    game = "scotland_yard"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        self.detectives = 2
        self.names = ["", "", "", "", ""]  # the detective players' names (optional)
        self.x_name = ""  # Mister X's player's name (optional)
        self.mister_x = PLAYER  # or the level of the table playing him
        self.tracker = bool(app.ctl.pref(PREF_TRACKER, False))
        self.bobbies = bool(app.ctl.pref(PREF_BOBBIES, False))
        super().__init__(app, **kwargs)

    def _set(self, name: str) -> Callable[[Any], None]:
        def set_value(value: Any) -> None:
            setattr(self, name, value)
            self.rebuild()

        return set_value

    def build(self) -> None:
        table = self.mister_x != PLAYER
        levels = [
            (level, self.t("ui.sy.setup.x_table", level=self.t(f"sy.ai.{level}")))
            for level in strs(self.facts.get("ai_levels"))
        ]
        self.add_widget(
            self.row(
                self.t("ui.sy.setup.mister_x"),
                Choice(
                    [(PLAYER, self.t("ui.sy.setup.x_player")), *levels],
                    self.mister_x,
                    self._set("mister_x"),
                    tid="setup.sy.mister_x",
                    cols=2,
                ),
                self.t("ui.sy.setup.x_table_note") if table else self.t("ui.sy.setup.x_player_note"),
            )
        )
        self.add_widget(
            self.row(
                self.t("ui.sy.setup.detectives"),
                Choice(
                    [(n, str(n)) for n in range(1, 6)],
                    self.detectives,
                    self._set("detectives"),
                    tid="setup.sy.detectives",
                ),
                self.t("ui.sy.setup.detectives_note_table") if table else self.t("ui.sy.setup.detectives_note"),
            )
        )
        self.add_widget(self.names_row(table))
        on_off = [(False, self.t("ui.off")), (True, self.t("ui.on"))]
        self.add_widget(
            self.row(
                self.t("ui.settings.sy.tracker"),
                Choice(on_off, self.tracker, self._set("tracker"), tid="setup.sy.tracker"),
                self.t("ui.settings.sy.tracker_note"),
            )
        )
        self.add_widget(
            self.row(
                self.t("ui.settings.sy.bobbies"),
                Choice(on_off, self.bobbies, self._set("bobbies"), tid="setup.sy.bobbies"),
                self.t("ui.settings.sy.bobbies_note"),
            )
        )
        phones = self.t("ui.sy.setup.phones_table") if table else self.t("ui.sy.setup.phones")
        self.add_widget(Lbl(phones, colour=theme.MUTED, wrap=True, tid="setup.sy.phones"))

    def names_row(self, table: bool) -> Widget:
        """The players' names (optional; the last game's, to start with): history and BG Stats name them."""
        fields = fit_height(vbox(spacing=dp(4)))
        if not table:

            def x_named(value: str) -> None:
                self.x_name = value

            hint = self.t("ui.sy.setup.x_name")
            fields.add_widget(NameInput(self.x_name, x_named, hint=hint, tid="setup.sy.name.mrx"))
        for i in range(self.detectives):

            def named(value: str, i: int = i) -> None:
                self.names[i] = value

            hint = self.t("sy.setup_key.detectives.item", n=i + 1)
            fields.add_widget(NameInput(self.names[i], named, hint=hint, tid=f"setup.sy.name.{i + 1}"))
        return self.row(self.t("ui.setup.names"), fields, self.t("ui.setup.names_note"))

    def remembered(self, last: JSONObject) -> None:
        detectives = [txt(n) for n in seq_of(last.get("detectives"))]
        if 1 <= len(detectives) <= 5:
            self.detectives = len(detectives)
            self.names = [*detectives, *[""] * (5 - len(detectives))]
        self.x_name = txt(last.get("mister_x"))

    def setup(self) -> JSONObject:
        names: list[JSON] = [self.names[i].strip() for i in range(self.detectives)]
        setup: JSONObject = {"detectives": names, "tracker": self.tracker, "bobbies_keep_game_alive": self.bobbies}
        if self.mister_x != PLAYER:
            setup["mister_x_ai"] = self.mister_x  # the table plays him at this level
        elif self.x_name.strip():
            setup["mister_x"] = self.x_name.strip()
        return setup
