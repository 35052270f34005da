"""The table speaks: the moments a table must not miss, said aloud in the table's language.

:class:`Announcer` subscribes to the *public* table audience (the touchscreen's view) and nothing
else. When one action took the open game's view from ``before`` to ``after``, it asks the game's
rules what to say (:meth:`~companion.core.rules.Rules.announcements`: a pure function of those two
public views, so nothing a screen hides can ever be spoken), puts each line into the table's
language and hands it to a :class:`Speaker`. It says nothing for an undo, for the first view of a
game just opened (after a restart, too) or when the table's setting ``speech`` is off.

:class:`Speaker` speaks on a worker thread of its own, one utterance after another: a slow or
broken speaker never blocks the event loop (the table, the touchscreen, the phones). A voice is
anything with ``say(text, lang, volume)`` (``hardware/voice.py``: espeak-ng and ALSA, or the
stand-in sink that records what would be said); the entry points build it from ``[speech]`` and
wire it here.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from companion.app.preferences import PREF_SPEECH, PREF_SPEECH_VOLUME, SPEECH_VOLUME
from companion.app.readable import line
from companion.app.table import Subscription, Table
from companion.core.audience import Audience
from companion.core.jsonvalue import JSON, JSONObject
from companion.core.summary import Line
from companion.games import game_names, get_rules

log = logging.getLogger(__name__)
KEPT = 50  # lines remembered in Announcer.heard
PENDING = 16  # utterances waiting at most; more are dropped (the oldest words are stale by then)


class Voice(Protocol):
    def say(self, text: str, lang: str, volume: int) -> None: ...

    def check(self) -> None: ...  # raises when no word could be heard (nothing audible is played)

    def close(self) -> None: ...


@dataclass(frozen=True)
class Spoken:
    """One line the table said (or would have said with speech on): its words and their code."""

    text: str
    lang: str
    volume: int
    code: str


class Speaker:
    """Speaks utterances one after another on its own thread (started on the first one)."""

    def __init__(self, voice: Voice, pending: int = PENDING) -> None:
        self.voice = voice
        self._queue: queue.Queue[Spoken | None] = queue.Queue(pending)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._failures: set[str] = set()  # each different failure is logged once
        self._device = threading.Lock()  # one utterance or check at a time (a hw device plays one stream)
        self.dropped = 0
        self.trouble: str | None = None  # why the last utterance or check could not be heard; None: heard
        self.checked = False  # a check or an utterance has told whether words can be heard
        self.trouble_changed: Callable[[str | None], None] | None = None  # called on the speaker's thread

    def _heard(self, trouble: str | None) -> None:
        before, self.trouble, self.checked = self.trouble, trouble, True
        if trouble != before:
            if trouble is None:
                log.warning("speech: the voice can be heard again")
            callback = self.trouble_changed
            if callback is not None:
                try:
                    callback(trouble)
                except Exception:
                    log.exception("speech: a change of the voice could not be told")

    def check(self) -> str | None:
        """Can words be heard now (blocking: a check plays a moment of silence)? The trouble, or None."""
        try:
            with self._device:
                self.voice.check()
        except Exception as exc:
            self._heard(str(exc) or type(exc).__name__)
        else:
            self._heard(None)
        return self.trouble

    def put(self, spoken: Spoken) -> bool:
        """Queue ``spoken``; False (and nothing said) when too many wait already."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="companion-speaker", daemon=True)
                self._thread.start()
        try:
            self._queue.put_nowait(spoken)
        except queue.Full:
            self.dropped += 1
            log.warning("speech: %d utterances wait already; dropped %r", self._queue.qsize(), spoken.text)
            return False
        return True

    def idle(self, timeout: float = 30.0) -> bool:
        """Wait until everything queued so far was spoken (for tests and a clean stop)."""
        done = threading.Event()

        def wait() -> None:
            self._queue.join()
            done.set()

        threading.Thread(target=wait, daemon=True).start()
        return done.wait(timeout)

    def _run(self) -> None:
        while True:
            spoken = self._queue.get()
            try:
                if spoken is None:
                    return
                with self._device:
                    self.voice.say(spoken.text, spoken.lang, spoken.volume)
                self._heard(None)
            except Exception as exc:  # a speaker that fails never stops the table
                why = f"{type(exc).__name__}: {exc}"
                if why not in self._failures:
                    self._failures.add(why)
                    log.warning("speech: the voice failed (%s); the table plays on without it", why)
                self._heard(str(exc) or type(exc).__name__)
            finally:
                self._queue.task_done()

    def close(self, timeout: float = 5.0) -> None:
        """Stop after the utterance being spoken (the rest is not said)."""
        while True:
            try:
                self._queue.get_nowait()
                self._queue.task_done()
            except queue.Empty:
                break
        thread = self._thread
        if thread is not None:
            with contextlib.suppress(queue.Full):
                self._queue.put(None, timeout=timeout)
            thread.join(timeout)
        self.voice.close()


def announcement_lines(game: str, before: JSONObject, after: JSONObject) -> tuple[Line, ...]:
    """What game ``game``'s rules say between two public table views (none for an unknown game)."""
    return get_rules(game).announcements(before, after) if game in game_names() else ()


class Announcer:
    """The table's messages in, spoken lines out (see the module's docstring). Runs on the event
    loop; ``speaker.put`` returns at once."""

    def __init__(
        self,
        table: Table,
        speaker: Speaker,
        *,
        language: Callable[[], str],
        pref: Callable[[str, JSON], JSON],
    ) -> None:
        self.table = table
        self.speaker = speaker
        self.language = language
        self.pref = pref
        self._subscription: Subscription | None = None
        self._previous: JSONObject | None = None
        self._said_setting = (self.on, self.volume)  # speech on/off and volume, as last heard
        self.heard: list[Spoken] = []  # the last KEPT lines, spoken or not

    @property
    def on(self) -> bool:
        return self.pref(PREF_SPEECH, False) is True

    @property
    def volume(self) -> int:
        value = self.pref(PREF_SPEECH_VOLUME, SPEECH_VOLUME)
        return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 100 else SPEECH_VOLUME

    def start(self) -> None:
        if self._subscription is None:
            self._subscription = self.table.subscribe(Audience.table(), self._on_message)

    def close(self) -> None:
        if self._subscription is not None:
            self._subscription.close()
            self._subscription = None
        self.speaker.close()

    def say(self, code: str, params: Mapping[str, JSON] | None = None, *, always: bool = False) -> bool:
        """Say one text of the catalogues in the table's language (``always``: even with speech
        off, e.g. a speaker check). False when nothing is said."""
        lang = self.language()
        spoken = Spoken(line(Line(code, dict(params or {})), lang), lang, self.volume, code)
        self._keep(spoken)
        return (always or self.on) and self.speaker.put(spoken)

    def warnings(self) -> list[tuple[str, dict[str, JSON]]]:
        """With speech on, a warning when no word can be heard, and why (the start screen, the
        Settings screen, the host page and ``companion status`` say it). Blocking: it checks the
        speaker when nothing has told yet whether it is heard, and again while it is not, so the
        warning goes once a speaker is plugged in or set up. Run it off the event loop."""
        if not self.on:
            return []
        trouble = self.speaker.check() if not self.speaker.checked or self.speaker.trouble else None
        return [("appliance.health.voice", {"why": trouble})] if trouble else []

    def setting_changed(self, key: str) -> None:
        """Speech switched on, or its volume changed while on: a short sentence at the new volume,
        so the table hears that (and how loud) it speaks. The same value set again says nothing."""
        if key not in (PREF_SPEECH, PREF_SPEECH_VOLUME):
            return
        now = (self.on, self.volume)
        if now != self._said_setting and self.on:
            self.say("speech.check")
        self._said_setting = now

    def _keep(self, spoken: Spoken) -> None:
        self.heard = [*self.heard[-(KEPT - 1) :], spoken]

    def _on_message(self, msg: JSONObject) -> None:
        previous, self._previous = self._previous, msg
        if previous is None or msg.get("type") != "state" or previous.get("type") != "state":
            return
        if previous.get("game_id") != msg.get("game_id"):
            return  # another game opened: its first view says nothing
        last = msg.get("last")
        action = last.get("seq") if isinstance(last, dict) else None
        before_seq = previous.get("seq")
        if not isinstance(action, int) or not isinstance(before_seq, int) or action <= before_seq:
            return  # an undo (the last action that counts is an older one), or nothing new
        before, after, game = previous.get("view"), msg.get("view"), msg.get("game")
        if not isinstance(before, dict) or not isinstance(after, dict) or not isinstance(game, str):
            return
        try:
            lines = announcement_lines(game, before, after)
        except Exception:  # a game's words never stop the table
            log.exception("speech: the announcements of %s failed", game)
            return
        lang, volume, on = self.language(), self.volume, self.on
        for item in lines:
            spoken = Spoken(line(item, lang), lang, volume, item.code)
            self._keep(spoken)
            if on:
                self.speaker.put(spoken)
