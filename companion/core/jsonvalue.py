"""The JSON value type used by codecs, views and the wire protocol."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any, Union

# CPython's C encoder (None on a Python without json's C accelerator).
_c_make_encoder: Any = getattr(json.encoder, "c_make_encoder", None)

JSON = Union[  # noqa: UP007 (recursive alias needs Union)
    None, bool, int, float, str, list["JSON"], dict[str, "JSON"]
]
JSONObject = dict[str, JSON]


def text_encoder(*, sort_keys: bool, separators: tuple[str, str]) -> Callable[[Any], str]:
    """``json.JSONEncoder(sort_keys=..., separators=..., ensure_ascii=False).encode``, built once.

    The same text, without the per-call cost: ``JSONEncoder.encode`` builds a new C encoder (with a
    new dict for circular checks) on every call, which is most of the cost of a small value. The one
    built here has no circular check: JSON values are trees (a cycle ends in RecursionError rather
    than ValueError)."""
    python = json.JSONEncoder(sort_keys=sort_keys, separators=separators, ensure_ascii=False)
    if _c_make_encoder is None:  # pragma: no cover
        return python.encode
    item, key = separators
    c_encode = _c_make_encoder(None, python.default, encode_basestring, None, key, item, sort_keys, False, True)

    def encode(value: Any) -> str:
        return "".join(c_encode(value, 0))

    return encode


_CANONICAL = text_encoder(sort_keys=True, separators=(",", ":"))


def dumps(value: JSON) -> str:
    """Canonical JSON text: sorted keys, no spaces, UTF-8 characters kept."""
    return _CANONICAL(value)


def _no_constants(name: str) -> JSON:
    raise ValueError(f"invalid JSON constant {name}")


# Built once: json.loads with any option builds a new decoder on every call.
_DECODER = json.JSONDecoder(parse_constant=_no_constants)


def loads(text: str | bytes) -> JSON:
    """Parse JSON text; NaN/Infinity are refused (they are not JSON)."""
    if not isinstance(text, str):
        value: JSON = json.loads(text, parse_constant=_no_constants)
        return value
    if text.startswith("\ufeff"):
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    parsed: JSON = _DECODER.decode(text)
    return parsed


# Reading untrusted JSON (a view, a message) without a type error: the wrong kind reads as empty.


def as_object(value: JSON | object) -> JSONObject:
    return value if isinstance(value, dict) else {}


def as_list(value: JSON | object) -> list[JSON]:
    return value if isinstance(value, list) else []


def as_str(value: JSON | object) -> str | None:
    return value if isinstance(value, str) else None


# A UTF-16 surrogate on its own: legal in JSON text (as an escape), in no UTF-8 text.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def has_lone_surrogate(value: JSON) -> bool:
    """Whether a string anywhere in ``value`` holds a lone surrogate (``"\\ud800"`` in JSON): no
    file, database or UTF-8 message can hold it, so input that has one is refused where it arrives.
    (A loop, not a recursion: as deep as any value ``json.loads`` gives.)"""
    stack: list[JSON] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _LONE_SURROGATE.search(item) is not None:
                return True
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
    return False


def encodable(text: str) -> str:
    """JSON text that UTF-8 can carry: every lone surrogate in it written as its ``\\uXXXX``
    escape (it can only stand inside a string): the same JSON value."""
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
