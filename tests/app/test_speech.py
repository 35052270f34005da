"""The table speaks (``companion/app/speech.py``): an announcer on a real table (a real SQLite file, the
real event loop) hears the public table view, says the game's announcements in the table's language
at the table's volume when speech is on, never for an undo or a game just opened, and speaks on a
thread of its own — a slow or broken speaker never holds up the table."""

from __future__ import annotations

import asyncio
import logging
import random
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.app.speech import PENDING, Announcer, Speaker, Spoken
from companion.app.store import Store
from companion.app.table import Table
from companion.core import TABLE, Audience, Undo
from companion.core.jsonvalue import JSON
from companion.games.victorian_masterminds.events import Adjust, Start
from hardware.voice import RecordingVoice

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "scotland_yard"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "victorian_masterminds"))
from sy_support import random_intent
from vm_helpers import config as vm_config

CONFIG = {"detectives": ["Ann", "Bob"]}


class Prefs:
    """The table's settings as the touchscreen keeps them (``speech``, ``speech_volume``)."""

    def __init__(self, **values: JSON) -> None:
        self.values: dict[str, JSON] = dict(values)

    def __call__(self, key: str, default: JSON = None) -> JSON:
        return self.values.get(key, default)


async def until(check: Callable[[], bool], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "never got there"
        await asyncio.sleep(0.01)


async def table_with(path: Path, voice: Any, prefs: Prefs, lang: list[str]) -> tuple[Table, Announcer]:
    table = Table(Store(path))
    await table.start()
    announcer = Announcer(table, Speaker(voice), language=lambda: lang[0], pref=prefs)
    announcer.start()
    return table, announcer


async def play_until(table: Table, done: Callable[[], bool], seed: int = 1, limit: int = 200) -> None:
    """Random legal moves (detectives never chase, so the game goes on) until ``done()``."""
    rng = random.Random(seed)
    game = table.game
    assert game is not None and table.current is not None
    for _ in range(limit):
        if done():
            return
        intent, actor = random_intent(game, rng, chase=0.0, double=0.0)
        await table.submit(intent, actor, game.seq, game_id=table.current.header.id)
    raise AssertionError("never got there")


def reveals(game: Any) -> int:
    return sum(1 for f in game.state.route if f.field in (3, 8, 13, 18, 24))


def test_a_reveal_is_said_in_the_tables_language_at_its_volume(tmp_path: Path) -> None:
    """ "Mister X muss sich in regelmäßigen Abständen zeigen, und zwar nach seinem 3., 8., 13., 18. und
    24. Zug." — the table says where, in German, at the volume of its settings."""

    async def scenario() -> None:
        voice = RecordingVoice()
        table, announcer = await table_with(tmp_path / "t.sqlite3", voice, Prefs(speech=True, speech_volume=60), ["de"])
        await table.new_game("scotland_yard", CONFIG, seed=5)
        game = table.game
        assert game is not None
        await play_until(table, lambda: reveals(game) == 1)
        assert announcer.speaker.idle()
        station = game.state.route[2].station
        assert [(u.text, u.lang, u.volume) for u in voice.said] == [
            (f"Mister X zeigt sich auf Station {station}.", "de", 60)
        ]
        announcer.close()
        await table.stop()
        table.store.close()

    asyncio.run(scenario())


def test_an_undo_says_nothing_and_the_action_made_again_is_said_again(tmp_path: Path) -> None:
    """The Secret Service level corrected up by one is said; taking the correction back says nothing
    (the screen shows the undo), and making it again says it again."""

    async def scenario() -> None:
        voice = RecordingVoice()
        table, announcer = await table_with(tmp_path / "t.sqlite3", voice, Prefs(speech=True), ["en"])
        await table.new_game("victorian_masterminds", vm_config(3, start=4), seed=2)
        assert table.current is not None
        game_id = table.current.header.id

        async def do(intent: Any) -> None:
            assert table.game is not None
            await table.submit(intent, TABLE, table.game.seq, game_id=game_id)

        await do(Start())
        await do(Adjust("level", 1))
        await do(Undo())
        await do(Adjust("level", 1))
        assert announcer.speaker.idle()
        assert [u.text for u in voice.said] == ["The Secret Service rises to level 5."] * 2
        announcer.close()
        await table.stop()
        table.store.close()

    asyncio.run(scenario())


def test_speech_off_says_nothing_and_a_game_opened_says_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        voice = RecordingVoice()
        prefs = Prefs(speech=False)
        table, announcer = await table_with(tmp_path / "t.sqlite3", voice, prefs, ["en"])
        await table.new_game("scotland_yard", CONFIG, seed=5)
        game = table.game
        assert game is not None
        await play_until(table, lambda: reveals(game) == 1)
        assert announcer.speaker.idle()
        assert voice.said == []
        assert [h.code for h in announcer.heard] == ["sy.say.reveal"]  # what it would have said
        first = table.current.header.id if table.current else 0
        # A finished game opened again (as after a restart) is its first view: nothing to say.
        await play_until(table, lambda: game.outcome() is not None, limit=600)
        prefs.values["speech"] = True
        await table.new_game("mykerinos", {"seats": ["blue", "red"]}, seed=2)
        await table.open_game(first)
        assert announcer.speaker.idle()
        assert voice.said == []
        announcer.close()
        await table.stop()
        table.store.close()

    asyncio.run(scenario())


class SlowVoice:
    """A speaker that takes as long as the test says (``release``), noting the thread it speaks on."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.threads: set[str] = set()
        self.said: list[str] = []

    def say(self, text: str, lang: str, volume: int) -> None:
        self.threads.add(threading.current_thread().name)
        self.release.wait(60)
        self.said.append(text)

    def close(self) -> None:
        self.release.set()


def test_a_slow_speaker_never_holds_up_the_table(tmp_path: Path) -> None:
    async def scenario() -> None:
        voice = SlowVoice()
        table, announcer = await table_with(tmp_path / "t.sqlite3", voice, Prefs(speech=True), ["en"])
        await table.new_game("scotland_yard", CONFIG, seed=5)
        game = table.game
        assert game is not None
        await play_until(table, lambda: reveals(game) == 1)
        await until(lambda: bool(voice.threads))  # it speaks now, and does not finish
        before = game.seq
        await play_until(table, lambda: game.seq >= before + 12)  # the table plays on meanwhile
        assert voice.said == [] and not voice.release.is_set()
        assert voice.threads == {"companion-speaker"}  # never the event loop's thread
        voice.release.set()
        assert announcer.speaker.idle()
        assert voice.said[0].startswith("Mister X shows himself at station")
        announcer.close()
        await table.stop()
        table.store.close()

    asyncio.run(scenario())


def test_a_broken_speaker_is_reported_once_and_the_next_words_are_still_tried(caplog: pytest.LogCaptureFixture) -> None:
    class Broken:
        def __init__(self) -> None:
            self.tried: list[str] = []

        def say(self, text: str, lang: str, volume: int) -> None:
            self.tried.append(text)
            raise OSError("no sound card")

        def close(self) -> None:
            pass

    broken = Broken()
    speaker = Speaker(broken)
    with caplog.at_level(logging.WARNING, "companion.app.speech"):
        for n in range(3):
            assert speaker.put(Spoken(f"line {n}", "en", 80, "x"))
        assert speaker.idle()
    assert broken.tried == ["line 0", "line 1", "line 2"]
    assert sum("no sound card" in r.getMessage() for r in caplog.records) == 1
    speaker.close()


def test_too_many_waiting_words_are_dropped_not_piled_up() -> None:
    voice = SlowVoice()
    speaker = Speaker(voice)
    results = [speaker.put(Spoken(f"line {n}", "en", 80, "x")) for n in range(PENDING + 5)]
    assert results.count(False) >= 4 and speaker.dropped == results.count(False)
    voice.release.set()
    assert speaker.idle()
    assert voice.said[:2] == ["line 0", "line 1"]
    speaker.close()


def test_switching_speech_on_or_changing_its_volume_says_so_at_that_volume(tmp_path: Path) -> None:
    async def scenario() -> None:
        voice = RecordingVoice()
        prefs = Prefs(speech=False)
        lang = ["fr"]
        table, announcer = await table_with(tmp_path / "t.sqlite3", voice, prefs, lang)
        announcer.setting_changed("speech")  # switched off: silence
        prefs.values.update(speech=True, speech_volume=40)
        announcer.setting_changed("speech")
        announcer.setting_changed("speech")  # set again to what it is: nothing new to hear
        prefs.values["speech_volume"] = 100
        announcer.setting_changed("speech_volume")
        announcer.setting_changed("language")  # not about speech
        assert announcer.speaker.idle()
        assert [(u.text, u.volume) for u in voice.said] == [
            ("La table parle à ce volume.", 40),
            ("La table parle à ce volume.", 100),
        ]
        announcer.close()
        await table.stop()
        table.store.close()

    asyncio.run(scenario())


def test_the_tables_mister_x_is_said_move_by_move_with_a_phone_watching(tmp_path: Path) -> None:
    """The announcer hears the table audience only: what it says of the table's Mister X is his
    ticket, as the travel log shows it, however many screens watch."""

    async def scenario() -> None:
        from companion.app.autoplay import TablePlayer

        voice = RecordingVoice()
        table, announcer = await table_with(tmp_path / "t.sqlite3", voice, Prefs(speech=True), ["en"])
        await table.new_game("scotland_yard", {**CONFIG, "mister_x_ai": "easy"}, seed=7)
        seen: list[Any] = []
        table.subscribe(Audience.of_seat("d1"), seen.append)
        player = TablePlayer(table, thinking=0, cpu_budget=None)
        player.start()
        game = table.game
        assert game is not None
        rng = random.Random(4)
        while len(game.state.route) < 4:
            await player.idle()
            if game.state.phase == "x":
                await asyncio.sleep(0.01)
                continue
            intent, actor = random_intent(game, rng, chase=0.0, double=0.0)
            assert table.current is not None
            await table.submit(intent, actor, game.seq, game_id=table.current.header.id)
        assert announcer.speaker.idle()
        moves = [u.text for u in voice.said if u.text.startswith(("Mister X travels", "Mister X makes a double"))]

        def by(ticket: str) -> str:
            return "with a black ticket" if ticket == "black" else f"by {ticket}"

        expected, route = [], list(game.state.route)
        while route:
            field = route.pop(0)
            if field.step == 1:  # a double move: both tickets in one sentence
                expected.append(
                    f"Mister X makes a double move: first {by(field.ticket)}, then {by(route.pop(0).ticket)}."
                )
            else:
                expected.append(f"Mister X travels {by(field.ticket)}.")
        assert moves == expected
        assert any("shows himself" in u.text for u in voice.said)  # his 3rd move is a reveal
        await player.stop()
        announcer.close()
        await table.stop()
        table.store.close()

    asyncio.run(scenario())
