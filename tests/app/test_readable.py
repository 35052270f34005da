"""Games in words: every game's summary, played through random legal games, speaks only with
codes both catalogues have; intents typed as ``kind key=value`` read back exactly as the codec
wrote them; bad words are refused with a coded error."""

from __future__ import annotations

import dataclasses
import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from drivers import DRIVERS

from companion.app import readable
from companion.app.i18n import read_catalogue
from companion.core import TABLE, Audience, Game, MalformedInput
from companion.core.game import intent_codec
from companion.core.jsonvalue import JSON, JSONObject
from companion.games import entry, get_rules, get_summary

GAMES_PLAYED = ("scotland_yard", "victorian_masterminds", "mykerinos")


def catalogue(rules: str, lang: str) -> dict[str, str]:
    return {**read_catalogue("companion.app", lang), **read_catalogue(entry(rules).package, lang)}


def words(intent: JSONObject) -> list[str]:
    """An intent as a person would type it: the inverse of readable.parse_intent."""

    def value(v: JSON) -> str:
        if v is None:
            return "null"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, list):
            if all(isinstance(x, list) for x in v):
                return ",".join(":".join(value(y) for y in x) for x in v if isinstance(x, list))
            return ",".join(value(x) for x in v)
        return str(v)

    out = [str(intent["kind"])]

    def walk(obj: JSONObject, prefix: str) -> None:
        for k, v in obj.items():
            if k == "kind" and not prefix:
                continue
            if isinstance(v, dict):
                walk(v, f"{prefix}{k}.")
            else:
                out.append(f"{prefix}{k}={value(v)}")

    walk(intent, "")
    return out


def audiences(game: Game[Any]) -> list[Audience]:
    return [TABLE, *(Audience.of_seat(s) for s in game.rules.seats(game.state))]


@pytest.mark.parametrize("rules", GAMES_PLAYED)
def test_random_games_in_words_use_only_known_codes_and_typed_intents_read_back(rules: str) -> None:
    """Every line a game's summary makes for every screen, after every action of random legal
    games, has its words in English and German; every intent the players sent survives being
    typed as key=value words."""
    name, config, choose = DRIVERS[rules]
    summary = get_summary(name)
    codec = intent_codec(get_rules(name))
    texts = {lang: catalogue(name, lang) for lang in ("en", "de")}
    used: set[str] = set()
    kinds_done: set[str] = set()
    for seed in range(2):
        game: Game[Any] = Game(get_rules(name), config, seed)
        rng = random.Random(seed)
        for step in range(600):
            # Every screen now and then, one screen (in turn) after every action: enough to meet
            # every phase, and quick.
            everyone = audiences(game)
            for audience in everyone if step % 25 == 0 else [everyone[step % len(everyone)]]:
                snapshot = game.snapshot(audience)
                view = snapshot["view"]
                assert isinstance(view, dict)
                lines = summary.overview(view)
                used |= readable.codes(lines)
                for kind, choices in summary.choices(snapshot["legal"]):
                    assert kind in codec.kinds, kind
                    assert readable.shape(codec, kind).startswith(kind)
                    assert isinstance(choices, dict)
                for lang in ("en", "de"):
                    rendered = readable.lines(lines, lang)
                    assert "{" not in rendered, rendered
            if game.outcome() is not None:
                break
            choice = choose(game, rng)
            if choice is None:
                break
            intent, actor = choice
            encoded = codec.encode(intent)
            typed = words(encoded)
            assert codec.decode(readable.parse_intent(codec, typed[0], typed[1:])) == intent, typed
            if not intent.kind.startswith("core."):  # undo is the application's, not the game's
                used |= readable.codes([summary.did(encoded)])
            kinds_done.add(intent.kind)
            game.commit(game.decide(intent, actor, game.seq))
        assert game.outcome() is not None, f"seed {seed}: the random game did not end"
        used |= readable.codes(summary.overview(game.rules.view(game.state, TABLE)))
        for p in summary.players(game.rules.view(game.state, TABLE)):
            used |= readable.codes([p.label] + ([p.role] if p.role else []))
    assert len(kinds_done) >= 3
    for lang, table in texts.items():
        missing = sorted(code for code in used if code not in table)
        assert not missing, f"{lang}: {missing}"
    for key in summary.setup_keys:
        for table in texts.values():
            assert f"{summary.prefix}.setup_key.{key.key}" in table


def test_typed_values_follow_the_intent_field_types() -> None:
    codec = intent_codec(get_rules("scotland_yard"))
    assert readable.parse_intent(codec, "sy.move", ["figure=D1", "ticket=taxi", "station=69"]) == {
        "kind": "sy.move",
        "figure": "D1",
        "ticket": "taxi",
        "station": 69,
    }
    double = readable.parse_intent(
        codec,
        "sy.x_double",
        ["first.ticket=bus", "first.station=13", "second.ticket=black", "second.station=14"],
    )
    assert double["first"] == {"ticket": "bus", "station": 13}
    assert readable.parse_intent(codec, "sy.set_tracker", ["on=yes"])["on"] is True
    placed = readable.parse_intent(codec, "sy.place_detectives", ["stations=D1:13,D2:26"])
    assert placed["stations"] == [["D1", 13], ["D2", 26]]
    as_json = readable.parse_intent(codec, "sy.place_detectives", ['stations=[["D1", 13]]'])
    assert as_json["stations"] == [["D1", 13]]
    myk = intent_codec(get_rules("mykerinos"))
    assert readable.parse_intent(myk, "myk.take_parcel", ["seat=blue", "patron=none", "points=5"])["patron"] is None


@pytest.mark.parametrize(
    ("kind", "args", "code"),
    [
        ("sy.move", ["figure"], "cli.not_key_value"),
        ("sy.move", ["colour=red"], "cli.unknown_key"),
        ("sy.move", ["station=sixty"], "cli.bad_value"),
        ("sy.move", ["ticket=boat"], "cli.bad_value"),
        ("sy.set_tracker", ["on=maybe"], "cli.bad_value"),
        ("sy.x_double", ["first.colour=red"], "cli.unknown_key"),
        ("sy.x_double", ["station.first=1"], "cli.unknown_key"),
        ("sy.place_detectives", ["stations=D1"], "cli.bad_value"),
        ("sy.teleport", [], "cli.unknown_kind"),
    ],
)
def test_bad_words_are_refused_with_a_code(kind: str, args: list[str], code: str) -> None:
    codec = intent_codec(get_rules("scotland_yard"))
    with pytest.raises(MalformedInput) as caught:
        readable.parse_intent(codec, kind, args)
    assert caught.value.code == code


def test_a_mistyped_word_gets_the_nearest_ones() -> None:
    """ "did you mean …?" (difflib): the kinds, keys and setup keys spelt most like a mistyped one."""
    codec = intent_codec(get_rules("scotland_yard"))
    with pytest.raises(MalformedInput) as caught:
        readable.parse_intent(codec, "sy.mvoe", [])
    assert caught.value.params["hint_params"] == {"choices": "sy.move, sy.x_move"}  # the nearest first
    with pytest.raises(MalformedInput) as caught:
        readable.parse_intent(codec, "sy.move", ["figur=D1"])
    assert caught.value.params["hint_params"] == {"choices": "figure"}
    with pytest.raises(MalformedInput) as caught:
        readable.parse_intent(codec, "sy.move", ["colour=red"])
    assert caught.value.params["hint"] == ""  # nothing near: no guess
    with pytest.raises(MalformedInput) as caught:
        readable.parse_setup(get_summary("scotland_yard"), ["detective=Dora"])
    # the nearest first; the table's detectives' keys are spelt like it too
    assert caught.value.params["hint_params"] == {"choices": "detectives, detectives_ai, table_detectives"}


def test_setup_words_and_missing_keys() -> None:
    sy = get_summary("scotland_yard")
    setup = readable.parse_setup(sy, ["detectives=Dora, Emil", "tracker=on", "mister_x=Xavier"])
    assert setup == {"detectives": ["Dora", "Emil"], "tracker": True, "mister_x": "Xavier"}
    assert [k.key for k in readable.missing_setup(sy, {"mister_x": "X"})] == ["detectives"]
    vm = get_summary("victorian_masterminds")
    assert [k.key for k in readable.missing_setup(vm, {})] == ["players", "secret_service_start"]
    assert readable.parse_setup(vm, ["secret_service_start=4"]) == {"secret_service_start": 4}
    with pytest.raises(MalformedInput) as caught:
        readable.parse_setup(vm, ["gunner_rule=<"])
    assert caught.value.code == "cli.bad_value"
    with pytest.raises(MalformedInput) as caught:
        readable.parse_setup(vm, ["players=[{"])
    assert caught.value.code == "cli.bad_value"
    with pytest.raises(MalformedInput) as caught:
        readable.parse_setup(sy, ["mr_x=Xavier"])
    assert caught.value.code == "cli.unknown_setup_key"


def test_every_setup_key_is_one_the_rules_know() -> None:
    """A documented key the rules refuse would be a trap: set every key to its example."""
    for name in GAMES_PLAYED:
        summary = get_summary(name)
        setup = readable.parse_setup(summary, [f"{k.key}={k.example}" for k in summary.setup_keys if k.example])
        if name == "mykerinos":
            setup["seats"] = ["blue", "red"]  # the neutral colour is for two players
        Game(get_rules(name), setup, 1)  # raises if a key or its example were wrong
        assert all(dataclasses.is_dataclass(k) for k in summary.setup_keys)


def test_every_setup_option_of_the_rules_is_offered() -> None:
    """The host page's forms and `companion new` list the summary's setup keys: an option the rules
    accept but no SetupKey names would be unreachable there (add it to the game's summary.py)."""
    from companion.games.scotland_yard.rules import OPTIONS as SY_OPTIONS
    from companion.games.victorian_masterminds.setup import OPTIONS as VM_OPTIONS

    for name, options in (("scotland_yard", SY_OPTIONS), ("victorian_masterminds", VM_OPTIONS)):
        assert {k.key for k in get_summary(name).setup_keys} == set(options), name
    assert {k.key for k in get_summary("mykerinos").setup_keys} == {"seats", "layout", "neutral", "names", "last_zone"}
