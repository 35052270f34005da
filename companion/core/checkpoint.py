"""Checkpoints: a game's state written down, so opening a long game folds a few events instead of
every one.

A checkpoint is a cache of the fold, never the truth. It carries the version of the code that
folded it (:func:`rules_version`: a digest of the rules' package and of the core); one of another
version, or one that does not decode, is ignored and the log is folded again. A state is written
field by field with the exact codec; a field that is still the very object the setup made (a
board, the settings) is left out and taken from the setup again when read.
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
CORE_FILES = ("checkpoint.py", "codec.py", "game.py", "events.py", "rules.py")


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
        hints = typing.get_type_hints(cls)
        found = _field_decoders[cls] = {f.name: decoder(hints[f.name]) for f in dataclasses.fields(cls) if f.init}
    return found


def rules_version(rules: object) -> str:
    """A digest of the code a fold depends on: the rules' package (its files, data included) and
    the core's fold and codec."""
    return _version(type(rules).__module__)


@functools.cache
def _version(module_name: str) -> str:
    digest = hashlib.sha256()
    module = sys.modules[module_name]
    source = Path(module.__file__ or "")
    files = sorted(source.parent.rglob("*")) if module.__package__ else [source]
    core = Path(__file__).parent
    for path in [*files, *(core / name for name in CORE_FILES)]:
        # Texts (messages/) never change a fold; compiled files are the sources again.
        if path.is_file() and not {"__pycache__", "messages"} & set(path.parts) and path.suffix != ".pyc":
            digest.update(str(path.relative_to(path.parent.parent)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
