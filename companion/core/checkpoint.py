"""Checkpoints: a game's state written down, so opening a long game folds a few events instead of
every one.

A checkpoint is a cache of the fold, never the truth. Each one is sealed for the fold it caches
(:func:`fold_key`: a digest of the code that folds — the rules' package and the core — and of the
game's setup and seed) and for the action it stands before: one of another version of the code,
of another game, moved to another action, or whose text changed in any way, does not unseal and is
ignored (the log is folded instead). A state is written field by field with the exact codec; a
field that is still the very object the setup made (a board, the settings) is left out and taken
from the setup again when read.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from companion.core.codec import Decoder, decoder, encode
from companion.core.errors import MalformedInput
from companion.core.jsonvalue import JSONObject, dumps, loads

S = TypeVar("S")
SEAL = 16  # hex digits of the seal that starts a checkpoint's text


def encode_state(state: Any, start: Any) -> str:
    """``state`` as canonical JSON text, leaving out the fields it shares with ``start``."""
    out: JSONObject = {}
    for field in dataclasses.fields(state):
        value = getattr(state, field.name)
        if value is not getattr(start, field.name):
            out[field.name] = encode(value)
    return dumps(out)


def state_reader(start: S) -> Callable[[str], S]:
    """Reads :func:`encode_state`'s text back into a state of ``start``'s class (every field
    checked by the codec); raises :class:`MalformedInput` for text that is not such a state."""
    fields = _fields(type(start))

    def read(text: str) -> S:
        data = loads(text)
        if type(data) is not dict or not fields.keys() >= data.keys():
            raise MalformedInput("malformed", "not a state of this game")
        changes = {name: fields[name](value, name) for name, value in data.items()}
        try:
            state: S = dataclasses.replace(start, **changes)  # type: ignore[type-var]
        except (TypeError, ValueError) as exc:
            raise MalformedInput("malformed", f"not a state of this game: {exc}") from exc
        return state

    return read


_field_decoders: dict[type, dict[str, Decoder]] = {}


def _fields(cls: type) -> dict[str, Decoder]:
    found = _field_decoders.get(cls)
    if found is None:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"a game's state must be a frozen dataclass, not {cls.__name__}")
        hints = typing.get_type_hints(cls)
        found = {}
        for f in dataclasses.fields(cls):
            if not f.init:
                continue
            try:
                found[f.name] = decoder(hints[f.name])
            except TypeError as exc:
                raise TypeError(
                    f"{cls.__name__}.{f.name}: the codec cannot write a {hints[f.name]!r} ({exc}); "
                    "use a tuple, a frozen dataclass or a plain value (see companion/core/codec.py)"
                ) from None
        _field_decoders[cls] = found
    return found


def require_writable(start: Any) -> None:
    """Raise a clear ``TypeError`` at once when a game's state has a field the codec cannot write
    (a ``dict``, a ``list``, ...): its checkpoints could never be written. Checked once per class."""
    _fields(type(start))


def _seal(key: str, action: int, body: str) -> str:
    return hashlib.blake2b(f"{key}/{action}/{body}".encode(), digest_size=SEAL // 2).hexdigest()


def seal(key: str, action: int, state: Any, start: Any) -> str:
    """The checkpoint text of ``state`` before action ``action`` of the game whose fold is ``key``."""
    body = encode_state(state, start)
    return _seal(key, action, body) + body


def unseal(key: str, action: int, text: str, read: Callable[[str], S]) -> S:
    """The state a checkpoint text holds, if it was sealed by :func:`seal` for this ``key`` and
    ``action`` and reads; else :class:`MalformedInput`."""
    body = text[SEAL:]
    if len(text) <= SEAL or text[:SEAL] != _seal(key, action, body):
        raise MalformedInput("malformed", "not a checkpoint of this game and action")
    return read(body)


def fold_key(rules: object, config: JSONObject, seed: int) -> str:
    """What a game's checkpoints are valid for: this code's fold and this game's setup."""
    setup = f"{rules_version(rules)}/{seed}/{dumps(config)}"
    return hashlib.blake2b(setup.encode(), digest_size=SEAL // 2).hexdigest()


def rules_version(rules: object) -> str:
    """A digest of the code a fold depends on: the rules' package (its files, data included), the
    games' shared modules and the whole core."""
    return _version(type(rules).__module__)


@functools.cache
def _version(module_name: str) -> str:
    digest = hashlib.sha256()
    module = sys.modules[module_name]
    source = Path(module.__file__ or "")
    files = sorted(source.parent.rglob("*")) if module.__package__ else [source]
    core = Path(__file__).parent
    shared = core.parent / "games"
    for path in [*files, *sorted(core.glob("*.py")), *sorted(shared.glob("*.py"))]:
        # Texts (messages/) never change a fold; compiled files are the sources again.
        if path.is_file() and not {"__pycache__", "messages"} & set(path.parts) and path.suffix != ".pyc":
            digest.update(str(path.relative_to(path.parent.parent)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
