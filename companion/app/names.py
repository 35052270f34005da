"""Ids in a text's parameters, in words: a refusal says "It is Blue's turn", not "It is p2's turn".

A game's refusals carry ids (``seat="p2"``, ``colour="red"``, ``figure="D1"``, ``ticket="taxi"``);
the words for them come from the game's public view and its catalogue:

- a seat (parameters ``seat``, ``active``, ``turn``, ``player``) is the name the table entered for
  it, else its label from the game's summary ("Red", "Detective 1", "blue");
- any other id has words when its game's catalogue has the code ``<game>.<parameter>.<id>``
  (``vm.colour.red``, ``sy.ticket.taxi``, ``vm.city.london``, ``myk.patron.sir_brown``);
- an id made of a letter and a number has words when ``<game>.<parameter>.<letter>`` exists, a
  text taking ``{n}`` (``sy.figure.D`` = "Detective {n}" for ``D1``).

A text that chooses its words by an id (``{ticket, select, bus {de bus} other {…}}``) gets that id
as it is. Only the table's (public) view is read, so a refusal never learns more than the table shows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from companion.app.i18n import TemplateError, catalogue, error_text, template, template_selects, text
from companion.app.readable import param
from companion.app.savedgame import LoadedGame
from companion.core.audience import TABLE
from companion.core.errors import CompanionError
from companion.core.jsonvalue import JSON, JSONObject
from companion.core.summary import person
from companion.games import get_summary

SEAT_KEYS = ("seat", "active", "turn", "player")
_LETTER_NUMBER = re.compile(r"^([A-Za-z]+)(\d+)$")


def seat_names(rules: str, view: JSONObject) -> dict[str, JSON]:
    """Every seat's words: the name entered at setup, else the summary's label (a nested text)."""
    try:
        players = get_summary(rules).players(view)
    except (CompanionError, ImportError, AttributeError):
        return {}  # a game without a summary (the tests' toy game): ids stay ids
    return {p.seat: person(p) for p in players}


def in_words(
    params: Mapping[str, JSON],
    rules: str,
    view: JSONObject,
    lang: str,
    extra: tuple[str, ...] = (),
    keep: frozenset[str] = frozenset(),
) -> dict[str, JSON]:
    """``params`` with every id that has words replaced by them (see the module's docstring), except
    those named in ``keep`` (a text chooses its words by them: ``{ticket, select, bus {…} …}``)."""
    try:
        prefix = get_summary(rules).prefix
    except (CompanionError, ImportError, AttributeError):
        return dict(params)
    texts = catalogue(extra)
    known = set(texts.get("en", {})) | set(texts.get(lang, {}))
    seats = seat_names(rules, view)
    out: dict[str, JSON] = {}
    for key, value in params.items():
        if isinstance(value, str) and key not in keep:
            letter = _LETTER_NUMBER.match(value)
            if key in SEAT_KEYS and value in seats:
                value = param(seats[value], lang)
            elif f"{prefix}.{key}.{value}" in known:
                value = text(f"{prefix}.{key}.{value}", {}, lang, extra)
            elif letter and f"{prefix}.{key}.{letter.group(1)}" in known:
                value = text(f"{prefix}.{key}.{letter.group(1)}", {"n": int(letter.group(2))}, lang, extra)
        out[key] = value
    return out


def refusal_text(exc: CompanionError, lang: str, extra: tuple[str, ...] = (), current: LoadedGame | None = None) -> str:
    """A refusal in words, its ids named from the open game (``current``) when there is one."""
    if current is None:
        return error_text(exc, lang, extra)
    try:
        view = current.game.snapshot(TABLE)["view"]
    except CompanionError:
        return error_text(exc, lang, extra)
    view = view if isinstance(view, dict) else {}
    found = template(exc.code, lang, extra)
    try:
        keep = frozenset(template_selects(found[0])) if found is not None else frozenset()
    except TemplateError:
        keep = frozenset()
    return text(exc.code, in_words(exc.params, current.header.rules, view, lang, extra, keep), lang, extra)
