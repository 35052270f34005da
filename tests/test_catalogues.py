"""Every catalogue is complete in every language (the languages are the files of
``companion/app/messages/``): the same codes as English, each text a well-formed template using
exactly the parameters of its English text, no empty text and no text that is just its code; every
language names itself and brings a plural rule; and every text the code shows gets the parameters
it uses (a text that uses ``{x}`` where the caller passes no ``x`` would show ``{x}``).

How long a text may be is checked where it is shown: ``tests/ui/test_texts_fit.py`` (the Kivy
screens at 800×480) and ``tests/browser/test_phone_fit.py`` (the phone page at 360 px)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from companion.app.i18n import (
    LANGUAGES,
    PLURAL_CATEGORIES,
    TemplateError,
    package_texts,
    plural_rule,
    template_parts,
)
from companion.games import entry, game_names, get_summary

ROOT = Path(__file__).resolve().parents[1]
# Every package with a messages/ folder (the games, the app, the phone page, the touchscreen, ...).
PACKAGES = tuple(
    sorted(
        ".".join(folder.parent.relative_to(ROOT).parts)
        for base in ("companion", "ui", "hardware")
        for folder in (ROOT / base).rglob("messages")
        if folder.is_dir() and (folder / "en.json").exists()
    )
)
SETTINGS = "language."  # a language's name, plural rule and digit grouping: settings, not texts


def texts_of(package: str) -> dict[str, dict[str, str]]:
    """A package's texts by language, without the language settings."""
    return {
        lang: {c: t for c, t in texts.items() if not c.startswith(SETTINGS)}
        for lang, texts in package_texts(package).items()
    }


def folder(package: str) -> Path:
    return ROOT.joinpath(*package.split("."), "messages")


def test_the_languages_are_the_app_catalogues_and_include_the_four() -> None:
    assert {"companion.app", "companion.net", "ui", "hardware", "companion.games.mykerinos"} <= set(PACKAGES)
    assert LANGUAGES[0] == "en"
    assert {"en", "de", "fr", "es"} <= set(LANGUAGES)
    assert set(LANGUAGES) == {p.stem for p in folder("companion.app").glob("*.json")}


def test_a_games_words_live_in_its_own_package() -> None:
    """Everything about a game lives in its package, its screens' words too (the touchscreen's
    ``ui.<prefix>.*``, the phone's ``phone.<prefix>.*``, the host page's ``host.<prefix>.*``): no
    catalogue outside a game's package has a code with a game's prefix or name as one of its parts,
    and no game's catalogue has one of another game."""
    marks = {g: {get_summary(g).prefix, g} for g in game_names()}
    found = []
    for package in PACKAGES:
        own = next((g for g in marks if package == entry(g).package), None)
        others = set().union(*(m for g, m in marks.items() if g != own))
        found += [f"{package}: {code}" for code in texts_of(package)["en"] if others & set(code.split("."))]
    assert found == []
    assert {entry(g).package for g in ("scotland_yard", "mykerinos")} <= set(PACKAGES)  # the check saw them


@pytest.mark.parametrize("package", PACKAGES)
def test_every_language_has_every_code_of_english(package: str) -> None:
    present = {p.stem for p in folder(package).glob("*.json")}
    assert present == set(LANGUAGES), f"{package}: catalogues {sorted(present)}, languages {LANGUAGES}"
    texts = package_texts(package)
    for lang in LANGUAGES:
        raw = json.loads((folder(package) / f"{lang}.json").read_text("utf-8"))
        assert all(isinstance(v, str) for v in raw.values()), f"{package}/{lang}: a text that is not a string"
        missing = sorted(set(texts["en"]) - set(texts[lang]))
        extra = sorted(set(texts[lang]) - set(texts["en"]))
        assert (missing, extra) == ([], []), f"{package}/{lang}: missing {missing}, not in English {extra}"


@pytest.mark.parametrize("package", PACKAGES)
def test_every_text_is_a_template_with_the_parameters_of_its_english_text(package: str) -> None:
    texts = texts_of(package)
    problems = []
    for lang in LANGUAGES:
        for code, text in texts[lang].items():
            if not text.strip() or text.strip() == code:
                problems.append(f"{lang} {code}: empty or the raw code")
                continue
            try:
                names, _ = template_parts(text)
                english, _ = template_parts(texts["en"][code])
            except TemplateError as exc:
                problems.append(f"{lang} {code}: {exc}")
                continue
            if names != english:
                problems.append(f"{lang} {code}: parameters {sorted(names)}, English has {sorted(english)}")
    assert problems == []


def test_every_language_names_itself_and_has_a_plural_rule_and_digit_grouping() -> None:
    texts = package_texts("companion.app")
    names = set()
    for lang in LANGUAGES:
        own = texts[lang]
        names.add(own["language.name"])
        rule = plural_rule(own["language.plural"])  # raises for a malformed rule
        assert {rule(n) for n in range(200)} <= set(PLURAL_CATEGORIES)
        assert rule(1) in ("one", "other") and rule(100) in ("other", "many", "few")
        assert own["language.group_from"].isdigit() and len(own["language.group"]) <= 1
    assert len(names) == len(LANGUAGES)


def test_french_and_spanish_punctuation() -> None:
    """French puts a no-break space before : ; ! ? and inside « »; Spanish opens ¿ and ¡."""
    problems = []
    for package in PACKAGES:
        texts = texts_of(package)
        for code, text in texts.get("fr", {}).items():
            if re.search(r" [:;!?»]|« ", text):
                problems.append(f"fr {code}: {text!r}")
        for code, text in texts.get("es", {}).items():
            plain = re.sub(r"\{[^{}]*\}", "", text)
            if plain.count("?") > plain.count("¿") and plain.strip() != "?":
                problems.append(f"es {code}: {text!r}")
            if plain.count("!") > plain.count("¡"):
                problems.append(f"es {code}: {text!r}")
    assert problems == []


# Nouns that follow a count ("3 points"): "1 points", "1 agents" read as careless (issue 42), so a
# count before one of them takes the plural form of the language's plural rule.
COUNTED = {
    "en": r"points|games|stations|scientists|bolts|agents|archaeologists|buildings|parcels|tickets|moves",
    "de": r"Punkte|Partien|Stationen|Schrauben|Kupferbleche|Komplizen|Archäologen|Parzellen|Tickets|Züge",
}


@pytest.mark.parametrize("lang", sorted(COUNTED))
def test_a_count_before_a_noun_agrees_with_it(lang: str) -> None:
    bare = re.compile(r"\{(\w+)\} (?:" + COUNTED[lang] + r")\b")
    problems = [
        f"{package} {code}: {text!r}"
        for package in PACKAGES
        for code, text in texts_of(package).get(lang, {}).items()
        if bare.search(text)
    ]
    assert problems == []


# (language, package or None for every package, a word that must not appear, why) — the choices of
# docs/translations.md, read by native speakers: each was once in the catalogues.
SHUNNED = (
    ("fr", None, r"[Dd]éfai[rt]|défaite", "French undo is « Annuler » (« a été annulée »)"),
    ("fr", None, r"[Cc]arnet de route", "the French editions' travel log is the « tableau de parcours »"),
    ("es", None, r"[Rr]egistro de viaje", "the Spanish travel log is the « bloc de movimiento »"),
    ("es", "companion.games.mykerinos", r"\b[Pp]atr[oó]n(es)?\b", "a Mykerinos patron is a « mecenas »"),
    ("fr", None, r"vue de table|écran de table", "« la table »: « vue de la table », « l'écran de la table »"),
    ("es", None, r"vista de table|pantalla de mesa", "« la mesa »: « la pantalla de la mesa »"),
    ("fr", None, r"est allée? en|celui que c'est", "a move is said as French says it"),
    ("es", None, r"\bfue en\b", "a move is said as Spanish says it"),
    ("de", None, r"\b[Ss]chwarz", "the German rulebook's black ticket is the « Black-Ticket »"),
    ("de", None, r"zurück(nehm|genomm|zunehm)|[Nn]ehmt .* zurück", "German undo is « rückgängig machen »"),
    (
        "en",
        "companion.games.victorian_masterminds",
        r"\ba \{|\ba Engineer",
        "English: « the Engineer », never « a Engineer »",
    ),
)


@pytest.mark.parametrize("lang, package, word, why", SHUNNED, ids=[f"{s[0]}:{s[2]}" for s in SHUNNED])
def test_words_the_translations_chose_against_stay_out(lang: str, package: str | None, word: str, why: str) -> None:
    found = [
        f"{p} {code}: {text!r}"
        for p in PACKAGES
        if package in (None, p)
        for code, text in texts_of(p).get(lang, {}).items()
        if re.search(word, re.sub(r"\{[a-z_0-9]+", "{", text))  # the words, not the parameters' names
    ]
    assert found == [], why


def test_the_travel_log_and_the_stack_height_have_their_chosen_names() -> None:
    sy = texts_of("companion.games.scotland_yard")
    assert (sy["fr"]["phone.sy.log"], sy["es"]["phone.sy.log"]) == ("Tableau de parcours", "Bloc de movimiento")
    assert texts_of("companion.games.victorian_masterminds")["fr"]["phone.vm.height_short"] == "Hauteur"
    assert texts_of("ui")["fr"]["ui.undo"] == "Annuler"
    assert texts_of("ui")["de"]["ui.undo"] == "Rückgängig"


def test_no_text_shows_a_message_code() -> None:
    """A player never reads an intent's or a text's code ("the table sends vm.start" was shown on
    the host page and by the command line as a game's status)."""
    code = re.compile(r"\b(core|sy|vm|myk|ui|phone|link|host|hw)\.[a-z_]+")
    problems = [
        f"{package} {lang} {name}: {text!r}"
        for package in PACKAGES
        for lang, texts in texts_of(package).items()
        for name, text in texts.items()
        if code.search(re.sub(r"\{[^{}]*\}", "", text))
    ]
    assert problems == []


# -- every call that shows a text passes the parameters the text uses ------------------------------

JS_CALL = re.compile(r"""\bt\(\s*"([a-z][a-z0-9_.]*)"\s*(?:,\s*\{([^{}]*)\})?\s*\)""")


def python_calls() -> list[tuple[str, str, set[str]]]:
    """(where, code, parameter names) for every call whose first argument is a catalogue code and whose
    parameters are written out: keyword arguments, or a dict literal as the second argument."""
    found = []
    for base in ("companion", "ui", "hardware"):
        for path in (ROOT / base).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                first = node.args[0]
                if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                    continue
                if any(k.arg is None for k in node.keywords):
                    continue  # **params: not checkable here
                names = {k.arg for k in node.keywords if k.arg is not None}
                if len(node.args) > 1 and not isinstance(node.args[1], ast.Dict):
                    continue  # parameters computed elsewhere: not checkable here
                if len(node.args) > 1 and isinstance(node.args[1], ast.Dict):
                    keys = node.args[1].keys
                    if not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in keys):
                        continue
                    names |= {k.value for k in keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                found.append((where, first.value, names))
    return found


def js_calls() -> list[tuple[str, str, set[str]]]:
    found = []
    for path in (ROOT / "companion" / "net" / "static").rglob("*.js"):
        source = path.read_text("utf-8")
        for match in JS_CALL.finditer(source):
            body = match.group(2) or ""
            names = {part.split(":")[0].strip() for part in body.split(",") if part.strip()}
            where = f"{path.relative_to(ROOT)}:{source.count(chr(10), 0, match.start()) + 1}"
            found.append((where, match.group(1), names))
    return found


def test_every_shown_text_gets_the_parameters_it_uses() -> None:
    english: dict[str, str] = {}
    for package in PACKAGES:
        english.update(package_texts(package)["en"])
    calls = [c for c in python_calls() + js_calls() if c[1] in english]
    assert len({code for _, code, _ in calls}) > 300
    problems = []
    for where, code, names in calls:
        used, _ = template_parts(english[code])
        if used - names:
            problems.append(f"{where}: {code} uses {sorted(used - names)}, the call passes {sorted(names)}")
    assert problems == []
