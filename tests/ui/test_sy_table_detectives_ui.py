"""A whole Scotland Yard game in which the table plays detectives, on the real touchscreen app under
Xvfb: set up on the touchscreen (the table plays two of three detective seats and the bobbies, at
"normal"; one person plays detective 1, another Mister X on his phone), the table says each of its
moves as an instruction on the touchscreen and on every phone, a player moves the pawn and confirms
it — by Done on the touchscreen, Done on either phone, or simply by the next move anyone makes —
the power is cut while a pawn waits and after the restart the same instruction waits; the game is
played to its end.

Rulebook (German basic game): "Eine Runde besteht daraus, dass zuerst Mister X seinen Zug
durchführt und anschließend in beliebiger Reihenfolge alle Detektive und Bobbies." — the table's
figures and the player's detective move in any order within the detectives' half of the round;
"Die Bobbies werden im Verlauf des Spiels von allen Detektiven gemeinsam gezogen": with table
detectives, the bobbies are the table's too. Screenshots: artifacts/screenshots/ui-sy_yard_*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from driver import AppProcess
from looking import scan_seat, ui_text
from phones import SyncPhone

from companion.app.i18n import text
from companion.games.scotland_yard.ai_maps import maps
from companion.games.scotland_yard.board import base_board

# The table thinks long in the first run (its banner is seen), briefly after the restart.
FIRST_RUN = "ai_thinking = 3\nai_cpu_budget = 60\n"
THEN = "ai_thinking = 0.05\nai_cpu_budget = 60\n"
DIST = maps(base_board()).dist


def words(instruction: dict[str, Any]) -> str:
    """What every screen says for the table's move: "Move detective 2 by Taxi to 94"."""
    kind = "bobby" if instruction["bobby"] else "detective"
    by = text(f"sy.by.{instruction['ticket']}")
    return text(f"sy.instruction.{kind}", {"n": instruction["figure"][1:], "by": by, "station": instruction["station"]})


def x_move(snapshot: dict[str, Any]) -> dict[str, Any]:
    """Mister X runs: the single move farthest from every detective and bobby he can see."""
    view = snapshot["view"]
    others = [f["station"] for f in view["figures"] if f["station"]]
    options = [(t, s) for t, stations in snapshot["legal"]["x"]["single"].items() for s in stations]
    ticket, station = max(options, key=lambda o: (min(DIST[o[1]][d] for d in others), o[0] != "black", -o[1]))
    return {"kind": "sy.x_move", "ticket": ticket, "station": station}


def d1_move(snapshot: dict[str, Any]) -> dict[str, Any]:
    """Detective 1's player: onto a station Mister X can be at, else towards the nearest of them."""
    candidates = snapshot["view"]["tracker"]["candidates"]
    options = [(line, s) for line, stations in snapshot["legal"]["moves"]["D1"].items() for s in stations]
    line, station = min(options, key=lambda o: (min(DIST[o[1]][c] for c in candidates), o[0], o[1]))
    return {"kind": "sy.move", "figure": "D1", "ticket": line, "station": station}


def test_a_whole_game_with_the_tables_detectives(display: str, tmp_path: Path) -> None:
    app = AppProcess(display, tmp_path, extra_config=FIRST_RUN)
    app.start()
    phones: dict[str, SyncPhone] = {}
    urls: dict[str, str] = {}
    try:
        app.tap("start.new")
        app.wait_screen("new")
        app.tap("new.scotland_yard")
        app.tap("setup.sy.detectives_ai.normal")
        app.tap("setup.sy.detectives.3")
        app.tap("setup.sy.people.1")
        app.tap("setup.sy.tracker.on")
        setup = app.wait(lambda s: "setup.sy.name.1" in s["tids"], what="one name: the one person's seat")
        assert "setup.sy.name.2" not in setup["tids"] and "setup.sy.name.mrx" in setup["tids"]
        assert setup["tids"]["setup.sy.phones"]["text"] == ui_text("ui.sy.setup.phones_yard")
        app.type("setup.sy.name.1", "Ann")
        app.type("setup.sy.name.mrx", "Xavier")
        app.screenshot("sy_yard_setup")
        app.tap("new.start")
        app.wait_screen("game")

        # Phones for Mister X and detective 1; the table's seats have no code to scan.
        app.tap("game.seats")
        seats = app.wait_screen("seats")
        assert "seats.show.d1" in seats["tids"] and "seats.show.mrx" in seats["tids"]
        assert not any(t.endswith((".d2", ".d3")) for t in seats["tids"]), sorted(seats["tids"])
        for seat in ("mrx", "d1"):
            urls[seat], phones[seat] = scan_seat(app, seat, f"sy_yard_qr_{seat}")
        app.tap("seats.back")
        app.wait_screen("game")

        # The start cards, drawn on the touchscreen (his in secret: only his phone shows it); his first move.
        app.tap("sy.draw_start")
        x = phones["mrx"]
        snap = x.state()
        while "sy.x_move" not in snap["legal"]["intents"]:  # his card is drawn in secret with theirs
            snap = x.state(snap["seq"] + 1)
        assert snap["view"]["secret"]["station"]
        assert x.intent(x_move(snap), snap["seq"])["type"] == "ack"

        # The table thinks for its figures (3 s in this run): its banner, its rows "by the table".
        moving = ui_text("ui.sy.table_moving", level=text("sy.ai.normal"))
        shown = app.wait(lambda s: "sy.table_moving" in s["tids"], what="the table thinking for its detectives")
        assert shown["tids"]["sy.table_moving"]["text"] == moving
        assert ui_text("ui.sy.table_figure") in shown["texts"]
        assert "sy.figure.D1" in shown["tids"] and "sy.figure.D1.movable" in shown["tids"]  # the person's own
        assert "sy.figure.D2.movable" not in shown["tids"] and "sy.figure.B1.movable" not in shown["tids"]
        app.screenshot("sy_yard_thinking")

        ways = {"touchscreen": 0, "x_phone": 0, "d1_phone": 0, "next_move": 0}
        told = 0
        killed = False
        stale = 0  # detective 1's moves made at the moment the table made one of its own
        snap = x.state()
        for _ in range(600):
            view = snap["view"]
            if view["end"]:
                break
            ins = view["instruction"]
            if ins:
                told += 1
                # Every screen says it: the touchscreen, his phone (he sees the public move too).
                said = words(ins)
                state = app.wait(
                    lambda s, w=said: s["tids"].get("sy.instruction", {}).get("text") == w,
                    what=f"the instruction {said!r}",
                )
                assert "sy.confirm" in state["tids"] and "sy.table_moving" not in state["tids"]
                if told == 1:
                    app.screenshot("sy_yard_instruction")
                if told == 2 and not killed:  # the power is cut while the pawn waits
                    app.kill()
                    app.config.write_text(app.config.read_text().replace(FIRST_RUN, THEN))
                    app.start()
                    killed = True
                    for seat, old in list(phones.items()):  # the phones come back by themselves
                        old.close()
                        phones[seat] = SyncPhone(urls[seat], device=old.device)
                        assert phones[seat].connect()["type"] == "welcome"
                    x = phones["mrx"]
                    again = x.state()
                    assert again["view"]["instruction"] == ins  # the same move waits for its pawn
                    app.wait(lambda s, w=said: s["tids"].get("sy.instruction", {}).get("text") == w)
                    snap = again
                way = list(ways)[told % 4]
                d1 = phones["d1"].state(snap["seq"])
                if way == "next_move" and not (view["phase"] == "x" or "sy.move" in d1["legal"]["intents"]):
                    way = "touchscreen"  # no move of anyone's to make now
                ways[way] += 1
                if way == "touchscreen":
                    app.tap("sy.confirm")
                elif way == "x_phone":
                    assert x.intent({"kind": "sy.confirm", "figure": ins["figure"]}, snap["seq"])["type"] == "ack"
                elif way == "d1_phone":
                    reply = phones["d1"].intent({"kind": "sy.confirm", "figure": ins["figure"]}, d1["seq"])
                    assert reply["type"] == "ack", reply
                elif view["phase"] == "x":  # his move confirms the pawn
                    assert x.intent(x_move(snap), snap["seq"])["type"] == "ack"
                else:  # detective 1's move confirms it
                    assert phones["d1"].intent(d1_move(d1), d1["seq"])["type"] == "ack"
                snap = x.state(snap["seq"] + 1)
                assert snap["view"]["instruction"] != ins  # confirmed: that one waits no more
                continue
            if view["phase"] == "x":
                assert x.intent(x_move(snap), snap["seq"])["type"] == "ack"
            elif view["phase"] == "detectives":
                d1 = phones["d1"].state(snap["seq"])
                if "sy.move" in d1["legal"]["intents"] and d1["legal"]["moves"].get("D1"):
                    reply = phones["d1"].intent(d1_move(d1), d1["seq"])
                    # The table may have moved at the same moment: his phone then has an older state.
                    assert reply["type"] == "ack" or reply["code"] == "stale", reply
                    if reply["type"] != "ack":
                        stale += 1
                        snap = x.state(reply["params"]["seq"])
                        continue
            snap = x.state(snap["seq"] + 1, timeout=60)
        else:
            raise AssertionError("the game did not end in 600 steps")

        view = snap["view"]
        assert killed and told >= 6, told
        assert all(ways.values()), ways  # every way to confirm was used
        assert view["end"]["reason"] in ("captured", "x_escaped", "x_trapped", "detectives_stuck"), view["end"]
        end = app.wait_screen("end")
        assert end["tids"]["end.headline"]["text"] == text(f"sy.{view['end']['reason']}")
        app.screenshot("sy_yard_end")
        d1 = phones["d1"].state(snap["seq"])
        assert '"secret"' not in "".join(phones["d1"].phone.received)  # detective 1 never saw his station
        assert d1["view"]["end"] == view["end"]

        # The next game's form starts from this one: the table's detectives, 3 seats, 1 person's, the names.
        app.tap("end.home")
        app.wait_screen("start")
        app.tap("start.new")
        app.tap("new.scotland_yard")
        form = app.wait(lambda s: "setup.sy.people.1" in s["tids"], what="the table's detectives remembered")
        assert form["tids"]["setup.sy.name.1"]["text"] == "Ann" and "setup.sy.name.2" not in form["tids"]
        assert form["tids"]["setup.sy.name.mrx"]["text"] == "Xavier"
        app.screenshot("sy_yard_remembered")
    finally:
        for p in phones.values():
            p.close()
        app.stop()
