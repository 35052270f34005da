"""Scotland Yard's table screen without its panels: reading the snapshot, the header's words and
options, and what the screen remembers (a figure picked, D cards entered by hand). The panels
(:mod:`.mister_x`, :mod:`.figures`, :mod:`.start`, :mod:`.end`) draw from it; :mod:`.table` puts
them together."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.core.jsonvalue import JSON, JSONObject
from ui.games import base
from ui.games.base import num, obj, seq_of, txt
from ui.widgets import confirm


class Screen(base.TableView):
    game = "scotland_yard"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.selected: str | None = None  # the figure whose destinations are shown
        self.placing: dict[str, int] = {}  # D cards entered by hand before the start
        self.placing_figure: str | None = None
        self.start_scroll = 1.0  # where the start panel is scrolled to (1: its top), kept across redraws

    # -- reading the snapshot -----------------------------------------------------------------------
    def intents(self) -> list[JSON]:
        return seq_of(obj(self.legal).get("intents"))

    def moves(self) -> JSONObject:
        return obj(obj(self.legal).get("moves"))

    def figure_name(self, figure: str) -> str:
        bobby = any(obj(f).get("figure") == figure and obj(f).get("bobby") for f in seq_of(self.view.get("figures")))
        return self.figure_called(figure, bobby)

    def figure_called(self, figure: str, bobby: bool) -> str:
        """A detective by the name typed for its seat (its chip says which figure: "D1"), else
        "Detective 1"; a bobby, moved by every detective, is always "Bobby 1"."""
        if not bobby:
            owners = [obj(s) for s in seq_of(self.view.get("seats")) if figure in seq_of(obj(s).get("figures"))]
            name = txt(owners[0].get("name")) if len(owners) == 1 else ""
            if name:
                return name
        return self.t(f"ui.sy.figure.{'bobby' if bobby else 'detective'}", n=figure[1:])

    def seat_label(self, seat: str) -> str:
        for s in seq_of(self.view.get("seats")):
            s = obj(s)
            if s.get("seat") == seat:
                name = txt(s.get("name"))
                if seat == "mrx":  # his role beside his name, as every detective's
                    return f"{name} ({self.t('ui.sy.mrx')})" if name else self.t("ui.sy.mrx")
                figures_ = ", ".join(txt(f) for f in seq_of(s.get("figures")) if txt(f).startswith("D"))
                label = self.t("ui.sy.seat.detective", n=seat[1:], figures=figures_)
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

    def table_level(self) -> str:
        """The level of the table's detectives, in words ("" when players move every figure)."""
        level = txt(self.view.get("table_detectives"))
        return self.t(f"sy.ai.{level}") if level else ""

    def instruction(self) -> JSONObject:
        """The table's last move for one of its figures, until its pawn is confirmed ({} if none)."""
        return obj(self.view.get("instruction"))

    def instruction_words(self, instruction: JSONObject) -> str:
        """ "Move detective 2 by Taxi to 94": what the players do with the table's pawn."""
        figure, ticket = txt(instruction.get("figure")), txt(instruction.get("ticket"))
        kind = "bobby" if instruction.get("bobby") else "detective"
        by = self.t(f"sy.by.{ticket}")
        return self.t(f"sy.instruction.{kind}", n=figure[1:], by=by, station=num(instruction.get("station")))

    def table_moving(self) -> bool:
        """The table still has figures to move this round (and no pawn waits for the players)."""
        return txt(self.view.get("phase")) == "detectives" and any(
            obj(f).get("table") and obj(f).get("can_move") for f in seq_of(self.view.get("figures"))
        )

    def confirm(self, figure: str) -> None:
        """The players moved the table's pawn (the Done button)."""
        self.send({"kind": "sy.confirm", "figure": figure})

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
        end_ = obj(obj(msg.get("view")).get("end"))
        reason = txt(end_.get("reason"))
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

    # -- what the screen remembers --------------------------------------------------------------------
    def select(self, figure: str) -> None:
        self.redraw(selected=figure)

    def unselect(self) -> None:
        self.redraw(selected=None)

    def on_selection(self, selection: JSONObject | None) -> None:
        """A pawn put on a reader selects its figure: its destinations show at once."""
        figure = selection.get("figure") if selection and selection.get("game") == self.game else None
        self.redraw(selected=figure if isinstance(figure, str) and figure in self.moves() else None)

    def move(self, figure: str, line: str, station: int) -> None:
        self.selected = None
        self.send({"kind": "sy.move", "figure": figure, "ticket": line, "station": station})

    # before the first move: the D cards entered by hand
    def placing_figure_chosen(self, figure: Any) -> None:
        self.redraw(placing_figure=str(figure))

    def place(self, card: int) -> None:
        if self.placing_figure is None:
            return
        self.placing[self.placing_figure] = card
        names = [txt(f) for f in seq_of(obj(self.legal).get("figures"))]
        self.redraw(placing_figure=next((f for f in names if f not in self.placing), self.placing_figure))
