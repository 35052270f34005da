"""Mykerinos' table screen without its panels: reading the snapshot (the legal actions by kind, the
players' names, the header's words, where the zone under survey lies) and what the screen
remembers (the zone counts being entered, a room being chosen, the patrons entered by hand, a start
player drawn). The panels (:mod:`.players`, :mod:`.actions`, :mod:`.counts`, :mod:`.museum`, ...)
draw from it; :mod:`.table` puts them together."""

from __future__ import annotations

from typing import Any

from companion.core.jsonvalue import JSON, JSONObject
from ui import theme
from ui.games import base
from ui.games.base import num, obj, seq_of, txt


class Screen(base.TableView):
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

    # -- what the screen remembers --------------------------------------------------------------------
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

    def half_done(self) -> bool:
        return self.room_for is not None

    # a room being chosen for a museum card or Sir Brown: the next tap on a legal room
    def pick_room_museum(self) -> None:
        self.redraw(room_for="museum")

    def pick_room_sir_brown(self) -> None:
        self.redraw(room_for="sir_brown")

    def cancel_room(self) -> None:
        self.redraw(room_for=None)

    def room_tapped(self, room: str) -> None:
        acts = self.actions()
        kind = "myk.museum" if self.room_for == "museum" else "myk.sir_brown"
        seat = txt(acts.get(kind, {}).get("seat"))
        self.room_for = None
        self.send({"kind": kind, "seat": seat, "room": room})

    def legal_rooms(self, acts: dict[str, JSONObject]) -> frozenset[str]:
        """The rooms to tap now (a room being chosen for a museum card or Sir Brown)."""
        if self.room_for == "museum" and "myk.museum" in acts:
            return frozenset(txt(r) for r in seq_of(acts["myk.museum"].get("rooms")))
        if self.room_for == "sir_brown" and "myk.sir_brown" in acts:
            return frozenset(txt(r) for r in seq_of(acts["myk.sir_brown"].get("rooms")))
        return frozenset()

    def draw_start(self) -> None:
        self.drew_start = True
        self.send({"kind": "myk.draw_start_player"})

    def send_counts(self) -> None:
        counts: list[JSON] = [[c, n] for c, n in self.counts.items() if n]
        self.send({"kind": "myk.zone_counts", "counts": counts})
