"""The one translation table: message codes → words in the table's language.

Texts come from ``companion/app/messages/<lang>.json`` (core and app codes) and each game's
``messages/<lang>.json``; front ends (``ui``, ``companion.net``, ``hardware``) keep theirs the same
way. The languages are the catalogues present in ``companion/app/messages/``: adding a language is
adding files, never editing a list. A code without a text falls back to its parent code
(``sy.no_ticket`` → ``sy``), then English, then the code itself, so a screen always shows something
readable.

A text is a template: ``{name}`` is a parameter (whole numbers are written the language's way,
``1,234`` / ``1.234`` / ``1 234``; ``{name:>4}`` pads it to 4 characters, for the command line's
columns), ``{{`` and ``}}`` are literal braces, and
``{count, plural, one {# ticket} other {# tickets}}`` picks a form by the number ``count``
(``#`` is that number; ``=0 {…}`` matches one value exactly); ``{ticket, select, bus {de bus} other {…}}``
picks a branch by an id (a language whose words depend on which ticket, piece or colour it is). Each
language's plural rule and digit
grouping are texts of its own app catalogue (``language.plural``, in CLDR's rule syntax, and
``language.group`` / ``language.group_from``), so a new language brings them along.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from companion.core.errors import CompanionError
from companion.core.jsonvalue import JSON
from companion.games import entry, game_names


def _languages() -> tuple[str, ...]:
    """English first (the fallback), then every other catalogue of the app, by code."""
    folder = Path(__file__).with_name("messages")
    found = sorted(entry.name.removesuffix(".json") for entry in folder.iterdir() if entry.name.endswith(".json"))
    return ("en", *(lang for lang in found if lang != "en"))


LANGUAGES = _languages()


def _messages(package: str, lang: str) -> str:
    """The text of ``package``'s ``messages/<lang>.json``, found without running the package (a
    game's texts are read long before its rules are needed)."""
    spec = importlib.util.find_spec(package)  # runs the packages above it only
    if spec is not None and spec.submodule_search_locations:
        for folder in spec.submodule_search_locations:
            path = Path(folder, "messages", f"{lang}.json")
            if path.is_file():
                return path.read_text("utf-8")
    from importlib import resources  # a package that is not a folder (a zip): rare, read as a resource

    return resources.files(package).joinpath("messages", f"{lang}.json").read_text("utf-8")


def read_catalogue(package: str, lang: str) -> dict[str, str]:
    """One package's texts in one language (empty when the package has none in it)."""
    try:
        raw = _messages(package, lang)
    except (FileNotFoundError, ModuleNotFoundError, TypeError, NotADirectoryError):
        return {}
    texts = json.loads(raw)
    if not isinstance(texts, dict):
        raise ValueError(f"{package}/messages/{lang}.json is not an object")
    return {str(k): str(v) for k, v in texts.items()}


def package_texts(package: str) -> dict[str, dict[str, str]]:
    """One package's texts, by language (for tests and tools that check a catalogue)."""
    return {lang: read_catalogue(package, lang) for lang in LANGUAGES}


def catalogue(extra: tuple[str, ...] = ()) -> Mapping[str, dict[str, str]]:
    """Every text by language: the app's, every registered game's, and those of ``extra`` (front-end
    packages with their own catalogues). A language's texts are read when it is first asked for."""
    return _catalogue(("companion.app", *(entry(name).package for name in game_names()), *extra))


class _Texts(Mapping[str, dict[str, str]]):
    """The merged texts of some packages, by language, each language read on first use."""

    def __init__(self, packages: tuple[str, ...]) -> None:
        self.packages = packages
        self.read: dict[str, dict[str, str]] = {}

    def __getitem__(self, lang: str) -> dict[str, str]:
        found = self.read.get(lang)
        if found is None:
            if lang not in LANGUAGES:
                raise KeyError(lang)
            found = self.read[lang] = {}
            for package in self.packages:
                found.update(read_catalogue(package, lang))
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(LANGUAGES)

    def __len__(self) -> int:
        return len(LANGUAGES)


@functools.cache
def _catalogue(packages: tuple[str, ...]) -> _Texts:
    return _Texts(packages)


def template(code: str, lang: str = "en", extra: tuple[str, ...] = ()) -> tuple[str, str] | None:
    """The text ``code`` is shown with, and its language: the language's own, else its parent code's
    (``sy.no_ticket`` → ``sy``), else English's; ``None`` when there is none."""
    table = catalogue(extra)
    for language in (lang, "en"):
        texts = table.get(language, {})
        probe = code
        while probe:
            if probe in texts:
                return texts[probe], language
            probe = probe.rpartition(".")[0]
    return None


def text(code: str, params: Mapping[str, JSON] | None = None, lang: str = "en", extra: tuple[str, ...] = ()) -> str:
    """The words for ``code``; ``extra`` adds front-end packages' texts (e.g. ``("ui",)``)."""
    found = template(code, lang, extra)
    if found is None:
        return code
    try:
        return render(found[0], params or {}, found[1])
    except TemplateError:
        return found[0]


# -- templates: parameters, plural forms, numbers --------------------------------------------------

PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")


class TemplateError(ValueError):
    """A text that is not a well-formed template (the completeness test finds them all)."""


_RELATION = re.compile(r"^([niv])(?:\s*%\s*(\d+))?\s*(!=|=)\s*([\d.,\s]+)$")


def plural_rule(rule: str) -> Callable[[int], str]:
    """A plural rule in CLDR's syntax for whole numbers: ``"one: i = 1 and v = 0"``, rules separated by
    ``;``; relations ``n = 0,1`` / ``n % 10 = 2..4`` / ``!=``, joined by ``and`` / ``or``. The
    operands ``n`` and ``i`` are the number, ``v`` (visible decimals) is 0. Unmatched: ``other``."""
    branches: list[tuple[str, list[list[tuple[str, int | None, bool, list[tuple[int, int]]]]]]] = []
    for part in filter(None, (p.strip() for p in rule.split(";"))):
        category, _, condition = part.partition(":")
        category = category.strip()
        if category not in PLURAL_CATEGORIES or not condition.strip():
            raise TemplateError(f"bad plural rule {part!r}")
        alternatives = []
        for alternative in condition.split(" or "):
            relations = []
            for relation in alternative.split(" and "):
                match = _RELATION.match(relation.strip())
                if match is None:
                    raise TemplateError(f"bad plural relation {relation!r}")
                operand, modulo, op, values = match.groups()
                ranges = []
                for item in values.replace(" ", "").split(","):
                    low, _, high = item.partition("..")
                    if not low.isdigit() or (high and not high.isdigit()):
                        raise TemplateError(f"bad plural range {item!r}")
                    ranges.append((int(low), int(high or low)))
                relations.append((operand, int(modulo) if modulo else None, op == "=", ranges))
            alternatives.append(relations)
        branches.append((category, alternatives))

    def select(number: int) -> str:
        for category, alternatives in branches:
            for relations in alternatives:
                if all(_holds(number, *relation) for relation in relations):
                    return category
        return "other"

    return select


def _holds(number: int, operand: str, modulo: int | None, equal: bool, ranges: list[tuple[int, int]]) -> bool:
    value = 0 if operand == "v" else abs(number)
    if modulo:
        value %= modulo
    return any(low <= value <= high for low, high in ranges) == equal


@functools.cache
def _language(lang: str) -> tuple[Callable[[int], str], str, int]:
    texts = read_catalogue("companion.app", lang)
    rule = plural_rule(texts.get("language.plural", "one: n = 1"))
    group_from = texts.get("language.group_from", "1000")
    return rule, texts.get("language.group", ","), int(group_from) if group_from.isdigit() else 1000


def plural_category(number: int, lang: str) -> str:
    """``one``, ``few``, … ``other``: which plural form ``lang`` uses for ``number``."""
    return _language(lang)[0](number)


def format_number(number: int, lang: str) -> str:
    """A whole number with the language's digit grouping (``12,345``, ``12.345``, ``12 345``)."""
    _, group, group_from = _language(lang)
    digits = str(abs(number))
    if abs(number) >= group_from and group:
        head = len(digits) % 3 or 3
        digits = digits[:head] + "".join(group + digits[i : i + 3] for i in range(head, len(digits), 3))
    return ("-" if number < 0 else "") + digits


def _whole(value: JSON) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and re.fullmatch(r"-?\d+", value):
        return int(value)
    return None


def _value(value: JSON, lang: str) -> str:
    if isinstance(value, list):
        return ", ".join(_value(item, lang) for item in value)
    number = value if isinstance(value, int) and not isinstance(value, bool) else None
    return format_number(number, lang) if number is not None else str(value)


def render(template: str, params: Mapping[str, JSON], lang: str = "en") -> str:
    """Fill a template (see the module's docstring); a parameter missing from ``params`` stays as
    ``{name}``. Raises :class:`TemplateError` for a malformed template."""
    out, end = _segment(template, 0, params, lang, None)
    if end != len(template):
        raise TemplateError(f"unmatched }} at {end} in {template!r}")
    return out


def template_parts(template: str) -> tuple[set[str], set[str]]:
    """The parameters a template uses, and those of them that choose a plural form."""
    names: set[str] = set()
    plurals: set[str] = set()
    _segment(template, 0, {}, "en", None, names, plurals)
    return names, plurals


def template_selects(template: str) -> dict[str, set[str]]:
    """The parameters a template chooses a branch by (``{ticket, select, bus {…} other {…}}``), each
    with the values it names (``other`` left out)."""
    selects: dict[str, set[str]] = {}
    _segment(template, 0, {}, "en", None, set(), set(), selects)
    return selects


_NAME = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*")
_WIDTH = re.compile(r"(?::([<>]?)(\d+))?\}")
_BRANCH = re.compile(r"(=\d+|[a-z]+)\s*\{")


def _segment(
    s: str,
    i: int,
    params: Mapping[str, JSON],
    lang: str,
    number: str | None,
    names: set[str] | None = None,
    plurals: set[str] | None = None,
    selects: dict[str, set[str]] | None = None,
    branch: bool = False,
) -> tuple[str, int]:
    """Render from ``i`` up to an unmatched ``}`` (the end of a plural or select branch: ``branch``)
    or the end. ``number`` is what ``#`` stands for (inside a plural)."""
    out: list[str] = []
    while i < len(s):
        ch = s[i]
        if ch == "{" and s.startswith("{{", i):
            out.append("{")
            i += 2
        elif ch == "}" and not branch and s.startswith("}}", i):  # in a branch, } ends it
            out.append("}")
            i += 2
        elif ch == "}":
            return "".join(out), i
        elif ch == "#" and number is not None:
            out.append(number)
            i += 1
        elif ch == "{":
            match = _NAME.match(s, i + 1)
            if match is None:
                raise TemplateError(f"bad placeholder at {i} in {s!r}")
            name, i = match.group(1), match.end()
            if names is not None:
                names.add(name)
            width = _WIDTH.match(s, i)
            if width is not None:  # {name} or {name:>4}: right (>) or left (<, the default) aligned
                shown = _value(params[name], lang) if name in params else "{" + name + "}"
                size = int(width.group(2) or 0)
                out.append(shown.rjust(size) if width.group(1) == ">" else shown.ljust(size))
                i = width.end()
                continue
            kind = _NAME.match(s, i + 1) if s.startswith(",", i) else None
            if kind is None or kind.group(1) not in ("plural", "select") or not s.startswith(",", kind.end()):
                raise TemplateError(f"bad placeholder {name!r} in {s!r}")
            if kind.group(1) == "select":
                chosen, i = _select(
                    s, kind.end() + 1, params, lang, number, params.get(name), names, plurals, selects, name
                )
            else:
                if plurals is not None:
                    plurals.add(name)
                chosen, i = _plural(s, kind.end() + 1, params, lang, params.get(name), names, plurals, selects)
            out.append(chosen if name in params or names is not None else "{" + name + "}")
        else:
            out.append(ch)
            i += 1
    return "".join(out), i


def _plural(
    s: str,
    i: int,
    params: Mapping[str, JSON],
    lang: str,
    value: JSON,
    names: set[str] | None,
    plurals: set[str] | None,
    selects: dict[str, set[str]] | None = None,
) -> tuple[str, int]:
    """The branches of ``{n, plural, ...}`` from ``i``; returns the chosen one and the index after the
    closing brace. A value that is not a whole number ("?") takes the ``other`` form."""
    forms: dict[str, str] = {}
    whole = _whole(value)
    number = format_number(whole, lang) if whole is not None else "#" if value is None else str(value)
    while True:
        while i < len(s) and s[i].isspace():
            i += 1
        if s.startswith("}", i):
            break
        match = _BRANCH.match(s, i)
        if match is None:
            raise TemplateError(f"bad plural branch at {i} in {s!r}")
        selector = match.group(1)
        if not selector.startswith("=") and selector not in PLURAL_CATEGORIES:
            raise TemplateError(f"unknown plural form {selector!r} in {s!r}")
        body, i = _segment(s, match.end(), params, lang, number, names, plurals, selects, True)
        if not s.startswith("}", i):
            raise TemplateError(f"unclosed plural branch in {s!r}")
        forms[selector] = body
        i += 1
    if "other" not in forms:
        raise TemplateError(f"a plural needs an 'other' form: {s!r}")
    if whole is None:
        return forms["other"], i + 1
    exact = forms.get(f"={whole}")
    return (exact if exact is not None else forms.get(plural_category(whole, lang), forms["other"])), i + 1


_WORD = re.compile(r"([A-Za-z0-9_]+)\s*\{")


def _select(
    s: str,
    i: int,
    params: Mapping[str, JSON],
    lang: str,
    number: str | None,
    value: JSON,
    names: set[str] | None,
    plurals: set[str] | None,
    selects: dict[str, set[str]] | None,
    name: str,
) -> tuple[str, int]:
    """The branches of ``{x, select, bus {…} other {…}}`` from ``i``: the branch named by the value
    of ``x`` (an id such as ``bus``), else ``other``; returns it and the index after the closing brace."""
    forms: dict[str, str] = {}
    while True:
        while i < len(s) and s[i].isspace():
            i += 1
        if s.startswith("}", i):
            break
        match = _WORD.match(s, i)
        if match is None:
            raise TemplateError(f"bad select branch at {i} in {s!r}")
        body, i = _segment(s, match.end(), params, lang, number, names, plurals, selects, True)
        if not s.startswith("}", i):
            raise TemplateError(f"unclosed select branch in {s!r}")
        forms[match.group(1)] = body
        i += 1
    if "other" not in forms:
        raise TemplateError(f"a select needs an 'other' branch: {s!r}")
    if selects is not None:
        selects.setdefault(name, set()).update(k for k in forms if k != "other")
    chosen = forms.get(value) if isinstance(value, str) else None
    return (chosen if chosen is not None else forms["other"]), i + 1


def language_name(lang: str) -> str:
    """A language's own name for a language picker ("Deutsch", "Français"), from its catalogue."""
    return read_catalogue("companion.app", lang).get("language.name", lang)


def error_text(error: CompanionError, lang: str = "en", extra: tuple[str, ...] = ()) -> str:
    """An error's words. A parameter ``x`` that comes with ``x_params`` is itself a code (e.g. the
    rules' refusal inside an import's refusal) and is put in as its own words."""
    params = dict(error.params)
    for key, value in error.params.items():
        nested = error.params.get(f"{key}_params")
        if isinstance(value, str) and isinstance(nested, dict):
            params[key] = text(value, nested, lang, extra)
    return text(error.code, params, lang, extra)
