"""Victorian Masterminds' table screen without its panels: reading the snapshot (the legal actions,
the players and how every screen names them, the log's lines in words), the header's words, and
what the screen remembers (a discard agent chosen for recycling, the agent discs scanned, the tally
asked for instead of the last stack) with what it sends for a city tapped. The panels
(:mod:`.level`, :mod:`.players`, :mod:`.turn`, :mod:`.resolution`, :mod:`.cities`, :mod:`.stack`,
:mod:`.end`, the dialogs of :mod:`.corrections`) draw from it; :mod:`.table` puts them together."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games import base
from ui.games.base import num, obj, seq_of, strs, txt


class Screen(base.TableView):
    game = "victorian_masterminds"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.recycling: str | None = None  # a discard agent chosen for recycling; next: the city
        self.scanned: list[str] = []  # seats whose next agent disc was scanned on a reader
        self.scores_instead: int | None = None  # the log line after which the tally was asked for

    def on_remembered(self, seats: list[str]) -> None:
        self.redraw(scanned=seats)

    # -- reading the snapshot -----------------------------------------------------------------------
    def actions(self) -> dict[str, JSONObject]:
        return {txt(obj(a).get("kind")): obj(a) for a in seq_of(obj(self.legal).get("actions"))}

    def players(self) -> list[JSONObject]:
        return [obj(p) for p in seq_of(self.view.get("players"))]

    def player(self, seat: str) -> JSONObject:
        return next((p for p in self.players() if p.get("seat") == seat), {})

    def colour_of(self, seat: str) -> str:
        return txt(self.player(seat).get("colour"), "")

    def seat_label(self, seat: str) -> str:
        return self.label_of(self.player(seat), seat)

    def label_of(self, player: JSONObject, seat: str) -> str:
        """A player as every screen names it: the name entered at setup (as on the phones), else the
        colour in words, with the colour's shape in front ("▲ Ann", "● Blue"), so that colour-blind
        players tell red from green and blue from purple."""
        name, colour = txt(player.get("name"), ""), txt(player.get("colour"), "")
        if name:
            words = name
        elif colour in seq_of(self.facts.get("colours")):  # the box's colours (the game's facts)
            words = self.t(f"ui.vm.colour.{colour}")
        else:
            words = colour or seat  # a colour the table typed in, as typed
        return theme.marked(colour, words)

    def name(self, kind: str, value: str) -> str:
        return self.t(f"vm.{kind}.{value}")

    def labels(self) -> tuple[tuple[str, str, str], ...]:
        """What a player's label is made from (:meth:`seat_label`): seat, colour, name."""
        return tuple((txt(p.get("seat")), txt(p.get("colour")), txt(p.get("name"), "")) for p in self.players())

    def tally_keys(self) -> tuple[str, ...]:
        """What the tallies show of a player (and its label, for its row)."""
        return ("seat", "colour", "name", *strs(self.facts.get("tally")), "score")

    def last_log(self) -> str:
        lines = seq_of(self.view.get("log"))
        return self.log_text(obj(lines[-1])) if lines else ""

    def log_text(self, line: JSONObject) -> str:
        detail = txt(line.get("detail"))
        what = txt(line.get("what"))
        if what == "vm.log.agent" and ":" in detail:
            agent, outcome = detail.split(":", 1)
            detail = f"{self.name('agent', agent)} – {self.t(f'ui.vm.outcome.{outcome}')}"
        elif what in ("vm.log.captured",):
            detail = self.name("building", detail)
        elif what == "vm.log.recycled":
            detail = self.name("agent", detail)
        elif what == "vm.log.reidentified" and ":" in detail:  # named again: what the books had, what it is
            was, now = detail.split(":", 1)
            detail = f"{self.name('agent', was)} → {self.name('agent', now)}"
        elif what == "vm.log.order":
            detail = self.t(f"ui.vm.order.{detail}")
        elif what == "vm.log.ended":
            detail = ", ".join(self.seat_label(s) for s in detail.split(",") if s)
        seat = txt(line.get("seat"))
        city = txt(line.get("city"))
        return self.t(
            what,
            seat=self.seat_label(seat) if seat else "",
            city=self.name("city", city) if city else "",
            detail=detail,
        )

    def status(self, msg: JSONObject) -> str:
        v = obj(msg.get("view"))
        phase = txt(v.get("phase"))
        if phase == "setup":
            return self.t("ui.vm.status.setup")
        if phase == "ended":
            return self.t("ui.vm.status.ended")
        active = self._label_in(v, txt(v.get("active")))
        if phase in ("resolution", "final_resolution"):
            city = txt(obj(v.get("resolution")).get("city"))
            return self.t("ui.vm.status.resolution", city=self.name("city", city) if city else "")
        return self.t("ui.vm.status.turn", player=active)

    def _label_in(self, v: JSONObject, seat: str) -> str:
        for p in seq_of(v.get("players")):
            if obj(p).get("seat") == seat:
                return self.label_of(obj(p), seat)
        return seat

    def over(self, msg: JSONObject) -> bool:
        return txt(obj(msg.get("view")).get("phase")) == "ended"

    def announcement(self, msg: JSONObject) -> str:
        v = obj(msg.get("view"))
        winners = [self._label_in(v, txt(w)) for w in seq_of(obj(v.get("result")).get("winners"))]
        return self.t("ui.vm.winner", players=" & ".join(winners), count=len(winners)) if winners else ""

    def half_done(self) -> bool:
        return self.recycling is not None

    # -- what the screen remembers, and a city tapped ---------------------------------------------------
    def can_place_here(self, place: JSONObject) -> bool:
        # the touchscreen records a placement without naming the agent (an unidentified agent)
        return bool(place.get("unidentified")) or self.recycling is not None

    def start_recycle(self, agent: str) -> None:
        self.redraw(recycling=agent)

    def cancel_recycle(self) -> None:
        self.redraw(recycling=None)

    def place(self, city: str) -> None:
        active = txt(self.view.get("active"))
        if self.recycling is not None:
            intent: JSONObject = {
                "kind": "vm.place",
                "seat": active,
                "city": city,
                "agent": self.recycling,
                "recycle": True,
            }
            self.recycling = None
        else:
            # a seat whose phone keeps its pile: its top agent, and its phone is told which
            intent = {"kind": "vm.place", "seat": active, "city": city, "agent": None, "recycle": False}
            self.with_phone(active, lambda books: self.send({**intent, "books": books}))
            return
        self.send(intent)

    def with_phone(self, seat: str, then: Callable[[bool], object]) -> None:
        """``then(whether a phone holds the seat's link)``: that phone keeps the seat's pile."""
        self.app.run(self.ctl.phone_holds(seat), then)

    def show_scores(self) -> None:
        lines = seq_of(self.view.get("log"))
        self.redraw(scores_instead=num(obj(lines[-1]).get("n")) if lines else 0)
