"""Setup, the museum layouts, the exhibition's known answer, corrections, views, legal options, texts."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest
from myk_helpers import RULES, do, new_game, play, refused

from companion.app.i18n import package_texts
from companion.core import DEBUG, TABLE, Audience, Forbidden, MalformedInput, SetupError, intent_codec
from companion.games.mykerinos import HARDWARE, PREFERENCES
from companion.games.mykerinos import intents as it
from companion.games.mykerinos.events import EVENTS
from companion.games.mykerinos.museum import PATRONS, exhibition, layouts, legal_rooms
from companion.games.mykerinos.state import MykState

PACKAGE = Path(__file__).resolve().parents[3] / "companion" / "games" / "mykerinos"


def started(config: dict[str, Any], start: str = "blue", patrons: tuple[str, ...] = PATRONS) -> Any:
    game = new_game(config)
    do(game, it.ChooseStartPlayer(start))
    do(game, it.EnterPatrons(patrons))
    return game


# --- the exhibition --------------------------------------------------------------------------------
@pytest.mark.parametrize("layout", ["line4", "ring5"])
def test_rulebook_exhibition_example_scores_29_plus_5(layout: str) -> None:
    # Blue: 2 Lord Lemon (3-room), 1 Mrs. Blackmore (3-room), 3 Sir Brown (5-room),
    # 2 Colonel Tangerine (2-room), 1 Lady Violet (no room): 6 + 3 + 15 + 4 + 1 = 29, one set: +5.
    patrons = ("lady_violet", "lord_lemon", "colonel_tangerine", "sir_brown", "mrs_blackmore")
    museum = {"2:3": "blue", "5:3": "blue", "4:5": "blue", "3-4:2": "blue", "1:3": "red", "1-2:2": "red"}
    held = (1, 2, 3, 1, 2)  # PATRONS order: violet, lemon, brown, blackmore, tangerine
    result = exhibition(layouts()[layout], patrons, museum, "blue", held)
    assert result.wings == (1, 6, 4, 15, 3)
    assert (sum(result.wings), result.sets, result.total) == (29, 5, 34)


def test_exhibition_example_through_a_game_and_its_projection() -> None:
    patrons = ("lady_violet", "lord_lemon", "colonel_tangerine", "sir_brown", "mrs_blackmore")
    game = started({"seats": ["blue", "red", "green"]}, patrons=patrons)
    for room in ("2:3", "5:3", "4:5", "3-4:2"):
        do(game, it.CorrectMuseum(room, "blue"))
    for patron, n in zip(PATRONS, (1, 2, 3, 1, 2), strict=True):
        do(game, it.CorrectCards("blue", patron, n))
    view = RULES.view(game.state, TABLE)
    assert view["players"]["blue"]["projection"] == 34
    assert view["players"]["red"]["projection"] == 0


def test_best_room_only_and_sets() -> None:
    line = layouts()["line4"]
    # several rooms in one wing: only the best counts (not 5 + 3 + 2)
    museum = {"1:3": "blue", "1:5": "blue", "1-2:2": "blue"}
    ex = exhibition(line, PATRONS, museum, "blue", (2, 1, 0, 0, 0))
    assert ex.wings == (10, 2, 0, 0, 0) and ex.sets == 0
    # two complete sets
    ex = exhibition(line, PATRONS, {}, "red", (2, 3, 2, 2, 4))
    assert ex.wings == (2, 3, 2, 2, 4) and ex.sets == 10


# --- layouts -------------------------------------------------------------------------------------
def test_both_layouts_as_data() -> None:
    line, ring = layouts()["line4"], layouts()["ring5"]
    assert [r.id for r in line.rooms if r.value == 2] == ["1-2:2", "2-3:2", "3-4:2", "4-5:2"]
    assert [r.id for r in ring.rooms if r.value == 2] == ["1-2:2", "2-3:2", "3-4:2", "4-5:2", "5-1:2"]
    assert len(line.rooms) == 14 and len(ring.rooms) == 15
    assert ring.by_id["5-1:2"].wings == (5, 1)
    # the 5-room of a wing is adjacent to its 3-room and to the 2-rooms on either side
    assert set(line.by_id["1:5"].adjacent) == {"1:3", "1-2:2"}
    assert set(ring.by_id["1:5"].adjacent) == {"1:3", "1-2:2", "5-1:2"}
    assert set(line.by_id["3:5"].adjacent) == {"3:3", "2-3:2", "3-4:2"}


@pytest.mark.parametrize("layout", ["line4", "ring5"])
def test_legal_rooms(layout: str) -> None:
    museum_layout = layouts()[layout]
    free = legal_rooms(museum_layout, {}, "blue")
    assert all(museum_layout.by_id[r].value in (2, 3) for r in free)
    assert len(free) == (9 if layout == "line4" else 10)
    # a 5-room opens next to one's own 2- or 3-room, never next to someone else's
    assert "3:5" in legal_rooms(museum_layout, {"3:3": "blue"}, "blue")
    assert "3:5" not in legal_rooms(museum_layout, {"3:3": "red"}, "blue")
    assert {"2:5", "3:5"} <= set(legal_rooms(museum_layout, {"2-3:2": "blue"}, "blue"))
    # a 5-room does not open another 5-room
    rooms = legal_rooms(museum_layout, {"2:5": "blue"}, "blue")
    assert "1:5" not in rooms and "3:5" not in rooms and "2:5" not in rooms
    if layout == "ring5":
        assert {"1:5", "5:5"} <= set(legal_rooms(museum_layout, {"5-1:2": "blue"}, "blue"))
    else:
        assert "1:5" not in legal_rooms(museum_layout, {"4-5:2": "blue"}, "blue")


def test_ring_layout_game_offers_the_fifth_two_room() -> None:
    ring = started({"seats": ["blue", "red", "green"], "layout": "ring5"})
    line = started({"seats": ["blue", "red", "green"]})
    for game in (ring, line):
        play(game, "blue start", "red pass", "green pass", "blue pass", "counts blue=1")
    rooms = next(o for o in RULES.legal(ring.state, TABLE) if o["kind"] == "myk.museum")["rooms"]
    assert "5-1:2" in rooms
    rooms = next(o for o in RULES.legal(line.state, TABLE) if o["kind"] == "myk.museum")["rooms"]
    assert "5-1:2" not in rooms
    assert refused(line, "blue museum 5-1:2") == "myk.unknown_room"
    play(ring, "blue museum 5-1:2")
    assert dict(ring.state.museum) == {"5-1:2": "blue"}


# --- setup ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "config, code",
    [
        ({}, "myk.setup.seats"),
        ({"seats": ["blue"]}, "myk.setup.seats"),
        ({"seats": ["blue", "blue"]}, "myk.setup.seats"),
        ({"seats": ["blue", "pink"]}, "myk.setup.seats"),
        ({"seats": ["blue", "red", "green", "white", "blue"]}, "myk.setup.seats"),
        ({"seats": ["blue", "red"], "layout": "star"}, "myk.setup.layout"),
        ({"seats": ["blue", "red"], "neutral": "red"}, "myk.setup.neutral"),
        ({"seats": ["blue", "red", "green"], "neutral": "white"}, "myk.setup.neutral_2p"),
        ({"seats": ["blue", "red"], "colours": 3}, "myk.setup.unknown_option"),
    ],
)
def test_bad_setup(config: dict[str, Any], code: str) -> None:
    with pytest.raises(SetupError) as info:
        RULES.setup(config)
    assert info.value.code == code


def test_setup_state_and_the_setup_steps() -> None:
    game = new_game({"seats": ["red", "white", "blue", "green"]})
    state: MykState = game.state
    assert state.seats == ("red", "white", "blue", "green") and state.neutral is None
    assert state.general == (25, 25, 25, 25) and state.phase == "setup"
    assert {o["kind"] for o in RULES.legal(state, TABLE)} == {
        "myk.draw_start_player",
        "myk.choose_start_player",
        "myk.draw_patrons",
        "myk.enter_patrons",
        "myk.set_layout",
    }
    assert RULES.legal(state, Audience.of_seat("red")) == []
    with pytest.raises(Forbidden) as info:
        game.decide(it.DrawStartPlayer(), Audience.of_seat("red"), game.seq)
    assert info.value.code == "myk.table_only"
    assert refused(game, "table:red start") == "myk.wrong_phase"
    do(game, it.EnterPatrons(tuple(reversed(PATRONS))))
    with pytest.raises(Exception) as exc:
        game.decide(it.EnterPatrons(PATRONS), TABLE, game.seq)
    assert getattr(exc.value, "code", "") == "myk.already_set"
    do(game, it.ChooseStartPlayer("blue"))
    state = game.state
    assert state.patrons == tuple(reversed(PATRONS)) and state.season == 1
    assert state.turn is not None and state.turn.seat == "blue"
    assert state.supply == (8, 8, 8, 8) and state.general == (17, 17, 17, 17)
    bad = new_game({"seats": ["blue", "red", "green"]})
    with pytest.raises(Exception) as exc:
        bad.decide(it.EnterPatrons(("lady_violet",) * 5), TABLE, bad.seq)
    assert getattr(exc.value, "code", "") == "myk.bad_patron_order"


# --- actors --------------------------------------------------------------------------------------
def test_seats_act_only_for_themselves_and_the_table_for_anyone() -> None:
    game = started({"seats": ["blue", "red", "green"]})
    with pytest.raises(Forbidden) as info:
        game.decide(it.Excavate("blue", "start"), Audience.of_seat("red"), game.seq)
    assert info.value.code == "myk.not_your_seat"
    assert refused(game, "table:pink start") == "myk.unknown_seat"
    play(game, "table:blue start")
    with pytest.raises(Forbidden):
        game.decide(it.ZoneCounts(()), Audience.of_seat("red"), game.seq)
    with pytest.raises(Forbidden):
        game.decide(it.CorrectScore("red", 2), Audience.of_seat("red"), game.seq)


# --- corrections ---------------------------------------------------------------------------------
def test_corrections_are_recorded_and_keep_every_archaeologist() -> None:
    game = started({"seats": ["blue", "red"]})
    do(game, it.CorrectScore("red", 3))
    do(game, it.CorrectArchaeologists("blue", "supply", "general", 2))
    do(game, it.CorrectArchaeologists("green", "general", "supply", 1, "red"))
    do(game, it.CorrectMuseum("1:3", "red"))
    do(game, it.CorrectMuseum("1:3", "blue"))
    do(game, it.CorrectCards("red", None, 1))
    state: MykState = game.state
    assert state.score == (0, 3)
    assert state.supply == (9, 11) and state.neutral_supply == (4, 5)
    assert dict(state.museum) == {"1:3": "blue"}
    assert state.general == (15, 14, 16)
    assert state.blank == (0, 1)
    assert [n.kind for n in state.corrections] == [
        "myk.score_corrected",
        "myk.archaeologists_moved",
        "myk.archaeologists_moved",
        "myk.museum_corrected",
        "myk.museum_corrected",
        "myk.cards_corrected",
    ]
    assert RULES.view(state, TABLE)["corrections"][1] == [1, "myk.archaeologists_moved", "blue", "2 supply>general"]
    for intent, code in [
        (it.CorrectScore("red", 0), "myk.zero_correction"),
        (it.CorrectScore("blue", -1), "myk.negative"),
        (it.CorrectArchaeologists("blue", "board", "general", 1), "myk.not_enough_there"),
        (it.CorrectArchaeologists("green", "general", "supply", 1), "myk.holder_needed"),
        (it.CorrectArchaeologists("blue", "general", "supply", 1, "red"), "myk.holder_wrong"),
        (it.CorrectArchaeologists("white", "general", "board", 1), "myk.unknown_colour"),
        (it.CorrectCards("blue", None, 1), "myk.blank_taken"),
        (it.CorrectCards("blue", "sir_brown", -1), "myk.negative"),
        (it.CorrectMuseum("1:3", "green"), "myk.unknown_colour"),
        (it.CorrectMuseum("9:9", "blue"), "myk.unknown_room"),
        (it.CorrectMuseum("1:3", "blue"), "myk.zero_correction"),
    ]:
        with pytest.raises(Exception) as exc:
            game.decide(intent, TABLE, game.seq)
        assert getattr(exc.value, "code", "") == code, intent
    assert game.can_undo(TABLE) and not game.can_undo(Audience.of_seat("red"))


# --- views ---------------------------------------------------------------------------------------
def test_every_audience_explicitly() -> None:
    game = started({"seats": ["blue", "red"]})
    table = RULES.view(game.state, TABLE)
    seat = RULES.view(game.state, Audience.of_seat("blue"))
    debug = RULES.view(game.state, DEBUG)
    assert {k: v for k, v in seat.items() if k not in ("me", "to_act", "choices")} == table
    assert seat["me"] == "blue" and seat["to_act"] is True
    assert seat["choices"] == RULES.legal(game.state, Audience.of_seat("blue"))
    assert [c["kind"] for c in seat["choices"]] == ["myk.excavate", "myk.pass"]
    assert RULES.view(game.state, Audience.of_seat("red"))["to_act"] is False
    assert "state" in debug and "state" not in table
    with pytest.raises(Forbidden):
        RULES.view(game.state, Audience.of_seat("white"))
    with pytest.raises(Forbidden):
        RULES.legal(game.state, Audience.of_seat("white"))
    assert table["turn"] == {"seat": "blue", "step": "action", "final": False}
    assert table["players"]["blue"] == {
        "score": 0,
        "projection": 0,
        "supply": 11,
        "cards": {},
        "ready": {},
        "blank": 0,
        "neutral_supply": 4,
    }
    assert table["general"] == {"blue": 14, "red": 14, "green": 17}
    assert table["pass_track"] == [["green", 2]]
    json.dumps(table)


def test_legal_is_exactly_what_decide_accepts_for_excavation() -> None:
    game = started({"seats": ["blue", "red", "green"]})
    play(game, "blue start", "red start", "green start")
    options = next(o for o in RULES.legal(game.state, Audience.of_seat("blue")) if o["kind"] == "myk.excavate")
    assert options["options"] == [["start", None], ["extend", None]]
    for action in ("start", "extend"):
        for patron in (None, *PATRONS):
            ok = [action, patron] in options["options"]
            try:
                game.decide(it.Excavate("blue", action, patron), TABLE, game.seq)  # type: ignore[arg-type]
                accepted = True
            except Exception:
                accepted = False
            assert ok == accepted, (action, patron)


def test_intent_json_round_trip_from_a_phone() -> None:
    codec = intent_codec(RULES)
    raw = {"kind": "myk.take_parcel", "seat": "blue", "patron": None, "points": 5}
    assert codec.decode(raw) == it.TakeParcel("blue", None, 5)
    assert codec.encode(codec.decode(raw)) == raw
    raw2 = {"kind": "myk.zone_counts", "counts": [["blue", 2], ["red", 0]]}
    assert codec.decode(raw2) == it.ZoneCounts((("blue", 2), ("red", 0)))
    with pytest.raises(MalformedInput):
        codec.decode({"kind": "myk.excavate", "seat": "blue", "action": "dig"})


# --- texts ---------------------------------------------------------------------------------------
def _codes_in_package() -> set[str]:
    """Every ``myk.*`` string literal in the package that is not an event or intent kind (nor a hardware
    action or a preference key)."""
    kinds = set(EVENTS.kinds) | set(it.INTENTS.kinds) | set(HARDWARE.actions) | {str(p["key"]) for p in PREFERENCES}
    codes: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        # the fixed parts of f-strings (f"myk.colour.{seat}") are prefixes, not codes
        parts = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and id(node) not in parts
                and isinstance(node.value, str)
                and node.value.startswith("myk.")
                and not node.value.endswith(".")  # a prefix (removeprefix("myk.")), not a code
                and node.value not in kinds
                and " " not in node.value
            ):
                codes.add(node.value)
    return codes


def test_every_error_code_has_english_and_german_text() -> None:
    texts = package_texts("companion.games.mykerinos")
    codes = _codes_in_package()
    assert len(codes) > 40
    assert {"myk.count_too_high", "myk.neutral_step", "myk.room_not_adjacent", "myk.over"} <= codes
    for lang in ("en", "de"):
        missing = sorted(c for c in codes if c not in texts[lang])
        assert missing == [], (lang, missing)
    assert set(texts["en"]) == set(texts["de"])


def test_an_empty_personal_supply_leaves_only_passing() -> None:
    game = started({"seats": ["blue", "red", "green"]})
    play(game, "blue start", "red pass", "green pass", "blue pass", "counts blue=1", "blue parcel violet 2")
    assert game.state.season == 2
    do(game, it.CorrectCards("blue", "sir_brown", 1))
    do(game, it.CorrectArchaeologists("blue", "supply", "general", 21))
    assert game.state.supply[0] == 0 and game.state.general[0] > 0
    assert [o["kind"] for o in RULES.legal(game.state, Audience.of_seat("blue"))] == ["myk.pass"]
    assert refused(game, "blue start violet") == "myk.empty_supply"
    assert refused(game, "blue brown 1:3") == "myk.empty_supply"
    do(game, it.CorrectArchaeologists("blue", "general", "supply", 1))
    kinds = [o["kind"] for o in RULES.legal(game.state, Audience.of_seat("blue"))]
    assert kinds == ["myk.excavate", "myk.sir_brown", "myk.pass"]
    options = RULES.legal(game.state, TABLE)[0]["options"]
    assert options == [["start", None], ["start", "lady_violet"]]  # Lady Violet's extra one cannot extend:
    # there is no excavation of blue's on the board yet
