"""What the table's speaker says, worked out on the test side from a game's states (the public table
view before and after each action, as ``companion/app/speech.py`` hears them), so the no-leak and
property tests can hold the spoken words to the same rules as every screen's view."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.app.i18n import LANGUAGES
from companion.app.readable import line
from companion.app.speech import Speaker
from companion.core import TABLE, Game
from companion.core.events import Undone
from companion.core.rules import Rules
from companion.core.summary import Line
from hardware.voice import RecordingVoice

EVERY_WORD = 100_000  # a test plays faster than any table: its speaker keeps every word, not the last 16


def recording_speaker() -> Speaker:
    """A speaker whose voice records, for a test that plays a whole game as fast as it can and then
    compares every word said. The table's own speaker drops words when 16 wait (stale at a real
    table); a test's loop can outrun the speaking thread on a loaded machine, so here none is
    dropped, and :func:`all_said` says so if one was."""
    return Speaker(RecordingVoice(), pending=EVERY_WORD)


def all_said(speaker: Speaker) -> list[str]:
    """Every word ``speaker`` said, once everything queued was spoken."""
    assert speaker.idle(), "the speaker did not finish"
    assert speaker.dropped == 0, f"the speaker dropped {speaker.dropped} utterances"
    voice = speaker.voice
    assert isinstance(voice, RecordingVoice)
    return [u.text for u in voice.said]


def lines_between(rules: Rules[Any], before: Any, after: Any) -> tuple[Line, ...]:
    """The announcement lines one action makes, from the table's views of the states around it."""
    return rules.announcements(rules.view(before, TABLE), rules.view(after, TABLE))


def spoken(rules: Rules[Any], before: Any, after: Any, langs: Iterable[str] = LANGUAGES) -> tuple[str, ...]:
    """Those lines in words, in every language (what any audience at the table would hear)."""
    found = lines_between(rules, before, after)
    return tuple(line(item, lang) for lang in langs for item in found)


def actions(game: Game[Any]) -> list[tuple[int, int, bool]]:
    """Every action of ``game``'s log: (seq before it, seq after it, whether it is an undo)."""
    out: list[tuple[int, int, bool]] = []
    for entry in game.entries:
        if entry.seq == entry.action:
            out.append((entry.seq - 1, entry.seq, isinstance(entry.event, Undone)))
        else:
            first, _, undo = out[-1]
            out[-1] = (first, entry.seq, undo)
    return out


def expected_speech(game: Game[Any], states: Mapping[int, Any], lang: str) -> list[str]:
    """Everything an announcer on ``game``'s table says in ``lang``, action after action (none for
    an undo); ``states`` holds the state after every action (by seq)."""
    said: list[str] = []
    for before, after, undo in actions(game):
        if not undo:
            said += [line(item, lang) for item in lines_between(game.rules, states[before], states[after])]
    return said


def states_of(game: Game[Any]) -> dict[int, Any]:
    """The state after every event of ``game``'s log, by seq (each folded from the start)."""
    return {n: Game(game.rules, game.config, game.seed, game.entries[:n]).state for n in range(game.seq + 1)}


def numbers(texts: Sequence[str]) -> set[int]:
    """Every whole number said in ``texts``."""
    import re

    return {int(n) for text in texts for n in re.findall(r"\d+", text)}
