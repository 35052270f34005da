"""The box's buttons, lights and tag readers, wired to the table (the hardware side's one link
to the app; the drivers in this package know no game and no app code).

:class:`InputRouter` takes hardware events (handed to the event loop by ``hardware.loop.to_loop``),
looks tags up in the enrollment table, applies the open game's bindings
(:mod:`companion.app.bindings`) and calls the bound action of the game's hardware rules
(``HARDWARE`` of its package, :mod:`companion.core.hardware`), then submits the resulting intents
to the :class:`Table` like any screen — so every rule check applies. What it cannot or may not do
it reports as a notice (unknown tag, a piece of another game, no game open, the rules' refusal),
never guessing.

It also drives the indicators from the table's *public* messages only (it subscribes to the
table audience and nothing else): the game's hardware rules say whose turn it is (the seat
lights) and what the buzzer sounds (reveals, captures, the end); the bindings' tracks say which
value of the view a bar graph shows (e.g. the Secret Service level).

Screens subscribe with :meth:`InputRouter.listen` and receive JSON messages:

- ``{"type": "notice", "level": "info|warning|refused|unknown", "code", "params", "text", "source"}``
- ``{"type": "selection", "selection": {...} | null}`` — e.g. Scotland Yard
  ``{"game": "scotland_yard", "kind": "figure", "figure": "D1", "seat": "d1"|null, "moves": {ticket: [stations]}}``
  or Mykerinos ``{"game": "mykerinos", "kind": "patron", "seat", "patron", "intents": [intent JSON, ...]}``
- ``{"type": "remembered", "seats": ["p1"]}`` — seats with a piece remembered for their next action
  (Victorian Masterminds: an agent disc scanned; never which one: the touchscreen is public)
- ``{"type": "button", "role": "confirm", "button": "confirm"}`` — a button the screen handles
- ``{"type": "enrollment", ...}`` — the tag an enrollment session (:meth:`InputRouter.enroll`) waited for

:class:`Box` builds all of it from the configuration; the entry points (``companion run`` in
``ui/app.py``, ``companion serve`` in ``companion/net/serve.py``) open it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.app.bindings import Bindings, action, hardware_of, load_bindings, track_values
from companion.app.config import Config
from companion.app.i18n import text
from companion.app.speech import Announcer, Speaker
from companion.app.table import Ack, Subscription, Table
from companion.core.audience import Audience
from companion.core.errors import CompanionError
from companion.core.events import Intent
from companion.core.hardware import Input, Notice, Remember, Result, Select, Submit, UiButton, acting_seats
from companion.core.jsonvalue import JSON, JSONObject
from companion.games import game_names
from hardware.config import HardwareConfig, HardwareConfigError, parse_hardware
from hardware.diagnostics import report
from hardware.enrollment import EnrollmentSession, TagTable
from hardware.events import (
    ButtonHeld,
    ButtonPressed,
    ButtonReleased,
    HardwareEvent,
    ReaderStatus,
    TagSeen,
)
from hardware.interfaces import Indicators
from hardware.loop import to_loop
from hardware.system import Hardware, build
from hardware.voice import open_voice

log = logging.getLogger(__name__)

Listener = Callable[[JSONObject], None]


def check_seat_maps(config: HardwareConfig) -> None:
    """``[hardware.seats.<game>]`` must name registered games (a typo would silently map nothing)."""
    for game, _pairs in config.seats:
        if game not in game_names():
            raise HardwareConfigError(f"seats.{game}", f"unknown game (known: {', '.join(sorted(game_names()))})")


class InputRouter:
    """Hardware events in, intents to the table out; table messages in, lights and sounds out.

    Everything runs on the table's event loop: :meth:`handle` is the handler given to
    ``hardware.loop.to_loop``; :meth:`start` subscribes to the table (after ``table.start()``).
    """

    def __init__(
        self,
        table: Table,
        tags: TagTable | None = None,
        *,
        config: HardwareConfig | None = None,
        bindings: Bindings | None = None,
        indicators: Indicators | None = None,
        language: Callable[[], str] = lambda: "en",
    ) -> None:
        self.table = table
        self.tags = tags if tags is not None else TagTable()
        self.config = config if config is not None else HardwareConfig()
        check_seat_maps(self.config)
        self.bindings = bindings if bindings is not None else load_bindings()
        self.indicators = indicators
        self.language = language
        self._reader_places = {r.name: r.seat for r in self.config.readers if r.seat}
        self._listeners: list[Listener] = []
        self._subscription: Subscription | None = None
        self._message: JSONObject | None = None  # the table audience's latest state message
        self._remembered: dict[str, str] = {}  # seat -> a piece for its next action (secret)
        self._selection: JSONObject | None = None
        self._selection_source: tuple[str, str, Input, tuple[str, ...]] | None = None  # game, action, input, args
        self._reader_status: dict[str, str] = {}
        self.status_changed: Callable[[], None] | None = None  # a reader went away or came back
        self._watchers: list[Callable[[HardwareEvent], None]] = []
        self._enrolling: EnrollmentSession | None = None
        self._tasks: set[asyncio.Task[Ack | None]] = set()
        self.recent: collections.deque[JSONObject] = collections.deque(maxlen=20)

    # ------------------------------------------------------------------ life cycle
    def start(self) -> None:
        if self._subscription is None:
            self._subscription = self.table.subscribe(Audience.table(), self._on_message)

    def close(self) -> None:
        if self._subscription is not None:
            self._subscription.close()
            self._subscription = None
        for task in list(self._tasks):
            task.cancel()

    async def idle(self) -> None:
        """Wait until every submission made so far has been decided (for tests and shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Receive notices, selections, recorded seats and screen buttons; returns "stop listening"."""
        self._listeners.append(listener)

        def stop() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return stop

    # ------------------------------------------------------------------ what screens may ask
    @property
    def game(self) -> str | None:
        return self._open_game()[0]

    @property
    def selection(self) -> JSONObject | None:
        return self._selection

    def clear_selection(self) -> None:
        self._set_selection(None, None)

    @property
    def remembered_seats(self) -> tuple[str, ...]:
        return tuple(sorted(self._remembered))

    def forget(self, seat: str) -> None:
        if self._remembered.pop(seat, None) is not None:
            self._emit({"type": "remembered", "seats": list(self.remembered_seats)})

    def complete_intent(self, intent: JSONObject) -> JSONObject:
        """Fill in what the hardware remembered and the screen does not know (before the screen
        submits), as the open game's hardware rules say (Victorian Masterminds: the scanned agent of
        a placement from the pile). The result may hold a secret: never display it."""
        game = self.game
        return intent if game is None else hardware_of(game).complete(intent, dict(self._remembered))

    def status(self) -> JSONObject:
        """For the diagnostics screen (public: no remembered piece is ever named)."""
        return {
            "game": self.game,
            "remembered": list(self.remembered_seats),
            "selection": self._selection,
            "readers": dict(self._reader_status),
            "recent": list(self.recent),
        }

    # ------------------------------------------------------------------ hardware events
    def watch(self, listener: Callable[[HardwareEvent], None]) -> Callable[[], None]:
        """Every raw hardware event too (the diagnostics screen's live view); returns "stop watching"."""
        self._watchers.append(listener)

        def stop() -> None:
            if listener in self._watchers:
                self._watchers.remove(listener)

        return stop

    def enroll(self, session: EnrollmentSession | None) -> None:
        """While ``session`` waits, tags on its reader enroll instead of playing (None: stop waiting).

        The outcome arrives as ``{"type": "enrollment", "status": "recorded|already|conflict",
        "uid", "label", "previous": label | null}``; after a conflict the screen may call
        ``session.confirm_replace()``.
        """
        self._enrolling = session

    def handle(self, event: HardwareEvent) -> None:
        """One hardware event, on the event loop."""
        for watcher in list(self._watchers):
            try:
                watcher(event)
            except Exception:
                log.exception("inputs: a watcher failed")
        session = self._enrolling
        if session is not None and isinstance(event, TagSeen) and event.reader == session.reader:
            self._enrolled(session, event)
            return
        try:
            if isinstance(event, TagSeen):
                self._tag(event)
            elif isinstance(event, ButtonPressed | ButtonHeld | ButtonReleased):
                self._button(event)
            elif isinstance(event, ReaderStatus):
                self._status(event)
        except Exception:  # a binding bug must never stop the loop
            log.exception("inputs: handling %r failed", event)
            self._notice(Notice("input.failed", {}, "warning"), "inputs")

    def _enrolled(self, session: EnrollmentSession, event: TagSeen) -> None:
        self._enrolling = None
        result = session.offer(event)
        if result is None:
            return
        previous = result.previous.title if result.previous is not None else None
        self.recent.append({"source": f"reader {event.reader}", "input": event.uid, "outcome": "enrolled"})
        self._emit(
            {
                "type": "enrollment",
                "status": result.status,
                "uid": result.uid,
                "label": result.piece.title,
                "previous": previous,
            }
        )

    def _tag(self, event: TagSeen) -> None:
        source = f"reader {event.reader}"
        piece = self.tags.lookup(event.uid)
        if piece is None:
            self._note(
                Notice("input.unknown_tag", {"uid": event.uid, "reader": event.reader}, "unknown"), source, event.uid
            )
            return
        game, msg = self._open_game()
        if game is None or msg is None:
            self._note(Notice("input.no_game", {"label": piece.title}, "info"), source, piece.title)
            return
        if piece.game != game:
            self._note(Notice("input.other_game", {"label": piece.title, "game": piece.game}), source, piece.title)
            return
        kind, _, rest = piece.piece.partition(":")
        bound = self.bindings.of(game).pieces.get(kind)
        if bound is None:
            self._note(Notice("input.unbound_piece", {"label": piece.title}, "info"), source, piece.title)
            return
        seat, problem = self._seat_of(game, msg, self._reader_places.get(event.reader))
        if problem is not None:
            self._note(problem, source, piece.title)
            return
        inp = Input(msg, seat, self._reader_places.get(event.reader), piece.title)
        self._run(bound, inp, tuple(rest.split(":")) if rest else (), source, piece.title)

    def _button(self, event: ButtonPressed | ButtonHeld | ButtonReleased) -> None:
        source = f"button {event.name}"
        game, msg = self._open_game()
        if game is None or msg is None:
            if isinstance(event, ButtonPressed):
                self._note(Notice("input.no_game", {"label": event.name}, "info"), source, f"press {event.name}")
            return
        gestures = self.bindings.of(game).button(event.role)
        gesture: str | None = None
        if isinstance(event, ButtonPressed):
            if not gestures:
                self._note(
                    Notice("input.unbound_button", {"button": event.name}, "info"), source, f"press {event.name}"
                )
            elif "hold" not in gestures and "press" in gestures:
                gesture = "press"
        elif isinstance(event, ButtonHeld):
            gesture = "hold" if "hold" in gestures else None
        elif not event.held and "hold" in gestures:  # a short press of a button that also holds
            if "press" in gestures:
                gesture = "press"
            else:
                self._note(Notice("input.hold_needed", {"button": event.name}, "info"), source, f"press {event.name}")
        if gesture is None:
            return
        place = event.role.partition(":")[2] if event.role.startswith("seat:") else None
        seat, problem = self._seat_of(game, msg, place)
        if problem is not None:
            self._note(problem, source, f"{gesture} {event.name}")
            return
        inp = Input(msg, seat, place, event.name, event.role)
        self._run(gestures[gesture], inp, (), source, f"{gesture} {event.name}")

    def warnings(self) -> list[tuple[str, dict[str, JSON]]]:
        """A warning for each tag reader that is unplugged or does not answer, until it is back
        (the start screen, the host page and ``companion status`` keep saying it; the notice
        at the moment it went is gone with its toast)."""
        return [
            (f"input.reader.{status}", {"reader": reader})
            for reader, status in sorted(self._reader_status.items())
            if status in ("disconnected", "error")
        ]

    def _status(self, event: ReaderStatus) -> None:
        before = self._reader_status.get(event.reader)
        self._reader_status[event.reader] = event.status
        if event.status == before:
            return
        if self.status_changed is not None:
            try:
                self.status_changed()
            except Exception:
                log.exception("a reader's change could not be told")
        if event.status in ("disconnected", "error"):
            self._notice(
                Notice(f"input.reader.{event.status}", {"reader": event.reader}, "warning"),
                f"reader {event.reader}",
                sound=False,
            )
        elif before in ("disconnected", "error"):
            self._notice(Notice("input.reader.connected", {"reader": event.reader}, "info"), f"reader {event.reader}")

    def _open_game(self) -> tuple[str | None, JSONObject | None]:
        msg = self._message
        if msg is None or msg.get("type") != "state" or not isinstance(msg.get("game"), str):
            return None, None
        return str(msg["game"]), msg

    def _seat_of(self, game: str, msg: JSONObject, place: str | None) -> tuple[str | None, Notice | None]:
        """The seat of the open game at ``place`` (None: the table's own input)."""
        if not place:
            return None, None
        seat = self.config.seat_map(game).get(place, place)
        view = msg.get("view")
        if not isinstance(view, dict) or seat not in hardware_of(game).seats(view):
            return None, Notice("input.no_seat", {"place": place})
        return seat, None

    def _place_of(self, game: str, seat: str) -> str:
        for place, mapped in self.config.seat_map(game).items():
            if mapped == seat:
                return place
        return seat

    # ------------------------------------------------------------------ results
    def _note(self, notice: Notice, source: str, what: str) -> None:
        """An input that ends in a notice before any binding ran."""
        self.recent.append({"source": source, "input": what, "outcome": "notice", "code": notice.code})
        self._notice(notice, source)

    def _run(self, name: str, inp: Input, args: tuple[str, ...], source: str, what: str) -> None:
        game = self.game or ""
        result = action(game, name)(inp, args)
        entry: JSONObject = {"source": source, "input": what, "outcome": type(result).__name__.lower()}
        self.recent.append(entry)
        self._apply(result, source, entry)
        if isinstance(result, Select):
            entry["outcome"] = "selected"
            self._set_selection(result.selection, (game, name, inp, args))

    def _apply(self, result: Result, source: str, entry: JSONObject) -> None:
        if isinstance(result, Submit):
            entry.update({"outcome": "submitted", "kind": result.intent.kind, "actor": result.actor.label()})
            self._submit(result.intent, result.actor, source, entry)
        elif isinstance(result, Remember):
            entry.update({"outcome": "recorded", "seat": result.seat})  # never which piece
            self._remembered[result.seat] = result.value
            self._emit({"type": "remembered", "seats": list(self.remembered_seats)})
            if result.notice:
                self._notice(Notice(result.notice, {"seat": result.seat}, "info"), source)
        elif isinstance(result, UiButton):
            entry["outcome"] = "screen"
            self._emit({"type": "button", "role": result.role, "button": source.partition(" ")[2]})
        elif isinstance(result, Notice):
            entry.update({"outcome": "notice", "code": result.code})
            self._notice(result, source)

    def _submit(self, intent: Intent, actor: Audience, source: str, entry: JSONObject) -> None:
        # The game the input was read in: if the table switches before its turn, it is refused.
        game_id = self._message.get("game_id") if self._message else None
        game_id = game_id if isinstance(game_id, int) else 0

        async def run() -> Ack | None:
            try:
                ack = await self.table.submit(intent, actor, None, game_id=game_id, source="input")
            except CompanionError as exc:
                entry.update({"outcome": "refused", "code": exc.code})
                self._notice(Notice(exc.code, exc.params, "refused"), source)
                return None
            except Exception:
                log.exception("inputs: submitting %s failed", intent.kind)
                entry.update({"outcome": "failed"})
                self._notice(Notice("input.failed", {}, "warning"), source)
                return None
            entry.update({"outcome": "accepted", "seq": ack.seq})
            return ack

        task = asyncio.get_running_loop().create_task(run(), name=f"input {intent.kind}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _notice(self, notice: Notice, source: str, *, sound: bool = True) -> None:
        try:
            words = text(notice.code, notice.params, self.language())
        except Exception:  # a text must never lose the notice
            words = notice.code
        self._emit(
            {
                "type": "notice",
                "level": notice.level,
                "code": notice.code,
                "params": dict(notice.params),
                "text": words,
                "source": source,
            }
        )
        if sound and notice.level in ("refused", "unknown") and self.indicators is not None:
            self.indicators.signal("error")

    def _emit(self, message: JSONObject) -> None:
        for listener in list(self._listeners):
            try:
                listener(message)
            except Exception:
                log.exception("inputs: a listener failed")

    def _set_selection(
        self, selection: JSONObject | None, source: tuple[str, str, Input, tuple[str, ...]] | None
    ) -> None:
        self._selection_source = source if selection is not None else None
        if selection != self._selection:
            self._selection = selection
            self._emit({"type": "selection", "selection": selection})

    # ------------------------------------------------------------------ table messages (public)
    def _on_message(self, msg: JSONObject) -> None:
        previous = self._message
        same_game = (
            previous is not None
            and msg.get("type") == "state"
            and previous.get("type") == "state"
            and previous.get("game_id") == msg.get("game_id")
        )
        before = previous.get("view") if same_game and previous is not None else None
        self._message = msg
        game, _ = self._open_game()
        if not same_game:
            self._remembered.clear()
            self._emit({"type": "remembered", "seats": []})
            self._set_selection(None, None)
        if game is None:
            if self.indicators is not None:
                self.indicators.show_turns(())
            return
        view = msg.get("view")
        if not isinstance(view, dict):
            return
        before_view = before if isinstance(before, dict) else None
        used = hardware_of(game).used(before_view, view) & set(self._remembered)
        for seat in used:
            del self._remembered[seat]
        if used:
            self._emit({"type": "remembered", "seats": list(self.remembered_seats)})
        self._refresh_selection(msg)
        if self.indicators is not None:
            self._show(game, before_view, view)

    def _show(self, game: str, before: JSONObject | None, view: JSONObject) -> None:
        assert self.indicators is not None
        rules = hardware_of(game)
        try:
            self.indicators.show_turns([self._place_of(game, s) for s in acting_seats(view)])
            for track, value in track_values(self.bindings.of(game), view).items():
                self.indicators.show_track(track, value)
            pattern = rules.signal(before, view)
            if pattern is not None:
                self.indicators.signal(pattern)
        except Exception:  # lights must never stop the table
            log.exception("inputs: indicators failed")

    def _refresh_selection(self, msg: JSONObject) -> None:
        source = self._selection_source
        if source is None:
            return
        game, name, inp, args = source
        again = Input(msg, inp.seat, inp.place, inp.label, inp.role)
        result = action(game, name)(again, args)
        old = self._selection or {}
        if isinstance(result, Select) and _subject(result.selection) == _subject(old):
            self._set_selection(result.selection, (game, name, again, args))  # still possible: fresh options
        else:  # used, no longer possible, or now about someone else: it goes (never submitted from here)
            self._set_selection(None, None)


def _subject(selection: JSONObject) -> JSONObject:
    """What a selection is about (everything but the options it offers)."""
    return {k: v for k, v in selection.items() if k not in ("moves", "intents")}


class Box:
    """The box of one app process: devices from ``config.hardware``, the tag table, the router."""

    def __init__(self, router: InputRouter, hardware: Hardware, config_path: str | None = None) -> None:
        self.router = router
        self.hardware = hardware
        self.config_path = config_path

    @classmethod
    def open(
        cls,
        table: Table,
        config: Config,
        *,
        language: Callable[[], str] | None = None,
        mode: str | None = None,
        pin_factory: Any = None,
    ) -> Box:
        """Build and start everything; call on the running loop after ``table.start()``.

        ``mode`` None uses the configuration's (default ``auto``: real parts on a Raspberry Pi,
        simulated twins elsewhere). Configuration and tag-table errors raise.
        """
        loop = asyncio.get_running_loop()
        hc = parse_hardware(config.hardware)
        tags = TagTable.load(config.tags_path)
        bindings = load_bindings(Path(config.data_dir) / "bindings.json")
        router = InputRouter(table, tags, config=hc, bindings=bindings, language=language or (lambda: config.language))
        hw = build(hc, to_loop(loop, router.handle), mode=mode, pin_factory=pin_factory, start=False)
        router.indicators = hw.indicators
        router.start()
        hw.start()
        return cls(router, hw, None if config.path is None else str(config.path))

    def diagnostics(self, phones: Sequence[str] | None = None) -> dict[str, Any]:
        """The diagnostics report (see ``hardware.diagnostics.report``) plus the router's status."""
        data = report(self.hardware, tags=self.router.tags, config_path=self.config_path, phones=phones)
        data["inputs"] = self.router.status()
        return data

    async def aclose(self) -> None:
        """Stop the router, then the devices (reader threads are joined off the loop)."""
        self.router.close()
        with contextlib.suppress(Exception):
            await self.router.idle()
        await asyncio.to_thread(self.hardware.close)


def open_speech(
    table: Table, config: Config, *, language: Callable[[], str], pref: Callable[[str, JSON], JSON]
) -> Announcer:
    """The table's voice: the voice ``[speech]`` configures, spoken on its own thread, fed by the
    public table view (:class:`~companion.app.speech.Announcer`); started. Call on the running loop
    after ``table.start()``; ``pref`` reads the table's settings (speech on/off, its volume)."""
    s = config.speech
    announcer = Announcer(
        table, Speaker(open_voice(s.voice, s.device, s.record, s.speed)), language=language, pref=pref
    )
    announcer.start()
    return announcer
