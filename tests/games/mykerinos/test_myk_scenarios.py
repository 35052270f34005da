"""Whole games through four seasons, scripted step by step, with the numbers worked out by hand."""

from __future__ import annotations

from typing import Any

from myk_helpers import do, exhibition_now, new_game, play, refused, step

from companion.core import TABLE, Audience, Game, Undo
from companion.games.mykerinos import intents as it
from companion.games.mykerinos.events import NeutralParcel, Passed, SeasonStarted, ZoneClosed, ZoneCounted
from companion.games.mykerinos.museum import PATRONS
from companion.games.mykerinos.state import MykState

LEMON_FIRST = ("lord_lemon", "mrs_blackmore", "sir_brown", "colonel_tangerine", "lady_violet")


def st(game: Game[Any]) -> MykState:
    state: MykState = game.state
    return state


def per_seat(state: MykState, values: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(state.seats, values, strict=True))


def per_colour(state: MykState, values: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(state.colours, values, strict=True))


def cards(state: MykState, seat: str) -> dict[str, int]:
    return {p: n for p, n in zip(PATRONS, state.cards[state.si(seat)], strict=True) if n}


def legal_kinds(game: Game[Any], actor: Audience = TABLE) -> set[str]:
    table_tools = ("myk.correct_", "myk.set_layout")
    return {o["kind"] for o in game.rules.legal(game.state, actor) if not o["kind"].startswith(table_tools)}


def waiting(game: Game[Any]) -> tuple[str, str | None]:
    view = game.rules.view(game.state, TABLE)
    survey = view["survey"]
    return survey["waiting"]["for"], survey["waiting"]["seat"]


def started(config: dict[str, Any], start: str, patrons: tuple[str, ...]) -> Game[Any]:
    game = new_game(config)
    do(game, it.ChooseStartPlayer(start))
    assert st(game).phase == "setup"
    do(game, it.EnterPatrons(patrons))
    return game


# =================================================================================================
def test_three_players_four_seasons() -> None:
    game = started({"seats": ["blue", "red", "green"]}, "blue", LEMON_FIRST)
    s = st(game)
    assert (s.phase, s.season, s.turn and s.turn.seat) == ("excavation", 1, "blue")
    assert per_seat(s, s.supply) == {"blue": 11, "red": 11, "green": 11}
    assert per_colour(s, s.general) == {"blue": 14, "red": 14, "green": 14}

    # --- season 1: no patrons yet; red is left alone and takes exactly one more action ---------
    assert refused(game, "blue start violet") == "myk.patron_too_early"
    assert refused(game, "red start") == "myk.not_your_turn"
    assert refused(game, "blue extend") == "myk.no_excavation"
    assert refused(game, "table:blue neutral start") == "myk.no_neutral"
    play(
        game,
        "blue start",
        "red start",
        "green start",
        "blue extend",
        "red extend",
        "green extend",
        "blue pass",
        "red extend",
        "green pass",
    )
    s = st(game)
    assert s.turn is not None and (s.turn.seat, s.turn.final) == ("red", True)
    events = step(game, "red start")
    assert isinstance(events[-1], Passed) and events[-1].auto and events[-1].space == 3
    s = st(game)
    assert s.phase == "survey"
    assert s.pass_track == (("blue", 1), ("green", 2), ("red", 3))
    assert per_colour(s, s.board) == {"blue": 3, "red": 6, "green": 3}
    assert per_seat(s, s.supply) == {"blue": 8, "red": 5, "green": 8}

    # zone 1: blue and red tie with 2 -> blue passed first; both go to the museum; green (3rd) a parcel
    assert refused(game, "counts blue=4") == "myk.count_too_high"
    assert refused(game, "blue museum 1:3") == "myk.not_your_choice"
    assert refused(game, "table:counts blue=1 blue=1") == "myk.duplicate_colour"
    play(game, "counts blue=2 red=2 green=1")
    assert st(game).zone is not None and st(game).zone.ranking == ("blue", "red", "green")  # type: ignore[union-attr]
    assert waiting(game) == ("choose", "blue")
    assert refused(game, "blue museum 1:5") == "myk.room_not_adjacent"
    play(game, "blue museum 1:3")
    assert refused(game, "red museum 1:3") == "myk.room_taken"
    assert refused(game, "red decline") == "myk.must_choose"
    play(game, "red museum 2:3")
    assert legal_kinds(game) == {"myk.take_parcel", "myk.decline"}  # 3rd: a parcel, never the museum
    assert refused(game, "green museum 3:3") == "myk.museum_not_allowed"
    events = step(game, "green parcel lemon 2")
    assert isinstance(events[-1], ZoneClosed) and events[-1].discarded == 1

    # zone 2: red alone gets only the 1st's choice, then the zone closes (1 parcel discarded)
    play(game, "counts red=3")
    events = step(game, "red parcel brown 3")
    assert isinstance(events[-1], ZoneClosed) and events[-1].discarded == 1
    # zone 3: green 1st, blue 2nd
    play(game, "counts blue=1 green=2", "green parcel tangerine 0", "blue parcel violet 2")
    # zone 4, the last: red alone (counted by the companion: all that is left on the board); a
    # 5-room needs an adjacent 2- or 3-room of red's own
    play(game, "counted red=1")
    rooms = _rooms(game, "red")
    assert "1:5" not in rooms and "2:5" in rooms and "1:3" not in rooms
    assert refused(game, "red museum 1:5") == "myk.room_not_adjacent"
    events = step(game, "red museum 2:5")
    assert isinstance(events[-1], SeasonStarted) and events[-1].season == 2
    s = st(game)
    assert s.start_player == "red"  # last on the pass track
    assert s.pass_track == ()
    assert per_seat(s, s.score) == {"blue": 2, "red": 3, "green": 2}
    assert dict(s.museum) == {"1:3": "blue", "2:3": "red", "2:5": "red"}
    assert per_seat(s, s.supply) == {"blue": 19, "red": 16, "green": 19}
    assert per_colour(s, s.general) == {"blue": 5, "red": 7, "green": 6}

    # --- season 2: patrons ----------------------------------------------------------------------
    play(game, "red brown 3:3")
    assert refused(game, "green extend lemon") == "myk.no_excavation"
    assert refused(game, "green start violet") == "myk.patron_not_ready"
    assert refused(game, "green start tangerine") == "myk.patron_action"
    play(game, "green start lemon", "blue start violet")
    s = st(game)
    assert per_colour(s, s.general)["blue"] == 4 and per_seat(s, s.supply)["blue"] == 19
    play(game, "red start", "green extend tangerine", "blue extend")
    assert refused(game, "red brown 3:5") == "myk.patron_not_ready"  # each card once per season
    play(game, "red pass", "green pass", "blue extend")
    s = st(game)
    assert s.phase == "survey" and s.pass_track == (("red", 1), ("green", 2), ("blue", 3))
    assert per_colour(s, s.board) == {"blue": 5, "red": 1, "green": 4}
    # zone 1: blue and green tie with 3 -> green passed first; red (3rd) finds no parcel left
    play(game, "counts blue=3 green=3 red=1", "green parcel blackmore 3")
    events = step(game, "blue parcel brown 3")
    assert isinstance(events[-1], ZoneClosed)
    # zone 2; then nothing is left on the board: zones 3 and 4 close by themselves
    play(game, "counts blue=2 green=1", "blue museum 1-2:2")
    events = step(game, "green museum 4:3")
    assert [type(e).__name__ for e in events[1:]] == [
        "ZoneClosed",
        "ZoneCounted",
        "ZoneClosed",
        "ZoneCounted",
        "ZoneClosed",
        "SeasonEnded",
        "SeasonStarted",
    ]
    s = st(game)
    assert s.start_player == "blue"
    # --- season 3: the general supply runs short (8, 8 and 9 instead of 11) -----------------------
    assert per_seat(s, s.supply) == {"blue": 23, "red": 22, "green": 24}
    assert per_colour(s, s.general) == {"blue": 0, "red": 0, "green": 0}
    assert refused(game, "blue start violet") == "myk.no_general"
    play(game, "blue start")
    assert refused(game, "red brown 4:5") == "myk.room_not_adjacent"
    play(
        game,
        "red brown 3:5",
        "green start blackmore",
        "blue extend",
        "red pass",
        "green extend",
        "blue pass",
        "green start lemon",
    )
    s = st(game)
    assert per_colour(s, s.board) == {"blue": 3, "red": 0, "green": 5}
    play(game, "counts blue=1 green=3")
    # no archaeologist of their colour in the general supply: the museum is not offered
    assert legal_kinds(game) == {"myk.take_parcel"}
    assert refused(game, "green museum 5:3") == "myk.no_general"
    play(game, "green parcel violet 3")
    assert legal_kinds(game, Audience.of_seat("blue")) == {"myk.take_parcel"}
    play(game, "blue parcel lemon 0")
    # zone 2: tie -> blue passed before green; both top players choose the museum
    play(game, "counts blue=2 green=2", "blue museum 5:3", "green museum 4:5")
    s = st(game)
    assert s.season == 4 and s.start_player == "green"
    assert per_seat(s, s.supply) == {"blue": 22, "red": 21, "green": 23}

    # --- season 4: six zones; a tie on points decided by the archaeologists left -------------------
    play(
        game,
        "green start",
        "blue start",
        "red start",
        "green extend",
        "blue extend",
        "red pass",
        "green pass",
        "blue extend",
    )
    play(game, "counts blue=2 green=1 red=1", "blue parcel blackmore 0", "red parcel brown 3")
    assert refused(game, "blue parcel blank 3") != ""
    play(game, "counts blue=3 green=2", "blue parcel blank 5")
    assert refused(game, "green parcel blank 5") == "myk.blank_taken"
    events = step(game, "green parcel violet 2")
    assert sum(isinstance(e, ZoneCounted) for e in events) == 4  # zones 3-6 were empty
    s = st(game)
    assert s.phase == "over"
    assert per_seat(s, s.exhibition) == {"blue": 9, "red": 10, "green": 9}
    assert per_seat(s, s.score) == {"blue": 19, "red": 16, "green": 19}
    assert per_seat(s, s.supply) == {"blue": 17, "red": 20, "green": 20}
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == ("green",)
    view = game.rules.view(s, TABLE)
    assert view["result"] == {
        "winners": ["green"],
        "order": ["green", "blue", "red"],  # green before blue on the archaeologists left
        "exhibition": {"blue": 9, "red": 10, "green": 9},
    }
    assert game.rules.legal(s, TABLE) == []


def _rooms(game: Game[Any], seat: str) -> list[str]:
    for option in game.rules.legal(game.state, Audience.of_seat(seat)):
        if option["kind"] == "myk.museum":
            return list(option["rooms"])
    return []


# =================================================================================================
def test_four_players_ring_museum_and_a_full_tie() -> None:
    order = ("lady_violet", "lord_lemon", "sir_brown", "mrs_blackmore", "colonel_tangerine")
    game = started({"seats": ["blue", "red", "green", "white"], "layout": "ring5"}, "blue", order)
    s = st(game)
    assert per_seat(s, s.supply) == {"blue": 8, "red": 8, "green": 8, "white": 8}
    play(
        game,
        "blue start",
        "red start",
        "green start",
        "white start",
        "blue pass",
        "red pass",
        "green extend",
        "white extend",
        "green pass",
        "white start",
    )
    assert st(game).pass_track == (("blue", 1), ("red", 2), ("green", 3), ("white", 4))
    # zone 1: a four-way tie, broken by the pass track; 1st and 2nd to the museum, 3rd and 4th parcels
    play(game, "counts blue=1 red=1 green=1 white=1")
    assert st(game).zone.ranking == ("blue", "red", "green", "white")  # type: ignore[union-attr]
    play(game, "blue museum 5-1:2", "red museum 1:3", "green parcel lemon 2")
    assert legal_kinds(game, Audience.of_seat("white")) == {"myk.take_parcel", "myk.decline"}
    play(game, "white parcel brown 2")
    play(game, "counts green=2 white=2", "green parcel violet 0")
    assert refused(game, "white museum 1:5") == "myk.room_not_adjacent"
    play(game, "white museum 5:3")
    # the ring: blue's 2-room between wings 5 and 1 opens wing 1's 5-room (no such room in a row)
    assert "1:5" in _rooms_for(st(game), "blue") and "1:5" not in _rooms_for(st(game), "white")
    play(game, "counts white=1", "white parcel tangerine 0")
    s = st(game)
    assert (s.season, s.start_player) == (2, "white")
    assert per_seat(s, s.score) == {"blue": 0, "red": 0, "green": 2, "white": 2}
    assert per_colour(s, s.general) == {"blue": 9, "red": 9, "green": 12, "white": 12}

    play(
        game,
        "white start",
        "blue start",
        "red start",
        "green start",
        "white pass",
        "blue extend",
        "red extend",
        "green pass",
        "blue pass",
        "red start",
    )
    play(game, "counts blue=3 red=3", "blue parcel brown 3", "red parcel brown 3")
    play(game, "counts red=1 green=1 white=1")
    assert st(game).zone.ranking == ("white", "green", "red")  # type: ignore[union-attr]
    play(game, "white parcel lemon 3", "green parcel blackmore 3")
    s = st(game)
    assert (s.season, s.start_player) == (3, "red")

    play(
        game,
        "red start",
        "green start blackmore",
        "white start",
        "blue start",
        "red pass",
        "green pass",
        "white pass",
        "blue start",
    )
    play(game, "counts blue=2", "blue parcel brown 3")
    play(game, "counts red=1 green=2 white=1", "green museum 3:3", "red parcel brown 3", "white parcel lemon 0")
    s = st(game)
    assert (s.season, s.start_player) == (4, "blue")
    assert per_seat(s, s.supply) == {"blue": 24, "red": 24, "green": 24, "white": 24}
    assert per_colour(s, s.general) == {"blue": 0, "red": 0, "green": 0, "white": 0}

    play(
        game,
        "blue start",
        "red start",
        "green start",
        "white start",
        "blue pass",
        "red pass",
        "green extend",
        "white pass",
        "green start",
    )
    play(game, "counts blue=1 red=1 green=1 white=1")
    assert st(game).zone.ranking == ("blue", "red", "white", "green")  # type: ignore[union-attr]
    assert legal_kinds(game) == {"myk.take_parcel"}
    play(game, "blue parcel brown 3", "red parcel brown 3", "counts green=3", "green parcel tangerine 2")
    s = st(game)
    assert s.phase == "over"
    assert per_seat(s, s.score) == {"blue": 12, "red": 12, "green": 11, "white": 11}
    assert per_seat(s, s.supply) == {"blue": 23, "red": 23, "green": 20, "white": 23}
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == ("blue", "red")  # still tied: a shared win
    assert outcome.to_json()["scores"] == {"blue": 12, "red": 12, "green": 11, "white": 11}


def _rooms_for(state: MykState, seat: str) -> tuple[str, ...]:
    from companion.games.mykerinos.museum import legal_rooms

    return legal_rooms(state.the_layout, state.museum_map(), seat)


# =================================================================================================
def test_two_players_with_the_neutral() -> None:
    game = started({"seats": ["blue", "red"]}, "blue", PATRONS)
    s = st(game)
    assert s.neutral == "green" and s.colours == ("blue", "red", "green")
    assert per_seat(s, s.supply) == {"blue": 11, "red": 11}
    assert per_seat(s, s.neutral_supply) == {"blue": 4, "red": 4}
    assert per_colour(s, s.general) == {"blue": 14, "red": 14, "green": 17}
    assert s.pass_track == (("green", 2),)

    play(game, "blue start")
    assert legal_kinds(game) == {"myk.neutral"}
    assert refused(game, "blue pass") == "myk.neutral_step"
    assert refused(game, "blue neutral extend") == "myk.no_neutral_excavation"
    play(game, "blue neutral start")
    assert refused(game, "red extend") == "myk.no_excavation"
    play(
        game,
        "red start",
        "red neutral extend",
        "blue extend",
        "blue neutral skip",
        "red extend",
        "red neutral start",
        "blue pass",
    )
    assert st(game).pass_track == (("blue", 1), ("green", 2))
    play(game, "red extend", "red neutral start")
    s = st(game)
    assert s.phase == "survey" and s.pass_track == (("blue", 1), ("green", 2), ("red", 3))
    assert per_colour(s, s.board) == {"blue": 3, "red": 5, "green": 5}
    assert per_seat(s, s.neutral_supply) == {"blue": 3, "red": 0}

    # neutral 1st: the 3rd (blue) picks its parcel, which leaves the game
    play(game, "counts green=3 red=2 blue=1")
    assert waiting(game) == ("neutral_pick", "blue")
    assert refused(game, "red pick") == "myk.not_your_choice"
    assert refused(game, "blue parcel lemon 3") == "myk.not_your_choice"
    play(game, "blue pick", "red parcel lemon 3")  # blue (3rd) then finds nothing left
    # neutral 2nd after a museum choice: the 1st picks the neutral's parcel; the 3rd may take the other
    play(game, "counts blue=2 green=1 red=1")
    assert st(game).zone.ranking == ("blue", "green", "red")  # type: ignore[union-attr]
    assert refused(game, "blue pick") == "myk.not_your_choice"
    play(game, "blue museum 1:3")
    assert waiting(game) == ("neutral_pick", "blue")
    play(game, "blue pick", "red parcel brown 2")
    # the neutral alone: both parcels are discarded at once
    events = step(game, "counts green=1")
    closed = [e for e in events if isinstance(e, ZoneClosed)]
    assert len(closed) == 1 and closed[0].discarded == 2
    # the last zone holds all that is left on the board: the companion counts it
    assert isinstance(events[-1], ZoneCounted) and events[-1].counts == (("red", 2),)
    play(game, "counted red=2", "red museum 2:3")
    s = st(game)
    assert (s.season, s.start_player) == (2, "red")
    assert per_seat(s, s.score) == {"blue": 0, "red": 5}
    assert per_colour(s, s.general) == {"blue": 5, "red": 7, "green": 14}
    assert per_seat(s, s.neutral_supply) == {"blue": 7, "red": 4}

    play(
        game,
        "red start lemon",
        "red neutral start",
        "blue start",
        "blue neutral extend",
        "red brown 2:5",
        "red neutral skip",
        "blue pass",
        "red extend",
        "red neutral skip",
    )
    # neutral 2nd after the 1st took a parcel: it takes the other by itself; red (3rd) gets nothing
    play(game, "counts blue=1 green=1 red=1")
    assert st(game).zone.ranking == ("blue", "green", "red")  # type: ignore[union-attr]
    events = step(game, "blue parcel violet 2")
    assert any(isinstance(e, NeutralParcel) and e.chooser is None for e in events)
    # neutral 1st and blue absent: the absent player picks
    play(game, "counts red=2 green=2")
    assert waiting(game) == ("neutral_pick", "blue")
    play(game, "blue pick", "red parcel blackmore 3")
    s = st(game)
    assert (s.season, s.start_player) == (3, "red")
    assert per_seat(s, s.supply) == {"blue": 24, "red": 23}
    assert per_colour(s, s.general) == {"blue": 0, "red": 0, "green": 9}
    assert per_seat(s, s.neutral_supply) == {"blue": 9, "red": 7}

    play(game, "red pass")
    assert refused(game, "blue start violet") == "myk.no_general"
    play(game, "blue start", "blue neutral skip", "counts blue=1")
    assert legal_kinds(game) == {"myk.take_parcel"}
    play(game, "blue parcel tangerine 3")
    s = st(game)
    assert (s.season, s.start_player) == (4, "blue")
    assert per_seat(s, s.supply) == {"blue": 24, "red": 23}
    assert per_seat(s, s.neutral_supply) == {"blue": 13, "red": 11}
    assert per_colour(s, s.general) == {"blue": 0, "red": 0, "green": 1}

    play(
        game,
        "blue start",
        "blue neutral start",
        "red start",
        "red neutral extend",
        "blue pass",
        "red extend",
        "red neutral skip",
    )
    play(game, "counts red=3 green=3", "blue pick", "red parcel blackmore 2", "counts blue=1")
    assert refused(game, "blue museum 1:5") == "myk.no_general"  # blue's last one went to the supply
    play(game, "blue parcel lemon 3")
    s = st(game)
    assert s.phase == "over"
    assert per_seat(s, s.exhibition) == {"blue": 5, "red": 8}
    assert per_seat(s, s.score) == {"blue": 13, "red": 18}
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == ("red",)


# =================================================================================================
def test_undo_policy_in_play() -> None:
    game = started({"seats": ["blue", "red", "green"]}, "blue", LEMON_FIRST)
    blue, red = Audience.of_seat("blue"), Audience.of_seat("red")
    play(game, "blue start")
    assert game.can_undo(blue) and game.can_undo(TABLE) and not game.can_undo(red)
    before = st(game)
    do(game, Undo(), blue)
    assert st(game).turn is not None and st(game).turn.seat == "blue"  # type: ignore[union-attr]
    assert before != st(game)
    play(game, "blue start", "red start", "green start", "blue pass", "red pass", "green pass")
    assert st(game).phase == "survey"
    assert game.can_undo(Audience.of_seat("green")) and not game.can_undo(blue)  # its own pass
    play(game, "counts blue=1")
    assert not game.can_undo(blue) and game.can_undo(TABLE)  # counts: the table's
    play(game, "blue parcel lemon 2")  # this closed the zone: only the table undoes it
    assert not game.can_undo(blue) and game.can_undo(TABLE)
    score = st(game).score
    do(game, Undo(), TABLE)
    assert st(game).score != score and st(game).zone is not None and st(game).zone.index == 0  # type: ignore[union-attr]


def test_random_draws_are_recorded_and_never_undone() -> None:
    game = new_game({"seats": ["white", "green"], "neutral": "blue"}, seed=5)
    events = do(game, it.DrawStartPlayer())
    assert events[0].seat in ("white", "green")  # type: ignore[attr-defined]
    assert not game.can_undo(TABLE)
    assert refused(game, "table:white start") == "myk.wrong_phase"
    events = do(game, it.DrawPatrons())
    assert sorted(events[0].order) == sorted(PATRONS)  # type: ignore[attr-defined]
    assert isinstance(events[1], SeasonStarted) and events[1].own == (11, 11) and events[1].neutral == (4, 4)
    assert not game.can_undo(TABLE)
    again = new_game({"seats": ["white", "green"], "neutral": "blue"}, seed=999)
    for entry in game.entries:
        again.commit([entry.event])
    assert again.state == game.state


def test_projection_follows_the_museum_and_cards() -> None:
    game = started({"seats": ["blue", "red", "green"]}, "blue", LEMON_FIRST)
    play(game, "blue start", "red pass", "green pass", "blue pass", "counts blue=1", "blue museum 1:3")
    s = st(game)
    assert exhibition_now(s, "blue") == 0
    do(game, it.CorrectCards("blue", "lord_lemon", 2))
    view = game.rules.view(st(game), TABLE)
    assert view["players"]["blue"]["projection"] == 6
    assert view["corrections"] == [[2, "myk.cards_corrected", "blue", "lord_lemon +2"]]
