"""Mykerinos on the touchscreen: season and whose turn, the pass track, every player's supply, score,
projected exhibition and patron cards, the survey flow (counts per zone with large +/- controls, then
the ranked choices with only the legal museum rooms) and the museum with its occupancy.

Everything in Mykerinos is public, so the table sees what the phones see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON, JSONObject
from ui import theme
from ui.games import base
from ui.games.base import num, obj, preference, seq_of, strs, txt
from ui.parts import Part
from ui.widgets import (
    Btn,
    Chip,
    Choice,
    Dialog,
    Lbl,
    NameInput,
    Panel,
    Stepper,
    autogrid,
    fit_height,
    hbox,
    scroll,
    spacer,
    vbox,
)

PATRON_COLOUR = {
    "lady_violet": theme.rgb("#8e5cc8"),
    "lord_lemon": theme.rgb("#e2cf2a"),
    "sir_brown": theme.rgb("#8b5a2b"),
    "mrs_blackmore": theme.rgb("#3a3a3a"),
    "colonel_tangerine": theme.rgb("#e58a2e"),
}
PATRON_TEXT = {"lord_lemon": theme.rgb("#111111")}
# a patron's column head in the players' panel: its initial on its colour (the names are the same in
# every language: the rulebooks keep them); the museum's wing heads say the whole names
PATRON_INITIAL = {
    "lady_violet": "V",
    "lord_lemon": "L",
    "sir_brown": "Br",
    "mrs_blackmore": "Bl",
    "colonel_tangerine": "T",
}
CARD_WIDTH = dp(21)  # a patron's column in the players' panel: how many of its cards a player holds
MYK_COLOUR = {
    "blue": theme.PLAYER["blue"],
    "red": theme.PLAYER["red"],
    "green": theme.PLAYER["green"],
    "white": theme.PLAYER["white"],
}


def rooms_of(layout: str) -> tuple[list[str], list[str]]:
    """Room ids by the protocol's naming (``"<wing>:3"``, ``"<wing>:5"``, ``"<a>-<b>:2"``): only to draw
    the board; which rooms are legal always comes from ``legal``."""
    wings = [f"{w}:{v}" for w in range(1, 6) for v in (5, 3)]
    twos = [f"{w}-{w + 1}:2" for w in range(1, 5)] + (["5-1:2"] if layout == "ring5" else [])
    return wings, twos


PREF_LAYOUT, _ = preference("mykerinos", "layout")


def _settings(page: Any) -> list[Widget]:
    """The Settings screen's rows for Mykerinos (the new-game form's default layout)."""
    layout = Choice(
        [("line4", page.t("ui.settings.myk.line4")), ("ring5", page.t("ui.settings.myk.ring5"))],
        page.ctl.pref(PREF_LAYOUT, "line4"),
        page.setter(PREF_LAYOUT),
        tid="settings.myk.layout",
    )
    return [page.setting(page.t("ui.settings.myk.layout"), layout, page.t("ui.settings.myk.layout_note"))]


def top_row() -> Widget:
    return hbox(size_hint_y=None, height=dp(196))


def player_row(four: bool) -> Widget:
    return hbox(size_hint_y=None, height=dp(27) if four else dp(30))


def number(value: str, tid: str, score: bool) -> Widget:
    if score:
        return Lbl(value, bold=True, size=theme.FONT_BIG, halign="center", size_hint_x=None, width=dp(40), tid=tid)
    return Lbl(value, halign="center", colour=theme.ACCENT, size_hint_x=None, width=dp(48), tid=tid)


def supply_label(supply: str, tid: str) -> Widget:
    return Lbl(supply, halign="center", size_hint_x=None, width=dp(60), one_line=True, tid=tid)


def players_box(four: bool) -> Widget:
    return Panel(
        orientation="vertical", size_hint_x=None, width=dp(372), padding=dp(6), spacing=dp(2) if four else dp(3)
    )


class TableView(base.TableView):
    game = "mykerinos"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.counts: dict[str, int] = {}  # the zone counts being entered
        self.counts_zone: tuple[int, int, int] | None = None  # (game, season, zone) they are for
        self.room_for: str | None = None  # "museum" or "sir_brown": the next tap on a legal room
        self.patron_order: list[str] = []  # patrons entered by hand for wings 1..5
        self.drew_start = False  # "Draw the start player" was tapped: say who was drawn once it is known

    # -- reading the snapshot -----------------------------------------------------------------------
    def actions(self) -> dict[str, JSONObject]:
        return {txt(obj(a).get("kind")): obj(a) for a in seq_of(self.legal)}

    def colour_name(self, colour: str) -> str:
        """A player (or the neutral colour) as every screen names it: the name entered at setup, else
        the colour in words, with the colour's shape in front ("● Ann", "▲ Red"), so that colour-blind
        players tell red from green."""
        name = txt(obj(self.view.get("names")).get(colour), "")
        return theme.marked(colour, name or self.t(f"ui.myk.colour.{colour}"))

    def seat_label(self, seat: str) -> str:
        return self.colour_name(seat)

    def patron(self, patron: str | None) -> str:
        return self.t(f"myk.patron.{patron}") if patron else self.t("ui.myk.no_patron")

    def status(self, msg: JSONObject) -> str:
        v = obj(msg.get("view"))
        phase = txt(v.get("phase"))
        if phase == "setup":
            return self.t("ui.myk.status.setup")
        if phase == "over":
            return self.t("ui.myk.status.over")
        season = self.t("ui.myk.status.season", season=num(v.get("season")))
        if phase == "survey":
            survey = obj(v.get("survey"))
            return f"{season} · " + self.t(
                "ui.myk.status.survey", zone=num(survey.get("zone")), zones=num(survey.get("of"))
            )
        turn = obj(v.get("turn"))
        who = self.colour_name(txt(turn.get("seat"))) if turn else ""
        return f"{season} · " + self.t("ui.myk.status.turn", player=who)

    def over(self, msg: JSONObject) -> bool:
        return txt(obj(msg.get("view")).get("phase")) == "over"

    def announcement(self, msg: JSONObject) -> str:
        winners = [self.colour_name(txt(w)) for w in seq_of(obj(obj(msg.get("view")).get("result")).get("winners"))]
        return self.t("ui.myk.winner", players=" & ".join(winners), count=len(winners)) if winners else ""

    def zone_where(self) -> str:
        """Where the zone under survey lies on the table: "Zone 3 of 4 · row 2, left"."""
        survey = obj(self.view.get("survey"))
        return self.t(
            "ui.myk.zone_where",
            zone=num(survey.get("zone")),
            zones=num(survey.get("of")),
            row=num(survey.get("row")),
            side=self.t(f"ui.myk.side.{txt(survey.get('side'), 'left')}"),
        )

    # -- the screen -------------------------------------------------------------------------------
    def settle(self) -> None:
        acts = self.actions()
        drawn = txt(self.view.get("start_player"))
        if self.drew_start and drawn:
            self.drew_start = False
            self.app.toast.show(self.t("ui.myk.start_player_drawn", player=self.colour_name(drawn)), "info")
        if self.room_for == "museum" and "myk.museum" not in acts:
            self.room_for = None
        if self.room_for == "sir_brown" and "myk.sir_brown" not in acts:
            self.room_for = None
        if "myk.zone_counts" in acts:
            # every season counts zones 1, 2, ... again: a new season's zone starts from nothing
            zone = (
                num(self.msg.get("game_id")),
                num(self.view.get("season")),
                num(acts["myk.zone_counts"].get("zone")),
            )
            if self.counts_zone != zone:
                # the last zone starts from what the books leave there: the table confirms or changes it
                expected = obj(acts["myk.zone_counts"].get("expected"))
                self.counts_zone, self.counts = zone, {c: num(n) for c, n in expected.items()}

    def panels(self) -> Sequence[Part]:
        """The players and what to do now; what a lower count of the last zone points back to;
        below, the zone counts being entered or the museum. Each drawn from the pieces of the view
        it shows."""
        v = self.view
        acts = self.actions()
        top = Part(
            "top",
            top_row,
            children=[
                self.players_part(),
                # what to do now reads the whole snapshot and the screen's own choices
                Part("action", self.action_panel, self.msg, self.room_for, tuple(self.patron_order)),
            ],
        )
        parts = [top]
        last = obj(obj(v.get("survey")).get("last"))  # the last zone of a season, while it is counted
        if obj(last.get("missed")):
            parts.append(Part("missed", self.missed_note, last))
        if "myk.zone_counts" in acts:
            # the steppers hold the counts being entered: kept while the zone is the same
            parts.append(Part("counts", self.counts_panel, acts["myk.zone_counts"], self.counts_zone, last))
        else:
            legal = self.legal_rooms(acts)
            parts.append(Part("museum", self.museum_panel, v.get("museum"), v.get("wings"), v.get("layout"), legal))
        return parts

    def missed_note(self, last: JSONObject) -> Widget:
        return self.last_zone_missed() or Widget()

    # the last zone of a season: the books' count to confirm, and what a lower count points back to
    def zone_counts_words(self, counts: JSONObject) -> str:
        parts = [f"{self.colour_name(c)} {num(n)}" for c, n in counts.items()]
        return ", ".join(parts) if parts else self.t("myk.last_zone.nobody")

    def earlier_zones(self, last: JSONObject) -> str:
        return " · ".join(
            self.t(
                "myk.last_zone.zone",
                zone=num(obj(z).get("zone")),
                counts=self.zone_counts_words(obj(obj(z).get("counts"))),
            )
            for z in seq_of(last.get("earlier"))
        )

    def last_zone_note(self) -> Widget | None:
        """While the table counts the last zone: what the books leave there, and the earlier zones."""
        last = obj(obj(self.view.get("survey")).get("last"))
        if not last:
            return None
        words = self.t("myk.last_zone.expected", counts=self.zone_counts_words(obj(last.get("expected"))))
        earlier = self.earlier_zones(last)
        if earlier:
            words += "\n" + self.t("myk.last_zone.earlier", zones=earlier)
        return Lbl(words, colour=theme.WARN, size=theme.FONT_SMALL, wrap=True, tid="myk.last_zone")

    def last_zone_missed(self) -> Widget | None:
        """Once the last zone is counted lower than the books: that many stood in earlier zones."""
        last = obj(obj(self.view.get("survey")).get("last"))
        missed = obj(last.get("missed"))
        if not missed:
            return None
        words = self.t(
            "myk.last_zone.missed", counts=self.zone_counts_words(missed), zones=self.earlier_zones(last) or "–"
        )
        return Lbl(words, colour=theme.WARN, size=theme.FONT_SMALL, wrap=True, tid="myk.last_zone_missed")

    # players, pass track, supplies
    def players_part(self) -> Part:
        v = self.view
        players = obj(v.get("players"))
        turn = txt(obj(v.get("turn")).get("seat"))
        seats = [txt(s) for s in seq_of(v.get("seats"))]
        four = len(seats) > 3  # four rows, the pass track and the supply fit the panel only a little closer
        rows = [self.player_part(seat, players.get(seat), seat == turn, four) for seat in seats]
        return Part(
            "players",
            players_box,
            four,
            children=[
                Part("head", self.players_head),
                *rows,
                Part("pass_track", self.pass_track, v.get("pass_track")),
                Part("general", self.general_supply, v.get("general")),
                Part("rest", Widget),
            ],
        )

    def players_head(self) -> Widget:
        return hbox(
            Lbl("", size_hint_x=None, width=dp(76)),
            *(
                Lbl(
                    self.t(f"ui.myk.head.{k}"),
                    size=dp(14),
                    colour=theme.MUTED,
                    halign="center",
                    size_hint_x=None,
                    width=w,
                    one_line=True,
                )
                for k, w in (("score", dp(40)), ("projection", dp(48)), ("supply", dp(60)))
            ),
            hbox(  # each patron's column: its initial on its colour
                *(
                    Chip(
                        PATRON_INITIAL[patron],
                        PATRON_COLOUR[patron],
                        PATRON_TEXT.get(patron, theme.TEXT),
                        size=dp(12),
                        bold=True,
                        width=CARD_WIDTH,
                    )
                    for patron in strs(self.facts.get("patrons"))
                ),
                spacing=dp(2),
            ),
            size_hint_y=None,
            height=dp(18),
        )

    def player_part(self, seat: str, player: JSON, turn: bool, four: bool) -> Part:
        """A player's score, projection, supply and cards (bright: ready to play); each made again
        only when it changes."""
        p = obj(player)
        supply = str(num(p.get("supply")))
        if "neutral_supply" in p:
            supply += f"+{num(p.get('neutral_supply'))}"
        cards = obj(p.get("cards"))
        ready = obj(p.get("ready"))
        patrons = strs(self.facts.get("patrons"))
        held = tuple((num(cards.get(patron)), bool(num(ready.get(patron)))) for patron in patrons)
        return Part(
            f"seat.{seat}",
            player_row,
            four,
            children=[
                Part("who", self.player_chip, seat, turn),
                Part("score", number, str(num(p.get("score"))), f"myk.score.{seat}", True),
                Part("projection", number, str(num(p.get("projection"))), f"myk.projection.{seat}", False),
                Part("supply", supply_label, supply, f"myk.supply.{seat}"),
                Part("cards", self.player_cards, seat, held, bool(num(p.get("blank")))),
            ],
        )

    def player_chip(self, seat: str, turn: bool) -> Widget:
        return Chip(
            self.colour_name(seat),
            MYK_COLOUR.get(seat, theme.ACCENT),
            theme.on_player_colour(seat),
            size=theme.FONT_SMALL,
            width=dp(76),
            bold=turn,
            one_line=True,
        )

    def player_cards(self, seat: str, held: tuple[tuple[int, bool], ...], blank: bool) -> Widget:
        """How many cards of each patron a player holds, as large numbers under the patrons' initials
        (bright: ready to play this season; grey: played; "·": none)."""
        chips = hbox(spacing=dp(2))
        for patron, (count, ready) in zip(strs(self.facts.get("patrons")), held, strict=True):
            chips.add_widget(
                Lbl(
                    str(count) if count else "\u00b7",
                    size=theme.FONT_BIG if count else theme.FONT,
                    bold=ready,
                    halign="center",
                    colour=theme.TEXT if ready else theme.MUTED,
                    size_hint_x=None,
                    width=CARD_WIDTH,
                    tid=f"myk.cards.{seat}.{patron}",
                )
            )
        if blank:  # the blank card: a room of value 5
            chips.add_widget(Lbl("+5", size=theme.FONT_SMALL, colour=theme.MUTED, one_line=True))
        return chips

    def pass_track(self, pass_track: JSON) -> Widget:
        track = [seq_of(t) for t in seq_of(pass_track)]
        passed = ", ".join(f"{num(t[1])}. {self.colour_name(txt(t[0]))}" for t in track if len(t) >= 2)
        return Lbl(
            self.t("ui.myk.pass_track", track=passed or "–"),
            size=theme.FONT_SMALL,
            fit=dp(11),  # four players' names: smaller before it is shortened
            size_hint_y=None,
            height=dp(20),
            tid="myk.pass_track",
        )

    def general_supply(self, general_: JSON) -> Widget:
        general = obj(general_)
        # each colour by its shape (the players' rows above say whose it is): four colours fit one line
        gen = ", ".join(f"{theme.player_mark(c) or self.colour_name(c)}\u00a0{num(general.get(c))}" for c in general)
        return Lbl(
            self.t("ui.myk.general", supply=gen),
            size=theme.FONT_SMALL,
            colour=theme.MUTED,
            one_line=True,
            size_hint_y=None,
            height=dp(20),
        )

    # what to do now
    def action_panel(self, msg: JSONObject, room_for: str | None, patron_order: tuple[str, ...]) -> Widget:
        v = self.view
        acts = self.actions()
        phase = txt(v.get("phase"))
        box = Panel(orientation="vertical", padding=dp(6), spacing=dp(4))
        if phase == "setup":
            return self.setup_panel(box, acts)
        if "myk.zone_counts" in acts:
            return self.zone_counts_panel(box)
        if phase == "survey":
            return self.survey_panel(box, acts)
        turn = obj(v.get("turn"))
        seat = txt(turn.get("seat"))
        if "myk.neutral" in acts:
            return self.neutral_panel(box, acts["myk.neutral"], seat)
        if seat:
            final = self.t("ui.myk.final_action") if turn.get("final") else ""
            box.add_widget(
                Lbl(
                    self.t("ui.myk.your_turn", player=self.colour_name(seat)) + final,
                    wrap=True,
                    bold=True,
                    tid="myk.prompt",
                )
            )
        if self.room_for == "sir_brown":
            box.add_widget(Lbl(self.t("ui.myk.pick_room_sir_brown"), wrap=True, colour=theme.WARN))
            box.add_widget(Btn(self.t("ui.cancel"), self.cancel_room, tid="myk.room.cancel", width=dp(140)))
            box.add_widget(Widget())
            return box
        grid = autogrid(3, dp(4))
        excavate = acts.get("myk.excavate")
        if excavate is not None:
            for option in seq_of(excavate.get("options")):
                action, patron = [*seq_of(option), None, None][:2]
                a, p = txt(action), patron if isinstance(patron, str) else None
                with_patron = self.t("ui.pair", label=self.patron(p), value=self.t(f"ui.myk.with.{a}")) if p else ""
                label = self.t(f"ui.myk.{a}") if p is None else with_patron
                grid.add_widget(
                    self.action_button(
                        label,
                        {"kind": "myk.excavate", "seat": seat, "action": a, "patron": p},
                        f"myk.excavate.{a}.{p or 'plain'}",
                        size=theme.FONT_SMALL,
                    )
                )
        if "myk.sir_brown" in acts:
            grid.add_widget(
                Btn(self.t("ui.myk.sir_brown"), self.pick_room_sir_brown, tid="myk.sir_brown", size=theme.FONT_SMALL)
            )
        if "myk.pass" in acts:
            grid.add_widget(
                self.action_button(
                    self.t("ui.myk.pass"),
                    {"kind": "myk.pass", "seat": seat},
                    "myk.pass",  # a plain button: passing ends the player's season, never the first choice
                    size=theme.FONT_SMALL,
                )
            )
        actions = vbox(grid)
        if excavate is not None:  # what the numbers on the buttons mean
            actions.add_widget(
                Lbl(self.t("ui.myk.costs_note"), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True, tid="myk.costs")
            )
        box.add_widget(scroll(fit_height(actions), tid="myk.actions"))
        return box

    def zone_counts_panel(self, box: Panel) -> Widget:
        """A zone of the survey to count: where it is (never cut: it wraps), what to count; the
        counters and their button are below (the last zone's button stays here)."""
        survey = obj(self.view.get("survey"))
        box.add_widget(Lbl(self.zone_where(), bold=True, colour=theme.WARN, wrap=True, tid="myk.zone_where"))
        if not obj(survey.get("last")):
            box.add_widget(Lbl(self.t("ui.myk.counts_question"), wrap=True, bold=True))
            box.add_widget(Lbl(self.t("ui.myk.counts_note"), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True))
            box.add_widget(Widget())
            return box
        # the last zone: its note below says what to count and fills the panel, the button stays here
        box.add_widget(Widget())
        box.add_widget(self.counts_done())
        return box

    def neutral_panel(self, box: Panel, neutral: JSONObject, seat: str) -> Widget:
        """The neutral colour's step a player takes (two players): one button per action offered."""
        box.add_widget(Lbl(self.t("ui.myk.neutral_step", player=self.colour_name(seat)), wrap=True, bold=True))
        grid = autogrid(3, dp(4))
        for action in seq_of(neutral.get("actions")):
            a = txt(action)
            grid.add_widget(
                self.action_button(
                    self.t(f"ui.myk.neutral.{a}"),
                    {"kind": "myk.neutral", "seat": seat, "action": a},
                    f"myk.neutral.{a}",
                    size=theme.FONT_SMALL,
                )
            )
        box.add_widget(grid)
        box.add_widget(Widget())
        return box

    def setup_panel(self, box: Panel, acts: dict[str, JSONObject]) -> Widget:
        box.add_widget(Lbl(self.t("ui.myk.setup_note"), wrap=True, size=theme.FONT_SMALL))
        row = autogrid(2, dp(4))
        if "myk.draw_start_player" in acts:
            row.add_widget(
                Btn(
                    self.t("ui.myk.draw_start_player"),
                    self.draw_start,
                    tid="myk.draw_start_player",
                    size=theme.FONT_SMALL,
                )
            )
        if "myk.draw_patrons" in acts:
            row.add_widget(
                self.action_button(
                    self.t("ui.myk.draw_patrons"),
                    {"kind": "myk.draw_patrons"},
                    "myk.draw_patrons",
                    size=theme.FONT_SMALL,
                )
            )
        if "myk.choose_start_player" in acts:
            row.add_widget(
                Btn(
                    self.t("ui.myk.choose_start_player"),
                    lambda: self.choose_start(acts["myk.choose_start_player"]),
                    tid="myk.choose_start_player",
                    size=theme.FONT_SMALL,
                )
            )
        if "myk.enter_patrons" in acts:
            row.add_widget(
                Btn(self.t("ui.myk.enter_patrons"), self.enter_patrons, tid="myk.enter_patrons", size=theme.FONT_SMALL)
            )
        box.add_widget(row)
        start = txt(self.view.get("start_player"))
        if start:  # drawn or chosen, while the patrons are still to be laid out
            box.add_widget(
                Lbl(self.t("ui.myk.start_player_is", player=self.colour_name(start)), bold=True, tid="myk.start_player")
            )
        box.add_widget(Widget())
        return box

    def draw_start(self) -> None:
        self.drew_start = True
        self.send({"kind": "myk.draw_start_player"})

    def choose_start(self, action: JSONObject) -> None:
        box = fit_height(vbox())
        dialog = Dialog(self.t("ui.myk.choose_start_player"), box)
        for seat in (txt(s) for s in seq_of(action.get("seats"))):

            def chosen(s: str = seat) -> None:
                dialog.dismiss()
                self.send({"kind": "myk.choose_start_player", "seat": s})

            box.add_widget(Btn(self.colour_name(seat), chosen, tid=f"myk.start_player.{seat}"))
        dialog.add_button(Btn(self.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
        dialog.open()

    def enter_patrons(self) -> None:
        order: list[str] = []
        body = fit_height(vbox())
        dialog = Dialog(self.t("ui.myk.enter_patrons_title"), body, width=dp(620))

        def redraw() -> None:
            body.clear_widgets()
            body.add_widget(
                Lbl(
                    " · ".join(self.t("ui.pair", label=i + 1, value=self.patron(p)) for i, p in enumerate(order))
                    or "–",
                    wrap=True,
                    colour=theme.ACCENT,
                )
            )
            grid = autogrid(3, dp(4))
            for patron in strs(self.facts.get("patrons")):
                btn = Btn(
                    self.patron(patron),
                    partial(add, patron),
                    tid=f"myk.wing_patron.{patron}",
                    colour=PATRON_COLOUR[patron],
                    text_colour=PATRON_TEXT.get(patron, theme.TEXT),
                    size=theme.FONT_SMALL,
                )
                btn.disabled = patron in order
                grid.add_widget(btn)
            body.add_widget(grid)

        def add(patron: str) -> None:
            order.append(patron)
            if len(order) == len(strs(self.facts.get("patrons"))):
                dialog.dismiss()
                self.send({"kind": "myk.enter_patrons", "order": list[JSON](order)})
            else:
                redraw()

        redraw()
        dialog.add_button(Btn(self.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
        dialog.open()

    # the survey
    def survey_panel(self, box: Panel, acts: dict[str, JSONObject]) -> Widget:
        survey = obj(self.view.get("survey"))
        waiting = obj(survey.get("waiting"))
        counts = obj(survey.get("counts"))
        ranking = [txt(c) for c in seq_of(survey.get("ranking"))]
        ranked = ", ".join(f"{i + 1}. {self.colour_name(c)} ({num(counts.get(c))})" for i, c in enumerate(ranking))
        box.spacing = dp(2)  # where the zone is may take two lines (French), never cut
        box.add_widget(Lbl(self.zone_where(), bold=True, colour=theme.WARN, wrap=True, tid="myk.zone_where"))
        box.add_widget(
            Lbl(
                self.t("ui.myk.ranking", ranking=ranked or "–", parcels=num(survey.get("parcels"))),
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
                    self.t("ui.myk.choose", player=self.colour_name(seat), rank=num(waiting.get("rank"))),
                    wrap=True,
                    bold=True,
                    tid="myk.prompt",
                )
            )
        elif kind == "neutral_pick":
            box.add_widget(
                Lbl(
                    self.t("ui.myk.neutral_pick", player=self.colour_name(seat)), wrap=True, bold=True, tid="myk.prompt"
                )
            )
        if self.room_for == "museum":
            box.add_widget(Lbl(self.t("ui.myk.pick_room"), wrap=True, colour=theme.WARN))
            box.add_widget(Btn(self.t("ui.cancel"), self.cancel_room, tid="myk.room.cancel", width=dp(140)))
            box.add_widget(Widget())
            return box
        grid = autogrid(3, dp(4))
        if "myk.take_parcel" in acts:
            grid.add_widget(
                Btn(
                    self.t("ui.myk.take_parcel"),
                    lambda: self.parcel_dialog(acts["myk.take_parcel"]),
                    tid="myk.take_parcel",
                    colour=theme.GOOD,
                    size=theme.FONT_SMALL,
                )
            )
        if "myk.museum" in acts:
            grid.add_widget(
                Btn(self.t("ui.myk.museum"), self.pick_room_museum, tid="myk.museum", size=theme.FONT_SMALL)
            )
        if "myk.decline" in acts:
            grid.add_widget(
                self.action_button(
                    self.t("ui.myk.decline"),
                    {"kind": "myk.decline", "seat": txt(acts["myk.decline"].get("seat"))},
                    "myk.decline",
                    size=theme.FONT_SMALL,
                )
            )
        if "myk.neutral_pick" in acts:
            grid.add_widget(
                self.action_button(
                    self.t("ui.myk.neutral_picked"),
                    {"kind": "myk.neutral_pick", "seat": txt(acts["myk.neutral_pick"].get("seat"))},
                    "myk.neutral_pick",
                    size=theme.FONT_SMALL,
                )
            )
        box.add_widget(grid)
        box.add_widget(Widget())
        return box

    def counts_panel(self, action: JSONObject, zone: tuple[int, int, int] | None, last: JSONObject) -> Widget:
        cap = obj(action.get("max"))
        grid = autogrid(2, dp(8), row_force_default=True, row_default_height=theme.TOUCH)
        for colour in cap:
            high = num(cap.get(colour))

            def changed(value: int, c: str = colour) -> None:
                self.counts[c] = value

            grid.add_widget(
                hbox(
                    Chip(
                        self.colour_name(colour),
                        MYK_COLOUR.get(colour, theme.ACCENT),
                        theme.on_player_colour(colour),
                        width=dp(96),
                        height=theme.TOUCH,
                        bold=True,
                    ),
                    Stepper(self.counts.get(colour, 0), 0, high, changed, tid=f"myk.count.{colour}", button=dp(76)),
                    Lbl(self.t("ui.myk.on_board", n=high), size=theme.FONT_SMALL, colour=theme.MUTED),
                )
            )
        note = self.last_zone_note()
        if note is not None:  # the last zone's note and counters fill the panel: the button is above
            return Panel(note, grid, Widget(), orientation="vertical")
        return Panel(grid, self.counts_done(), Widget(), orientation="vertical")  # the button under its counters

    def counts_done(self) -> Widget:
        return Btn(self.t("ui.myk.counts_done"), self.send_counts, tid="myk.counts.done", colour=theme.GOOD, bold=True)

    def send_counts(self) -> None:
        counts: list[JSON] = [[c, n] for c, n in self.counts.items() if n]
        self.send({"kind": "myk.zone_counts", "counts": counts})

    def parcel_dialog(self, action: JSONObject) -> None:
        seat = txt(action.get("seat"))
        patrons = [txt(p) for p in seq_of(action.get("patrons"))]
        points = [num(p) for p in seq_of(action.get("points"))]
        options: list[tuple[Any, str]] = [(p, self.patron(p)) for p in patrons]
        if action.get("blank"):
            options.append(("none", self.t("ui.myk.blank_card", points=num(action.get("blank_points"), 5))))
        # nothing preselected: OK without reading the card would record a wrong parcel
        form: dict[str, Any] = {"patron": None, "points": None}
        body = fit_height(vbox(spacing=dp(8)))
        body.add_widget(Lbl(self.t("ui.myk.parcel_patron"), colour=theme.MUTED, size_hint_y=None, height=dp(22)))
        body.add_widget(
            Choice(options, form["patron"], lambda v: form.__setitem__("patron", v), tid="myk.parcel.patron", cols=3)
        )
        body.add_widget(Lbl(self.t("ui.myk.parcel_points"), colour=theme.MUTED, size_hint_y=None, height=dp(22)))
        body.add_widget(
            Choice(
                [(p, str(p)) for p in points],
                form["points"],
                lambda v: form.__setitem__("points", v),
                tid="myk.parcel.points",
            )
        )
        dialog = Dialog(self.t("ui.myk.parcel_title", player=self.colour_name(seat)), body, width=dp(640))

        def ok() -> None:
            if form["patron"] is None or (form["patron"] != "none" and form["points"] is None):
                missing = "ui.myk.parcel_need_patron" if form["patron"] is None else "ui.myk.parcel_need_points"
                self.app.toast.show(self.t(missing), "error")
                return
            dialog.dismiss()
            patron = None if form["patron"] == "none" else form["patron"]
            value = num(action.get("blank_points"), 5) if patron is None else form["points"]
            self.send({"kind": "myk.take_parcel", "seat": seat, "patron": patron, "points": value})

        dialog.add_button(Btn(self.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
        dialog.add_button(Btn(self.t("ui.ok"), ok, tid="myk.parcel.ok", colour=theme.GOOD))
        dialog.open()

    def pick_room_museum(self) -> None:
        self.redraw(room_for="museum")

    def pick_room_sir_brown(self) -> None:
        self.redraw(room_for="sir_brown")

    def half_done(self) -> bool:
        return self.room_for is not None

    def cancel_room(self) -> None:
        self.redraw(room_for=None)

    def room_tapped(self, room: str) -> None:
        acts = self.actions()
        kind = "myk.museum" if self.room_for == "museum" else "myk.sir_brown"
        seat = txt(acts.get(kind, {}).get("seat"))
        self.room_for = None
        self.send({"kind": kind, "seat": seat, "room": room})

    # the museum
    def legal_rooms(self, acts: dict[str, JSONObject]) -> frozenset[str]:
        """The rooms to tap now (a room being chosen for a museum card or Sir Brown)."""
        if self.room_for == "museum" and "myk.museum" in acts:
            return frozenset(txt(r) for r in seq_of(acts["myk.museum"].get("rooms")))
        if self.room_for == "sir_brown" and "myk.sir_brown" in acts:
            return frozenset(txt(r) for r in seq_of(acts["myk.sir_brown"].get("rooms")))
        return frozenset()

    def museum_panel(self, museum_: JSON, wings_: JSON, layout_: JSON, legal: frozenset[str]) -> Widget:
        museum = obj(museum_)
        wings = [txt(w) for w in seq_of(wings_)]
        layout = txt(layout_, "line4")
        _, twos = rooms_of(layout)
        row = hbox(spacing=dp(4))
        for wing in range(1, 6):
            patron = wings[wing - 1] if len(wings) >= wing else ""
            column = vbox(
                Chip(
                    self.patron(patron) if patron else self.t("ui.myk.wing", n=wing),
                    PATRON_COLOUR.get(patron, theme.PANEL_HI),
                    PATRON_TEXT.get(patron, theme.TEXT),
                    size=dp(14),
                    height=dp(30),
                    one_line=True,
                    short=self.t(f"ui.myk.short.{patron}") if patron else "",
                    tid=f"myk.wing.{wing}",
                ),
                self.room(f"{wing}:5", museum, legal),
                self.room(f"{wing}:3", museum, legal),
                spacing=dp(4),
            )
            row.add_widget(column)
            two = f"{wing}-{wing + 1}:2"
            if two in twos:
                row.add_widget(
                    vbox(
                        spacer(height=dp(30)),
                        self.room(two, museum, legal),
                        Widget(),
                        spacing=dp(4),
                        size_hint_x=None,
                        width=dp(52),
                    )
                )
        if "5-1:2" in twos:
            row.add_widget(
                vbox(
                    spacer(height=dp(30)),
                    self.room("5-1:2", museum, legal),
                    Widget(),
                    spacing=dp(4),
                    size_hint_x=None,
                    width=dp(52),
                )
            )
        title = hbox(
            Lbl(self.t("ui.myk.museum_title"), bold=True),
            Lbl(self.t("ui.myk.museum_note"), size=theme.FONT_SMALL, colour=theme.MUTED, halign="right"),
            size_hint_y=None,
            height=dp(22),
        )
        return Panel(title, row, orientation="vertical", padding=dp(6), spacing=dp(4))

    def room(self, room: str, museum: JSONObject, legal: frozenset[str]) -> Widget:
        value = room.rsplit(":", 1)[1]
        holder = museum.get(room)
        if room in legal:
            return Btn(
                value,
                partial(self.room_tapped, room),
                tid=f"myk.pick.{room}",
                colour=theme.GOOD,
                bold=True,
                height=dp(52),
            )
        if isinstance(holder, str):
            chip = Chip(
                f"{value}  {self.colour_name(holder)}",
                MYK_COLOUR.get(holder, theme.ACCENT),
                theme.on_player_colour(holder),
                size=dp(14),
                height=dp(52),
            )
        else:
            chip = Chip(value, theme.BACKGROUND, theme.MUTED, size=theme.FONT_BIG, height=dp(52))
        chip.tid = f"myk.room.{room}"
        return chip

    # -- corrections ----------------------------------------------------------------------------------
    def options(self) -> list[tuple[str, Callable[[], object], str]]:
        acts = self.actions()
        out: list[tuple[str, Callable[[], object], str]] = []
        if "myk.correct_score" in acts:
            out.append((self.t("ui.myk.correct_score"), self.score_dialog, "myk.options.score"))
        if "myk.set_layout" in acts:
            out.append((self.t("ui.myk.set_layout"), self.layout_dialog, "myk.options.layout"))
        return out

    def layout_dialog(self) -> None:
        """Row of four 2-rooms or ring of five: switchable until the first archaeologist enters the museum."""
        layouts = [txt(x) for x in seq_of(self.actions().get("myk.set_layout", {}).get("layouts"))]
        box = fit_height(vbox(spacing=dp(6)))
        current = txt(self.view.get("layout"))
        box.add_widget(
            Lbl(
                self.t("ui.myk.layout_now", layout=self.t(f"ui.settings.myk.{current}")),
                size=theme.FONT_SMALL,
                colour=theme.MUTED,
                wrap=True,
            )
        )
        dialog = Dialog(self.t("ui.settings.myk.layout"), box)
        for layout in layouts:

            def chosen(layout: str = layout) -> None:
                dialog.dismiss()
                self.send({"kind": "myk.set_layout", "layout": layout})

            box.add_widget(Btn(self.t(f"ui.settings.myk.{layout}"), chosen, tid=f"myk.layout.{layout}"))
        dialog.add_button(Btn(self.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
        dialog.open()

    def score_dialog(self) -> None:
        seats = [txt(s) for s in seq_of(self.view.get("seats"))]
        form: dict[str, Any] = {"seat": seats[0], "delta": 0}
        body = fit_height(vbox(spacing=dp(8)))
        body.add_widget(
            Choice(
                [(s, self.colour_name(s)) for s in seats],
                seats[0],
                lambda v: form.__setitem__("seat", v),
                tid="myk.score.seat",
            )
        )
        body.add_widget(
            hbox(
                Stepper(0, -20, 20, lambda v: form.__setitem__("delta", v), tid="myk.score.delta"),
                Widget(),
                size_hint_y=None,
                height=theme.TOUCH,
            )
        )
        dialog = Dialog(self.t("ui.myk.correct_score"), body)

        def ok() -> None:
            dialog.dismiss()
            if form["delta"]:
                self.send({"kind": "myk.correct_score", "seat": form["seat"], "delta": form["delta"]})

        dialog.add_button(Btn(self.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
        dialog.add_button(Btn(self.t("ui.ok"), ok, tid="myk.score.ok", colour=theme.GOOD))
        dialog.open()

    # -- the end ----------------------------------------------------------------------------------
    def end_body(self, msg: JSONObject) -> Widget:
        v = obj(msg.get("view"))
        result = obj(v.get("result"))
        exhibition = obj(result.get("exhibition"))
        players = obj(v.get("players"))
        headline = self.announcement(msg) or self.t("ui.end.over")
        box = vbox(
            Panel(
                Lbl(headline, size=theme.FONT_TITLE, bold=True, halign="center", tid="end.headline"),
                colour=theme.GOOD,
                size_hint_y=None,
                height=dp(64),
            )
        )
        grid = autogrid(4, dp(4), row_force_default=True, row_default_height=dp(42))
        for key in ("player", "exhibition", "total", "supply"):
            grid.add_widget(Lbl(self.t(f"ui.myk.end.{key}"), colour=theme.MUTED, halign="center", one_line=True))
        for seat in (txt(s) for s in seq_of(result.get("order"))):  # best first, ties broken as the rules do
            p = obj(players.get(seat))
            grid.add_widget(
                Chip(
                    self.colour_name(seat), MYK_COLOUR.get(seat, theme.ACCENT), theme.on_player_colour(seat), bold=True
                )
            )
            grid.add_widget(Lbl(str(num(exhibition.get(seat))), halign="center", tid=f"end.exhibition.{seat}"))
            grid.add_widget(
                Lbl(
                    str(num(p.get("score"))), halign="center", bold=True, size=theme.FONT_TITLE, tid=f"end.score.{seat}"
                )
            )
            grid.add_widget(Lbl(str(num(p.get("supply"))), halign="center", colour=theme.MUTED))
        box.add_widget(Panel(grid, Widget(), orientation="vertical"))
        return box


class SetupForm(base.SetupForm):
    settings = staticmethod(_settings)
    game = "mykerinos"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        self.order: list[str] = []
        self.names: dict[str, str] = {}  # the players' names by colour (optional)
        self.layout = str(app.ctl.pref(PREF_LAYOUT, "line4"))
        self.neutral: str | None = None
        super().__init__(app, **kwargs)

    def toggle(self, colour: str) -> None:
        if colour in self.order:
            self.order.remove(colour)
        elif len(self.order) < 4:
            self.order.append(colour)
        if self.neutral in self.order or len(self.order) != 2:
            self.neutral = None
        self.rebuild()

    def build(self) -> None:
        buttons = autogrid(4, dp(6))
        for colour in strs(self.facts.get("colours")):
            place = self.order.index(colour) + 1 if colour in self.order else 0
            words = theme.marked(colour, self.t(f"ui.myk.colour.{colour}"))
            label = f"{place}. {words}" if place else words
            btn = Btn(
                label,
                partial(self.toggle, colour),
                tid=f"setup.myk.colour.{colour}",
                colour=MYK_COLOUR[colour] if place else theme.BUTTON,
                text_colour=theme.on_player_colour(colour) if place else theme.TEXT,
                bold=bool(place),
            )
            buttons.add_widget(btn)
        self.add_widget(self.row(self.t("ui.myk.setup.colours"), buttons, self.t("ui.myk.setup.colours_note")))
        if self.order:  # a name for each colour that plays (optional)
            fields = fit_height(vbox(spacing=dp(4)))
            for colour in self.order:

                def named(value: str, c: str = colour) -> None:
                    self.names[c] = value

                hint = self.t(f"ui.myk.colour.{colour}")
                fields.add_widget(
                    NameInput(self.names.get(colour, ""), named, hint=hint, tid=f"setup.myk.name.{colour}")
                )
            self.add_widget(self.row(self.t("ui.setup.names"), fields, self.t("ui.setup.names_note")))
        if len(self.order) == 2:
            free = [c for c in strs(self.facts.get("colours")) if c not in self.order]
            if self.neutral is None:
                self.neutral = free[0]
            self.add_widget(
                self.row(
                    self.t("ui.myk.setup.neutral"),
                    Choice(
                        [(c, theme.marked(c, self.t(f"ui.myk.colour.{c}"))) for c in free],
                        self.neutral,
                        lambda v: setattr(self, "neutral", v),
                        tid="setup.myk.neutral",
                    ),
                    self.t("ui.myk.setup.neutral_note"),
                )
            )
        self.add_widget(
            self.row(
                self.t("ui.settings.myk.layout"),
                Choice(
                    [("line4", self.t("ui.settings.myk.line4")), ("ring5", self.t("ui.settings.myk.ring5"))],
                    self.layout,
                    lambda v: setattr(self, "layout", v),
                    tid="setup.myk.layout",
                ),
                self.t("ui.settings.myk.layout_note"),
            )
        )

    def problem(self) -> str:
        return "" if 2 <= len(self.order) <= 4 else self.t("ui.myk.setup.need_colours")

    def remembered(self, last: JSONObject) -> None:
        colours = strs(self.facts.get("colours"))
        order = [c for c in strs(last.get("seats")) if c in colours]
        if 2 <= len(order) <= 4 and len(set(order)) == len(order):
            self.order = order
        self.names = {c: txt(n) for c, n in obj(last.get("names")).items() if c in colours}

    def setup(self) -> JSONObject:
        config: JSONObject = {"seats": list[JSON](self.order), "layout": self.layout}
        if len(self.order) == 2 and self.neutral:
            config["neutral"] = self.neutral
        names: JSONObject = {c: self.names[c].strip() for c in self.order if self.names.get(c, "").strip()}
        if names:
            config["names"] = names
        return config
