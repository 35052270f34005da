"""The last zone of a season is confirmed at the table: the companion shows what its books leave
there (everything still on the board), and a count that differs points back to the earlier zones.

Rulebook (DE, Wertung): "Die Zonen werden der Reihe nach gewertet … In jeder Zone ermitteln die
Spieler, wer die meisten Archäologen dort hat" — each zone ranks the players by the archaeologists
standing in it; a player with none there is not ranked."""

from __future__ import annotations

import asyncio
from pathlib import Path

from myk_helpers import do, new_game, parse, play, refused

from companion.app.store import Store
from companion.app.table import Table
from companion.core import TABLE, Undo
from companion.games.mykerinos import RULES
from companion.games.mykerinos import intents as it

LEMON_FIRST = ("lord_lemon", "mrs_blackmore", "sir_brown", "colonel_tangerine", "lady_violet")


SEASON = (
    "blue start",  # zone 1
    "red start",  # zone 1
    "green start",  # zone 4
    "blue extend",  # zone 1: blue 3 in all
    "red extend",  # zone 4: red 2
    "green pass",
    "blue pass",
    "red pass",
    "counts blue=2 red=1",  # zone 1: one blue missed
    "blue parcel lemon 2",
    "red parcel brown 3",
    "counts",  # zones 2 and 3: nobody
    "counts",
)


def to_last_zone(last_zone: str) -> object:
    """Three players, season 1: red and green dig in zone 1 and zone 4; blue digs in zone 1 only,
    but zone 1 is counted one blue too low, and zones 2 and 3 are empty."""
    game = new_game({"seats": ["blue", "red", "green"], "last_zone": last_zone})
    do(game, it.ChooseStartPlayer("blue"))
    do(game, it.EnterPatrons(LEMON_FIRST))
    play(game, *SEASON)
    return game


def test_the_table_confirms_the_last_zone_and_a_phantom_takes_no_rank() -> None:
    game = to_last_zone("confirm")
    state = game.state
    assert state.zone is not None and state.zone.index == 3 and not state.zone.counted  # it waits
    survey = RULES.view(state, TABLE)["survey"]
    assert survey["last"] == {
        "expected": {"blue": 1, "red": 2, "green": 1},  # by the books: the blue missed in zone 1 too
        "earlier": [
            {"zone": 1, "row": 1, "side": "left", "counts": {"blue": 2, "red": 1}},
            {"zone": 2, "row": 1, "side": "right", "counts": {}},
            {"zone": 3, "row": 2, "side": "left", "counts": {}},
        ],
        "missed": {},
    }
    (counts,) = [o for o in RULES.legal(state, TABLE) if o["kind"] == "myk.zone_counts"]
    assert counts["expected"] == {"blue": 1, "red": 2, "green": 1}
    assert RULES.view(state, TABLE)["acting"] == []  # the table counts; nobody else acts
    # what the table sees there: red 2, green 1 — blue's last one stood in zone 1
    play(game, "counts red=2 green=1")
    state = game.state
    assert state.zone is not None and state.zone.ranking == ("red", "green")  # no phantom blue
    survey = RULES.view(state, TABLE)["survey"]
    assert survey["last"]["missed"] == {"blue": 1}
    play(game, "red parcel lemon 2", "green parcel brown 0")
    assert game.state.season == 2 and not any(game.state.board)  # the missed blue went back to the supply too
    assert refused(game, "counts blue=1") in ("myk.not_counting", "myk.wrong_phase")


def test_a_count_above_the_books_is_refused_and_confirming_them_ranks_as_before() -> None:
    game = to_last_zone("confirm")
    assert refused(game, "counts blue=2 red=2 green=1") == "myk.count_too_high"
    play(game, "counts blue=1 red=2 green=1")  # confirmed as the books have it
    assert game.state.zone is not None and game.state.zone.ranking == ("red", "green", "blue")
    do(game, Undo())  # the table may take its count back
    assert game.state.zone is not None and not game.state.zone.counted


def test_games_set_up_before_keep_the_companion_counting_the_last_zone() -> None:
    """A game whose setup predates the confirmation ("last_zone" not set: "count") is counted by the
    companion as it was played, so its saved log re-checks; every new game confirms."""
    game = to_last_zone("count")
    assert game.state.zone is not None and game.state.zone.counted
    assert game.state.zone.ranking == ("red", "green", "blue")  # a phantom blue, ranked
    assert RULES.new_game_config == {"last_zone": "confirm"}


def test_a_new_game_opened_without_naming_the_option_waits_for_the_table(tmp_path: Path) -> None:
    """A new game the table opens (touchscreen or host page) with a setup that does not name
    ``last_zone``: the season above stops at its last zone for the table's count; the companion
    never ranks a phantom blue there (issue 30, item 5)."""

    async def scenario() -> object:
        store = Store(tmp_path / "myk.sqlite3")
        table = Table(store)
        await table.start()
        try:
            game_id = await table.new_game("mykerinos", {"seats": ["blue", "red", "green"]}, "season", seed=1)
            steps = [(it.ChooseStartPlayer("blue"), TABLE), (it.EnterPatrons(LEMON_FIRST), TABLE)]
            for intent, actor in [*steps, *map(parse, SEASON)]:
                await table.submit(intent, actor, table.seq, game_id=game_id)
            assert table.game is not None
            return table.game.state
        finally:
            await table.stop()
            store.close()

    state = asyncio.run(scenario())
    zone = state.zone  # type: ignore[attr-defined]
    assert zone is not None and zone.index == 3
    assert not zone.counted, f"the companion counted the last zone itself: {zone.ranking}"
