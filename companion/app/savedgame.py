"""Saved games: load a stored log into a live :class:`~companion.core.game.Game`, export and
import the portable JSON form."""

from __future__ import annotations

import concurrent.futures
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.app.chance import Seeds
from companion.app.store import GameHeader, Store, StoredEvent
from companion.core.checkpoint import fold_key
from companion.core.codec import Decoder
from companion.core.errors import CompanionError, MalformedInput
from companion.core.events import Event, Undone
from companion.core.game import Entry, Game, event_codec
from companion.core.jsonvalue import JSON, JSONObject, has_lone_surrogate, loads
from companion.core.recheck import IllegalLog, recheck
from companion.core.rules import Rules
from companion.games import get_rules

EXPORT_FORMAT = "companion-game"
EXPORT_VERSION = 1
MIB = 1024 * 1024
MAX_FILE = 16 * MIB  # bytes of a game file (a long evening's game is well under 1 MiB)
TITLE_MAX = 80  # characters of a saved game's title


@dataclass
class LoadedGame:
    header: GameHeader
    game: Game[Any]
    sources: dict[int, str] = field(default_factory=dict)  # action seq -> where it came from (since opening)
    checkpointed: frozenset[int] = frozenset()  # actions whose checkpoint the store holds for this fold
    rows: Sequence[tuple[Any, ...]] = ()  # the events as read, (seq, action, body, source): older sources

    def source(self, action: int) -> str:
        """Where action ``action`` came from ("" when not known)."""
        found = self.sources.get(action)
        if found is None and 0 < action <= len(self.rows):
            found = self.rows[action - 1][3]
        return found or ""


def _entries(rules: Rules[Any], stored: list[StoredEvent]) -> list[Entry]:
    read = EventReader(rules)
    entries = []
    for expected, row in enumerate(stored, start=1):
        if row.seq != expected or not 1 <= row.action <= row.seq:
            raise MalformedInput("import.bad_sequence", "events are not numbered 1, 2, 3, ...", seq=row.seq)
        try:
            event = read(row.body)
        except CompanionError as exc:  # not an event of this game at all: named like an illegal one
            kind = row.body.get("kind")
            raise IllegalLog(
                "import.illegal_event",
                f"event {row.seq} is not an event of this game ({exc.message})",
                seq=row.seq,
                kind=kind[:40] if isinstance(kind, str) else "?",
                reason=exc.code,
                reason_params=dict(exc.params),
            ) from None
        entries.append(Entry(row.seq, row.action, event))
    return entries


def build_game(rules_name: str, config: JSONObject, seed: int, stored: list[StoredEvent]) -> Game[Any]:
    """Decode and fold a stored log (our own store's: trusted, as the table wrote it). Raises
    :class:`MalformedInput` if it does not fit the rules."""
    rules = get_rules(rules_name)
    entries = _entries(rules, stored)
    return _folded(lambda: Game(rules, config, seed, entries))


def check_game(rules_name: str, config: JSONObject, seed: int, stored: list[StoredEvent]) -> Game[Any]:
    """A log from outside: decode it and re-decide every action with the rules
    (:func:`~companion.core.recheck.recheck`); refuse it naming the first illegal event."""
    rules = get_rules(rules_name)
    entries = _entries(rules, stored)
    try:
        return recheck(rules, config, seed, entries)
    except CompanionError:
        raise
    except Exception as exc:  # the rules tripped over something no game could hold
        raise MalformedInput("import.unplayable", f"the log cannot be replayed: {exc}") from exc


def load_game(store: Store, game_id: int) -> LoadedGame:
    """Open a game from the store: folded from its last checkpoint that unseals for this game and
    this code (see :mod:`companion.core.checkpoint`), decoding only the events that still count
    above it; the others are decoded when first read."""
    found = store.game_rows(game_id)
    header = found.header
    rules = get_rules(header.rules)
    read = EventReader(rules)
    key = fold_key(rules, header.config, header.seed)
    written = {action: text for action, version, text in found.checkpoints if version == key}
    markers = read.markers(found.events)
    game = _folded(lambda: Game.from_rows(rules, header.config, header.seed, found.events, read, markers, written))
    return LoadedGame(header, game, checkpointed=frozenset(written), rows=found.events)


def checkpoint_rows(game: Game[Any]) -> list[tuple[int, str]]:
    """The game's known checkpoints as the store keeps them: (action, sealed text)."""
    return [(action, game.sealed(action, state)) for action, state in game.checkpoints()]


def keep_checkpoints(store: Store, loaded: LoadedGame) -> concurrent.futures.Future[None] | None:
    """Write the checkpoints the store lacks or holds spoilt for ``loaded`` (folded from an older
    one, or from the start): the next opening reads them. None when there is nothing to write."""
    game = loaded.game
    spoilt = game.refused_checkpoints
    missing = [(a, s) for a, s in game.checkpoints() if a not in loaded.checkpointed or a in spoilt]
    if not missing:
        return None
    return store.submit_checkpoints(loaded.header.id, game.fold_key, [(a, game.sealed(a, s)) for a, s in missing])


def _folded(make: Callable[[], Game[Any]]) -> Game[Any]:
    try:
        return make()
    except CompanionError:
        raise
    except Exception as exc:  # a log that its rules cannot fold is not a game
        raise MalformedInput("import.unplayable", f"the log does not fold: {exc}") from exc


# How the store writes an undo marker (``jsonvalue.dumps``: sorted keys, no spaces).
UNDONE_TEXT = '{"kind":"core.undone","target":'
_CANONICAL_MARKER = re.compile(re.escape(UNDONE_TEXT) + r"([1-9][0-9]*)\}\Z")


class EventReader:
    """Stored events — JSON text as the store holds it, or parsed JSON — into the events of one
    game's rules, each kind's decoder looked up once."""

    def __init__(self, rules: Rules[Any]) -> None:
        self.codec = event_codec(rules)
        self.decoders: dict[str | None, Decoder] = {}

    def __call__(self, body: JSON | str) -> Event:
        try:
            data = loads(body) if isinstance(body, str) else body
        except ValueError:
            raise MalformedInput("import.malformed", "an event is not JSON") from None
        kind = data.get("kind") if type(data) is dict else None
        kind = kind if isinstance(kind, str) else None
        decode = self.decoders.get(kind)
        if decode is None:
            if kind is not None and kind in self.codec.kinds:
                decode = self.codec.body_decoder(kind)
            else:
                decode = self._refuse
            self.decoders[kind] = decode
        event: Event = decode(data, "")
        return event

    def _refuse(self, data: object, path: str) -> Event:
        return self.codec.decode(data)  # not an event of these rules: its own clear error

    def markers(self, rows: Sequence[tuple[Any, ...]]) -> dict[int, int]:
        """The undo markers among stored rows ``(seq, action, body as text, ...)``: target by seq.
        Only texts that name the marker's kind (or hold an escape) are looked at, and those
        written the way the store writes a marker are read without decoding."""
        found: dict[int, int] = {}
        canonical = _CANONICAL_MARKER.match
        for seq, body in [(row[0], row[2]) for row in rows if "core.undone" in row[2] or "\\u" in row[2]]:
            if (written := canonical(body)) is not None:
                found[seq] = int(written[1])
            elif (target := self.undo_target(body)) is not None:
                found[seq] = target
        return found

    def undo_target(self, body: str) -> int | None:
        """The target of an undo marker as stored, without decoding it; None for other events.
        Exact for any JSON text: text with neither the kind's name nor an escape cannot be one."""
        if "core.undone" not in body and "\\u" not in body:
            return None
        if body.startswith(UNDONE_TEXT) and body.endswith("}"):
            digits = body[len(UNDONE_TEXT) : -1]
            if digits.isascii() and digits.isdigit() and (digits[0] != "0" or digits == "0"):
                return int(digits)
        event = self(body)  # written another way (or a string that mentions it): read it
        return event.target if isinstance(event, Undone) else None


def export_game(store: Store, game_id: int) -> JSONObject:
    """The whole game, secrets included: a backup or a hand-over, not a view for a screen."""
    header = store.header(game_id)
    events: list[JSON] = [{"seq": e.seq, "action": e.action, "event": e.body} for e in store.events(game_id)]
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "rules": header.rules,
        "title": header.title,
        "created": header.created,
        "config": header.config,
        "seed": header.seed,
        "events": events,
    }


def read_game_file(path: Path | str) -> JSON:
    """A game file's JSON, or a one-line refusal: larger than :data:`MAX_FILE` (``import.too_big``),
    not UTF-8 (``import.not_utf8``), not JSON or nested deeper than JSON may be here
    (``import.not_json``), text no file or database can hold (``import.bad_text``)."""
    with open(path, "rb") as fh:
        raw = fh.read(MAX_FILE + 1)
    if len(raw) > MAX_FILE:
        raise MalformedInput("import.too_big", "the file is larger than a game file can be", limit=MAX_FILE // MIB)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedInput("import.not_utf8", "the file is not UTF-8 text") from None
    try:
        data = loads(text)
    except (ValueError, RecursionError):
        raise MalformedInput("import.not_json", "the file is not JSON (or nests too deep)") from None
    if has_lone_surrogate(data):  # legal JSON, but no database or UTF-8 text can hold it
        raise MalformedInput("import.bad_text", "the file holds text that cannot be stored (a lone surrogate)")
    return data


def parse_export(data: JSON) -> tuple[str, str, JSONObject, int, list[StoredEvent]]:
    """The parts of a game file, checked for shape and limits (the rules check the rest)."""

    def bad(why: str) -> MalformedInput:
        return MalformedInput("import.malformed", f"not a Companion game file: {why}")

    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise bad("format")
    if data.get("version") != EXPORT_VERSION:
        raise bad("version")
    if has_lone_surrogate(data):  # no database or UTF-8 text can hold it
        raise MalformedInput("import.bad_text", "the file holds text that cannot be stored (a lone surrogate)")
    rules, title, config, seed, events = (data.get(k) for k in ("rules", "title", "config", "seed", "events"))
    if not isinstance(rules, str) or not isinstance(title, str) or not isinstance(config, dict):
        raise bad("header")
    if isinstance(seed, bool) or not isinstance(seed, int) or not -(2**63) <= seed < 2**63:
        raise bad("seed")
    if not isinstance(events, list):
        raise bad("header")
    check_title(title)
    stored = []
    for item in events:
        if not isinstance(item, dict) or set(item) != {"seq", "action", "event"}:
            raise bad("event")
        seq, action, body = item["seq"], item["action"], item["event"]
        if not isinstance(seq, int) or not isinstance(action, int) or not isinstance(body, dict):
            raise bad("event")
        stored.append(StoredEvent(seq, action, body))
    return rules, title, config, seed, stored


def check_title(title: str) -> str:
    """A saved game's title: at most :data:`TITLE_MAX` characters (it is in every host page message)."""
    if len(title) > TITLE_MAX:
        raise MalformedInput("title.too_long", "the title is too long", limit=TITLE_MAX)
    return title


def status_for(rules: Rules[Any], state: Any) -> str:
    """What the store's game list shows for a game in ``state``."""
    return "finished" if rules.outcome(state) is not None else "playing"


def status_of(game: Game[Any]) -> str:
    return status_for(game.rules, game.state)


def import_game(store: Store, data: JSON, make_current: bool = False, seeds: Seeds | None = None) -> int:
    """Check a game file by re-deciding it with its rules, then store it as a new game, all at once.

    A file fixes only the chance it records: the game gets a fresh seed (from ``seeds``, the
    table's: fresh randomness, or a test's fixed sequence), so every draw after the import is new,
    and chance its state holds for later draws (Victorian Masterminds' shuffle salt) is drawn
    again from it as one more action (the rules' ``fresh_chance``). The recorded events fold to
    the same state as before."""
    rules_name, title, config, file_seed, stored = parse_export(data)
    checked = check_game(rules_name, config, file_seed, stored)  # refuse anything the rules would not have written
    seed = (seeds if seeds is not None else Seeds.from_environment()).next()
    game = Game(checked.rules, config, seed, list(checked.entries))
    drawn = game.rules.fresh_chance(game.state, game.rng())
    events = list(stored)
    if drawn:
        codec = event_codec(game.rules)
        events += [StoredEvent(e.seq, e.action, codec.encode(e.event)) for e in game.entries_for(drawn)]
        game.commit(drawn)
    # Checkpoints come only from this replay: a file never brings any in.
    return store.import_game(
        rules_name,
        title,
        config,
        seed,
        events,
        status_of(game),
        (game.fold_key, checkpoint_rows(game)) if events else None,
        make_current=make_current,
    )
