"""What the screens of one state share, built and serialised once.

After every action the table sends each audience (the touchscreen, every seat's phone) its own
view, but most of each view is the same public picture of the table. These helpers keep that
picture's cost independent of how many screens watch:

- :func:`per_state` keeps a view builder's answer for the last state it was asked about, so the
  public part is built once per state and every audience's view holds the same objects;
- :class:`Layered` is a view made of that shared part and the audience's own keys;
- :class:`SharedText` gives the JSON text of a message — exactly ``json.dumps(message,
  ensure_ascii=False)`` — serialising the shared part of its view once for every audience.

All three rely on views being values: nothing may change a view, or a part of one, once it is built.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any, TypeVar

from companion.core.jsonvalue import text_encoder

S = TypeVar("S")
T = TypeVar("T")
_NOTHING = object()


def per_state(build: Callable[[S], T]) -> Callable[[S], T]:
    """``build(state)``, kept for the last state it was called with (the very object: states are
    immutable, so the same object always gives the same answer). The answer is shared by every
    caller: build a new dict around it rather than changing it."""
    last: list[tuple[object, Any]] = [(_NOTHING, None)]  # (state, answer), replaced whole: threads may share it

    @functools.wraps(build)
    def cached(state: S) -> T:
        seen, answer = last[0]
        if seen is state:
            return answer  # type: ignore[no-any-return]
        fresh = build(state)
        last[0] = (state, fresh)
        return fresh

    return cached


_ENCODE = text_encoder(sort_keys=False, separators=(", ", ": "))  # json.dumps(..., ensure_ascii=False), built once


class Layered(dict[str, Any]):
    """A view made of a part every audience shares (``base``, built once per state) and this
    audience's ``own`` keys after it. It is an ordinary dict with all the keys; :class:`SharedText`
    serialises the shared part once for all the views that hold it."""

    __slots__ = ("base", "own")

    def __init__(self, base: dict[str, Any], own: dict[str, Any]) -> None:
        if not own.keys().isdisjoint(base):
            raise ValueError(f"own keys {sorted(own.keys() & base.keys())} hide shared ones")
        super().__init__(base)
        self.update(own)
        self.base = base
        self.own = own


class SharedText:
    """JSON text of messages whose views share parts, each shared part serialised once.

    The text is exactly ``json.dumps(message, ensure_ascii=False)``. A message's top-level values
    are serialised in runs (one dict each); a :class:`Layered` view among them is its base's text (kept, with
    the base itself so its identity stays its own, until ``keep`` of them have piled up) joined to
    the text of its own keys. A message already serialised (the very object) is not serialised
    again: every screen of one audience gets the same message.
    """

    def __init__(self, keep: int = 64) -> None:
        self.keep = keep
        self._texts: dict[int, tuple[object, str]] = {}

    def _kept(self, value: object) -> str | None:
        hit = self._texts.get(id(value))
        return hit[1] if hit is not None and hit[0] is value else None

    def _keep(self, value: object, text: str) -> str:
        if len(self._texts) >= self.keep:
            self._texts.clear()
        self._texts[id(value)] = (value, text)
        return text

    def dumps(self, message: Any) -> str:
        if type(message) is Layered:
            return self._layered(message)
        if type(message) is not dict:
            return _ENCODE(message)
        text = self._kept(message)
        if text is not None:
            return text
        if not any(type(value) is Layered for value in message.values()) or not all(
            type(key) is str for key in message
        ):
            return self._keep(message, _ENCODE(message))
        # Runs of plain values are serialised as one dict each (one call into the C encoder), a
        # Layered view between them from its kept base.
        parts: list[str] = []
        run: dict[str, Any] = {}
        for key, value in message.items():
            if type(value) is Layered:
                if run:
                    parts.append(_ENCODE(run)[1:-1])
                    run = {}
                parts.append(f"{encode_basestring(key)}: {self._layered(value)}")
            else:
                run[key] = value
        if run:
            parts.append(_ENCODE(run)[1:-1])
        return self._keep(message, "{" + ", ".join(parts) + "}")

    def _layered(self, view: Layered) -> str:
        base = self._kept(view.base)
        if base is None:
            base = self._keep(view.base, _ENCODE(view.base))
        if not view.own:
            return base
        own = _ENCODE(view.own)
        return own if base == "{}" else f"{base[:-1]}, {own[1:]}"
