"""Exact JSON codecs for frozen dataclasses.

``encode(obj)`` turns a frozen dataclass into JSON; ``decode(cls, data)`` checks every
field's type strictly (no bool for int, no missing or extra keys) and rebuilds it, so
``decode(cls, encode(x)) == x`` and untrusted input from a phone or a file is refused
with :class:`MalformedInput` instead of being half-understood.

Supported field types: ``int``, ``str``, ``bool``, ``float``, ``None``, ``X | None``,
``Literal[...]``, ``tuple[X, ...]``, ``tuple[X, Y]``, ``str``-valued ``Enum`` and
nested frozen dataclasses.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Iterable, Mapping
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


def encode(value: Any) -> JSON:
    """Encode a dataclass (or a plain value inside one) as JSON."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return encode(value.value)
    if isinstance(value, tuple):
        return [encode(v) for v in value]
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


def decode(tp: Any, data: object, path: str = "") -> Any:
    """Decode ``data`` as type ``tp``; raise :class:`MalformedInput` on any mismatch."""
    origin = typing.get_origin(tp)
    if tp is Any:
        return data
    if tp is type(None) or tp is None:
        if data is not None:
            raise _fail(path, "null", data)
        return None
    if tp is bool:
        if not isinstance(data, bool):
            raise _fail(path, "boolean", data)
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise _fail(path, "integer", data)
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise _fail(path, "number", data)
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise _fail(path, "string", data)
        return data
    if origin is typing.Literal:
        allowed = typing.get_args(tp)
        for option in allowed:
            if data == option and type(data) is type(option):
                return option
        raise MalformedInput("malformed.choice", f"{path}: not one of {allowed!r}", field=path or "value")
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if data is None and type(None) in args:
            return None
        non_none = [a for a in args if a is not type(None)]
        if len(non_none) == 1:
            return decode(non_none[0], data, path)
        raise TypeError(f"unsupported union {tp!r}")
    if origin is tuple:
        if not isinstance(data, list):
            raise _fail(path, "array", data)
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v, f"{path}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise MalformedInput("malformed.length", f"{path}: expected {len(args)} items", field=path or "value")
        return tuple(decode(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=True)))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        for member in tp:
            if member.value == data and type(member.value) is type(data):
                return member
        raise MalformedInput("malformed.choice", f"{path}: not a {tp.__name__}", field=path or "value")
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, Mapping):
            raise _fail(path, "object", data)
        hints = _hints(tp)
        extra = set(data) - set(hints)
        if extra:
            raise MalformedInput(
                "malformed.extra_field",
                f"{path}: unknown field {sorted(extra)[0]!r}",
                field=f"{path}.{sorted(extra)[0]}".lstrip("."),
            )
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(tp):
            if not f.init:
                continue
            sub = f"{path}.{f.name}".lstrip(".")
            if f.name in data:
                kwargs[f.name] = decode(hints[f.name], data[f.name], sub)
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise MalformedInput("malformed.missing_field", f"{sub}: missing", field=sub)
        try:
            return tp(**kwargs)
        except (TypeError, ValueError) as exc:
            if isinstance(exc, MalformedInput):
                raise
            raise MalformedInput("malformed.value", f"{path}: {exc}", field=path or "value") from exc
    raise TypeError(f"unsupported type {tp!r}")


class Tagged:
    """Base of events and intents: a frozen dataclass with a class-level ``kind`` tag."""

    kind: ClassVar[str] = ""


K = TypeVar("K", bound=Tagged)


class KindCodec(Generic[K]):
    """Encodes a family of tagged dataclasses as ``{"kind": ..., field: ...}`` and back."""

    def __init__(self, classes: Iterable[type[K]]) -> None:
        self._by_kind: dict[str, type[K]] = {}
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
        cls = self.cls_for(kind)
        body = {k: v for k, v in data.items() if k != "kind"}
        value: K = decode(cls, body)
        return value

    def merged(self, other: KindCodec[K]) -> KindCodec[K]:
        return KindCodec([*self._by_kind.values(), *other._by_kind.values()])
