"""Which tag is which game piece: the enrollment table, and the "hold it on the reader" session.

The table lives in the data directory as JSON (``tags.json``)::

    {"format": "companion.tags", "version": 1,
     "tags": [{"uid": "67003B51C6", "game": "victorian_masterminds",
               "piece": "building:paris:monument", "label": "Eiffel Tower"}]}

A uid maps to exactly one piece; a piece may have several tags (a spare sticker). Lookups of
unknown uids return ``None`` and the caller reports "unknown tag"; nothing is ever guessed.
Clubs share tables with export/import; an import never overwrites silently, it reports every
uid that the two tables map to different pieces.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from companion.core.errors import CompanionError
from companion.files import set_aside, write_atomic
from hardware.events import HardwareEvent, TagSeen
from hardware.frames import normalize_uid

log = logging.getLogger(__name__)

FORMAT = "companion.tags"
VERSION = 1
_PIECE_KEYS = {"uid", "game", "piece", "label"}


class TagTableError(CompanionError):
    default_code = "hardware.tags"


class TagConflict(TagTableError):
    default_code = "hardware.tags.conflict"


@dataclass(frozen=True)
class Piece:
    game: str
    piece: str
    label: str = ""

    def __post_init__(self) -> None:
        for key in ("game", "piece"):
            value = getattr(self, key)
            if not isinstance(value, str) or not value.strip():
                raise TagTableError(
                    "hardware.tags.malformed", f"a piece needs a non-empty {key}", key=key, problem=f"{key} is empty"
                )
        if not isinstance(self.label, str):
            raise TagTableError(
                "hardware.tags.malformed", "a piece's label must be text", key="label", problem="label is not text"
            )

    @property
    def title(self) -> str:
        return self.label or self.piece

    def to_json(self) -> dict[str, str]:
        return {"game": self.game, "piece": self.piece, "label": self.label}


@dataclass(frozen=True)
class Conflict:
    uid: str
    ours: Piece
    theirs: Piece


@dataclass(frozen=True)
class ImportReport:
    added: tuple[str, ...]
    unchanged: tuple[str, ...]
    replaced: tuple[str, ...]  # conflicts resolved in favour of the imported table
    conflicts: tuple[Conflict, ...]  # every uid the two tables disagree on (kept or replaced)


def parse_table(data: Any, source: str = "tag table") -> dict[str, Piece]:
    """Strictly read the JSON form; raises TagTableError naming what is wrong."""

    def bad(problem: str) -> TagTableError:
        return TagTableError("hardware.tags.malformed", f"{source}: {problem}", source=source, problem=problem)

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad(f'not a tag table (expected "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise bad(f"unsupported version {data.get('version')!r}")
    if set(data) != {"format", "version", "tags"} or not isinstance(data["tags"], list):
        raise bad('expected exactly "format", "version" and a "tags" list')
    table: dict[str, Piece] = {}
    for index, entry in enumerate(data["tags"]):
        if not isinstance(entry, dict) or not {"uid", "game", "piece"} <= set(entry) <= _PIECE_KEYS:
            raise bad(f"entry {index} needs uid, game, piece (and optionally label)")
        try:
            uid = normalize_uid(str(entry["uid"]))
            piece = Piece(entry["game"], entry["piece"], entry.get("label", ""))
        except (ValueError, TypeError) as exc:
            raise bad(f"entry {index}: {exc}") from None
        if uid in table and table[uid] != piece:
            raise bad(f"uid {uid} appears twice with different pieces")
        table[uid] = piece
    return table


class TagTable:
    """uid → piece, saved atomically after every change when it has a path. Thread-safe."""

    def __init__(self, path: Path | str | None = None, entries: Mapping[str, Piece] | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.RLock()
        self._tags: dict[str, Piece] = {normalize_uid(u): p for u, p in (entries or {}).items()}

    @classmethod
    def load(cls, path: Path | str) -> TagTable:
        """The table at ``path``; empty when the file does not exist yet.

        A file that is not text or not JSON at all (torn by a card that lost its power, or
        emptied) is set aside as ``tags.json.damaged-...`` (``companion.files.set_aside``: kept,
        never repaired; the start screen, the host page and ``companion status`` say so) and the
        table starts empty, so the box's buttons and readers still work. JSON that is not a tag
        table (a hand edit) raises, as before, and changes nothing."""
        path = Path(path)
        try:
            text = path.read_text("utf-8")
            data = json.loads(text)
        except FileNotFoundError:
            return cls(path)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            copy = set_aside(path)
            log.error("the tag table %s could not be read (%s): kept as %s, starting empty", path, exc, copy)
            return cls(path)
        return cls(path, parse_table(data, str(path)))

    # ------------------------------------------------------------------ reading
    def lookup(self, uid: str) -> Piece | None:
        try:
            key = normalize_uid(uid)
        except ValueError:
            return None
        with self._lock:
            return self._tags.get(key)

    def uids_for(self, piece: Piece) -> tuple[str, ...]:
        with self._lock:
            return tuple(sorted(u for u, p in self._tags.items() if (p.game, p.piece) == (piece.game, piece.piece)))

    def items(self) -> list[tuple[str, Piece]]:
        with self._lock:
            return sorted(self._tags.items(), key=lambda item: (item[1].game, item[1].piece, item[0]))

    def __len__(self) -> int:
        return len(self._tags)

    def __contains__(self, uid: object) -> bool:
        return isinstance(uid, str) and self.lookup(uid) is not None

    def __iter__(self) -> Iterator[str]:
        return iter([u for u, _ in self.items()])

    # ------------------------------------------------------------------ changing
    def enroll(self, uid: str, piece: Piece, *, replace: bool = False) -> Piece | None:
        """Record ``uid`` as ``piece``; returns what it was before. A different piece needs ``replace``."""
        key = normalize_uid(uid)
        with self._lock:
            previous = self._tags.get(key)
            if previous is not None and previous != piece and not replace:
                raise TagConflict(
                    "hardware.tags.conflict",
                    f"tag {key} is already enrolled as {previous.title}",
                    uid=key,
                    label=previous.title,
                )
            if previous != piece:
                self._tags[key] = piece
                self.save()
            return previous

    def forget(self, uid: str) -> Piece | None:
        key = normalize_uid(uid)
        with self._lock:
            previous = self._tags.pop(key, None)
            if previous is not None:
                self.save()
            return previous

    def merge(self, data: Any, *, prefer: Literal["ours", "theirs"] = "ours", source: str = "import") -> ImportReport:
        """Merge another table (its JSON form). Conflicts keep ours unless ``prefer="theirs"``."""
        incoming = parse_table(data, source)
        added: list[str] = []
        unchanged: list[str] = []
        replaced: list[str] = []
        conflicts: list[Conflict] = []
        with self._lock:
            for uid, piece in sorted(incoming.items()):
                ours = self._tags.get(uid)
                if ours is None:
                    self._tags[uid] = piece
                    added.append(uid)
                elif ours == piece:
                    unchanged.append(uid)
                else:
                    conflicts.append(Conflict(uid, ours, piece))
                    if prefer == "theirs":
                        self._tags[uid] = piece
                        replaced.append(uid)
            if added or replaced:
                self.save()
        return ImportReport(tuple(added), tuple(unchanged), tuple(replaced), tuple(conflicts))

    def import_file(self, path: Path | str, *, prefer: Literal["ours", "theirs"] = "ours") -> ImportReport:
        path = Path(path)
        try:
            data = json.loads(path.read_text("utf-8"))
        except json.JSONDecodeError as exc:
            raise TagTableError(
                "hardware.tags.malformed",
                f"{path}: not JSON ({exc})",
                source=str(path),
                problem=f"{path.name}: not JSON",
            ) from None
        return self.merge(data, prefer=prefer, source=str(path))

    # ------------------------------------------------------------------ writing
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "tags": [{"uid": uid, **piece.to_json()} for uid, piece in self.items()],
        }

    def export(self, path: Path | str) -> None:
        _write_atomic(Path(path), self.to_json())

    def save(self) -> None:
        if self.path is not None:
            with self._lock:
                _write_atomic(self.path, self.to_json())


def _write_atomic(path: Path, data: Mapping[str, Any]) -> None:
    """The table replaced whole (a power cut leaves the old one or the new one), its owner's alone."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    write_atomic(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


# ---------------------------------------------------------------------- the session


@dataclass(frozen=True)
class EnrollResult:
    status: Literal["recorded", "already", "conflict"]
    uid: str
    piece: Piece
    previous: Piece | None = None  # conflict: what the tag is now; recorded with replace: what it was
    others: tuple[str, ...] = ()  # other tags already enrolled for the same piece


class EnrollmentSession:
    """ "Hold the Eiffel Tower on reader p1": the next TagSeen on that reader is recorded.

    Feed it every hardware event with :meth:`offer` (a screen does this from the event loop)
    or let :meth:`wait` take events from a queue (the command line). A tag already enrolled
    as another piece is not overwritten: the result is a conflict, and :meth:`confirm_replace`
    records it anyway once the person agrees.
    """

    def __init__(self, table: TagTable, reader: str, piece: Piece, *, replace: bool = False) -> None:
        self.table = table
        self.reader = reader
        self.piece = piece
        self.replace = replace
        self.result: EnrollResult | None = None

    @property
    def prompt(self) -> str:
        return f"Hold {self.piece.title} on reader {self.reader}"

    @property
    def prompt_params(self) -> dict[str, str]:
        """For a translated prompt (message code ``hardware.enroll.prompt``)."""
        return {"label": self.piece.title, "reader": self.reader}

    @property
    def done(self) -> bool:
        return self.result is not None

    def offer(self, event: HardwareEvent) -> EnrollResult | None:
        """Consume ``event`` if it is the tag we wait for; returns the result then, else None."""
        if self.done or not isinstance(event, TagSeen) or event.reader != self.reader:
            return None
        self.result = self._record(event.uid, self.replace)
        return self.result

    def confirm_replace(self) -> EnrollResult:
        if self.result is None or self.result.status != "conflict":
            raise RuntimeError("nothing to replace")
        self.result = self._record(self.result.uid, True)
        return self.result

    def _record(self, uid: str, replace: bool) -> EnrollResult:
        others = tuple(u for u in self.table.uids_for(self.piece) if u != normalize_uid(uid))
        try:
            previous = self.table.enroll(uid, self.piece, replace=replace)
        except TagConflict:
            return EnrollResult("conflict", normalize_uid(uid), self.piece, self.table.lookup(uid), others)
        status: Literal["recorded", "already"] = "already" if previous == self.piece else "recorded"
        return EnrollResult(status, normalize_uid(uid), self.piece, previous, others)

    def wait(self, events: queue.Queue[HardwareEvent], timeout: float) -> EnrollResult | None:
        """Take events from ``events`` until the tag arrives or ``timeout`` seconds pass."""
        deadline = time.monotonic() + timeout
        while not self.done:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            try:
                event = events.get(timeout=remaining)
            except queue.Empty:
                return None
            self.offer(event)
        return self.result
