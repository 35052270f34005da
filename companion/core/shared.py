"""What the screens of one state share, built and serialised once.

After every action the table sends each audience (the touchscreen, every seat's phone) its own
view, but most of each view is the same public picture of the table. These helpers keep that
picture's cost independent of how many screens watch:

- :func:`per_state` keeps a view builder's answer for the last state it was asked about, so the
  public part is built once per state and every audience's view holds the same objects;
- :class:`Layered` is a view made of that shared part and the audience's own keys;
- :func:`per_part` keeps a view builder's answer (a :class:`Piece`) for each of the last parts of
  the state it was asked about (a player, say): states share their unchanged parts, so the next
  state's view holds the same pieces, and their text is not written again;
- :class:`SharedText` gives the JSON text of a message — exactly ``json.dumps(message,
  ensure_ascii=False)`` — serialising the shared part of its view once for every audience.

All of them rely on views being values: nothing may change a view, or a part of one, once it is
built (a :class:`Layered` view and a :class:`Piece` refuse to be changed). The text is
``json.dumps``'s for every JSON value; for what is not JSON the error may differ (a cycle ends in
RecursionError, and of several values that are not JSON another may be named first).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any, Generic, NoReturn, TypeVar

from companion.core.jsonvalue import text_encoder

S = TypeVar("S")
T = TypeVar("T")
V = TypeVar("V")
_NOTHING = object()
PARTS_KEPT = 64  # pieces per_part keeps (each for its part's very object)
PIECE_TEXTS_KEPT = 256  # pieces' texts a SharedText keeps


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


class _ByIdentity(Generic[V]):
    """What was made from an object, kept for that very object (held, so its id is not reused)
    until ``limit`` of them have piled up, when all are dropped."""

    __slots__ = ("_kept", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._kept: dict[int, tuple[object, V]] = {}

    def get(self, key: object) -> V | None:
        hit = self._kept.get(id(key))
        return hit[1] if hit is not None and hit[0] is key else None

    def put(self, key: object, value: V) -> V:
        if len(self._kept) >= self.limit:
            self._kept.clear()
        self._kept[id(key)] = (key, value)
        return value

    def clear(self) -> None:
        self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)


class _Unchanging(dict[str, Any]):
    """A dict that refuses to be changed once built: views (and their kept texts) share it."""

    __slots__ = ()

    def _refuse(self, *_: object, **__: object) -> NoReturn:
        raise TypeError(f"a {type(self).__name__} is shared by views and their kept text: it is never changed")

    __setitem__ = __delitem__ = __ior__ = _refuse
    update = pop = popitem = setdefault = clear = _refuse


class Piece(_Unchanging):
    """A part of a view built from one immutable part of the state (see :func:`per_part`): the same
    object for as long as that part is, so :class:`SharedText` keeps its text. A dict otherwise
    (that refuses to be changed); its text is written whole (pieces inside a piece are not looked
    for)."""

    __slots__ = ()


_PARTS: list[_ByIdentity[Piece]] = []  # every per_part's kept pieces (see forget_parts)


def forget_parts() -> None:
    """Drop every piece :func:`per_part` keeps (a measurement or a test that must build pieces as
    if for the first time; :func:`per_state` forgets its state when shown another one)."""
    for kept in _PARTS:
        kept.clear()


def per_part(build: Callable[[S], dict[str, Any]]) -> Callable[[S], Piece]:
    """``Piece(build(part))``, kept for each part it was called with (the very object: a part of an
    immutable state always gives the same answer) until :data:`PARTS_KEPT` have piled up, when all
    are dropped. ``build`` may read nothing but the part (no setting, no language) and the part must
    be immutable. Pieces are shared by every view that holds them. Decorate module-level functions
    only: each decorated function's cache lives as long as the process."""
    kept: _ByIdentity[Piece] = _ByIdentity(PARTS_KEPT)
    _PARTS.append(kept)

    @functools.wraps(build)
    def cached(part: S) -> Piece:
        piece = kept.get(part)
        return piece if piece is not None else kept.put(part, Piece(build(part)))

    return cached


_ENCODE = text_encoder(sort_keys=False, separators=(", ", ": "))  # json.dumps(..., ensure_ascii=False), built once


class Layered(_Unchanging):
    """A view made of a part every audience shares (``base``, built once per state) and this
    audience's ``own`` keys after it. It is an ordinary dict with all the keys; :class:`SharedText`
    serialises the shared part once for all the views that hold it. It refuses to be changed (its
    text is its base's and its own's): build a new dict from it instead."""

    __slots__ = ("base", "own")

    def __init__(self, base: dict[str, Any], own: dict[str, Any]) -> None:
        if not own.keys().isdisjoint(base):
            raise ValueError(f"own keys {sorted(own.keys() & base.keys())} hide shared ones")
        super().__init__(base)
        dict.update(self, own)
        self.base = base
        self.own = own


class SharedText:
    """JSON text of messages whose views share parts, each shared part serialised once.

    The text is exactly ``json.dumps(message, ensure_ascii=False)``. A message's top-level values
    are serialised in runs (one dict each); a :class:`Layered` view among them is its base's text
    (kept, with the base itself so its identity stays its own, until ``keep`` of them have piled up
    and all are dropped) joined to the text of its own keys. In a message, a base or an own part,
    a :class:`Piece` (alone or in a list that starts with one) is written from its kept text: a
    piece the last state's views already held is not written again. A message already serialised
    (the very object) is not serialised again: every screen of one audience gets the same message.
    """

    def __init__(self, keep: int = 64) -> None:
        self._texts: _ByIdentity[str] = _ByIdentity(keep)  # messages and bases
        self._pieces: _ByIdentity[str] = _ByIdentity(PIECE_TEXTS_KEPT)  # kept longer: states share pieces

    def dumps(self, message: Any) -> str:
        kind = type(message)
        if kind is Layered:
            return self._layered(message)
        if kind is Piece:
            return self._piece(message)
        if kind is not dict:
            return _ENCODE(message)
        text = self._texts.get(message)
        return text if text is not None else self._texts.put(message, self._object(message))

    def _object(self, value: dict[Any, Any]) -> str:
        """A dict's text: whole through the C encoder, unless a value is a view or piece whose text
        is kept (a Layered view, a Piece, a list that starts with a Piece). Then runs of plain
        values are written as one dict each, and those from their kept texts between them (one
        pass; the fragments joined once)."""
        out = ["{"]
        run: dict[Any, Any] = {}
        for key, item in value.items():
            kind = type(item)
            if kind is Layered:
                text = self._layered(item)
            elif kind is Piece:
                text = self._piece(item)
            elif kind is list and item and type(item[0]) is Piece:
                text = "[" + ", ".join(self._piece(x) if type(x) is Piece else _ENCODE(x) for x in item) + "]"
            else:
                run[key] = item
                continue
            if type(key) is not str:  # a key json.dumps converts: let it write the whole
                return _ENCODE(value)
            if run:
                out += (_ENCODE(run)[1:-1], ", ")
                run = {}
            out += (encode_basestring(key), ": ", text, ", ")
        if len(out) == 1:  # nothing kept in it
            return _ENCODE(value)
        if run:
            out.append(_ENCODE(run)[1:-1])
        else:
            out.pop()  # the last separator
        out.append("}")
        return "".join(out)

    def _piece(self, piece: Piece) -> str:
        text = self._pieces.get(piece)
        return text if text is not None else self._pieces.put(piece, _ENCODE(piece))

    def _layered(self, view: Layered) -> str:
        base = self._texts.get(view.base)
        if base is None:
            base = self._texts.put(view.base, self._object(view.base))
        if not view.own:
            return base
        own = self._object(view.own)
        return own if base == "{}" else f"{base[:-1]}, {own[1:]}"
