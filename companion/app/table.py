"""The table: the single consumer that changes game state.

Every input — a touch, a phone's web socket, a button, a tag — becomes an intent on one
queue. The table takes them in order: decide → commit to the store (off the event loop) →
apply → publish per-audience snapshots to subscribers. An intent is acknowledged only after
its events are durable. Game management (new, open, delete) goes through the same queue.

Fan-out: while the disk commits, the next message of every audience that has a screen is built
from the state the events lead to and serialised once (:meth:`Table.text`); after the commit every
screen of that audience gets the same message, and each phone connection sends it on its own task.

Every intent names its game: an intent for a game that is no longer the open one is refused
(``table.other_game``) inside the consumer, at decide time, so nothing queued behind a game switch
can land in the next game. A subscription may be bound to one game (a phone's connection): when
the table leaves that game, the subscriber gets one ``{"type": "game_closed", ...}`` message and the
subscription ends. Publishing never fails the commit: a view or a listener that raises is logged
and the other screens still get theirs.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from companion.app.chance import Seeds
from companion.app.savedgame import LoadedGame, keep_checkpoints, load_game, status_for
from companion.app.seats import SeatLinks
from companion.app.store import GameHeader, Store, StoredEvent
from companion.core.audience import Audience
from companion.core.codec import KindCodec
from companion.core.errors import CompanionError, MalformedInput
from companion.core.events import Event, Intent, Undo, Undone
from companion.core.game import Game, event_codec, intent_codec
from companion.core.jsonvalue import JSON, JSONObject
from companion.core.shared import Piece, SharedText
from companion.core.summary import Line
from companion.games import get_rules

log = logging.getLogger(__name__)
MAX_TAKEN = 1000  # events of one action an undo's words are read from (an action writes far fewer)
TEXTS_KEPT = 64  # serialised messages and shared parts of views remembered (see SharedText)
T = TypeVar("T")

Listener = Callable[[JSONObject], None]
# The last action that still counts: (its seq, the state before it, its events, where it came from).
LastAction = tuple[int, Any, tuple[Event, ...], str]


# Where an intent came from (``Table.submit(..., source=...)``), for the screens' words.
SOURCES = ("touchscreen", "table_link", "phone:<seat>", "input", "cli", "table_player")


class NoGame(CompanionError):
    default_code = "table.no_game"


class OtherGame(CompanionError):
    """The input was meant for a game that is not (or no longer) the open one."""

    default_code = "table.other_game"


@dataclass(frozen=True)
class Ack:
    """The intent's events are durable; ``seq`` is the new state sequence number."""

    game_id: int
    seq: int


class Subscription:
    """One screen's feed. ``game_id`` set: bound to that game (ends when the table leaves it)."""

    def __init__(self, table: Table, audience: Audience, listener: Listener, game_id: int | None = None) -> None:
        self.table = table
        self.audience = audience
        self.listener = listener
        self.game_id = game_id

    @property
    def active(self) -> bool:
        return self in self.table._subscriptions

    def close(self) -> None:
        if self in self.table._subscriptions:
            self.table._subscriptions.remove(self)


def _log_failure(future: concurrent.futures.Future[None]) -> None:
    if future.exception() is not None:
        log.warning("checkpoints not written: %s", future.exception())


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def game_closed(game_id: int, reason: str) -> JSONObject:
    """The last message of a subscription bound to a game the table left (``reason``: ``switched``
    — another game is open now —, ``closed`` — no game is open —, or ``deleted``)."""
    return {"type": "game_closed", "game_id": game_id, "reason": reason}


class Table:
    """Owns the current game. Use from the event loop; other threads use ``*_threadsafe``."""

    def __init__(self, store: Store, seeds: Seeds | None = None) -> None:
        self.store = store
        self.seeds = seeds if seeds is not None else Seeds.from_environment()  # new games' seeds
        self.current: LoadedGame | None = None
        self._subscriptions: list[Subscription] = []
        self._json = SharedText(TEXTS_KEPT)
        self._queue: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any]]] | None = None
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._before: tuple[int, int, Any] | None = None  # (game, action, state before it): the last commit's
        self._last_key: tuple[int, int] | None = None
        self._last_found: LastAction | None = None
        self._said: tuple[LastAction | None, list[tuple[Line, Piece]]] = (None, [])  # see _describe

    # -- life cycle -------------------------------------------------------------
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._queue = asyncio.Queue()
        current = await asyncio.to_thread(self.store.current)
        if current is not None:
            self.current = await asyncio.to_thread(load_game, self.store, current)
            self._keep_checkpoints(self.current)
        self._task = asyncio.create_task(self._consume(), name="companion-table")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            raise RuntimeError("table not started")
        return self._loop

    async def _consume(self) -> None:
        assert self._queue is not None
        while True:
            job, fut = await self._queue.get()
            if fut.cancelled():
                continue
            try:
                result = await job()
            except Exception as exc:  # every refusal goes back to the one who asked
                if not fut.cancelled():
                    fut.set_exception(exc)
            else:
                if not fut.cancelled():
                    fut.set_result(result)

    async def _run(self, job: Callable[[], Awaitable[T]]) -> T:
        if self._queue is None:
            raise RuntimeError("table not started")
        fut: asyncio.Future[T] = self.loop.create_future()
        await self._queue.put((job, fut))
        return await fut

    # -- the game ---------------------------------------------------------------
    @property
    def game(self) -> Game[Any] | None:
        return self.current.game if self.current else None

    @property
    def seq(self) -> int:
        return self.current.game.seq if self.current else 0

    def intent_codec(self) -> KindCodec[Intent]:
        if self.current is None:
            raise NoGame("table.no_game", "no game is open")
        return intent_codec(self.current.game.rules)

    async def submit(
        self, intent: Intent, actor: Audience, seq: int | None = None, *, game_id: int, source: str = ""
    ) -> Ack:
        """Decide, commit and publish one intent meant for game ``game_id``. ``seq`` is the state
        the actor saw; ``None`` (hardware inputs, which show no view) means "the state when it is
        decided". Both are checked in the consumer, when the intent's turn comes. ``source`` says
        where it came from (:data:`SOURCES`), kept with the action for the screens' words."""
        return await self._run(lambda: self._process(intent, actor, seq, game_id, source))

    async def submit_json(self, message: JSON, actor: Audience, *, game_id: int, source: str = "") -> Ack:
        """An untrusted envelope ``{"seq": n, "intent": {"kind": ..., ...}}`` from a phone."""
        if not isinstance(message, dict) or set(message) != {"seq", "intent"}:
            raise MalformedInput("malformed.envelope", "expected {seq, intent}")
        seq = message["seq"]
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise MalformedInput("malformed.field", "seq must be an integer", field="seq", expected="integer")
        intent = self.decode_intent(message["intent"], game_id)
        return await self.submit(intent, actor, seq, game_id=game_id, source=source)

    def decode_intent(self, data: JSON, game_id: int) -> Intent:
        """An untrusted intent's JSON, decoded with game ``game_id``'s codec (which must be open now;
        the game is checked again when the intent's turn comes)."""
        self.check_game(game_id)
        return self.intent_codec().decode(data)

    def submit_threadsafe(
        self, intent: Intent, actor: Audience, seq: int | None = None, *, game_id: int
    ) -> concurrent.futures.Future[Ack]:
        """For gpiozero and serial threads: hand the intent to the loop and return at once."""
        return asyncio.run_coroutine_threadsafe(self.submit(intent, actor, seq, game_id=game_id), self.loop)

    def check_game(self, game_id: int) -> LoadedGame:
        """The open game, if it is ``game_id``; else refuse (``table.no_game`` / ``table.other_game``)."""
        if self.current is None:
            raise NoGame("table.no_game", "no game is open")
        if self.current.header.id != game_id:
            raise OtherGame("table.other_game", "that was meant for a game that is not open now")
        return self.current

    async def _process(self, intent: Intent, actor: Audience, seq: int | None, game_id: int, source: str) -> Ack:
        loaded = self.check_game(game_id)
        game = loaded.game
        for_phone = game.rules.for_phone(game.state, intent, actor)
        if for_phone is not None:
            seat, otherwise = for_phone
            if await asyncio.to_thread(SeatLinks(self.store).claimed, loaded.header.id, seat):
                intent = otherwise  # that seat's phone keeps what the intent touches (Rules.for_phone)
        events = game.decide(intent, actor, game.seq if seq is None else seq)
        if events:
            before = game.state
            state = game.after(events)
            entries = game.entries_for(events)
            codec = event_codec(game.rules)
            stored = [
                StoredEvent(e.seq, e.action, codec.encode(e.event), source if i == 0 else "")
                for i, e in enumerate(entries)
            ]
            status = status_for(game.rules, state)
            checkpoint = self._checkpoint(game, events)
            loop = self.loop
            committing = loop.create_future()

            def signal() -> None:  # on the writer thread
                loop.call_soon_threadsafe(_resolve, committing)

            written = asyncio.wrap_future(
                self.store.append(loaded.header.id, stored, status, committing=signal, checkpoint=checkpoint)
            )
            written.add_done_callback(lambda _: _resolve(committing))  # a write that failed before it
            await committing
            # While the disk commits: every screen's next message, built and serialised once per
            # audience. Nothing is sent before the events are durable.
            ahead = self._prepare(loaded, events, state, source)
            await written
            game.commit(events, state)
            action = entries[0].seq
            if source:
                loaded.sources[action] = source
            if not isinstance(intent, Undo):
                self._before = (loaded.header.id, action, before)
            self._publish(ahead=ahead)  # never raises: the events are durable, the ack goes out
        return Ack(loaded.header.id, game.seq)

    @staticmethod
    def _checkpoint(game: Game[Any], events: tuple[Event, ...]) -> tuple[int, str, str] | None:
        """The checkpoint to write with ``events``, if they need one (see Game.checkpoint_due)."""
        due = game.checkpoint_due(events)
        if due is None:
            return None
        try:
            return due[0], game.fold_key, game.sealed(*due)
        except Exception:  # a cache: the game goes on without it (and opens by folding)
            log.exception("a checkpoint could not be written")
            return None

    def _keep_checkpoints(self, loaded: LoadedGame) -> None:
        """After opening a game: write down the checkpoints its store lacked (in the background)."""
        try:
            written = keep_checkpoints(self.store, loaded)
        except Exception:
            log.exception("the checkpoints of game %s could not be kept", loaded.header.id)
            return
        if written is not None:
            written.add_done_callback(_log_failure)

    async def new_game(self, rules_name: str, config: JSONObject, title: str = "", seed: int | None = None) -> int:
        """Start a game; its shuffles come from ``seed`` (by default the next of :attr:`seeds`:
        fresh randomness, unless a test fixed the sequence; a benchmark may pass one)."""

        async def job() -> int:
            rules = get_rules(rules_name)
            setup = {**rules.new_game_config, **config}  # what every new game of these rules is given
            Game(rules, setup, 0)  # validates the setup before anything is written
            chosen = self.seeds.next() if seed is None else seed
            game_id = await asyncio.to_thread(self.store.create_game, rules_name, title or rules_name, setup, chosen)
            self.current = await asyncio.to_thread(load_game, self.store, game_id)
            self._publish("switched")
            return game_id

        return await self._run(job)

    async def open_game(self, game_id: int) -> None:
        async def job() -> None:
            loaded = await asyncio.to_thread(load_game, self.store, game_id)
            self._keep_checkpoints(loaded)
            await asyncio.to_thread(self.store.set_current, game_id)
            self.current = loaded
            self._publish("switched")

        await self._run(job)

    async def close_game(self) -> None:
        """Leave the current game (it stays saved) — e.g. back to the start screen."""

        async def job() -> None:
            await asyncio.to_thread(self.store.set_current, None)
            self.current = None
            self._publish("closed")

        await self._run(job)

    async def delete_game(self, game_id: int) -> None:
        async def job() -> None:
            await asyncio.to_thread(self.store.delete, game_id)
            if self.current and self.current.header.id == game_id:
                self.current = None
            self._publish("deleted", deleted=game_id)

        await self._run(job)

    async def games(self) -> list[GameHeader]:
        return await asyncio.to_thread(self.store.games)

    # -- views --------------------------------------------------------------------
    def message(self, audience: Audience) -> JSONObject:
        """What one screen gets now, built only from the game's view for that audience (and the
        game's own words for the last action, as that audience may know it)."""
        if self.current is None:
            return {"type": "no_game"}
        game = self.current.game
        undone = self._undone(self.current)
        return self._state(self.current.header, game.snapshot(audience), self._last_action(), audience, undone)

    def last(self, audience: Audience) -> JSONObject | None:
        """The last action that still counts, in the game's words for ``audience``:
        ``{"seq", "source", "text": {"code", "params"}}`` (``None`` before the first one). It is
        what an undo would take back; a screen also uses it to say why a half-done choice of its
        own vanished."""
        return self._describe(self._last_action(), audience)

    def _describe(self, found: LastAction | None, audience: Audience, keep: bool = True) -> JSONObject | None:
        if found is None or self.current is None:
            return None
        action, before, events, source = found
        try:
            line = self.current.game.rules.describe_action(before, events, audience)
        except Exception:
            log.exception("describing the last action failed")
            return None
        if not keep:  # words told once (an undo's): not kept for other screens
            return {"seq": action, "source": source, "text": {"code": line.code, "params": dict(line.params)}}
        # Audiences told the same words about the same action get the same (unchanging) object,
        # so its text is written once for all of them (see SharedText).
        if self._said[0] is not found:
            self._said = (found, [])
        for told, piece in self._said[1]:
            if told == line:
                return piece
        piece = Piece({"seq": action, "source": source, "text": {"code": line.code, "params": dict(line.params)}})
        self._said[1].append((line, piece))
        return piece

    def _state(
        self,
        header: GameHeader,
        snapshot: JSONObject,
        last: LastAction | None,
        audience: Audience,
        undone: tuple[LastAction, str] | None = None,
    ) -> JSONObject:
        out: JSONObject = {
            "type": "state",
            "game_id": header.id,
            "title": header.title,
            **snapshot,
            "last": self._describe(last, audience),
        }
        if undone is not None:  # the last thing that happened was an undo: what it took back, and who
            told = self._describe(undone[0], audience, keep=False)
            if told is not None:
                out["undone"] = {**told, "by": undone[1]}
        return out

    def _undone(
        self, loaded: LoadedGame, events: Sequence[Event] = (), state: Any = None, source: str = ""
    ) -> tuple[LastAction, str] | None:
        """When the log ends with an undo (or ``events``, about to be committed, are one): the action
        it took back — its seq, the state before it (the state the undo gives), its events, where it
        came from — and where the undo came from. A screen says so to the phone whose move it was."""
        game = loaded.game
        marker = events[0] if len(events) == 1 else None
        if isinstance(marker, Undone):
            target, after, by = marker.target, state, source
        elif not events and game.entries and isinstance(game.entries[-1].event, Undone):
            last = game.entries[-1]
            assert isinstance(last.event, Undone)
            target, after, by = last.event.target, game.state, loaded.source(last.action)
        else:
            return None
        taken = []
        for entry in game.entries[target - 1 : target - 1 + MAX_TAKEN]:
            if entry.action != target:
                break
            taken.append(entry.event)
        if not taken or after is None:
            return None
        return (target, after, tuple(taken), loaded.source(target)), by

    def _last_action(self) -> LastAction | None:
        loaded = self.current
        if loaded is None:
            return None
        game = loaded.game
        key = (loaded.header.id, game.seq)
        if self._last_key != key:
            live = game.last_action()
            found = None
            if live:
                action = live[0].action
                cached = self._before
                if cached is not None and cached[:2] == (loaded.header.id, action):
                    before = cached[2]
                else:  # after an undo or a restart: from the game's nearest checkpoint
                    before = game.state_before_last()
                found = (action, before, tuple(e.event for e in live), loaded.source(action))
            self._last_key, self._last_found = key, found
        return self._last_found

    def text(self, message: JSONObject) -> str:
        """``message`` as JSON text: serialised once, however many screens get the same message, and
        the parts of it other audiences' messages share (their views' public picture) only once."""
        return self._json.dumps(message)

    def _prepare(
        self, loaded: LoadedGame, events: tuple[Event, ...], state: Any, source: str
    ) -> dict[Audience, JSONObject]:
        """The next message (and its text) for every audience that has a screen now, from the
        state ``events`` lead to, before they are committed. A view that fails is left to
        :meth:`_publish` (which logs it); an undo no table decides is left to it whole."""
        game = loaded.game
        snapshot = game.snapshots_after(events, state)
        pending = game.last_action_after(events)
        ahead: dict[Audience, JSONObject] = {}
        if snapshot is None or pending is None:
            return ahead
        entries, before = pending
        last: LastAction | None = None
        if entries:
            action = entries[0].action
            known = source if action == game.seq + 1 else loaded.source(action)
            last = (action, before, tuple(e.event for e in entries), known)
        undone = self._undone(loaded, events, state, source)
        for audience in {sub.audience for sub in self._subscriptions}:
            try:
                ahead[audience] = message = self._state(loaded.header, snapshot(audience), last, audience, undone)
                self.text(message)
            except Exception:  # built again after the commit, where a failure is logged
                ahead.pop(audience, None)
        return ahead

    def subscribe(
        self, audience: Audience, listener: Listener, send_now: bool = True, *, game_id: int | None = None
    ) -> Subscription:
        """Feed ``listener`` every change. With ``game_id``, only while that game is open: if it is
        not open now, the listener gets ``game_closed`` at once and the subscription is already over."""
        if audience.is_debug:
            raise ValueError("the debug audience is for tests and exports, never a live screen")
        sub = Subscription(self, audience, listener, game_id)
        current = self.current.header.id if self.current else None
        if game_id is not None and game_id != current:
            self._deliver(sub, game_closed(game_id, "closed" if current is None else "switched"))
            return sub
        self._subscriptions.append(sub)
        if send_now:
            try:
                message = self.message(audience)
            except Exception:
                log.exception("the view for %s failed; that screen waits for the next change", audience.label())
            else:
                self._deliver(sub, message)
        return sub

    def _publish(
        self, reason: str = "switched", deleted: int | None = None, ahead: dict[Audience, JSONObject] | None = None
    ) -> None:
        """Send every screen its new snapshot (``ahead``: those already built); each audience's is
        built once and every screen of it gets the same message. Never raises: one screen's failure
        is logged and touches nobody else (nor the commit before it)."""
        current = self.current.header.id if self.current else None
        cache: dict[Audience, JSONObject | None] = dict(ahead or {})
        for sub in list(self._subscriptions):
            if sub.game_id is not None and sub.game_id != current:
                sub.close()
                why = "deleted" if sub.game_id == deleted else ("closed" if current is None else reason)
                self._deliver(sub, game_closed(sub.game_id, why))
                continue
            if sub.audience not in cache:
                try:
                    cache[sub.audience] = self.message(sub.audience)
                except Exception:
                    log.exception("the view for %s failed; those screens keep the last one", sub.audience.label())
                    cache[sub.audience] = None
            msg = cache[sub.audience]
            if msg is not None:
                self._deliver(sub, msg)

    @staticmethod
    def _deliver(sub: Subscription, message: JSONObject) -> None:
        try:
            sub.listener(message)
        except Exception:
            log.exception("a screen's listener failed; the table goes on")
