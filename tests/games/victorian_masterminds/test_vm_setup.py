"""Setup: the required Secret Service start level, players, options; the start of the game."""

from __future__ import annotations

from typing import Any

import pytest
from vm_helpers import config, new_table, seat

from companion.core import TABLE, Game, SetupError
from companion.games import get_rules
from companion.games.victorian_masterminds import RULES
from companion.games.victorian_masterminds.events import PileShuffled
from companion.games.victorian_masterminds.model import AGENTS, BUILDINGS, CITIES
from companion.games.victorian_masterminds.views import seat_view, table_view


def test_registered_under_its_name() -> None:
    assert get_rules("victorian_masterminds") is RULES


def test_setup_refuses_to_invent_the_secret_service_start_level() -> None:
    cfg = config(3)
    del cfg["secret_service_start"]
    with pytest.raises(SetupError) as info:
        RULES.setup(cfg)
    assert info.value.code == "vm.setup.start_level"
    for bad in (-1, 12, "4", True, None):
        with pytest.raises(SetupError) as info:
            RULES.setup({**config(3), "secret_service_start": bad})
        assert info.value.code == "vm.setup.start_level"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"players": []}, "vm.setup.players"),
        ({"players": [{"machine": 1}]}, "vm.setup.players"),
        ({"players": [{"machine": i} for i in range(1, 6)]}, "vm.setup.players"),
        ({"players": [{"machine": 1}, {"machine": 1}]}, "vm.setup.machine"),
        ({"players": [{"machine": 1}, {"machine": 7}]}, "vm.setup.machine"),
        ({"players": [{"machine": 1}, {}]}, "vm.setup.machine"),
        ({"players": [{"machine": 1, "seat": "x"}, {"machine": 2, "seat": "x"}]}, "vm.setup.seat"),
        ({"players": [{"machine": 1, "seat": "table"}, {"machine": 2}]}, "vm.setup.seat"),
        ({"players": [{"machine": 1, "colour": "red"}, {"machine": 2, "colour": "red"}]}, "vm.setup.colour"),
        ({"players": [{"machine": 1, "lab_cells": 5}, {"machine": 2}]}, "vm.setup.lab_cells"),
        ({"players": [{"machine": 1, "hat": 1}, {"machine": 2}]}, "vm.setup.unknown_option"),
        ({"gunner_rule": "=="}, "vm.setup.gunner_rule"),
        ({"capture_city_loot": 1}, "vm.setup.capture_city_loot"),
        ({"first_player": "p9"}, "vm.setup.first_player"),
        ({"missions": {"oslo": {"reward": 2}}}, "vm.setup.missions"),
        ({"missions": {"rome": {"reward": 5}}}, "vm.setup.missions"),
        ({"missions": {"rome": {"reward": 2, "text": ""}}}, "vm.setup.missions"),
        ({"seed": 1}, "vm.setup.unknown_option"),
    ],
)
def test_bad_setups_are_refused(change: dict[str, Any], code: str) -> None:
    with pytest.raises(SetupError) as info:
        RULES.setup({**config(3), **change})
    assert info.value.code == code


def test_the_initial_state() -> None:
    s = RULES.setup(
        {
            **config(4, start=3),
            "first_player": "p3",
            "gunner_rule": ">",
            "capture_city_loot": True,
            "missions": {"paris": {"reward": 4, "label": "three codex"}},
        }
    )
    assert s.seats == ("p1", "p2", "p3", "p4") and s.active_seat == "p3" and not s.started
    assert s.level == 3 and s.settings.gunner_rule == ">" and s.settings.capture_city_loot
    assert all(p.firepower == 1 and p.scientists == 1 and p.lab_cells == 2 for p in s.players)
    assert [p.machine for p in s.players] == [1, 2, 3, 4] and s.players[0].machine_name == "Beluga"
    assert all(s.standing_in(c) == BUILDINGS for c in CITIES)
    assert s.mission("paris") is not None and s.mission("paris").reward == 4  # type: ignore[union-attr]
    assert s.mission("rome") is not None and s.mission("rome").reward is None  # type: ignore[union-attr]
    assert s.mission_deck == 19 and s.scientist_supply() == 8 and s.threshold == 3
    assert RULES.setup(config(2)).threshold == 2


def test_start_shuffles_each_pile_as_a_secret_recorded_event() -> None:
    t = new_table(3, seed=11)
    shuffles = [e for e in t.events() if isinstance(e, PileShuffled)]
    assert [e.seat for e in shuffles] == ["p1", "p2", "p3"]
    for ev in shuffles:
        assert sorted(ev.order) == sorted(AGENTS) and t.s.player(ev.seat).pile == ev.order
    # replay with another seed folds to the same piles: the draw is in the log
    again = Game(RULES, t.game.config, seed=999, entries=t.game.entries)
    assert again.state == t.s
    # only the owner sees its top agent; the table sees pile sizes
    assert seat_view(t.s, "p2")["pile"] == {"size": 5, "exact": True, "top": shuffles[1].order[0], "agents": None}
    assert [p["pile_size"] for p in table_view(t.s)["players"]] == [5, 5, 5]  # type: ignore[index]
    assert "order" not in str(t.game.snapshot(TABLE))


def test_views_for_unknown_audiences_are_refused() -> None:
    t = new_table(2)
    from companion.core import Audience, Forbidden

    with pytest.raises(Forbidden):
        RULES.view(t.s, Audience.of_seat("p9"))
    assert RULES.legal(t.s, Audience.of_seat("p9")) == {"actions": []}
    assert RULES.view(t.s, Audience.debug())["state"]["players"][0]["pile"]  # type: ignore[index]
    assert seat("p1").seat == "p1"
