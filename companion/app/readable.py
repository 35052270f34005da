"""Games in words for people at a terminal: a game's :class:`~companion.core.summary.Line` values
in the table's language, intents typed as ``kind key=value ...``, and the shape of every intent.

``companion do sy.move figure=D1 ticket=taxi station=69 --as d1`` becomes
``{"kind": "sy.move", "figure": "D1", "ticket": "taxi", "station": 69}``: each value is read by
the type of the intent's field (numbers, true/false, ``null``, lists as ``a,b``, pairs as ``a:b``,
nested fields as ``first.station=13``, anything as JSON when it starts with ``[`` or ``{``). The
codec then checks the result exactly like a phone's message.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import json
import types
import typing
from collections.abc import Iterable, Sequence
from typing import Any

from companion.app.i18n import text
from companion.core.codec import KindCodec
from companion.core.errors import MalformedInput
from companion.core.jsonvalue import JSON, JSONObject, loads
from companion.core.summary import Line, SetupKey, Summary

TRUE = ("true", "yes", "on", "1")
FALSE = ("false", "no", "off", "0")
NULL = ("null", "none", "-")


# -- words ------------------------------------------------------------------------------------------
def param(value: JSON, lang: str) -> str:
    """One parameter in words: a nested text (``{"t": code, ...}``), a joined list, or a value."""
    if isinstance(value, dict):
        if "t" in value and isinstance(value["t"], str):
            return phrase(value["t"], {k: v for k, v in value.items() if k != "t"}, lang)
        if "join" in value and isinstance(value["join"], list):
            sep = value.get("sep")
            return (sep if isinstance(sep, str) else ", ").join(param(v, lang) for v in value["join"])
    if isinstance(value, bool):
        return text("cli.yes" if value else "cli.no", lang=lang)
    if value is None:
        return "–"
    if isinstance(value, list):
        return ", ".join(param(v, lang) for v in value)
    return str(value)


def phrase(code: str, params: typing.Mapping[str, JSON], lang: str) -> str:
    return text(code, {k: param(v, lang) for k, v in params.items()}, lang)


def line(item: Line, lang: str) -> str:
    return "  " * item.indent + phrase(item.code, item.params, lang)


def lines(items: Iterable[Line], lang: str) -> str:
    return "\n".join(line(item, lang) for item in items)


def codes(items: Iterable[Line]) -> set[str]:
    """Every message code a list of lines uses, nested ones included (for catalogue tests)."""
    found: set[str] = set()

    def walk(value: JSON) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("t"), str):
                found.add(str(value["t"]))
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for item in items:
        found.add(item.code)
        for v in item.params.values():
            walk(v)
    return found


# -- the choices a legal value offers ---------------------------------------------------------------------
def _flat(value: JSON) -> str | None:
    """A value written on one line, if it is simple enough: ``7``, ``taxi``, ``12, 13, 14``."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return json.dumps(value) if isinstance(value, bool) or value is None else str(value)
    if isinstance(value, list) and all(_flat(v) is not None and not isinstance(v, (list, dict)) for v in value):
        return ", ".join(str(_flat(v)) for v in value) if value else "–"
    if isinstance(value, list) and all(isinstance(v, list) and _flat(v) is not None for v in value):
        return "; ".join(
            ":".join(str(_flat(x)) for x in v if isinstance(v, list)) for v in value if isinstance(v, list)
        )
    if isinstance(value, dict) and all(not isinstance(v, dict) and _flat(v) is not None for v in value.values()):
        return "; ".join(f"{k} {_flat(v)}" for k, v in value.items()) if value else "–"
    return None


def choice_lines(key: str, value: JSON, indent: int = 0) -> str:
    """One choice of a ``legal`` value for people: short values on one line, nested ones below."""
    pad = "  " * indent
    flat = _flat(value)
    if flat is not None:
        return f"{pad}{key}: {flat}"
    out = [f"{pad}{key}:"]
    if isinstance(value, dict):
        out += [choice_lines(str(k), v, indent + 1) for k, v in value.items()]
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and all(_flat(v) is not None for v in item.values()):
                out.append(pad + "  - " + " ".join(f"{k}={_flat(v)}" for k, v in item.items()))
            elif isinstance(item, dict):
                simple = {k: v for k, v in item.items() if _flat(v) is not None}
                out.append(pad + "  - " + " ".join(f"{k}={_flat(v)}" for k, v in simple.items()))
                out += [choice_lines(str(k), v, indent + 2) for k, v in item.items() if k not in simple]
            else:
                out.append(pad + "  - " + json.dumps(item, ensure_ascii=False))
    return "\n".join(out)


# -- the shape of an intent -------------------------------------------------------------------------
def _hints(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def type_shape(tp: Any) -> str:
    """How a value of type ``tp`` is written after ``key=`` (e.g. ``<number>``, ``taxi|bus``)."""
    origin = typing.get_origin(tp)
    if tp is int:
        return "<number>"
    if tp is float:
        return "<decimal>"
    if tp is bool:
        return "true|false"
    if tp is str:
        return "<text>"
    if origin is typing.Literal:
        return "|".join(str(a) for a in typing.get_args(tp))
    if origin in (typing.Union, types.UnionType):
        others = [a for a in typing.get_args(tp) if a is not type(None)]
        return "|".join(type_shape(a) for a in others) + "|null"
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return type_shape(args[0]) + ",…"
        return ":".join(type_shape(a) for a in args)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return "|".join(str(m.value) for m in tp)
    return "<json>"


def shape(codec: KindCodec[Any], kind: str) -> str:
    """``kind key=<type> ...`` for an intent kind; optional fields in brackets, nested ones dotted."""
    cls = codec.cls_for(kind)
    parts = [kind]

    def fields(cls: type, prefix: str) -> None:
        for f in dataclasses.fields(cls):
            tp = _hints(cls)[f.name]
            if dataclasses.is_dataclass(tp) and isinstance(tp, type):
                fields(tp, f"{prefix}{f.name}.")
                continue
            item = f"{prefix}{f.name}={type_shape(tp)}"
            optional = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
            parts.append(f"[{item}]" if optional else item)

    fields(cls, "")
    return " ".join(parts)


# -- reading key=value ------------------------------------------------------------------------------
def _bad(key: str, why: str) -> MalformedInput:
    return MalformedInput("cli.bad_value", f"{key}: {why}", field=key, expected=why)


def _scalar(tp: Any, raw: str, key: str) -> JSON:
    origin = typing.get_origin(tp)
    if raw[:1] in ("[", "{"):
        try:
            return loads(raw)
        except ValueError:
            raise _bad(key, "JSON") from None
    if origin in (typing.Union, types.UnionType):
        if raw.lower() in NULL:
            return None
        others = [a for a in typing.get_args(tp) if a is not type(None)]
        return _scalar(others[0], raw, key) if len(others) == 1 else raw
    if tp is int:
        try:
            return int(raw)
        except ValueError:
            raise _bad(key, type_shape(tp)) from None
    if tp is float:
        try:
            return float(raw)
        except ValueError:
            raise _bad(key, type_shape(tp)) from None
    if tp is bool:
        if raw.lower() in TRUE:
            return True
        if raw.lower() in FALSE:
            return False
        raise _bad(key, type_shape(tp))
    if origin is typing.Literal:
        for option in typing.get_args(tp):
            if str(option) == raw:
                return option  # type: ignore[no-any-return]
        raise _bad(key, type_shape(tp))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        for member in tp:
            if str(member.value) == raw:
                return member.value  # type: ignore[no-any-return]
        raise _bad(key, type_shape(tp))
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return [_scalar(args[0], part, key) for part in raw.split(",")] if raw else []
        parts = raw.split(":")
        if len(parts) != len(args):
            raise _bad(key, type_shape(tp))
        return [_scalar(a, p, key) for a, p in zip(args, parts, strict=True)]
    return raw


def close_to(word: str, choices: Iterable[str]) -> JSONObject:
    """A refusal's "did you mean …?" for a mistyped ``word``: the parameter ``hint`` (a nested text,
    ``cli.did_you_mean``, put in as its words) naming the choices spelt most like it, or nothing."""
    found = difflib.get_close_matches(word, sorted(set(choices)), n=3, cutoff=0.6)
    if not found:
        return {"hint": ""}
    return {"hint": "cli.did_you_mean", "hint_params": {"choices": ", ".join(found)}}


def parse_intent(codec: KindCodec[Any], kind: str, args: Sequence[str]) -> JSONObject:
    """``key=value`` words for intent ``kind`` as the intent's JSON (checked later by the codec)."""
    kinds = [k for k in codec.kinds if not k.startswith("core.")]
    if kind not in codec.kinds:
        raise MalformedInput("cli.unknown_kind", f"unknown kind {kind!r}", kind=kind[:40], **close_to(kind, kinds))
    cls = codec.cls_for(kind)
    out: JSONObject = {"kind": kind}
    for arg in args:
        key, sep, raw = arg.partition("=")
        if not sep or not key:
            raise MalformedInput("cli.not_key_value", f"not key=value: {arg}", arg=arg[:60])
        target, owner, path = out, cls, key.split(".")
        for name in path[:-1]:
            hints = _hints(owner) if dataclasses.is_dataclass(owner) else {}
            sub = hints.get(name)
            if not (isinstance(sub, type) and dataclasses.is_dataclass(sub)):
                near = close_to(name, hints)
                raise MalformedInput("cli.unknown_key", f"unknown key {key}", key=key[:60], kind=kind, **near)
            nested = target.setdefault(name, {})
            assert isinstance(nested, dict)
            target, owner = nested, sub
        hints = _hints(owner)
        if path[-1] not in hints:
            near = close_to(path[-1], hints)
            raise MalformedInput("cli.unknown_key", f"unknown key {key}", key=key[:60], kind=kind, **near)
        target[path[-1]] = _scalar(hints[path[-1]], raw, key)
    return out


# -- setups -----------------------------------------------------------------------------------------
def parse_setup(summary: Summary, args: Sequence[str]) -> JSONObject:
    """``key=value`` words for a game's setup, read by the kind of each documented key."""
    known = {k.key: k for k in summary.setup_keys}
    out: JSONObject = {}
    for arg in args:
        key, sep, raw = arg.partition("=")
        if not sep or not key:
            raise MalformedInput("cli.not_key_value", f"not key=value: {arg}", arg=arg[:60])
        spec = known.get(key)
        if spec is None:
            near = close_to(key, known)
            raise MalformedInput("cli.unknown_setup_key", f"unknown setup key {key}", key=key[:60], **near)
        out[key] = setup_value(spec, raw)
    return out


def setup_value(spec: SetupKey, raw: str) -> JSON:
    if spec.kind == "json" or raw[:1] in ("[", "{"):
        try:
            return loads(raw)
        except ValueError:
            raise _bad(spec.key, "JSON") from None
    if spec.kind == "texts":
        return [part.strip() for part in raw.split(",")] if raw else []
    if spec.kind == "flag":
        return _scalar(bool, raw, spec.key)
    if spec.kind == "int":
        return _scalar(int, raw, spec.key)
    if spec.kind == "choice" and spec.choices and raw not in spec.choices:
        raise _bad(spec.key, "|".join(spec.choices))
    return raw


def missing_setup(summary: Summary, setup: JSONObject) -> list[SetupKey]:
    return [k for k in summary.setup_keys if k.required and k.key not in setup]


def setup_help(summary: Summary, lang: str) -> str:
    """Every setup key of a game, one a line: ``key=example  (required)  what it means``."""
    out = []
    for k in summary.setup_keys:
        mark = text("cli.required", lang=lang) if k.required else text("cli.optional", lang=lang)
        what = text(f"{summary.prefix}.setup_key.{k.key}", lang=lang)
        out.append(f"  {k.key}={k.example or '…'}  [{mark}] {what}")
    return "\n".join(out)
