"""A whole Scotland Yard game against Mister X played by the table, on the real touchscreen app
under Xvfb: set up on the touchscreen ("Mister X: Table: hard"), no seat and no phone for him, the
screen says the table is thinking, the power is cut (SIGKILL) while he thinks and after the restart
he makes the move his game's seed gives; the detectives move (the first round by taps on the
touchscreen, then on their phones, open all game long) until he is caught or escapes, and the
touchscreen shows him exactly on the reveal fields.

Rulebook (German basic game, "Mister X taucht auf"): "Mister X muss sich in regelmäßigen Abständen
zeigen, und zwar nach seinem 3., 8., 13., 18. und 24. Zug." — after his 3rd, 8th, 13th, 18th and
24th move (travel-log fields, not rounds: a double move writes two fields). Screenshots:
artifacts/screenshots/ui-sy_table_x_*.png.

Speech is switched on in Settings first: nobody moves his pawn or lays his ticket, so the table
says each move of his in public words ("Mister X travels by bus"), his reveals and the end — through
the stand-in voice, which records exactly what the public views of the saved game give."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from driver import AppProcess
from looking import scan_seat, ui_text
from phones import SyncPhone
from spoken import expected_speech, states_of

from companion.app.i18n import text
from companion.app.savedgame import load_game
from companion.app.store import Store
from companion.games.scotland_yard import ai
from companion.games.scotland_yard.ai_maps import maps
from companion.games.scotland_yard.board import base_board
from companion.games.scotland_yard.model import REVEALS, SYState, XDouble, XMove

LEVEL = "hard"
# He thinks long in the first run (to be seen, and killed, while thinking), briefly after the
# restart; a CPU budget no decision reaches, so his move is exactly what his seed gives.
FIRST_RUN = "ai_thinking = 30\nai_cpu_budget = 60\n"
THEN = "ai_thinking = 0.05\nai_cpu_budget = 60\n"
DIST = maps(base_board()).dist


def saved_state(app: AppProcess) -> tuple[SYState, int]:
    """The open game's state and seed, from the saved game (test side, while the app is down)."""
    with Store(app.data / "companion.sqlite3") as store:
        game_id = store.current()
        assert game_id is not None
        game = load_game(store, game_id).game
    state: SYState = game.state
    return state, game.seed


def detective_move(snapshot: dict[str, Any]) -> dict[str, Any]:
    """What a detective who knows only what his phone shows does: his first figure still to move
    lands on a station where Mister X can be, else steps towards the nearest of them."""
    moves = snapshot["legal"]["moves"]
    candidates = snapshot["view"]["tracker"]["candidates"]
    figure = sorted(moves)[0]
    options = [(line, s) for line, stations in moves[figure].items() for s in stations]
    line, station = min(options, key=lambda o: (min(DIST[o[1]][c] for c in candidates), o[0], o[1]))
    return {"kind": "sy.move", "figure": figure, "ticket": line, "station": station}


def check_log(app: AppProcess, snapshot: dict[str, Any]) -> dict[int, int]:
    """The touchscreen's travel log against the public view: a station on every reveal field he
    has written, a ticket everywhere else; returns the stations shown."""
    view = snapshot["view"]
    state = app.wait_seq(snapshot["seq"])
    shown: dict[int, int] = {}
    for entry in view["log"]:
        field, cell = entry["field"], state["tids"][f"sy.log.{entry['field']}.main"]["text"]
        if field in REVEALS:
            assert cell.isdigit() and int(cell) == entry["station"], (field, cell, entry)
            shown[field] = int(cell)
        else:
            assert cell == ui_text(f"ui.sy.short.{entry['ticket']}"), (field, cell, entry)
    last = view["log"][-1] if view["log"] else None
    where = state["tids"]["sy.shown"]["text"]
    reveal = view["last_reveal"]
    if reveal and reveal["now"]:  # announced while the detectives of his reveal's round move (a double move's too)
        assert last is not None and reveal["field"] == max(shown), (reveal, shown)
        assert where == ui_text("sy.reveal_now", station=reveal["station"], field=reveal["field"]), where
    elif shown:
        field = max(shown)
        assert where == ui_text("ui.sy.last_seen", station=shown[field], field=field), where
    else:
        assert where == ui_text("ui.sy.not_seen"), where
    return shown


def after_his_move(phone: SyncPhone, seq: int) -> dict[str, Any]:
    """A detective phone's snapshot from ``seq`` on, once it is not Mister X's turn any more."""
    snapshot = phone.state(seq)
    while snapshot["view"]["phase"] == "x":
        snapshot = phone.state(snapshot["seq"] + 1)
    return snapshot


def test_a_whole_game_against_mister_x_played_by_the_table(display: str, tmp_path: Path) -> None:
    assert sorted(REVEALS) == [3, 8, 13, 18, 24]  # the rulebook's reveal moves, as the game knows them
    app = AppProcess(display, tmp_path, extra_config=FIRST_RUN)
    app.start()
    phones: dict[str, SyncPhone] = {}
    try:
        # Speech on, and a little softer: each change says so, at its volume.
        app.tap("start.settings")
        app.wait_screen("settings")
        app.tap("settings.speech.on")
        app.tap("settings.volume.60")
        check = ui_text("speech.check")
        said = app.wait_said(lambda s: len(s) == 2, what="the speaker check twice")
        assert [(s["text"], s["lang"], s["volume"]) for s in said] == [(check, "en", 80), (check, "en", 60)]
        app.screenshot("sy_table_x_settings")
        app.tap("settings.back")
        app.tap("start.new")
        app.wait_screen("new")
        app.tap("new.scotland_yard")
        app.tap(f"setup.sy.mister_x.{LEVEL}")
        app.tap("setup.sy.detectives.2")
        app.tap("setup.sy.tracker.on")
        phones_note = ui_text("ui.sy.setup.phones_table")  # nobody needs a phone now
        app.wait(lambda s: s["tids"]["setup.sy.phones"]["text"] == phones_note, what="the table playing him")
        app.screenshot("sy_table_x_setup")
        app.tap("new.start")
        app.wait_screen("game")

        # No seat for him: the phones screen offers the detectives' codes, never Mister X's. Both
        # detectives scan theirs; their phones stay open all game long.
        app.tap("game.seats")
        seats = app.wait_screen("seats")
        assert not any(t.endswith(".mrx") for t in seats["tids"]), sorted(seats["tids"])
        urls = {}
        for seat in ("d1", "d2"):
            urls[seat], phones[seat] = scan_seat(app, seat, f"sy_table_x_qr_{seat}")
        app.tap("seats.back")
        app.wait_screen("game")

        # The start cards: the detectives' shown, his drawn in secret; then the table thinks.
        app.tap("sy.draw_start")
        thinking = app.wait(lambda s: "sy.thinking" in s["tids"], what="the table thinking for Mister X")
        assert thinking["tids"]["sy.thinking"]["text"] == ui_text("ui.sy.table_thinking", level=text("sy.ai.hard"))
        assert "sy.x_no_phone" not in thinking["tids"] and "sy.link_x" not in thinking["tids"]
        assert any(ui_text("ui.sy.status.x_table") in t for t in thinking["texts"]), thinking["texts"]
        assert thinking["tids"]["sy.x_by_table"]["text"] == ui_text("ui.sy.x_by_table", level=text("sy.ai.hard"))
        app.screenshot("sy_table_x_thinking")

        # The power is cut while he thinks; his move was never made.
        app.kill()
        waiting, seed = saved_state(app)
        assert waiting.phase == "x" and not waiting.route
        expected = ai.choose(waiting, LEVEL, seed, cpu_budget=None)
        app.config.write_text(app.config.read_text().replace(FIRST_RUN, THEN))
        app.start()
        for seat, old in list(phones.items()):  # the phones come back by themselves (same device)
            old.close()
            phones[seat] = SyncPhone(urls[seat], device=old.device)
            assert phones[seat].connect()["type"] == "welcome"
        phone, other = phones["d1"], phones["d2"]
        snapshot = after_his_move(phone, 0)  # he moves, once the app is back
        first = snapshot["view"]["log"]
        if isinstance(expected, XMove):
            assert [(f["field"], f["ticket"]) for f in first] == [(1, expected.ticket)]
        else:
            assert isinstance(expected, XDouble)
            assert [f["ticket"] for f in first] == [expected.first.ticket, expected.second.ticket]

        # The detectives play until the end (the first round tapped on the touchscreen, then on
        # their phones); the touchscreen's log is checked after every move of his.
        tapped = 0
        fields = checked = len(first)
        shown = check_log(app, snapshot)
        reveal_shot = False
        while snapshot["view"]["phase"] == "detectives":
            seq = snapshot["seq"]
            mover = phone if snapshot["legal"].get("moves") else other  # d1 moves D1 and the bobbies, d2 D2
            move = detective_move(snapshot if mover is phone else other.state(seq))
            if tapped < 4:  # the first round by hand on the touchscreen: a figure, then its destination
                app.wait_seq(seq)
                app.tap(f"sy.figure.{move['figure']}")
                app.tap(f"sy.dest.{move['ticket']}.{move['station']}")
                tapped += 1
            else:
                reply = mover.intent(move, seq)
                assert reply["type"] == "ack", reply
            snapshot = after_his_move(phone, seq + 1)
            if len(snapshot["view"]["log"]) > fields and snapshot["view"]["phase"] != "over":  # he moved
                fields = len(snapshot["view"]["log"])
                now = check_log(app, snapshot)
                checked = fields
                assert now.items() >= shown.items()  # a reveal stays in the log
                if len(now) > len(shown) and not reveal_shot:
                    app.screenshot("sy_table_x_reveal")
                    reveal_shot = True
                shown = now

        # The end: the whole route for everyone, the reveals where they were shown.
        view = snapshot["view"]
        assert view["end"]["reason"] in ("captured", "x_escaped", "x_trapped", "detectives_stuck"), view["end"]
        end = app.wait_screen("end")
        assert end["tids"]["end.headline"]["text"] == text(f"sy.{view['end']['reason']}")
        route = {f["field"]: f["station"] for f in view["log"]}
        for field, station in route.items():
            assert end["tids"][f"sy.log.{field}.main"]["text"] == str(station)
        # Shown on every reveal field he wrote while the game went on, at the station he was on.
        assert shown == {f: s for f, s in route.items() if f in REVEALS and f <= checked}
        assert 3 in shown, "a whole game reaches his first reveal"
        final = expected.station if isinstance(expected, XMove) else expected.second.station
        assert route[len(first)] == final  # the move his seed gave, made after the restart
        app.screenshot("sy_table_x_end")
        for seat, p in phones.items():  # the detectives' phones never received his secret part
            assert p.phone.received and '"secret"' not in "".join(p.phone.received), seat
        # What the table said: each of his moves, each reveal, the end — exactly what the public
        # views of the saved game give, nothing more (his stations only where a reveal shows them).
        with Store(app.data / "companion.sqlite3") as store:
            game_id = store.current()
            assert game_id is not None
            saved = load_game(store, game_id).game
        expected = expected_speech(saved, states_of(saved), "en")
        said = app.wait_said(lambda s: len(s) >= 2 + len(expected), what="every announcement")
        assert [s["text"] for s in said[2:]] == expected
        assert all((s["lang"], s["volume"]) == ("en", 60) for s in said[2:])
        moves = [s["text"] for s in said if s["text"].startswith(("Mister X travels", "Mister X makes a double"))]
        doubles = sum(1 for f in view["log"] if f["double"])
        assert len(moves) == len(view["log"]) - doubles // 2  # one sentence a move (a double move: one)
        assert any(s["text"] == f"Mister X shows himself at station {route[3]}." for s in said)
    finally:
        for p in phones.values():
            p.close()
        app.stop()
