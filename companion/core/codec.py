"""Exact JSON codecs for frozen dataclasses.

``encode(obj)`` turns a frozen dataclass into JSON; ``decode(cls, data)`` checks every
field's type strictly (no bool for int, no missing or extra keys) and rebuilds it, so
``decode(cls, encode(x)) == x`` and untrusted input from a phone or a file is refused
with :class:`MalformedInput` instead of being half-understood.

Supported field types: ``int``, ``str``, ``bool``, ``float``, ``None``, ``X | None``,
``Literal[...]``, ``tuple[X, ...]``, ``tuple[X, Y]``, ``frozenset[X]`` (a sorted array),
``str``-valued ``Enum`` and nested frozen dataclasses.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

from companion.core.errors import MalformedInput
from companion.core.jsonvalue import JSON

T = TypeVar("T")

_hints_cache: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _hints_cache.get(cls)
    if hints is None:
        all_hints = typing.get_type_hints(cls)
        hints = {f.name: all_hints[f.name] for f in dataclasses.fields(cls)}
        _hints_cache[cls] = hints
    return hints


_field_names: dict[type, tuple[str, ...]] = {}  # a dataclass's fields, looked up once


def encode(value: Any) -> JSON:
    """Encode a dataclass (or a plain value inside one) as JSON."""
    kind = type(value)
    names = _field_names.get(kind)
    if names is not None:
        return {name: encode(getattr(value, name)) for name in names}
    if kind is str or kind is int or kind is bool or value is None:
        return value  # type: ignore[no-any-return]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _field_names[kind] = tuple(f.name for f in dataclasses.fields(value))
        return {name: encode(getattr(value, name)) for name in names}
    if isinstance(value, enum.Enum):
        return encode(value.value)
    if isinstance(value, tuple):
        return [encode(v) for v in value]
    if isinstance(value, frozenset):
        items = [encode(v) for v in value]
        with contextlib.suppress(TypeError):  # items of different kinds: any order decodes to the same set
            items.sort()
        return items
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"cannot encode {type(value).__name__}")


def _fail(path: str, expected: str, got: object) -> MalformedInput:
    return MalformedInput(
        "malformed.field",
        f"{path or 'value'}: expected {expected}, got {type(got).__name__}",
        field=path or "value",
        expected=expected,
    )


# A decoder takes (data, path) and returns the value or raises MalformedInput. One is built per
# type on first use and kept: decoding never inspects type hints again.
Decoder = Callable[[object, str], Any]
_decoders: dict[Any, Decoder] = {}


def decode(tp: Any, data: object, path: str = "") -> Any:
    """Decode ``data`` as type ``tp``; raise :class:`MalformedInput` on any mismatch."""
    return decoder(tp)(data, path)


def decoder(tp: Any) -> Decoder:
    """The decoder for ``tp``, built once."""
    found = _decoders.get(tp)
    if found is None:
        # A placeholder first, so a dataclass that refers to itself finds its own decoder.
        _decoders[tp] = lambda data, path: _decoders[tp](data, path)
        try:
            found = _decoders[tp] = _build(tp)
        except BaseException:
            del _decoders[tp]
            raise
    return found


def _sub(path: str, key: str) -> str:
    return f"{path}.{key}".lstrip(".")


def _any(data: object, path: str) -> Any:
    return data


def _none(data: object, path: str) -> None:
    if data is not None:
        raise _fail(path, "null", data)
    return None


def _bool(data: object, path: str) -> bool:
    if data is True or data is False:
        return data
    raise _fail(path, "boolean", data)


def _int(data: object, path: str) -> int:
    if type(data) is int or (isinstance(data, int) and not isinstance(data, bool)):
        return data
    raise _fail(path, "integer", data)


def _float(data: object, path: str) -> float:
    if isinstance(data, bool) or not isinstance(data, (int, float)):
        raise _fail(path, "number", data)
    return float(data)


def _str(data: object, path: str) -> str:
    if isinstance(data, str):
        return data
    raise _fail(path, "string", data)


_PLAIN: dict[Any, Decoder] = {
    Any: _any,
    None: _none,
    type(None): _none,
    bool: _bool,
    int: _int,
    float: _float,
    str: _str,
}


def _build(tp: Any) -> Decoder:
    plain = _PLAIN.get(tp)
    if plain is not None:
        return plain
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return _literal(tp)
    if origin in (typing.Union, types.UnionType):
        return _union(tp)
    if origin is tuple:
        return _tuple(tp)
    if origin is frozenset:
        return _frozenset(tp)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum(tp)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass(tp)
    raise TypeError(f"unsupported type {tp!r}")


def _literal(tp: Any) -> Decoder:
    allowed = typing.get_args(tp)

    def literal(data: object, path: str) -> Any:
        for option in allowed:
            if data == option and type(data) is type(option):
                return option
        raise MalformedInput("malformed.choice", f"{path}: not one of {allowed!r}", field=path or "value")

    return literal


def _union(tp: Any) -> Decoder:
    args = typing.get_args(tp)
    non_none = [a for a in args if a is not type(None)]
    accepts_none = len(non_none) < len(args)
    if len(non_none) != 1:

        def unsupported(data: object, path: str) -> Any:
            if data is None and accepts_none:
                return None
            raise TypeError(f"unsupported union {tp!r}")

        return unsupported
    inner = decoder(non_none[0])
    if not accepts_none:
        return inner

    def optional(data: object, path: str) -> Any:
        return None if data is None else inner(data, path)

    return optional


def _tuple(tp: Any) -> Decoder:
    args = typing.get_args(tp)
    if len(args) == 2 and args[1] is Ellipsis:
        item = decoder(args[0])

        def variadic(data: object, path: str) -> tuple[Any, ...]:
            if not isinstance(data, list):
                raise _fail(path, "array", data)
            return tuple([item(v, f"{path}[{i}]") for i, v in enumerate(data)])

        return variadic
    items = [decoder(a) for a in args]

    def fixed(data: object, path: str) -> tuple[Any, ...]:
        if not isinstance(data, list):
            raise _fail(path, "array", data)
        if len(items) != len(data):
            raise MalformedInput("malformed.length", f"{path}: expected {len(items)} items", field=path or "value")
        return tuple([d(v, f"{path}[{i}]") for i, (d, v) in enumerate(zip(items, data, strict=True))])

    return fixed


def _frozenset(tp: Any) -> Decoder:
    (arg,) = typing.get_args(tp)
    item = decoder(arg)

    def items(data: object, path: str) -> frozenset[Any]:
        if not isinstance(data, list):
            raise _fail(path, "array", data)
        return frozenset([item(v, f"{path}[{i}]") for i, v in enumerate(data)])

    return items


def _enum(tp: type[enum.Enum]) -> Decoder:
    members = {(type(m.value), m.value): m for m in tp}

    def member(data: object, path: str) -> Any:
        try:
            return members[(type(data), data)]
        except (KeyError, TypeError):  # TypeError: an unhashable value (a list or an object)
            raise MalformedInput("malformed.choice", f"{path}: not a {tp.__name__}", field=path or "value") from None

    return member


def _dataclass(tp: type, ignore_kind: bool = False) -> Decoder:
    """``ignore_kind``: the object also carries the ``kind`` tag (see :meth:`KindCodec.decode`)."""
    hints = _hints(tp)
    # (name, decoder, required) for every field set by __init__, in order.
    plan = [
        (f.name, decoder(hints[f.name]), f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
        for f in dataclasses.fields(tp)
        if f.init
    ]
    allowed = frozenset(hints) | ({"kind"} if ignore_kind else set())

    def build(data: object, path: str) -> Any:
        if type(data) is not dict and not isinstance(data, Mapping):
            raise _fail(path, "object", data)
        if not allowed.issuperset(data):
            extra = sorted(set(data) - allowed)[0]
            raise MalformedInput(
                "malformed.extra_field", f"{path}: unknown field {extra!r}", field=f"{path}.{extra}".lstrip(".")
            )
        kwargs: dict[str, Any] = {}
        for name, field_decoder, required in plan:
            if name in data:
                kwargs[name] = field_decoder(data[name], _sub(path, name) if path else name)
            elif required:
                sub = _sub(path, name)
                raise MalformedInput("malformed.missing_field", f"{sub}: missing", field=sub)
        try:
            return tp(**kwargs)
        except (TypeError, ValueError) as exc:
            if isinstance(exc, MalformedInput):
                raise
            raise MalformedInput("malformed.value", f"{path}: {exc}", field=path or "value") from exc

    return build


class Tagged:
    """Base of events and intents: a frozen dataclass with a class-level ``kind`` tag."""

    kind: ClassVar[str] = ""


K = TypeVar("K", bound=Tagged)


class KindCodec(Generic[K]):
    """Encodes a family of tagged dataclasses as ``{"kind": ..., field: ...}`` and back."""

    def __init__(self, classes: Iterable[type[K]]) -> None:
        self._by_kind: dict[str, type[K]] = {}
        self._decoders: dict[str, Decoder] = {}
        for cls in classes:
            if not cls.kind:
                raise TypeError(f"{cls.__name__} has no kind")
            if cls.kind in self._by_kind:
                raise TypeError(f"kind {cls.kind!r} registered twice")
            self._by_kind[cls.kind] = cls

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self._by_kind)

    def cls_for(self, kind: str) -> type[K]:
        try:
            return self._by_kind[kind]
        except KeyError:
            raise MalformedInput("malformed.unknown_kind", f"unknown kind {kind!r}", kind=kind[:40]) from None

    def encode(self, value: K) -> dict[str, JSON]:
        if self._by_kind.get(value.kind) is not type(value):
            raise TypeError(f"{type(value).__name__} is not registered here")
        body = encode(value)
        assert isinstance(body, dict)
        return {"kind": value.kind, **body}

    def decode(self, data: object) -> K:
        if not isinstance(data, Mapping):
            raise _fail("", "object", data)
        kind = data.get("kind")
        if not isinstance(kind, str):
            raise MalformedInput("malformed.missing_field", "kind: missing", field="kind")
        value: K = self.body_decoder(kind)(data, "")
        return value

    def body_decoder(self, kind: str) -> Decoder:
        """The decoder of ``kind``'s class, reading an object whose ``kind`` key is ignored."""
        found = self._decoders.get(kind)
        if found is None:
            found = self._decoders[kind] = _dataclass(self.cls_for(kind), ignore_kind=True)
        return found

    def merged(self, other: KindCodec[K]) -> KindCodec[K]:
        return KindCodec([*self._by_kind.values(), *other._by_kind.values()])
