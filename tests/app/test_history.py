"""The play history from a real store, its CSV and JSON exports, and BG Stats links that fit a QR
code a phone reads off the 800×480 touchscreen (rendered, shrunk to the screen's size, decoded)."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import random
import time
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from drivers import DRIVERS
from PIL import Image
from pyzbar.pyzbar import decode

from companion.app import bgstats
from companion.app.history import (
    CSV_COLUMNS,
    PAGE,
    History,
    Play,
    PlayerResult,
    local_time,
    minutes_between,
    to_csv,
    to_json,
)
from companion.app.qr import qr_png
from companion.app.savedgame import load_game
from companion.app.store import Store
from companion.app.table import Table
from companion.core import TABLE, Audience
from companion.core.jsonvalue import loads
from companion.games.scotland_yard.model import DrawStart, Move, PlaceDetectives, PlaceX, XMove

QR_PANEL = 300  # px: less than the touchscreen's QR panel gives a code at 800×480 (about 340 px)


async def finish(table: Table, rules: str, seed: int, config: dict[str, Any] | None = None) -> int:
    """A whole random legal game through the real table and store (set up with ``config``, else
    the driver's)."""
    name, default, choose = DRIVERS[rules]
    game_id = await table.new_game(name, default if config is None else config, f"{rules} {seed}", seed=seed)
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
        assert {p.label for p in by_id[myk].players} == {"Blue", "Red"}  # one case, as names are written
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
        "playDate": bgstats.utc_text(play.finished),
        "durationMin": play.minutes,
        "game": {
            "name": "Scotland Yard",
            "bggId": 438,
            "sourceGameId": "scotland_yard",
            "highestWins": True,
            "noPoints": True,
        },
        "players": [
            {"name": "Xavier", "sourcePlayerId": "xavier", "startPlayer": True, "winner": False, "role": "Mister X"},
            {"name": "Dora", "sourcePlayerId": "dora", "startPlayer": False, "winner": True, "role": "Detective"},
        ],
    }  # fmt: skip


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
def test_the_longest_plays_keep_every_field_and_their_code_reads_off_the_screen(rules: str) -> None:
    """The most players a box takes (6 in Scotland Yard, 4 in the others), each with a name of 40
    characters with umlauts: nothing is dropped from the link (no role, rank, id or name cut short);
    the code on the screen holds the Pi's short link for it, which reads off the screen at 300 px."""
    most = 6 if rules == "scotland_yard" else 4
    names = [f"Ännchen von Tharau-{i} Überlänge Straße 12345"[:40] for i in range(most)]
    play = crowded_play(names, rules)
    link = bgstats.link(play)
    assert len(link) > 700  # more than a code read off the 800×480 screen holds
    data = bgstats.decode(link)
    assert data == bgstats.play_data(play)
    assert isinstance(data, dict)
    players = data["players"]
    assert isinstance(players, list) and len(players) == most
    for p, want in zip(players, play.players, strict=True):
        assert isinstance(p, dict)
        assert p["name"] == want.label and p["sourcePlayerId"] == bgstats.player_id(want.name)
        assert p["winner"] == want.winner and p["startPlayer"] == bool(want.start) and p["role"] == "Detective"
        if rules != "scotland_yard":
            assert p["rank"] == 1 and p["score"] == 123
    short = "http://192.168.178.123:8080" + bgstats.short_path("x" * 32, play.game_id, play.started)
    assert read_on_screen(short) == short


def test_every_player_has_start_player_and_source_id() -> None:
    """BG Stats' Android importer refuses a player without ``startPlayer`` ("Invalid data:
    org.json.JSONException: No value for startPlayer", clocktracker pull request 299): every player
    carries it (true or false) and a ``sourcePlayerId``, named or not."""
    players = (
        PlayerResult("p1", "", "Red", "", 30, True, 1, True),
        PlayerResult("p2", "Emil", "Emil", "", 20, False, 2, False),
        PlayerResult("p3", "", "Green", "", 10, False, 3, None),  # a game that does not know its start player
    )
    play = Play(5, "victorian_masterminds", "Victorian Masterminds", "t", "2031-01-02T19:00:00+00:00",
                "2031-01-02T20:30:00+00:00", 90, "vm.final_score", "", players)  # fmt: skip
    data = bgstats.decode(bgstats.link(play))
    assert isinstance(data, dict) and isinstance(data["players"], list)
    assert [(p["startPlayer"], p["sourcePlayerId"]) for p in data["players"]] == [  # type: ignore[index]
        (True, "5-20310102190000-p1"),
        (False, "emil"),
        (False, "5-20310102190000-p3"),
    ]


def test_a_name_is_the_same_player_however_it_was_typed() -> None:
    """BG Stats matches a ``sourcePlayerId`` to one of its players once and remembers it: the same
    name typed again with other capitals or spaces is the same id; its words stay as typed."""
    assert bgstats.player_id("Dora") == bgstats.player_id(" dora ") == bgstats.player_id("DORA") == "dora"
    assert bgstats.player_id("Anne  Marie") == "anne marie" != bgstats.player_id("Annemarie")


@pytest.mark.parametrize("zone", ["America/Los_Angeles", "Asia/Kolkata", "UTC"])
def test_play_date_is_when_the_play_ended_in_utc_whatever_the_pis_zone(zone: str, monkeypatch: Any) -> None:
    """BG Stats reads ``playDate`` as UTC (``yyyy-MM-dd HH:mm:ss``) and as the end of the play
    (docs/history.md names the sources): the same play gives the same ``playDate`` in every time zone
    the Pi may be set to, while the history's own local times follow the zone."""
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        play = crowded_play(["Ann", "Bo"])
        data = bgstats.decode(bgstats.link(play))
        assert isinstance(data, dict)
        assert data["playDate"] == "2030-12-24 23:59:00"  # finished: 2030-12-24T23:59:00+00:00
        assert data["durationMin"] == 224
        local = local_time(play.finished, "%Y-%m-%d %H:%M:%S")
        assert (local == "2030-12-24 23:59:00") == (zone == "UTC")
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


async def table_x_captured(table: Table) -> int:
    """Scotland Yard with Mister X played by the table (its moves come as his seat, from the table's
    player, as the app's autoplay sends them); D1 catches him at once."""
    game_id = await table.new_game("scotland_yard", {"mister_x_ai": "normal", "detectives": ["Dora"]}, "Bot")
    await table.submit(
        PlaceDetectives((("D1", 13), ("D2", 26), ("B1", 29), ("B2", 34))), TABLE, table.seq, game_id=game_id
    )
    x = Audience.of_seat("mrx")
    await table.submit(PlaceX(51), x, table.seq, game_id=game_id, source="table_player")
    await table.submit(XMove("taxi", 67), x, table.seq, game_id=game_id, source="table_player")
    await table.submit(Move("D1", "underground", 67), TABLE, table.seq, game_id=game_id)
    return game_id


def test_mister_x_played_by_the_table_is_the_table_in_history_and_bgstats(tmp_path: Path) -> None:
    """A Mister X the table played is no person: the history marks him as the table (a bot) with no
    name, and BG Stats gets one id for the table in every play, so no player's own record counts the
    computer's wins and losses."""
    game_id = run(tmp_path, table_x_captured)
    with Store(tmp_path / "history.sqlite3") as store:
        play = History(store).play(game_id)
        german = History(store).play(game_id, "de")
    x = play.players[0]
    assert (x.seat, x.bot, x.name, x.label, x.winner) == ("mrx", True, "", "The table (normal)", False)
    assert german.players[0].label == "Der Tisch (normal)"
    assert not any(p.bot for p in play.players[1:])
    data = bgstats.decode(bgstats.link(play))
    assert isinstance(data, dict) and isinstance(data["players"], list)
    first = data["players"][0]
    assert isinstance(first, dict)
    assert first["sourcePlayerId"] == bgstats.TABLE_PLAYER and first["role"] == "Mister X"
    rows = list(csv.DictReader(io.StringIO(to_csv([play]))))
    assert [r["bot"] for r in rows] == ["yes", "no"]


def test_the_history_lists_every_finished_game_page_by_page(tmp_path: Path) -> None:
    """Every finished game is in the history, however many: 23 plays on pages of 20, latest first."""

    async def work(table: Table) -> list[int]:
        return [await capture_in_round_one(table) for _ in range(23)]

    ids = run(tmp_path, work)
    with Store(tmp_path / "history.sqlite3") as store:
        history = History(store)
        first, total = history.page("en", 0, PAGE)
        second, again = history.page("en", PAGE, PAGE)
        assert (len(first), len(second), total, again) == (20, 3, 23, 23)
        assert [p.game_id for p in first + second] == [p.game_id for p in history.plays()] == ids[::-1]


def test_links_are_valid_urls_with_the_json_as_one_query_value() -> None:
    play = crowded_play(["A&B=C", "50% + 1 #1", 'Zoë "Z" Ö'])
    link = bgstats.link(play)
    query = urllib.parse.urlsplit(link).query
    assert " " not in link and "#" not in link and "&" not in query
    (value,) = urllib.parse.parse_qs(query)["data"]
    assert [p["name"] for p in json.loads(value)["players"]] == ["A&B=C", "50% + 1 #1", 'Zoë "Z" Ö']


def test_names_given_at_setup_are_the_players_in_history_and_bgstats(tmp_path: Path) -> None:
    """Victorian Masterminds and Mykerinos set up with the players' names (optional, next to the
    colours): the history and BG Stats name the people, with the same id as in any other box."""

    async def work(table: Table) -> list[int]:
        vm_config = {
            "players": [
                {"colour": "red", "machine": 1, "name": "Ann"},
                {"colour": "blue", "machine": 2, "name": " Bo  Berg "},
                {"colour": "green", "machine": 3},
            ],
            "secret_service_start": 4,
        }
        myk_config = {"seats": ["blue", "red"], "names": {"red": "ann"}}
        ids = []
        for rules, config in (("victorian_masterminds", vm_config), ("mykerinos", myk_config)):
            _name, _default, choose = DRIVERS[rules]
            game_id = await table.new_game(rules, config, "named", seed=5)
            rng = random.Random(5)
            while table.game is not None and table.game.outcome() is None:
                choice = choose(table.game, rng)
                assert choice is not None
                await table.submit(choice[0], choice[1], table.seq, game_id=game_id)
            ids.append(game_id)
        return ids

    vm, myk = run(tmp_path, work)
    with Store(tmp_path / "history.sqlite3") as store:
        history = History(store)
        vm_play, myk_play = history.play(vm), history.play(myk)
    assert [(p.name, p.label) for p in vm_play.players] == [("Ann", "Ann"), ("Bo Berg", "Bo Berg"), ("", "Green")]
    assert [(p.name, p.label) for p in myk_play.players] == [("", "Blue"), ("ann", "ann")]
    ids = {}
    for play in (vm_play, myk_play):
        data = bgstats.decode(bgstats.link(play))
        assert isinstance(data, dict) and isinstance(data["players"], list)
        ids[play.rules] = [p["sourcePlayerId"] for p in data["players"]]  # type: ignore[index]
    assert ids["victorian_masterminds"][:2] == ["ann", "bo berg"] and ids["mykerinos"][1] == "ann"


def _recorded_start(rules: str, config: dict[str, Any], entries: Any) -> str:
    """Who started, from what the table recorded rather than from any summary: Scotland Yard's
    Mister X; Victorian Masterminds' first player at setup; Mykerinos' start player as drawn (or
    chosen) before the first season, not the player who started the last season."""
    if rules == "scotland_yard":
        return "mrx"
    if rules == "victorian_masterminds":
        return str(config["first_player"])
    kinds = [e.event for e in entries if e.event.kind in ("myk.start_player_drawn", "myk.start_player_chosen")]
    assert len(kinds) == 1
    return str(kinds[0].seat)


@pytest.mark.parametrize(
    ("rules", "config", "seed"),
    [
        ("scotland_yard", {"mister_x": "Xavier", "detectives": ["Ann", "Bob"]}, 11),
        ("victorian_masterminds", {**DRIVERS["victorian_masterminds"][1], "first_player": "p2"}, 4),
        ("mykerinos", {"seats": ["blue", "red", "green"], "layout": "line4", "names": {"red": "Ann"}}, 1),
    ],
)
def test_every_games_bgstats_play_says_what_the_table_recorded(
    tmp_path: Path, rules: str, config: dict[str, Any], seed: int
) -> None:
    """Each game played to its end through the real table and store: the BG Stats play names the
    player who started the game (Mykerinos: the one drawn before the first season — "Der
    Startspieler wird ausgelost" — not the season-4 starter; Victorian Masterminds: the first
    player, after the log dropped its first lines), its date and minutes from the saved game, and
    the winners and scores of the outcome."""

    async def work(table: Table) -> int:
        return await finish(table, rules, seed, config)

    game_id = run(tmp_path, work)
    with Store(tmp_path / "history.sqlite3") as store:
        header = store.header(game_id)
        game = load_game(store, game_id).game
        play = History(store).play(game_id)
    outcome = game.outcome()
    assert outcome is not None
    data = bgstats.decode(bgstats.link(play))
    assert isinstance(data, dict) and isinstance(data["players"], list)
    players = {p.seat: entry for p, entry in zip(play.players, data["players"], strict=True)}
    starter = _recorded_start(rules, config, game.entries)
    assert {seat for seat, p in players.items() if p["startPlayer"]} == {starter}  # type: ignore[index]
    assert {seat for seat, p in players.items() if p["winner"]} == set(outcome.winners)  # type: ignore[index]
    if rules != "scotland_yard":
        assert {seat: p["score"] for seat, p in players.items()} == dict(outcome.scores)  # type: ignore[index]
    assert data["playDate"] == bgstats.utc_text(header.updated)
    assert data["durationMin"] == play.minutes == minutes_between(header.created, header.updated)
    if rules == "mykerinos":  # the season-4 starter is someone else in this seeded game
        assert game.state.start_player != starter
