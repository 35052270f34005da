"""The JSON value type used by codecs, views and the wire protocol."""

from __future__ import annotations

import json
from typing import Union

JSON = Union[  # noqa: UP007 (recursive alias needs Union)
    None, bool, int, float, str, list["JSON"], dict[str, "JSON"]
]
JSONObject = dict[str, JSON]


# Built once: json.dumps with options builds a new encoder on every call.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def dumps(value: JSON) -> str:
    """Canonical JSON text: sorted keys, no spaces, UTF-8 characters kept."""
    return _CANONICAL.encode(value)


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
