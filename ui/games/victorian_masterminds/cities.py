"""The five cities, a card each: the city's name and its stack's height (only the height: the agents
lie face down), its standing buildings, its mission. A city is tapped to place an agent there while
that is legal (the card changes, its contents stay)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.games.base import num, obj, seq_of, strs, txt
from ui.parts import Part
from ui.widgets import Chip, Lbl, Panel, TapPanel, chip_part, hbox, one_size

if TYPE_CHECKING:
    from ui.games.victorian_masterminds.screen import Screen


def cities_row() -> Widget:
    return hbox(size_hint_y=None, height=dp(110))


def city_mission(words: str) -> Widget:
    return Lbl(words, size=theme.FONT_SMALL, colour=theme.MUTED, one_line=True, size_hint_y=None, height=dp(18))


def city_parts(tv: Screen) -> list[Part]:
    """A city each: its stack's height, its standing buildings, its mission; tap it to place an
    agent there while that is legal (the card changes, its contents stay)."""
    v = tv.view
    cities = obj(v.get("cities"))
    stacks = obj(v.get("stacks"))
    place = tv.actions().get("vm.place")
    placeable = {txt(c) for c in seq_of(place.get("cities"))} if place and tv.can_place_here(place) else set()
    parts = []
    for city in strs(tv.facts.get("cities")):
        info = obj(cities.get(city))
        standing = frozenset(txt(b) for b in seq_of(info.get("standing")))
        mission = info.get("mission")
        if isinstance(mission, dict):
            reward = mission.get("reward")
            words = tv.t("ui.vm.mission", reward=reward if isinstance(reward, int) else "?")
        else:
            words = tv.t("ui.vm.no_mission")
        inside = [
            city_title(tv, city, num(stacks.get(city))),
            Part("buildings", city_buildings, tv, standing),
            Part("mission", city_mission, words),
        ]
        parts.append(Part(f"city.{city}", city_card, tv, city, city in placeable, children=inside))
    return parts


def city_card(tv: Screen, city: str, placeable: bool) -> Widget:
    if placeable:
        return TapPanel(
            partial(tv.place, city),
            tid=f"vm.place.{city}",
            orientation="vertical",
            padding=dp(4),
            spacing=dp(2),
        )
    card = Panel(orientation="vertical", padding=dp(4), spacing=dp(2))
    card.tid = f"vm.city.{city}"
    return card


def city_title(tv: Screen, city: str, height: int) -> Part:
    """The city's name and its stack's height (changed in place)."""
    count = chip_part(
        "count",
        str(height),
        theme.ACCENT if height else theme.PANEL,
        text_colour=theme.TEXT if height else theme.LINE,
        size=theme.FONT,
        bold=True,
        width=dp(26),
        height=dp(24),
        tid=f"vm.stack.{city}",
    )
    return Part("title", title_row, children=[Part("name", city_name, tv, city), count])


def title_row() -> Widget:
    return hbox(spacing=dp(2), size_hint_y=None, height=dp(26))


def city_name(tv: Screen, city: str) -> Widget:
    return Lbl(tv.name("city", city), bold=True, one_line=True)


def city_buildings(tv: Screen, standing: frozenset[str]) -> Widget:
    grid = GridLayout(cols=2, spacing=dp(3), size_hint_y=None, height=dp(46))
    for building in strs(tv.facts.get("buildings")):
        up = building in standing
        grid.add_widget(
            Chip(
                tv.t(f"ui.vm.short.{building}"),
                theme.PANEL_HI if up else theme.BACKGROUND,
                theme.TEXT if up else theme.LINE,
                size=dp(14),
            )
        )
    return one_size(grid)  # "Monument" at the size of "Factory" (large text)
