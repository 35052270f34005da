"""The play history from a real store, its CSV and JSON exports, and BG Stats links that fit a QR
code a phone reads off the 800×480 touchscreen (rendered, shrunk to the screen's size, decoded)."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import random
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from drivers import DRIVERS
from PIL import Image
from pyzbar.pyzbar import decode

from companion.app import bgstats
from companion.app.history import CSV_COLUMNS, History, Play, PlayerResult, local_time, to_csv, to_json
from companion.app.qr import qr_png
from companion.app.store import Store
from companion.app.table import Table
from companion.core import TABLE, Audience
from companion.core.jsonvalue import loads
from companion.games.scotland_yard.model import DrawStart, Move, PlaceDetectives, PlaceX, XMove

QR_PANEL = 300  # px: less than the touchscreen's QR panel gives a code at 800×480 (about 340 px)


async def finish(table: Table, rules: str, seed: int) -> int:
    """A whole random legal game through the real table and store."""
    name, config, choose = DRIVERS[rules]
    game_id = await table.new_game(name, config, f"{rules} {seed}", seed=seed)
    rng = random.Random(seed)
    while table.game is not None and table.game.outcome() is None:
        choice = choose(table.game, rng)
        assert choice is not None
        await table.submit(choice[0], choice[1], table.seq, game_id=game_id)
    return game_id


async def capture_in_round_one(table: Table) -> int:
    """Scotland Yard, two players: D1 catches Mister X with the first detective move.

    Rulebook (basic game): "Mister X ist gefasst, wenn ein Detektiv auf das Feld zieht, auf dem
    sich Mister X befindet" – Mister X is caught when a detective moves onto his station."""
    game_id = await table.new_game("scotland_yard", {"mister_x": "Xavier", "detectives": ["Dora"]}, "Quick")
    await table.submit(
        PlaceDetectives((("D1", 13), ("D2", 26), ("B1", 29), ("B2", 34))), TABLE, table.seq, game_id=game_id
    )
    await table.submit(PlaceX(51), Audience.of_seat("mrx"), table.seq, game_id=game_id)
    await table.submit(XMove("taxi", 67), Audience.of_seat("mrx"), table.seq, game_id=game_id)
    await table.submit(Move("D1", "underground", 67), TABLE, table.seq, game_id=game_id)
    return game_id


def run(tmp_path: Path, work: Any) -> Any:
    async def scenario() -> Any:
        store = Store(tmp_path / "history.sqlite3")
        table = Table(store)
        await table.start()
        try:
            return await work(table)
        finally:
            await table.stop()
            store.close()

    return asyncio.run(scenario())


def test_finished_games_of_every_box_are_in_the_history_with_scores_and_winners(tmp_path: Path) -> None:
    async def work(table: Table) -> list[int]:
        ids = [await finish(table, rules, 3) for rules in ("scotland_yard", "victorian_masterminds", "mykerinos")]
        running = await table.new_game("scotland_yard", {"detectives": ["Ann"]}, "still playing")
        await table.submit(DrawStart(), TABLE, table.seq, game_id=running)
        return [*ids, running]

    sy, vm, myk, _running = run(tmp_path, work)
    with Store(tmp_path / "history.sqlite3") as store:
        plays = History(store).plays("en")
        by_id = {p.game_id: p for p in plays}
        assert set(by_id) == {sy, vm, myk}  # the running game is no play yet
        assert [p.game_id for p in plays] == sorted(by_id, key=lambda i: (by_id[i].finished, i), reverse=True)
        for play in plays:
            header = store.header(play.game_id)
            assert (play.started, play.finished) == (header.created, header.updated)
            assert play.winners, play
            assert all(p.label for p in play.players)
        assert by_id[sy].game == "Scotland Yard" and all(p.score is None for p in by_id[sy].players)
        assert {p.role for p in by_id[sy].players} == {"Mister X", "Detective"}
        for points_game in (by_id[vm], by_id[myk]):
            scores = [p.score for p in points_game.players]
            assert all(isinstance(s, int) for s in scores)
            winners = [p for p in points_game.players if p.winner]
            assert all(p.rank == 1 for p in winners)
            assert max(s for s in scores if s is not None) == winners[0].score
        assert {p.label for p in by_id[myk].players} == {"blue", "red"}
        german = History(store).play(vm, "de")
        assert {p.label for p in german.players} == {"Rot", "Blau", "Grün"}

        table_csv = list(csv.reader(io.StringIO(to_csv(plays))))
        assert tuple(table_csv[0]) == CSV_COLUMNS
        assert len(table_csv) == 1 + sum(len(p.players) for p in plays)
        data = loads(to_json(plays))
        assert isinstance(data, dict) and data["format"] == "companion-history"
        assert [p["game_id"] for p in data["plays"]] == [p.game_id for p in plays]  # type: ignore[index,union-attr]


def test_a_captured_mister_x_gives_the_expected_bgstats_play(tmp_path: Path) -> None:
    game_id = run(tmp_path, capture_in_round_one)
    with Store(tmp_path / "history.sqlite3") as store:
        play = History(store).play(game_id)
    assert play.reason == "sy.captured"
    link = bgstats.link(play)
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    data = bgstats.decode(link)
    assert data == {
        "sourceName": "Companion",
        "sourcePlayId": bgstats.play_id(play),
        "playDate": local_time(play.started, "%Y-%m-%d %H:%M:%S"),
        "durationMin": play.minutes,
        "game": {
            "name": "Scotland Yard",
            "bggId": 438,
            "sourceGameId": "scotland_yard",
            "highestWins": True,
            "noPoints": True,
        },
        "players": [
            {"name": "Xavier", "sourcePlayerId": "Xavier", "winner": False, "startPlayer": True, "role": "Mister X"},
            {"name": "Dora", "sourcePlayerId": "Dora", "winner": True, "role": "Detective"},
        ],
    }  # fmt: skip
    assert read_on_screen(link) == link


def read_on_screen(link: str) -> str:
    """Render the link's QR code as the touchscreen does, shrink it to the QR panel's height
    (nearest neighbour, like the screen's texture), and read it back with zbar."""
    png = qr_png(link, 10, error="L")
    image = Image.open(io.BytesIO(png)).convert("L")
    small = image.resize((QR_PANEL, QR_PANEL), Image.Resampling.NEAREST)
    found = [d.data.decode("utf-8") for d in decode(small)]
    assert len(found) == 1, f"{len(link)} characters did not decode at {QR_PANEL} px"
    return found[0]


def crowded_play(names: list[str], rules: str = "scotland_yard") -> Play:
    players = tuple(
        PlayerResult(f"d{i}", n, n, "Detective", None if rules == "scotland_yard" else 123, i == 1, 1, i == 0)
        for i, n in enumerate(names)
    )
    return Play(999, rules, "Scotland Yard", "t", "2030-12-24T20:15:00+00:00", "2030-12-24T23:59:00+00:00", 224,
                "sy.captured", "", players)  # fmt: skip


@pytest.mark.parametrize("rules", ["scotland_yard", "victorian_masterminds", "mykerinos"])
def test_the_longest_plays_still_fit_a_qr_code_that_reads_off_the_screen(rules: str) -> None:
    """The most players a box takes (6 in Scotland Yard, 4 in the others), each with a name of 40
    characters with umlauts: the link is shortened to fit."""
    most = 6 if rules == "scotland_yard" else 4
    play = crowded_play([f"Ännchen von Tharau-{i} Überlänge Straße 12345"[:40] for i in range(most)], rules)
    full = bgstats.encode(bgstats.play_data(play))
    link = bgstats.link(play)
    assert len(full) > bgstats.MAX_LINK >= len(link)
    data = bgstats.decode(link)
    assert isinstance(data, dict)
    players = data["players"]
    assert isinstance(players, list) and len(players) == most
    assert [p["winner"] for p in players] == [p.winner for p in play.players]  # type: ignore[index]
    assert read_on_screen(link) == link


def test_links_are_valid_urls_with_the_json_as_one_query_value() -> None:
    play = crowded_play(["A&B=C", "50% + 1 #1", 'Zoë "Z" Ö'])
    link = bgstats.link(play)
    query = urllib.parse.urlsplit(link).query
    assert " " not in link and "#" not in link and "&" not in query
    (value,) = urllib.parse.parse_qs(query)["data"]
    assert [p["name"] for p in json.loads(value)["players"]] == ["A&B=C", "50% + 1 #1", 'Zoë "Z" Ö']
