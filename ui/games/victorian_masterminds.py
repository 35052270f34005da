"""Victorian Masterminds on the touchscreen: the Secret Service level as the biggest thing on screen,
every player's firepower beside it, the five cities (stack heights only, standing buildings,
missions), whose turn it is, the resolution step by step asking only the real choices from
``legal``, the final-round countdown, tallies and scores.

Agents placed at the table without a phone or tag are *unidentified*: the touchscreen records only
the city, and the agent is named when its stack is turned over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

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
    TapPanel,
    autogrid,
    fit_height,
    flow,
    hbox,
    scroll,
    spacer,
    vbox,
)

PREF_GUNNER, _ = preference("victorian_masterminds", "gunner_rule")
PREF_CITY_LOOT, _ = preference("victorian_masterminds", "capture_city_loot")


def start_level_key(players: int) -> str:
    """The preference that remembers the Secret Service start level for this many players."""
    return preference("victorian_masterminds", players=players)[0]


def _settings(page: Any) -> list[Widget]:
    """The Settings screen's rows for Victorian Masterminds (the new-game form's defaults)."""
    gunner = Choice(
        [(">=", page.t("ui.settings.vm.gunner_ge")), (">", page.t("ui.settings.vm.gunner_gt"))],
        page.ctl.pref(PREF_GUNNER, ">="),
        page.setter(PREF_GUNNER),
        tid="settings.vm.gunner",
    )
    rows = [
        page.setting(page.t("ui.settings.vm.gunner"), gunner, page.t("ui.settings.vm.gunner_note")),
        page.setting(
            page.t("ui.settings.vm.city_loot"),
            page.on_off(PREF_CITY_LOOT, False, "settings.vm.city_loot"),
            page.t("ui.settings.vm.city_loot_note"),
        ),
    ]
    for players in (2, 3, 4):
        key = start_level_key(players)
        known = page.ctl.pref(key)
        value = known if isinstance(known, int) else 0
        stepper = Stepper(value, 0, 11, page.setter(key), tid=f"settings.vm.level.{players}")
        note = "" if isinstance(known, int) else page.t("ui.settings.vm.level_unknown")
        rows.append(page.setting(page.t("ui.settings.vm.level", players=players), hbox(stepper, Widget()), note))
    return rows


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


def top_row() -> Widget:
    return hbox(size_hint_y=None, height=dp(150))


def cities_row() -> Widget:
    return hbox(size_hint_y=None, height=dp(110))


def level_why_line(why: str) -> Widget:
    return Lbl(
        why, size=theme.FONT_SMALL, colour=theme.ACCENT, size_hint_y=None, height=dp(20), fit=dp(11), tid="vm.level_why"
    )


def city_mission(words: str) -> Widget:
    return Lbl(words, size=theme.FONT_SMALL, colour=theme.MUTED, one_line=True, size_hint_y=None, height=dp(18))


class TableView(base.TableView):
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

    # -- the screen -------------------------------------------------------------------------------
    def settle(self) -> None:
        if self.recycling is not None and "vm.place" not in self.actions():
            self.recycling = None

    def panels(self) -> Sequence[Part]:
        """The level, the firepower and what to do now; why the level changed last; the five
        cities; the stack being resolved or the tallies. Each drawn from the pieces of the view it
        shows (a player's tallies stay the same object while unchanged: ``companion.core.shared``)."""
        v = self.view
        labels = self.labels()
        firepowers = tuple(num(p.get("firepower")) for p in self.players())
        top = Part(
            "top",
            top_row,
            children=[
                Part("level", self.level_panel, v.get("level"), v.get("final_round")),
                Part("firepower", self.firepower_panel, labels, firepowers, v.get("active"), v.get("phase")),
                # what to do now reads the whole snapshot and the screen's own choices
                Part("action", self.action_panel, self.msg, self.recycling, tuple(self.scanned)),
            ],
        )
        parts = [top]
        why = self.level_why()
        if why:  # every change of the level says why (a capture, the table's correction)
            parts.append(Part("level_why", level_why_line, why))
        parts.append(Part("cities", cities_row, children=self.city_parts()))
        stack = self.stack_to_show()
        if stack:
            parts.append(Part("stack", self.stack_panel, stack, v.get("resolution") is not None, labels))
        else:
            parts.append(
                Part("tally", self.tally, tuple(p.get(key) for p in self.players() for key in self.tally_keys()))
            )
        return parts

    def stack_to_show(self) -> JSONObject | None:
        """The stack being resolved, or the one resolved last while nothing else happened since
        (unless the tally was asked for meanwhile)."""
        current = obj(self.view.get("resolution"))
        lines = seq_of(self.view.get("log"))
        newest = obj(lines[-1]) if lines else {}
        if self.scores_instead is not None and self.scores_instead == num(newest.get("n")):
            return None
        if current:
            return current
        last = obj(self.view.get("last_stack"))
        if last and txt(newest.get("what")) in STACK_LINES and txt(self.view.get("phase")) != "ended":
            return last
        return None

    def show_scores(self) -> None:
        lines = seq_of(self.view.get("log"))
        self.redraw(scores_instead=num(obj(lines[-1]).get("n")) if lines else 0)

    def gains_text(self, gains: JSON) -> str:
        parts = []
        for g in seq_of(gains):
            g = obj(g)
            res, amount, lost = txt(g.get("resource")), num(g.get("amount")), num(g.get("lost"))
            words = self.t(f"ui.vm.gain.{res}", n=amount)
            if res == "codex" and amount and num(g.get("value"), 1) == 2:
                words += " " + self.t("ui.vm.gain.worth2")
            if lost:
                words += " " + self.t("ui.vm.gain.lost", n=lost)
            parts.append(words)
        return ", ".join(parts)

    def step_text(self, a: JSONObject) -> tuple[str, str]:
        """(the city's loot, what the ability did) for one agent of a turned-over stack."""
        loot = self.gains_text(a.get("loot"))
        outcome = txt(a.get("outcome"))
        if a.get("building"):  # shown from the capture on (the loot may still wait)
            ability = self.t("ui.vm.step.captured", building=self.name("building", txt(a.get("building"))))
        elif a.get("mission"):
            ability = self.t("ui.vm.step.mission", reward=num(a.get("mission")))
        elif not outcome:
            ability = self.t("ui.vm.step.pending")
        else:
            ability = self.t(f"ui.vm.outcome.{outcome}")
        gains = self.gains_text(a.get("gains"))
        if gains and not a.get("mission"):
            ability += f" ({gains})"
        if a.get("ability_first"):
            ability = self.t("ui.vm.step.ability_first") + " – " + ability
        return loot, ability

    def stack_panel(self, r: JSONObject, current: bool, labels: tuple[tuple[str, str, str], ...]) -> Widget:
        """Every agent of the stack, first placed first: its loot and what its ability did."""
        city = self.name("city", txt(r.get("city")))
        title = self.t("ui.vm.stack.now" if current else "ui.vm.stack.last", city=city)
        head = hbox(
            Lbl(title, bold=True, one_line=True, tid="vm.stack.title"),
            Btn(
                self.t("ui.vm.stack.scores"),
                self.show_scores,
                tid="vm.stack.scores",
                width=dp(130),
                height=theme.TOUCH_SMALL,
                size=theme.FONT_SMALL,
            ),
            size_hint_y=None,
            height=theme.TOUCH_SMALL,
        )
        grid = autogrid(3, (dp(6), dp(2)), row_force_default=True, row_default_height=dp(24))
        index = num(r.get("index"))
        for i, a in enumerate(seq_of(r.get("agents"))):
            a = obj(a)
            seat = txt(a.get("seat"))
            agent = a.get("agent")
            name = self.name("agent", agent) if isinstance(agent, str) else "?"
            chip = Chip(
                f"{self.seat_label(seat)} · {name}",
                theme.player_colour(self.colour_of(seat)),
                theme.on_player_colour(self.colour_of(seat)),
                size=dp(14),
                bold=current and i == index,
                width=dp(210),
            )
            chip.opacity = 1.0 if not current or i >= index else 0.8
            loot, ability = self.step_text(a)
            if a.get("cancelled") and not a.get("outcome"):
                ability = self.t("ui.vm.sabotaged")
            grid.add_widget(chip)
            grid.add_widget(
                Lbl(loot, size=dp(14), fit=dp(10), size_hint_x=None, width=dp(180), tid=f"vm.step.{i}.loot")
            )
            # a long outcome ("+0 Wissenschaftler (1 verfallen)") gets smaller before it is shortened
            grid.add_widget(Lbl(ability, size=dp(14), fit=dp(10), tid=f"vm.step.{i}.ability"))
        # a stack taller than three (a Steam Mole's agent beneath) scrolls instead of pushing the title up
        panel = Panel(head, scroll(grid), orientation="vertical", padding=dp(4), spacing=dp(2))
        panel.tid = "vm.stack"
        return panel

    def level_panel(self, level_: JSON, final_round: JSON) -> Widget:
        level = Lbl(str(num(level_)), size=dp(84), bold=True, halign="center", colour=theme.WARN, tid="vm.level")
        box = Panel(
            Lbl(
                self.t("ui.vm.level"),
                size=theme.FONT_SMALL,
                colour=theme.MUTED,
                halign="center",
                size_hint_y=None,
                height=dp(20),
            ),
            level,
            orientation="vertical",
            size_hint_x=None,
            width=dp(150),
            padding=dp(4),
            spacing=0,
        )
        final = obj(final_round)
        if final.get("triggered"):
            left = final.get("turns_left")
            words = self.t("ui.vm.final_now") if left is None else self.t("ui.vm.final_left", turns=num(left))
            box.add_widget(
                Lbl(
                    words,
                    size=theme.FONT_SMALL,
                    colour=theme.DANGER,
                    bold=True,
                    halign="center",
                    wrap=True,
                    tid="vm.final",
                )
            )
        return box

    def level_why(self) -> str:
        """The level's last change in words: from, to, and why (who captured what where, or the table)."""
        change = obj(self.view.get("level_change"))
        why = txt(change.get("why"))
        if not why:
            return ""
        seat, city, building = txt(change.get("seat")), txt(change.get("city")), txt(change.get("building"))
        reason = self.t(
            f"vm.level_why.{why}",
            seat=self.seat_label(seat) if seat else "",
            city=self.name("city", city) if city else "",
            building=self.name("building", building) if building else "",
        )
        words: dict[str, JSON] = {"from": num(change.get("from")), "to": num(change.get("to")), "why": reason}
        return self.t("vm.level_change", **words)

    def labels(self) -> tuple[tuple[str, str, str], ...]:
        """What a player's label is made from (:meth:`seat_label`): seat, colour, name."""
        return tuple((txt(p.get("seat")), txt(p.get("colour")), txt(p.get("name"), "")) for p in self.players())

    def tally_keys(self) -> tuple[str, ...]:
        """What the tallies show of a player (and its label, for its row)."""
        return ("seat", "colour", "name", *strs(self.facts.get("tally")), "score")

    def firepower_panel(
        self, labels: tuple[tuple[str, str, str], ...], firepowers: tuple[int, ...], active_: JSON, phase: JSON
    ) -> Widget:
        box = Panel(
            Lbl(self.t("ui.vm.firepower"), size=theme.FONT_SMALL, colour=theme.MUTED, size_hint_y=None, height=dp(20)),
            orientation="vertical",
            size_hint_x=None,
            width=dp(176),
            padding=dp(6),
            spacing=dp(2),
        )
        active = txt(active_)
        for (seat, colour, _), firepower in zip(labels, firepowers, strict=True):
            now = seat == active and txt(phase) == "turn"
            box.add_widget(
                hbox(
                    Chip("", theme.player_colour(colour), width=dp(14), height=dp(22)),
                    Lbl(self.seat_label(seat), bold=now, one_line=True, colour=theme.TEXT if now else theme.MUTED),
                    Lbl(
                        str(firepower),
                        size=theme.FONT_BIG,
                        bold=True,
                        halign="right",
                        size_hint_x=None,
                        width=dp(34),
                        tid=f"vm.firepower.{seat}",
                    ),
                    size_hint_y=None,
                    height=dp(26),
                )
            )
        box.add_widget(Widget())
        return box

    # the five cities
    def city_parts(self) -> list[Part]:
        """A city each: its stack's height, its standing buildings, its mission; tap it to place an
        agent there while that is legal (the card changes, its contents stay)."""
        v = self.view
        cities = obj(v.get("cities"))
        stacks = obj(v.get("stacks"))
        place = self.actions().get("vm.place")
        placeable = {txt(c) for c in seq_of(place.get("cities"))} if place and self.can_place_here(place) else set()
        parts = []
        for city in strs(self.facts.get("cities")):
            info = obj(cities.get(city))
            standing = frozenset(txt(b) for b in seq_of(info.get("standing")))
            mission = info.get("mission")
            if isinstance(mission, dict):
                reward = mission.get("reward")
                words = self.t("ui.vm.mission", reward=reward if isinstance(reward, int) else "?")
            else:
                words = self.t("ui.vm.no_mission")
            inside = [
                Part("title", self.city_title, city, num(stacks.get(city))),
                Part("buildings", self.city_buildings, standing),
                Part("mission", city_mission, words),
            ]
            parts.append(Part(f"city.{city}", self.city_card, city, city in placeable, children=inside))
        return parts

    def city_card(self, city: str, placeable: bool) -> Widget:
        if placeable:
            return TapPanel(
                partial(self.place, city),
                tid=f"vm.place.{city}",
                orientation="vertical",
                padding=dp(4),
                spacing=dp(2),
            )
        card = Panel(orientation="vertical", padding=dp(4), spacing=dp(2))
        card.tid = f"vm.city.{city}"
        return card

    def city_title(self, city: str, height: int) -> Widget:
        count = Chip(
            str(height),
            theme.ACCENT if height else theme.PANEL,
            theme.TEXT if height else theme.LINE,
            size=theme.FONT,
            bold=True,
            width=dp(26),
            height=dp(24),
        )
        count.tid = f"vm.stack.{city}"
        return hbox(
            Lbl(self.name("city", city), bold=True, one_line=True),
            count,
            spacing=dp(2),
            size_hint_y=None,
            height=dp(26),
        )

    def city_buildings(self, standing: frozenset[str]) -> Widget:
        grid = GridLayout(cols=2, spacing=dp(3), size_hint_y=None, height=dp(46))
        for building in strs(self.facts.get("buildings")):
            up = building in standing
            grid.add_widget(
                Chip(
                    self.t(f"ui.vm.short.{building}"),
                    theme.PANEL_HI if up else theme.BACKGROUND,
                    theme.TEXT if up else theme.LINE,
                    size=dp(14),
                )
            )
        return grid

    # players' tallies and the running score
    def tally(self, shown: tuple[JSON, ...]) -> Widget:
        keys = strs(self.facts.get("tally"))  # a count, or a list whose length is shown
        grid = autogrid(len(keys) + 2, (dp(2), dp(1)), row_force_default=True, row_default_height=dp(27))
        grid.add_widget(Lbl("", size_hint_x=None, width=dp(150)))
        for key in (*keys, "score"):
            grid.add_widget(
                Lbl(self.t(f"ui.vm.tally.{key}"), size=dp(14), colour=theme.MUTED, halign="center", one_line=True)
            )
        for p in self.players():
            seat, colour = txt(p.get("seat")), txt(p.get("colour"))
            grid.add_widget(
                hbox(
                    Chip("", theme.player_colour(colour), width=dp(12), height=dp(22)),
                    Lbl(self.seat_label(seat), one_line=True),
                    size_hint_x=None,
                    width=dp(150),
                )
            )
            values = {key: len(v) if isinstance(v := p.get(key), list) else num(v) for key in keys}
            values["score"] = num(obj(p.get("score")).get("total"))
            for key in (*keys, "score"):
                big = key == "score"
                grid.add_widget(
                    Lbl(
                        str(values[key]),
                        bold=big,
                        halign="center",
                        size=theme.FONT_BIG if big else theme.FONT,
                        tid=f"vm.tally.{seat}.{key}",
                    )
                )
        return scroll(fit_height(vbox(grid)), tid="vm.tally")

    # what to do now
    def action_panel(self, msg: JSONObject, recycling: str | None, scanned: tuple[str, ...]) -> Widget:
        v = self.view
        acts = self.actions()
        phase = txt(v.get("phase"))
        box = Panel(orientation="vertical", padding=dp(6), spacing=dp(4))
        if phase == "setup":
            box.add_widget(Lbl(self.t("ui.vm.start_note"), wrap=True, colour=theme.MUTED))
            if "vm.start" in acts:
                box.add_widget(
                    self.action_button(
                        self.t("ui.vm.start"),
                        {"kind": "vm.start"},
                        "vm.start",
                        colour=theme.GOOD,
                        bold=True,
                    )
                )
            return box
        if v.get("resolution") is not None:
            return self.resolution_panel(box, acts)
        active = txt(v.get("active"))
        who = self.seat_label(active)
        place = acts.get("vm.place")
        if place is not None:
            return self.place_panel(box, place, who)
        if "vm.force_resolve" in acts:
            force = acts["vm.force_resolve"]
            box.add_widget(Lbl(self.t("ui.vm.force", player=who), wrap=True, bold=True))
            cities = [txt(c) for c in seq_of(force.get("cities"))]
            box.add_widget(
                flow(
                    self.action_button(
                        self.name("city", c),
                        {"kind": "vm.force_resolve", "seat": active, "city": c},
                        f"vm.force.{c}",
                        width=dp(110),
                    )
                    for c in cities
                )
            )
            return box
        after = [k for k in ("vm.extra_turn", "vm.capture", "vm.end_turn") if k in acts]
        if after:
            box.add_widget(Lbl(self.t("ui.vm.after", player=who), wrap=True, bold=True))
            buttons = hbox(size_hint_y=None, height=theme.TOUCH)
            if "vm.extra_turn" in acts:
                buttons.add_widget(
                    self.action_button(
                        self.t("ui.vm.extra_turn"),
                        {"kind": "vm.extra_turn", "seat": active},
                        "vm.extra_turn",
                        size=theme.FONT_SMALL,
                    )
                )
            if "vm.capture" in acts:
                buttons.add_widget(
                    Btn(
                        self.t("ui.vm.capture"),
                        lambda: self.capture(acts["vm.capture"], active),
                        tid="vm.capture",
                        size=theme.FONT_SMALL,
                    )
                )
            if "vm.end_turn" in acts:
                buttons.add_widget(
                    self.action_button(
                        self.t("ui.vm.end_turn"),
                        {"kind": "vm.end_turn", "seat": active},
                        "vm.end_turn",
                        colour=theme.GOOD,
                        size=theme.FONT_SMALL,
                    )
                )
            box.add_widget(buttons)
            box.add_widget(Widget())
            box.add_widget(Lbl(self.last_log(), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True, tid="vm.last"))
            return box
        box.add_widget(Lbl(self.last_log() or self.t("ui.vm.waiting"), wrap=True, colour=theme.MUTED))
        return box

    def can_place_here(self, place: JSONObject) -> bool:
        # the touchscreen records a placement without naming the agent (an unidentified agent)
        return bool(place.get("unidentified")) or self.recycling is not None

    def place_panel(self, box: Panel, place: JSONObject, who: str) -> Widget:
        if self.recycling is not None:
            box.add_widget(
                Lbl(
                    self.t("ui.vm.recycle_where", player=who, agent=self.name("agent", self.recycling)),
                    wrap=True,
                    bold=True,
                )
            )
            box.add_widget(Btn(self.t("ui.cancel"), self.cancel_recycle, tid="vm.recycle.cancel", width=dp(140)))
            return box
        if txt(place.get("seat")) in self.scanned:
            line = self.t("ui.vm.place_scanned", player=who)
        elif place.get("unidentified"):
            line = self.t("ui.vm.place", player=who)
        else:
            line = self.t("ui.vm.place_phone", player=who)
        box.add_widget(Lbl(line, wrap=True, bold=True, tid="vm.prompt"))
        if self.view.get("extra_turn"):
            box.add_widget(Lbl(self.t("ui.vm.extra_turn_now"), size=theme.FONT_SMALL, colour=theme.WARN, wrap=True))
        recycle = [txt(a) for a in seq_of(place.get("recycle"))]
        if recycle:
            box.add_widget(Lbl(self.t("ui.vm.recycle"), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True))
            if len(recycle) <= 3:  # one row of buttons
                buttons = [self.recycle_button(a) for a in recycle]
            else:  # more than a row holds: chosen in a dialog
                buttons = [
                    Btn(
                        self.t("ui.vm.recycle_choose"),
                        partial(self.recycle_dialog, recycle),
                        tid="vm.recycle.choose",
                        width=dp(240),
                        height=theme.TOUCH_SMALL,
                        size=theme.FONT_SMALL,
                    )
                ]
            box.add_widget(hbox(*buttons, Widget(), size_hint_y=None, height=theme.TOUCH_SMALL, spacing=dp(6)))
        box.add_widget(Widget())
        if not recycle and not self.view.get("extra_turn"):  # the panel has room for what happened last
            box.add_widget(Lbl(self.last_log(), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True, tid="vm.last"))
        return box

    def recycle_button(self, agent: str, then: Callable[[], object] | None = None) -> Btn:
        def chosen() -> None:
            if then is not None:
                then()
            self.start_recycle(agent)

        return Btn(
            self.name("agent", agent),
            chosen,
            tid=f"vm.recycle.{agent}",
            width=dp(120),
            height=theme.TOUCH_SMALL,
            size=theme.FONT_SMALL,
        )

    def recycle_dialog(self, agents: list[str]) -> None:
        box = flow(spacing=dp(6))
        dialog = Dialog(self.t("ui.vm.recycle"), box)
        for agent in agents:
            box.add_widget(self.recycle_button(agent, dialog.dismiss))
        dialog.add_button(Btn(self.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
        dialog.open()

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

    def reward_dialog(self) -> None:
        """The mission is met but its reward was never entered: the chaos points printed on its card."""
        dialog = Dialog(self.t("ui.vm.met_reward_note"))
        for reward in (2, 3, 4):

            def chosen(r: int = reward) -> None:
                dialog.dismiss()
                self.send({"kind": "vm.henchman", "met": True, "reward": r, "label": None})

            label = self.t("ui.vm.met_reward", reward=reward)
            dialog.add_button(Btn(label, chosen, tid=f"vm.henchman.yes.{reward}", colour=theme.GOOD))
        dialog.add_button(Btn(self.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
        dialog.open()

    def capture(self, action: JSONObject, seat: str) -> None:
        box = fit_height(vbox(spacing=dp(6)))
        dialog = Dialog(self.t("ui.vm.capture_which", player=self.seat_label(seat)), scroll(box))
        dialog.box.children[1].size_hint_y = None
        dialog.box.children[1].height = dp(250)
        for pair in seq_of(action.get("buildings")):
            city, building = (txt(x) for x in seq_of(pair)[:2])

            def chosen(c: str = city, b: str = building) -> None:
                dialog.dismiss()
                self.send({"kind": "vm.capture", "seat": seat, "city": c, "building": b})

            box.add_widget(
                Btn(
                    self.t("ui.pair", label=self.name("city", city), value=self.name("building", building)),
                    chosen,
                    tid=f"vm.capture.{city}.{building}",
                )
            )
        dialog.add_button(Btn(self.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
        dialog.open()

    # the stack being resolved, step by step
    def resolution_panel(self, box: Panel, acts: dict[str, JSONObject]) -> Widget:
        r = obj(self.view.get("resolution"))
        box.add_widget(self.stack_sequence(r))
        waiting = obj(r.get("waiting"))
        kind = txt(waiting.get("kind"))
        if kind:
            who = self.seat_label(txt(waiting.get("seat")))
            box.add_widget(
                Lbl(
                    self.t("ui.vm.question", player=who, question=self.t(f"vm.waiting.{kind}")),
                    wrap=True,
                    bold=True,
                    size=theme.FONT_SMALL,
                    tid="vm.question",
                )
            )
        if "vm.take_loot" in acts and kind == "engineer":  # the power began before the loot: it waits for the owner
            box.add_widget(
                Lbl(
                    self.t("ui.vm.loot_waits", city=self.name("city", txt(r.get("city")))),
                    size=theme.FONT_SMALL,
                    colour=theme.MUTED,
                    one_line=True,
                    tid="vm.loot_waits",
                )
            )
        answers = self.resolution_answers(acts)
        if answers:
            grid = autogrid(min(5, len(answers)), dp(4))
            for btn in answers:
                grid.add_widget(btn)
            box.add_widget(grid)
        elif kind:
            box.add_widget(Lbl(self.t("ui.vm.on_phone"), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True))
        box.add_widget(Widget())
        return box

    def stack_sequence(self, r: JSONObject) -> Widget:
        """The city and its stack's agents in the order they resolve: the current one bold, the
        resolved ones faded, a sabotaged one said so (or struck through where that is too long)."""
        sequence = hbox(
            Lbl(self.name("city", txt(r.get("city"))), bold=True, size_hint_x=None, width=dp(100), one_line=True),
            size_hint_y=None,
            height=dp(28),
            spacing=dp(4),
        )
        index = num(r.get("index"))
        for i, a in enumerate(seq_of(r.get("agents"))):
            a = obj(a)
            seat = txt(a.get("seat"))
            agent = a.get("agent")
            label = self.name("agent", txt(agent)) if isinstance(agent, str) else "?"
            short = ""
            if a.get("cancelled"):  # "Daredevil (sabotaged)", or the name struck through where that is too long
                label, short = escape_markup(f"{label} {self.t('ui.vm.sabotaged')}"), f"[s]{escape_markup(label)}[/s]"
            chip = Chip(
                label,
                theme.player_colour(self.colour_of(seat)),
                theme.on_player_colour(self.colour_of(seat)),
                size=dp(14),
                bold=i == index,
                short=short,
                markup=bool(short),
            )
            chip.opacity = 0.55 if a.get("done") else 1.0
            chip.tid = f"vm.resolve.{i}"
            sequence.add_widget(chip)
        return sequence

    def small_button(self, label: str, on_press: Callable[[], None], tid: str, colour: Any = theme.BUTTON) -> Btn:
        """A button of the resolution's answers that opens a dialog rather than acting at once."""
        return Btn(label, on_press, tid=tid, size=theme.FONT_SMALL, height=theme.TOUCH_SMALL, colour=colour)

    def resolution_answers(self, acts: dict[str, JSONObject]) -> list[Btn]:
        """The answers the stack being resolved waits for, one button each, in the order asked."""
        answers: list[Btn] = []

        def answer(label: str, intent: JSONObject, tid: str, colour: Any = theme.BUTTON) -> None:
            answers.append(
                self.action_button(label, intent, tid, size=theme.FONT_SMALL, height=theme.TOUCH_SMALL, colour=colour)
            )

        for agent in seq_of(acts.get("vm.reveal", {}).get("agents")):
            a = txt(agent)
            answer(self.name("agent", a), {"kind": "vm.reveal", "agent": a}, f"vm.reveal.{a}")
        for first in seq_of(acts.get("vm.choose_order", {}).get("options")):
            f = txt(first)
            answer(self.t(f"ui.vm.order.{f}"), {"kind": "vm.choose_order", "first": f}, f"vm.order.{f}")
        if "vm.take_loot" in acts:
            answer(self.t("ui.vm.take_loot"), {"kind": "vm.take_loot"}, "vm.take_loot", theme.GOOD)
        for building in seq_of(acts.get("vm.choose_building", {}).get("buildings")):
            b = building if isinstance(building, str) else None
            label = self.name("building", b) if b else self.t("ui.vm.no_building")
            answer(label, {"kind": "vm.choose_building", "building": b}, f"vm.building.{b or 'none'}")
        if "vm.henchman" in acts:
            if acts["vm.henchman"].get("reward_needed"):  # the mission card's printed reward: asked when met
                answers.append(
                    self.small_button(self.t("ui.vm.met"), self.reward_dialog, "vm.henchman.yes", theme.GOOD)
                )
            else:
                met: JSONObject = {"kind": "vm.henchman", "met": True, "reward": None, "label": None}
                answer(self.t("ui.vm.met"), met, "vm.henchman.yes", theme.GOOD)
            not_met: JSONObject = {"kind": "vm.henchman", "met": False, "reward": None, "label": None}
            answer(self.t("ui.vm.not_met"), not_met, "vm.henchman.no")
        if "vm.engineer_done" in acts:
            answers.append(self.small_button(self.t("ui.vm.adjust"), self.adjust_dialog, "vm.engineer.adjust"))
            if "vm.place_under" in acts:
                under = acts["vm.place_under"]
                answers.append(self.small_button(self.t("ui.vm.under"), lambda: self.under_dialog(under), "vm.under"))
            answer(self.t("ui.vm.engineer_done"), {"kind": "vm.engineer_done"}, "vm.engineer_done", theme.GOOD)
        return answers

    def reidentify_dialog(self, action: JSONObject, index: int | None = None) -> None:
        """Name an agent of the stack being turned over again, as its face-up disc shows it: first
        which one, then what it is."""
        agents = [obj(a) for a in seq_of(action.get("agents"))]
        box = fit_height(vbox(spacing=dp(6)))
        chosen = next((a for a in agents if num(a.get("index")) == index), None)
        if chosen is None:
            dialog = Dialog(self.t("ui.vm.reidentify_which"), box)
            grid = autogrid(3, dp(4))
            for a in agents:
                seat, i = txt(a.get("seat")), num(a.get("index"))
                label = f"{i + 1}. {self.seat_label(seat)}: {self.name('agent', txt(a.get('agent')))}"

                def pick(i: int = i) -> None:
                    dialog.dismiss()
                    self.reidentify_dialog(action, i)

                grid.add_widget(Btn(label, pick, tid=f"vm.reidentify.{i}", size=theme.FONT_SMALL))
            box.add_widget(grid)
        else:
            was = txt(chosen.get("agent"))
            dialog = Dialog(
                self.t(
                    "ui.vm.reidentify_as",
                    n=num(chosen.get("index")) + 1,
                    player=self.seat_label(txt(chosen.get("seat"))),
                ),
                box,
            )
            grid = autogrid(3, dp(4))
            for name in strs(action.get("names")):
                if name == was:
                    continue

                def named(name: str = name) -> None:
                    dialog.dismiss()
                    self.send({"kind": "vm.reidentify", "index": num(chosen.get("index")), "agent": name})

                grid.add_widget(Btn(self.name("agent", name), named, tid=f"vm.reidentify.as.{name}"))
            box.add_widget(grid)
        dialog.add_button(Btn(self.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
        dialog.open()

    def under_dialog(self, action: JSONObject) -> None:
        """The steam mole: the owner's next agent goes under an agent lying alone in a city."""
        seat = txt(action.get("seat"))
        box = fit_height(vbox(spacing=dp(6)))
        box.add_widget(Lbl(self.t("ui.vm.under_note"), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True))
        dialog = Dialog(self.t("ui.vm.under_where", player=self.seat_label(seat)), box)
        for c in seq_of(action.get("cities")):
            city = txt(c)

            def chosen(city: str = city) -> None:
                dialog.dismiss()
                intent: JSONObject = {"kind": "vm.place_under", "seat": seat, "city": city, "agent": None}
                self.with_phone(seat, lambda books: self.send({**intent, "books": books}))

            box.add_widget(Btn(self.name("city", city), chosen, tid=f"vm.under.{city}"))
        dialog.add_button(Btn(self.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
        dialog.open()

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

    # -- table options: corrections, segments, missions ----------------------------------------------
    def options(self) -> list[tuple[str, Callable[[], object], str]]:
        acts = self.actions()
        out: list[tuple[str, Callable[[], object], str]] = []
        if "vm.record_segment" in acts:
            out.append((self.t("ui.vm.segment"), self.segment_dialog, "vm.options.segment"))
        if "vm.adjust" in acts:
            out.append((self.t("ui.vm.adjust"), self.adjust_dialog, "vm.options.adjust"))
        if "vm.set_mission" in acts:
            out.append((self.t("ui.vm.set_mission"), self.mission_dialog, "vm.options.mission"))
        if "vm.reidentify" in acts:  # the stack lies face up: the table names one of its agents again
            action = acts["vm.reidentify"]
            out.append((self.t("ui.vm.reidentify"), lambda: self.reidentify_dialog(action), "vm.options.reidentify"))
        out.append((self.t("ui.vm.show_log"), self.log_dialog, "vm.options.log"))
        return out

    def _form(self, title: str, body: Widget, ok: Callable[[], object], tid: str) -> Dialog:
        dialog = Dialog(title, body, width=dp(640))

        def confirm_form() -> None:
            dialog.dismiss()
            ok()

        dialog.add_button(Btn(self.t("ui.cancel"), dialog.dismiss, tid="confirm.no"))
        dialog.add_button(Btn(self.t("ui.ok"), confirm_form, tid=f"{tid}.ok", colour=theme.GOOD))
        dialog.open()
        return dialog

    def seat_choice(self, seats: list[str], value: str, on: Callable[[Any], object], tid: str) -> Choice:
        return Choice([(s, self.seat_label(s)) for s in seats], value, on, tid=tid)

    def segment_dialog(self) -> None:
        seats = [txt(s) for s in seq_of(self.actions().get("vm.record_segment", {}).get("seats"))]
        if not seats:
            return
        form: dict[str, Any] = {"seat": seats[0], "chaos": 0, "unlock": "none", "bolts": 0, "copper": 0}

        def setter(key: str) -> Callable[[Any], None]:
            return lambda value: form.__setitem__(key, value)

        body = fit_height(vbox(spacing=dp(6)))
        body.add_widget(self.seat_choice(seats, form["seat"], setter("seat"), "vm.segment.seat"))
        for key, high in (("chaos", 20), ("bolts", 12), ("copper", 12)):
            body.add_widget(
                hbox(
                    Lbl(self.t(f"ui.vm.segment.{key}")),
                    Stepper(0, 0, high, setter(key), tid=f"vm.segment.{key}"),
                    size_hint_y=None,
                    height=theme.TOUCH,
                )
            )
        body.add_widget(
            Choice(
                [(u, self.t(f"ui.vm.unlock.{u}")) for u in strs(self.facts.get("unlocks"))],
                "none",
                setter("unlock"),
                tid="vm.segment.unlock",
            )
        )
        self._form(
            self.t("ui.vm.segment"),
            body,
            lambda: self.send({"kind": "vm.record_segment", **form, "label": ""}),
            "vm.segment",
        )

    def adjust_dialog(self) -> None:
        action = self.actions().get("vm.adjust", {})
        counters = [txt(c) for c in seq_of(action.get("counters"))]
        fixed = action.get("seat")
        seats = [fixed] if isinstance(fixed, str) else [txt(p.get("seat")) for p in self.players()]
        if not counters:
            return
        form: dict[str, Any] = {"seat": seats[0], "counter": counters[0], "delta": 1}
        body = fit_height(vbox(spacing=dp(6)))
        body.add_widget(self.seat_choice(seats, form["seat"], lambda v: form.__setitem__("seat", v), "vm.adjust.seat"))
        body.add_widget(
            Choice(
                [(c, self.t(f"ui.vm.counter.{c}")) for c in counters],
                form["counter"],
                lambda v: form.__setitem__("counter", v),
                tid="vm.adjust.counter",
                cols=4,
            )
        )
        body.add_widget(
            Choice([(-1, "−1"), (1, "+1")], 1, lambda v: form.__setitem__("delta", v), tid="vm.adjust.delta")
        )

        def send() -> None:
            seat = None if form["counter"] == "level" else form["seat"]
            self.send(
                {"kind": "vm.adjust", "counter": form["counter"], "delta": form["delta"], "seat": seat, "value": None}
            )

        self._form(self.t("ui.vm.adjust"), body, send, "vm.adjust")

    def mission_dialog(self) -> None:
        cities = [txt(c) for c in seq_of(self.actions().get("vm.set_mission", {}).get("cities"))]
        if not cities:
            return
        form: dict[str, Any] = {"city": cities[0], "reward": 2}
        body = fit_height(vbox(spacing=dp(6)))
        body.add_widget(
            Choice(
                [(c, self.name("city", c)) for c in cities],
                cities[0],
                lambda v: form.__setitem__("city", v),
                tid="vm.mission.city",
            )
        )
        body.add_widget(
            Choice([(2, "2"), (3, "3"), (4, "4")], 2, lambda v: form.__setitem__("reward", v), tid="vm.mission.reward")
        )
        self._form(
            self.t("ui.vm.set_mission"),
            body,
            lambda: self.send({"kind": "vm.set_mission", "city": form["city"], "reward": form["reward"], "label": ""}),
            "vm.mission",
        )

    def log_dialog(self) -> None:
        lines = [self.log_text(obj(line)) for line in seq_of(self.view.get("log"))]
        body = fit_height(
            vbox(*(Lbl(line, wrap=True, size=theme.FONT_SMALL) for line in reversed(lines)), spacing=dp(4))
        )
        view = scroll(body)
        view.size_hint_y = None
        view.height = dp(260)
        dialog = Dialog(self.t("ui.vm.show_log"), view, width=dp(680))
        dialog.add_button(Btn(self.t("ui.close"), dialog.dismiss, tid="confirm.no"))
        dialog.open()

    # -- the end ----------------------------------------------------------------------------------
    def end_body(self, msg: JSONObject) -> Widget:
        self.msg = msg
        v = obj(msg.get("view"))
        result = obj(v.get("result"))
        places = obj(result.get("places"))
        headline = self.announcement(msg) or self.t("ui.end.over")
        box = vbox(
            Panel(
                Lbl(headline, size=theme.FONT_TITLE, bold=True, halign="center", tid="end.headline"),
                colour=theme.GOOD,
                size_hint_y=None,
                height=dp(64),
            )
        )
        parts = ("segments", "buildings", "missions", "chaos_tokens", "codex", "total")
        grid = autogrid(len(parts) + 2, dp(2), row_force_default=True, row_default_height=dp(40))
        grid.add_widget(Lbl("", size_hint_x=None, width=dp(60)))
        grid.add_widget(Lbl("", size_hint_x=None, width=dp(150)))
        for part in parts:
            grid.add_widget(
                Lbl(self.t(f"ui.vm.score.{part}"), size=dp(14), colour=theme.MUTED, halign="center", one_line=True)
            )
        players = sorted(
            (obj(p) for p in seq_of(v.get("players"))), key=lambda p: num(places.get(txt(p.get("seat"))), 9)
        )
        for p in players:
            seat = txt(p.get("seat"))
            score = obj(p.get("score"))
            grid.add_widget(
                Lbl(
                    f"{num(places.get(seat))}.",
                    size=theme.FONT_BIG,
                    bold=True,
                    halign="center",
                    size_hint_x=None,
                    width=dp(60),
                )
            )
            grid.add_widget(
                hbox(
                    Chip("", theme.player_colour(txt(p.get("colour"))), width=dp(14), height=dp(26)),
                    Lbl(self._label_in(v, seat), bold=True, one_line=True),
                    size_hint_x=None,
                    width=dp(150),
                )
            )
            for part in parts:
                grid.add_widget(
                    Lbl(
                        str(num(score.get(part))),
                        halign="center",
                        size=theme.FONT_TITLE if part == "total" else theme.FONT,
                        bold=part == "total",
                        tid=f"end.score.{seat}.{part}",
                    )
                )
        box.add_widget(Panel(grid, Widget(), orientation="vertical"))
        return box


class SetupForm(base.SetupForm):
    settings = staticmethod(_settings)
    game = "victorian_masterminds"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        ctl = app.ctl
        self.count = 3
        self.colours = strs(self.facts.get("colours"))
        self.machines = [1, 2, 3, 4]
        self.names = ["", "", "", ""]  # the players' names (optional)
        self.first = 0
        self.gunner = str(ctl.pref(PREF_GUNNER, ">="))
        self.city_loot = bool(ctl.pref(PREF_CITY_LOOT, False))
        self.level: int | None = None
        self.level_touched = False
        super().__init__(app, **kwargs)

    def known_level(self) -> int | None:
        value = self.ctl.pref(start_level_key(self.count))
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def _set(self, name: str, rebuild: bool = True) -> Callable[[Any], None]:
        def set_value(value: Any) -> None:
            setattr(self, name, value)
            if name == "count":
                self.level, self.level_touched = None, False
                self.first = min(self.first, value - 1)
            if rebuild:
                self.rebuild()

        return set_value

    def build(self) -> None:
        self.add_widget(
            self.row(
                self.t("ui.vm.setup.players"),
                Choice([(n, str(n)) for n in (2, 3, 4)], self.count, self._set("count"), tid="setup.vm.players"),
            )
        )
        self.level_row()
        for i in range(self.count):

            def colour(value: Any, i: int = i) -> None:
                self.colours[i] = str(value)
                self.rebuild()

            def machine(value: int, i: int = i) -> None:
                self.machines[i] = value

            def named(value: str, i: int = i) -> None:
                self.names[i] = value

            self.add_widget(
                Panel(
                    hbox(
                        Lbl(self.t("ui.vm.setup.player", n=i + 1), bold=True),
                        Lbl(self.t("ui.vm.setup.machine"), colour=theme.MUTED, halign="right"),
                        Stepper(self.machines[i], 1, 6, machine, tid=f"setup.vm.machine.{i + 1}"),
                        size_hint_y=None,
                        height=theme.TOUCH,
                    ),
                    Choice(
                        [(c, theme.marked(c, self.t(f"ui.vm.colour.{c}"))) for c in strs(self.facts.get("colours"))],
                        self.colours[i],
                        colour,
                        tid=f"setup.vm.colour.{i + 1}",
                    ),
                    NameInput(self.names[i], named, hint=self.t("ui.setup.name_hint"), tid=f"setup.vm.name.{i + 1}"),
                    orientation="vertical",
                    size_hint_y=None,
                    height=3 * theme.TOUCH + 2 * theme.GAP + 2 * theme.PAD,
                )
            )
        n = self.count
        self.add_widget(
            self.row(
                self.t("ui.vm.setup.first"),
                Choice(
                    [(i, theme.marked(c, self.t(f"ui.vm.colour.{c}"))) for i, c in enumerate(self.colours[:n])],
                    self.first,
                    self._set("first", rebuild=False),
                    tid="setup.vm.first",
                ),
            )
        )
        self.add_widget(
            self.row(
                self.t("ui.settings.vm.gunner"),
                Choice(
                    [(">=", self.t("ui.settings.vm.gunner_ge")), (">", self.t("ui.settings.vm.gunner_gt"))],
                    self.gunner,
                    self._set("gunner", rebuild=False),
                    tid="setup.vm.gunner",
                ),
            )
        )
        on_off = [(False, self.t("ui.off")), (True, self.t("ui.on"))]
        self.add_widget(
            self.row(
                self.t("ui.settings.vm.city_loot"),
                Choice(on_off, self.city_loot, self._set("city_loot", rebuild=False), tid="setup.vm.city_loot"),
            )
        )
        self.add_widget(spacer(height=dp(10)))

    def level_row(self) -> None:
        """The Secret Service start level: the dial's numbers are not known to the companion, so it is
        asked once per player count and remembered. It comes right under the player count, in view
        before "Start the game", and shows "?" until it was entered or remembered."""
        known = self.known_level()
        if self.level is None:
            self.level = known if known is not None else 0

        def level(value: int) -> None:
            self.level = value
            self.level_touched = True
            stepper.label.color = theme.TEXT

        missing = known is None and not self.level_touched
        note = (
            self.t("ui.vm.setup.level_known")
            if known is not None
            else self.t("ui.vm.setup.level_unknown", players=self.count)
        )
        stepper = Stepper(self.level, 0, 11, level, tid="setup.vm.level")
        if missing:  # not a value yet: either button enters one (− gives 0)
            stepper.label.text = "?"
            stepper.label.color = theme.WARN
            stepper.minus.disabled = False
        self.add_widget(
            self.row(
                self.t("ui.vm.setup.level", players=self.count),
                hbox(stepper, Widget(), size_hint_y=None, height=theme.TOUCH),
                note,
            )
        )

    def problem(self) -> str:
        if self.known_level() is None and not self.level_touched:
            return self.t("ui.vm.setup.level_missing", players=self.count)
        colours = self.colours[: self.count]
        if len(set(colours)) != len(colours):
            return self.t("ui.vm.setup.same_colour")
        machines = self.machines[: self.count]
        if len(set(machines)) != len(machines):
            return self.t("ui.vm.setup.same_machine")
        return ""

    def remembered(self, last: JSONObject) -> None:
        players = [obj(p) for p in seq_of(last.get("players"))]
        known = strs(self.facts.get("colours"))
        if not 2 <= len(players) <= 4:
            return
        self.count = len(players)
        for i, p in enumerate(players):
            colour, machine = txt(p.get("colour")), num(p.get("machine"))
            if colour in known:
                self.colours[i] = colour
            if 1 <= machine <= 6:
                self.machines[i] = machine
            self.names[i] = txt(p.get("name"))
        self.level, self.level_touched = None, False

    def setup(self) -> JSONObject:
        players: list[JSON] = []
        for i in range(self.count):
            player: JSONObject = {"seat": f"p{i + 1}", "colour": self.colours[i], "machine": self.machines[i]}
            if self.names[i].strip():
                player["name"] = self.names[i].strip()
            players.append(player)
        return {
            "players": players,
            "secret_service_start": self.level if self.level is not None else 0,
            "gunner_rule": self.gunner,
            "capture_city_loot": self.city_loot,
            "first_player": f"p{self.first + 1}",
        }

    def remember(self) -> None:
        if self.level_touched and self.level is not None:
            self.app.run(self.ctl.set_pref(start_level_key(self.count), self.level))
