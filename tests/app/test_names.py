"""Refusals name seats, colours, figures, tickets and places in words, in the table's language, from
the open game's public view: "It is Blue's turn", never "It is p2's turn" (companion/app/names.py).
Checked on real games of every box, on a real table, and through a real phone server."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import pytest
from drivers import DRIVERS
from harness import rig

from companion.app.i18n import error_text
from companion.app.names import in_words, refusal_text, seat_names
from companion.app.savedgame import LoadedGame
from companion.app.store import GameHeader
from companion.core import TABLE, Audience, Game
from companion.core.errors import CompanionError, IllegalMove
from companion.games import get_rules

SY = {"mister_x": "Alice", "detectives": ["Bob", "Carla"]}
VM = DRIVERS["victorian_masterminds"][1]  # red p1, blue p2, green p3
MYK = {"seats": ["blue", "red", "green"], "layout": "line4"}


def loaded(rules: str, config: dict) -> LoadedGame:
    game = Game(get_rules(rules), config, 7)
    header = GameHeader(1, rules, "Friday night", config, 7, "", "", "playing")
    return LoadedGame(header, game)


def test_seats_are_named_by_the_names_entered_else_by_their_label() -> None:
    sy = loaded("scotland_yard", SY).game.snapshot(TABLE)["view"]
    assert seat_names("scotland_yard", sy) == {"mrx": "Alice", "d1": "Bob", "d2": "Carla"}
    myk = loaded("mykerinos", MYK).game.snapshot(TABLE)["view"]
    assert seat_names("mykerinos", myk)["red"] == {"t": "myk.colour.red"}


def test_ids_in_refusals_become_words_in_every_language() -> None:
    vm = loaded("victorian_masterminds", VM)
    turn = IllegalMove("vm.not_your_turn", "not your turn", active="p2")
    assert refusal_text(turn, "en", (), vm) == "It is Blue's turn."
    assert refusal_text(turn, "fr", (), vm) == "C'est au tour de Bleu."
    assert refusal_text(turn, "es", (), vm) == "Es el turno de Azul."
    assert refusal_text(turn, "de", (), None) == "p2 ist am Zug."  # no game open: the id stays

    sy = loaded("scotland_yard", SY)
    assert refusal_text(IllegalMove("sy.not_your_figure", figure="D1"), "fr", (), sy) == (
        "Vous ne déplacez pas Détective 1."
    )
    # A text that words a ticket its own way gets the ticket's id (a select), not its label.
    assert refusal_text(IllegalMove("sy.no_ticket", ticket="underground"), "es", (), sy) == (
        "No quedan boletos de metro."
    )
    assert refusal_text(IllegalMove("sy.not_connected", ticket="bus", station=156), "fr", (), sy) == (
        "Aucune ligne de bus ne va d'ici à la station 156."
    )
    assert refusal_text(IllegalMove("sy.no_ticket", ticket="black"), "fr", (), sy) == "Plus de Black Ticket."
    # Without an open game too (the command line's words).
    assert error_text(IllegalMove("sy.not_connected", ticket="underground", station=9), "de") == (
        "Von hier fährt keine Underground zur Station 9."
    )
    assert refusal_text(IllegalMove("sy.already_moved", figure="B2"), "de", (), sy).startswith("Bobby 2 ")

    myk = loaded("mykerinos", MYK)
    words = in_words({"turn": "green", "colour": "red", "count": 3}, "mykerinos", {"seats": []}, "fr")
    assert words == {"turn": "green", "colour": "Rouge", "count": 3}  # no such seat in that view: kept
    assert refusal_text(IllegalMove("myk.not_your_turn", turn="green"), "fr", (), myk) == "C'est au tour de Vert."
    # Values that are no id of the game stay as they are.
    assert in_words({"figure": "Z9", "seat": "nobody"}, "scotland_yard", {}, "en") == {"figure": "Z9", "seat": "nobody"}


def test_a_phone_refused_by_the_rules_reads_the_other_seats_colour(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rig(tmp_path, "victorian_masterminds", VM) as r:
            r.server.language = lambda: "fr"
            game = r.table.game
            assert game is not None
            assert r.table.current is not None
            game_id = r.table.current.header.id
            await r.table.submit_json({"seq": game.seq, "intent": {"kind": "vm.start"}}, TABLE, game_id=game_id)
            phones = await r.connect_all(["p2"])
            answer = await phones["p2"].intent(game.seq, {"kind": "vm.end_turn", "seat": "p2"})
            assert answer["type"] == "refused" and answer["params"] == {"active": "p1"}, answer
            assert answer["text"] == "C'est au tour de Rouge."  # the code's params keep the id
            for phone in phones.values():
                await phone.close()

    asyncio.run(scenario())


def test_a_refusal_without_a_view_still_has_words() -> None:
    assert (
        refusal_text(CompanionError("stale"), "es", (), None)
        == "La partida ha avanzado: vuelve a mirar e inténtalo de nuevo."
    )
    assert Audience.of_seat("p1").seat == "p1"


def _words_of_a_named_game(rules: str, config: dict, seed: int, lang: str) -> list[str]:
    """Every status, overview and action line (the CLI's ``show`` and ``do``, the undo question)
    of a whole seeded game, in ``lang``."""
    from companion.app import readable
    from companion.games import get_summary

    name, _default, choose = DRIVERS[rules]
    game = Game(get_rules(name), config, seed)
    summary = get_summary(name)
    rng = random.Random(seed)
    said: list[str] = []
    while game.outcome() is None:
        view = game.rules.view(game.state, TABLE)
        said += [readable.line(summary.status(view), lang), readable.lines(summary.overview(view), lang)]
        choice = choose(game, rng)
        assert choice is not None
        before = game.state
        events = game.decide(choice[0], choice[1], game.seq)
        game.commit(events)
        said.append(readable.line(game.rules.describe_action(before, tuple(events), TABLE), lang))
    said.append(readable.line(summary.status(game.rules.view(game.state, TABLE)), lang))
    return said


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_named_player_is_called_by_the_name_in_every_line_and_a_colour_only_without_one(lang: str) -> None:
    """Mykerinos and Victorian Masterminds with two of three seats named: the status ("Ann's
    turn"), the overview, every action ("Ann took a parcel") and the end ("Ann won") say the names
    as typed; a colour is said only for the seat nobody named, and as a name ("Green", not "green")."""
    from companion.app.i18n import text

    myk = {"seats": ["blue", "red", "green"], "layout": "line4", "names": {"blue": "ann", "red": "Bo"}}
    vm = {
        "players": [
            {"seat": "p1", "colour": "red", "machine": 1, "name": "ann"},
            {"seat": "p2", "colour": "blue", "machine": 2, "name": "Bo"},
            {"seat": "p3", "colour": "green", "machine": 3},
        ],
        "secret_service_start": 4,
    }
    for rules, config, named, unnamed in (
        ("mykerinos", myk, ("blue", "red"), "green"),
        ("victorian_masterminds", vm, ("red", "blue"), "green"),
    ):
        lines = "\n".join(_words_of_a_named_game(rules, config, 3, lang))
        prefix = "myk" if rules == "mykerinos" else "vm"
        assert "ann" in lines and "Bo" in lines
        for colour in named:  # a named seat's colour, as a word on its own, is never said
            word = text(f"{prefix}.colour.{colour}", {}, lang)
            assert re.search(rf"\b{re.escape(word)}\b", lines, re.IGNORECASE) is None, (rules, word)
        green = text(f"{prefix}.colour.{unnamed}", {}, lang)
        assert green[0].isupper() and green in lines
        assert re.search(rf"\b{re.escape(green.lower())}\b", lines) is None  # never lower case


def test_one_tidying_of_a_typed_name_for_every_game_and_audience() -> None:
    """ " om  berg " typed at setup is "om berg" in every game's views, for the table and the
    seats alike: single spaces, the case as typed (issue 42, item 5)."""
    configs = {
        "scotland_yard": {"mister_x": " om  berg ", "detectives": ["Ann"]},
        "victorian_masterminds": {
            "players": [
                {"seat": "p1", "colour": "red", "machine": 1, "name": " om  berg "},
                {"seat": "p2", "colour": "blue", "machine": 2},
            ],
            "secret_service_start": 4,
        },
        "mykerinos": {"seats": ["blue", "red"], "layout": "line4", "names": {"blue": " om  berg "}},
    }
    for rules, config in configs.items():
        game = Game(get_rules(rules), config, 1)
        names = seat_names(rules, game.rules.view(game.state, TABLE))
        assert "om berg" in names.values(), (rules, names)
        assert not any(isinstance(n, str) and n != n.strip() for n in names.values())
