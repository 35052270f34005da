"""What the table enters is checked against the rulebook: patron parcels are worth 0, 2 or 3; the
last zone's counts follow from the board; the museum layout may change until its first
archaeologist; and the view says where the zone under survey lies."""

from __future__ import annotations

from typing import Any

from myk_helpers import do, new_game, play, refused

from companion.core import TABLE, Audience, Game, Undo
from companion.games.mykerinos import intents as it
from companion.games.mykerinos.events import ZoneCounted
from companion.games.mykerinos.state import MykState, zone_place

LEMON_FIRST = ("lord_lemon", "mrs_blackmore", "sir_brown", "colonel_tangerine", "lady_violet")


def started(config: dict[str, Any]) -> Game[Any]:
    game = new_game(config)
    do(game, it.ChooseStartPlayer(str(config["seats"][0])))
    do(game, it.EnterPatrons(LEMON_FIRST))
    return game


def survey(game: Game[Any]) -> Any:
    return game.rules.view(game.state, TABLE)["survey"]


def test_a_parcel_with_a_patron_is_never_worth_five() -> None:
    """DE: "Anmerkung: Eine der Parzellen (diejenige, die 5 Punkte einbringt), ist keinem Mäzen
    zugeordnet und bringt bei der Schlusswertung keine weiteren Punkte." — the 5-point parcel is
    the patron-less one; a patron parcel brings 0, 2 or 3."""
    game = started({"seats": ["blue", "red", "green"]})
    play(game, "blue start", "red pass", "green pass", "blue pass", "counts blue=1")
    take = [o for o in game.rules.legal(game.state, Audience.of_seat("blue")) if o["kind"] == "myk.take_parcel"]
    assert take == [
        {
            "kind": "myk.take_parcel",
            "seat": "blue",
            "patrons": ["lady_violet", "lord_lemon", "sir_brown", "mrs_blackmore", "colonel_tangerine"],
            "points": [0, 2, 3],
            "blank": True,
            "blank_points": 5,
        }
    ]
    assert refused(game, "blue parcel lemon 5") == "myk.patron_parcel_points"
    assert refused(game, "table:blue parcel violet 5") == "myk.patron_parcel_points"
    play(game, "blue parcel blank 5")
    state: MykState = game.state
    assert state.blank[state.si("blue")] == 1 and state.score[state.si("blue")] == 5


def test_the_last_zone_holds_every_archaeologist_left_on_the_board() -> None:
    """DE: "Die Zonen werden getrennt ausgewertet, beginnend mit der Zone oben links (direkt unter
    dem Spielplan), und dann Zeile für Zeile fortschreitend bis zur Zone unten rechts." Every
    archaeologist stands in some zone, so what the earlier zones did not hold is in the last one:
    the companion counts it, and the ranking is the board's (red 3 before blue 2), not whatever
    was typed."""
    game = started({"seats": ["blue", "red", "green"]})
    play(
        game,
        "blue start",
        "red start",
        "green start",
        "blue extend",
        "red extend",
        "green pass",
        "blue pass",
        "red extend",
    )
    state: MykState = game.state
    assert dict(zip(state.colours, state.board, strict=True)) == {"blue": 3, "red": 5, "green": 1}
    play(game, "counts blue=1", "blue parcel lemon 2")
    play(game, "counts red=2", "red parcel brown 3", "counts green=1")
    events = [e for e in _step_events(game, "green parcel violet 0") if isinstance(e, ZoneCounted)]
    assert events == [ZoneCounted(3, (("blue", 2), ("red", 3)), ("red", "blue"))]
    assert survey(game)["counts"] == {"blue": 2, "red": 3} and survey(game)["waiting"]["seat"] == "red"
    assert not any(o["kind"] == "myk.zone_counts" for o in game.rules.legal(game.state, TABLE))
    assert refused(game, "counts blue=2 red=1") == "myk.not_counting"
    # the last zone done, the season ends
    play(game, "red parcel blackmore 3", "blue parcel tangerine 0")
    state = game.state
    assert state.season == 2 and not any(state.board)


def _step_events(game: Game[Any], line: str) -> tuple[Any, ...]:
    from myk_helpers import step

    return step(game, line)


def test_the_museum_layout_may_change_until_its_first_archaeologist() -> None:
    """DE: "Außerdem befinden sich zwischen je zwei Flügeln Räume mit dem Wert 2. Diese gehören zu
    beiden Flügeln, an die sie angrenzen" — whether the wings stand in a row (four 2-rooms) or a
    ring (five) is the board's; the table may switch until a room is taken."""
    game = new_game({"seats": ["blue", "red", "green"]})
    assert {"kind": "myk.set_layout", "layouts": ["ring5"]} in game.rules.legal(game.state, TABLE)
    do(game, it.SetLayout("ring5"))
    assert game.state.layout == "ring5" and game.rules.view(game.state, TABLE)["layout"] == "ring5"
    do(game, it.ChooseStartPlayer("blue"))
    do(game, it.EnterPatrons(LEMON_FIRST))
    play(game, "blue start", "red pass", "green pass", "blue pass")
    do(game, it.SetLayout("line4"))  # during the survey, the museum still empty
    do(game, it.SetLayout("ring5"))
    for intent, actor, code in (
        (it.SetLayout("ring5"), TABLE, "myk.zero_correction"),
        (it.SetLayout("spiral"), TABLE, "myk.unknown_layout"),
        (it.SetLayout("line4"), Audience.of_seat("blue"), "myk.table_only"),
    ):
        before = game.state
        try:
            do(game, intent, actor)
        except Exception as exc:
            assert getattr(exc, "code", "") == code
        else:
            raise AssertionError(f"{intent} was accepted")
        assert game.state == before
    play(game, "counts blue=1", "blue museum 5-1:2")  # a room only the ring has
    assert not any(o["kind"] == "myk.set_layout" for o in game.rules.legal(game.state, TABLE))
    try:
        do(game, it.SetLayout("line4"))
    except Exception as exc:
        assert getattr(exc, "code", "") == "myk.museum_in_use"
    else:
        raise AssertionError("switched with a room taken")
    # undo brings the choice back, as the museum is empty again
    do(game, Undo())
    assert any(o["kind"] == "myk.set_layout" for o in game.rules.legal(game.state, TABLE))


def test_the_view_says_where_the_zone_lies() -> None:
    """DE: "Zu Beginn der ersten, zweiten und dritten Runde legt man je 8 Parzellen aus und bildet
    so jeweils 4 Zonen (2 Zeilen mit je 2 Zonen ...). Zu Beginn der vierten Runde legt man 12
    Parzellen aus und bildet so 6 Zonen (3 Zeilen mit je 2 Zonen ...)" — zone n lies in row
    (n+1)//2, on the left when n is odd."""
    assert [zone_place(n) for n in range(1, 7)] == [
        (1, "left"),
        (1, "right"),
        (2, "left"),
        (2, "right"),
        (3, "left"),
        (3, "right"),
    ]
    game = started({"seats": ["blue", "red", "green"]})
    play(game, "blue start", "red start", "green pass", "blue pass", "red pass", "counts blue=1")
    shown = survey(game)
    assert (shown["zone"], shown["of"], shown["row"], shown["side"]) == (1, 4, 1, "left")
    play(game, "blue parcel lemon 0")
    shown = survey(game)
    assert (shown["zone"], shown["row"], shown["side"]) == (2, 1, "right")
