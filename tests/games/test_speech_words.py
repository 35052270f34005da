"""What the table says aloud (``Rules.announcements``), checked over every action of seeded random
games of the three boxed games (``speech_samples.py``): the moments the rulebooks make a table stop
for, said when they happen, with what the public table view shows — and nothing when nothing
happened. Every spoken text of the catalogues is reached by real play."""

from __future__ import annotations

import re
from typing import Any

import pytest
from drivers import VM_CONFIG
from speech_samples import GAMES, codes, play, samples, say_codes

from companion.app.i18n import LANGUAGES
from companion.app.readable import line
from companion.core.jsonvalue import JSONObject
from companion.core.summary import Line
from companion.games import get_rules


def of(game: str) -> list[tuple[JSONObject, JSONObject, tuple[Line, ...]]]:
    return [(b, a, lines) for g, b, a, lines in samples() if g == game]


def named(lines: tuple[Line, ...], code: str) -> list[Line]:
    return [item for item in lines if item.code == code]


def test_every_spoken_text_is_said_in_some_game() -> None:
    said = set().union(*(codes(item) for _, _, _, lines in samples() for item in lines))
    for game in GAMES:
        assert say_codes(game), game
        assert say_codes(game) <= said, sorted(say_codes(game) - said)


def test_a_quiet_action_says_nothing() -> None:
    """Most actions (a detective's move, an agent placed face down, an archaeologist dug in) are on
    the screen and need no voice: the table would never stop talking."""
    for game in GAMES:
        quiet = sum(not lines for _, _, lines in of(game))
        assert quiet > len(of(game)) // 2, game


def test_the_same_two_views_always_say_the_same() -> None:
    """A pure function of two public views: no clock, no chance, no memory."""
    for game, before, after, lines in samples()[::7]:
        assert get_rules(game).announcements(before, after) == lines
        assert get_rules(game).announcements(after, after) == ()  # nothing happened


# -- Scotland Yard ------------------------------------------------------------------------------------


def test_mister_x_shows_himself_after_his_3rd_8th_13th_18th_and_24th_move() -> None:
    """ "Mister X muss sich in regelmäßigen Abständen zeigen, und zwar nach seinem 3., 8., 13., 18. und
    24. Zug." — said when his reveal field is written, with the station it shows, and only then."""
    seen = 0
    for before, after, lines in of("scotland_yard"):
        new = after["log"][len(before["log"]) :]  # type: ignore[index]
        shown = [f["station"] for f in new if f["reveal"]]
        reveals = named(lines, "sy.say.reveal")
        assert [r.params["station"] for r in reveals] == shown
        assert all(f["field"] in (3, 8, 13, 18, 24) for f in new if f["reveal"])
        seen += len(reveals)
        if reveals:
            words = line(reveals[0], "de")
            assert words == f"Mister X zeigt sich auf Station {shown[0]}."
    assert seen >= 5


def test_the_tables_mister_x_says_his_ticket_and_a_players_mister_x_says_nothing() -> None:
    """The table plays Mister X: nobody moves his pawn or lays his ticket, so the table says which
    ticket he used (the travel log shows it); a player's Mister X lays it himself."""
    said = {"ai": 0, "human": 0}
    for before, after, lines in of("scotland_yard"):
        new = after["log"][len(before["log"]) :]  # type: ignore[index]
        moves = named(lines, "sy.say.x_move") + named(lines, "sy.say.x_double")
        if not after["mrx"]["ai"]:  # type: ignore[index]
            assert moves == []
            said["human"] += bool(new)
            continue
        if not new:
            assert moves == []
            continue
        said["ai"] += 1
        (move,) = moves
        spoken = [move.params["by"]] if move.code == "sy.say.x_move" else [move.params["first"], move.params["second"]]
        assert [p["t"] for p in spoken] == [f"sy.say.by.{f['ticket']}" for f in new]  # type: ignore[index]
        assert all(str(f["station"]) not in line(move, lang) for f in new for lang in LANGUAGES if f["station"])
    assert said["ai"] > 20 and said["human"] > 20
    words = {line(Line("sy.say.x_move", {"by": {"t": "sy.say.by.bus"}}), lang) for lang in LANGUAGES}
    assert "Mister X fährt mit dem Bus." in words


def test_the_tables_detectives_say_each_move_for_the_pawn_and_nothing_else_of_theirs() -> None:
    """The table plays detectives (issue 43): nobody decides their moves at the table, so each one is
    said as the instruction every screen shows ("Move detective 2 by taxi to station 94"), once, when
    it is made; the players' own moves and a confirmed pawn say nothing."""
    said = 0
    for before, after, lines in of("scotland_yard"):
        told = named(lines, "sy.say.instruction.detective") + named(lines, "sy.say.instruction.bobby")
        new = after.get("instruction")
        if not isinstance(new, dict) or new == before.get("instruction"):
            assert told == []
            continue
        (item,) = told
        n, station = str(new["figure"])[1:], new["station"]
        by = {"taxi": "by taxi", "bus": "by bus", "underground": "by underground"}[str(new["ticket"])]
        kind = "bobby" if new["bobby"] else "detective"
        assert line(item, "en") == f"Move {kind} {n} {by} to station {station}."
        assert line(item, "de").startswith(("Detektiv", "Bobby")) and str(station) in line(item, "de")
        said += 1
    assert said >= 20  # three seeded games of the table's detectives (27 moves: they catch him early)


def test_the_capture_names_the_captor_and_the_station_and_the_end_names_the_winner() -> None:
    """ "Zieht ein Detektiv oder Bobby auf den Ort, auf dem sich Mister X befindet, hat Mister X ebenfalls
    verloren." """
    ends = 0
    for before, after, lines in of("scotland_yard"):
        end = after.get("end")
        if not isinstance(end, dict) or before.get("end"):
            assert not named(lines, "sy.say.winner.mrx") + named(lines, "sy.say.winner.detectives")
            continue
        ends += 1
        if end["reason"] == "captured":
            (caught,) = named(lines, "sy.say.captured")
            assert caught.params["station"] == end["station"]
            figure = str(end["figure"])
            seat = next(s for s in after["seats"] if figure in s.get("figures", []))  # type: ignore[union-attr]
            said = line(caught, "en")
            if figure.startswith("D") and seat["name"]:  # the detective's player, by the name typed at setup
                assert said.startswith(f"{seat['name']} catches Mister X"), said
            elif figure.startswith("D"):  # a seat nobody named (the table's): its figure
                assert said.startswith(f"Detective {figure[1:]} catches Mister X"), said
            else:  # a bobby is moved by all the detectives
                assert said.startswith(f"Bobby {figure[1:]} catches"), said
        winner = {"mrx": "sy.say.winner.mrx", "detectives": "sy.say.winner.detectives"}.get(str(end["winner"]))
        assert [item.code for item in lines][-1:] == ([winner] if winner else [f"sy.say.{end['reason']}"])
    assert ends >= 6


# -- Victorian Masterminds ----------------------------------------------------------------------------


def test_each_resolved_stack_is_said_agent_by_agent_in_the_order_they_were_placed() -> None:
    """ "In der Stadt liegen jetzt drei Komplizen. Bevor der nächste Spieler am Zug ist, wird der
    Komplizenstapel abgehandelt" — once it is, the table hears what every agent of it did."""
    stacks = 0
    for before, after, lines in of("victorian_masterminds"):
        stack = after.get("last_stack")
        agents = [item for item in lines if item.code == "vm.say.agent"]
        if stack == before.get("last_stack"):
            assert not agents and not named(lines, "vm.say.stack")
            continue
        stacks += 1
        assert isinstance(stack, dict)
        assert lines[0] == Line("vm.say.stack", {"city": {"t": f"vm.city.{stack['city']}"}})
        assert [a.params["agent"] for a in agents] == [{"t": f"vm.agent.{a['agent']}"} for a in stack["agents"]]
        for item, agent in zip(agents, stack["agents"], strict=True):
            if agent["building"]:
                assert item.params["outcome"] == {
                    "t": "vm.say.outcome.captured",
                    "building": {"t": f"vm.say.building.{agent['building']}"},
                }
    assert stacks > 30


def test_the_secret_service_level_is_said_when_it_changes() -> None:
    """ "Immer wenn jemand ein Gebäude stiehlt (siehe S. 11), wird der Geheimdienst alarmiert und seine
    Stufe um 1 erhöht" """
    rises = 0
    for before, after, lines in of("victorian_masterminds"):
        said = named(lines, "vm.say.level_up") + named(lines, "vm.say.level_down")
        if after["level"] == before["level"]:
            assert said == []
            continue
        assert [s.params["level"] for s in said] == [after["level"]]
        rises += after["level"] > before["level"]  # type: ignore[operator]
    assert rises > 10


def test_the_end_says_the_winner_with_the_points() -> None:
    ends = [
        (after, lines)
        for before, after, lines in of("victorian_masterminds")
        if after["result"] and not before["result"]
    ]
    assert len(ends) >= 4
    for after, lines in ends:
        assert lines[-2].code == "vm.say.over" and lines[-1].code == "vm.say.winner"
        winners = after["result"]["winners"]  # type: ignore[index]
        totals = {p["seat"]: p["score"]["total"] for p in after["players"]}  # type: ignore[union-attr]
        assert lines[-1].params["points"] == max(totals[w] for w in winners)
        assert lines[-1].params["count"] == len(winners)
        if len(winners) == 2:  # a shared win names both
            assert " and " in line(lines[-1], "en") and " und " in line(lines[-1], "de")


# -- Mykerinos ----------------------------------------------------------------------------------------


def test_the_survey_says_each_zone_to_count_and_where_it_lies() -> None:
    """ "Die Zonen werden getrennt ausgewertet, beginnend mit der Zone oben links (direkt unter dem
    Spielplan), und dann Zeile für Zeile fortschreitend bis zur Zone unten rechts." """
    zones = 0
    for _before, after, lines in of("mykerinos"):
        said = named(lines, "myk.say.zone")
        survey = after.get("survey")
        if not isinstance(survey, dict) or survey["waiting"]["for"] != "counts":
            assert said == []
            continue
        if said:
            zones += 1
            (zone,) = said
            assert (zone.params["zone"], zone.params["zones"], zone.params["row"]) == (
                survey["zone"],
                survey["of"],
                survey["row"],
            )
            assert zone.params["side"] == {"t": f"myk.say.side.{survey['side']}"}
            assert zone.params["row"] == (survey["zone"] + 1) // 2  # two zones a row, from the board down
    assert zones > 20


def test_a_season_ends_with_its_survey_and_the_next_begins_with_its_start_player() -> None:
    """ "Der letzte Spieler auf der Leiste zur Auflösung von Gleichständen wird Startspieler der
    nächsten Runde." """
    seasons = 0
    for before, after, lines in of("mykerinos"):
        if after["phase"] == "survey" and before["phase"] != "survey":
            assert lines[0] == Line("myk.say.survey", {"season": after["season"]})
        if named(lines, "myk.say.season"):
            seasons += 1
            assert after["season"] == before["season"] + 1  # type: ignore[operator]
            (first,) = named(lines, "myk.say.begins")
            assert first.params["player"] == {"t": f"myk.say.colour.{after['turn']['seat']}"}  # type: ignore[index]
    assert seasons >= 9


def test_the_exhibition_ends_the_game_and_the_winner_is_said() -> None:
    """ "Der Spieler, der nach dieser Abrechnung die meisten Punkte besitzt, gewinnt das Spiel." """
    ends = [(a, lines) for b, a, lines in of("mykerinos") if a["phase"] == "over" and b["phase"] != "over"]
    assert len(ends) >= 6
    for after, lines in ends:
        assert [item.code for item in lines[-2:]] == ["myk.say.over", "myk.say.winner"]
        scores: dict[str, Any] = {s: p["score"] for s, p in after["players"].items()}  # type: ignore[union-attr]
        assert lines[-1].params["points"] == max(scores[w] for w in after["result"]["winners"])  # type: ignore[index]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_line_reads_as_words_in_every_language(lang: str) -> None:
    """No placeholder, no message code, no empty parameter left in anything said."""
    for _, _, _, lines in samples():
        for item in lines:
            words = line(item, lang)
            assert (
                words.strip() and "{" not in words and ".say." not in words and not re.search(r"\b(sy|vm|myk)\.", words)
            )


def test_players_are_said_by_the_names_typed_at_setup_and_by_colour_only_without_one() -> None:
    """The screen names players by the names the table typed; the voice says the same names (a
    colour only for a seat nobody named), in every language."""
    vm_players = [{**p, "name": n} for p, n in zip(VM_CONFIG["players"], ["Ann", "", "Chloé"], strict=False)]  # type: ignore[arg-type]
    myk = {"seats": ["white", "red", "green"], "layout": "ring5", "names": {"white": "Ann", "green": "Chloé"}}
    # game, setup, the unnamed seat's colour, the named seats' colours (never said)
    for game, config, unnamed, hidden in (
        ("victorian_masterminds", {**VM_CONFIG, "players": vm_players}, "Blue", ("Red", "Green")),
        ("mykerinos", myk, "Red", ("White", "Green")),
    ):
        said: set[str] = set()
        for seed in (1, 2, 3):
            for _, _before, _after, lines in play(game, config, seed):
                for item in (i for i in lines if {"player", "players"} & set(i.params)):
                    words = line(item, "en")
                    assert not any(re.search(rf"\b{c}\b", words) for c in hidden), words
                    said |= {w for w in ("Ann", "Chloé", unnamed) if re.search(rf"\b{w}\b", words)}
                    for lang in LANGUAGES:  # a name is a name in every language
                        assert all(n in line(item, lang) for n in ("Ann", "Chloé") if n in words)
        assert said == {"Ann", "Chloé", unnamed}, (game, said)
