"""A whole Scotland Yard game on the real touchscreen app under Xvfb: Mister X plays on a real
phone (web socket) that joined by scanning the QR code on the screen; the detectives' moves are
tapped on the touchscreen; undo with confirmation; a refusal shown as words; the app is killed
mid-game (SIGKILL) and resumes on the same screen with the same state; capture and the route."""

from __future__ import annotations

from typing import Any

from driver import AppProcess
from looking import decode_qr
from phones import SyncPhone

from companion.app.i18n import text
from companion.games.scotland_yard.board import LAND, base_board

BOARD = base_board()


def threatened(station: int, figures: list[dict[str, Any]]) -> bool:
    """Could a detective or bobby reach ``station`` in one move (by the map)?"""
    return any(station in BOARD.neighbours(line, f["station"]) for f in figures if f["station"] for line in LAND)


def distance(a: int, b: int) -> int:
    """Moves by land between two stations (breadth first over the map)."""
    seen, frontier, steps = {a}, {a}, 0
    while b not in frontier:
        frontier = {n for s in frontier for line in LAND for n in BOARD.neighbours(line, s)} - seen
        seen |= frontier
        steps += 1
    return steps


def x_move(phone: SyncPhone, want_threat: bool, or_farthest: bool = False) -> dict[str, Any]:
    """Mister X's move on his phone: away from the detectives, or (``want_threat``) towards them.
    With ``or_farthest``, where the drawn start leaves him no safe move, the one farthest from them."""
    st = phone.state()
    assert st["view"]["phase"] == "x"
    figures = st["view"]["figures"]
    options = [(t, s) for t, dests in st["legal"]["x"]["single"].items() for s in dests]
    options.sort(key=lambda o: o[0] != "black")  # a black ticket when it fits, to see it in the log
    fitting = [o for o in options if threatened(o[1], figures) == want_threat]
    if not fitting:
        assert want_threat or or_farthest, "no safe move for Mister X in this scenario"
        fitting = sorted(
            options,
            key=lambda o: min(distance(o[1], f["station"]) for f in figures if f["station"]),
            reverse=not want_threat,
        )
    ticket, station = fitting[0]
    reply = phone.intent({"kind": "sy.x_move", "ticket": ticket, "station": station}, st["seq"])
    assert reply["type"] == "ack", reply
    return {"ticket": ticket, "station": station, "seq": reply["seq"]}


def x_double(phone: SyncPhone) -> dict[str, Any]:
    """A double move, both steps out of the detectives' reach if possible."""
    st = phone.state()
    figures = st["view"]["figures"]
    options = [
        (first, ticket, station)
        for first in st["legal"]["x"]["double"]
        for ticket, dests in first["then"].items()
        for station in dests
    ]
    options.sort(key=lambda o: (threatened(o[0]["station"], figures) or threatened(o[2], figures), o[1] == "black"))
    first, ticket, station = options[0]
    intent = {
        "kind": "sy.x_double",
        "first": {"ticket": first["ticket"], "station": first["station"]},
        "second": {"ticket": ticket, "station": station},
    }
    reply = phone.intent(intent, st["seq"])
    assert reply["type"] == "ack", reply
    return {"ticket": ticket, "station": station, "seq": reply["seq"]}


def detectives_move(app: AppProcess, x_station: int, capture: bool, shots: str = "") -> bool:
    """Tap every figure that can move, then a destination; capture Mister X when asked and possible.
    Returns True when the game ended by the capture."""
    while True:
        state = app.wait(lambda s: s["screen"] in ("game", "end") and not s["dialog"])
        if state["screen"] == "end":
            return True
        movable = sorted(
            t for t in state["tids"] if t.startswith("sy.figure.") and t.count(".") == 2 and app_is_tap_panel(state, t)
        )
        if not movable or "sy.waiting" in state["tids"] or "sy.x_no_phone" in state["tids"]:
            return False
        chosen = None
        for figure in movable:
            app.tap(figure)
            dests = app.wait(lambda s: any(t.startswith("sy.dest.") for t in s["tids"]))["tids"]
            if shots:
                app.screenshot(shots)
                shots = ""
            hits = [t for t in dests if t.startswith("sy.dest.") and t.endswith(f".{x_station}")]
            if capture and hits:
                chosen = hits[0]
                break
            safe = [
                t for t in dests if t.startswith("sy.dest.") and t.count(".") == 3 and not t.endswith(f".{x_station}")
            ]
            if safe:  # towards Mister X
                chosen = min(safe, key=lambda t: distance(int(t.rsplit(".", 1)[1]), x_station))
                break
            app.tap("sy.cancel")
        assert chosen is not None
        seq = state["seq"]
        app.tap(chosen)
        app.wait(lambda s, q=seq: s["seq"] > q)


def app_is_tap_panel(state: dict[str, Any], tid: str) -> bool:
    return tid in state["tids"] and not state["tids"][tid]["disabled"] and f"{tid}.movable" in state["tids"]


def test_scotland_yard_with_mister_x_on_a_phone(app: AppProcess) -> None:
    app.screenshot("start")
    app.tap("start.new")
    app.wait_screen("new")
    app.screenshot("new_game")
    app.tap("new.scotland_yard")
    app.tap("setup.sy.detectives.2")
    app.tap("setup.sy.tracker.on")
    app.screenshot("sy_setup")
    app.tap("new.start")
    app.wait_screen("game")
    app.screenshot("sy_table_start")
    app.tap("sy.draw_start")
    app.wait(lambda s: "sy.x_no_phone" in s["tids"], what="Mister X's turn, and no phone for him yet")
    app.screenshot("sy_table_waiting_for_x")

    # Link Mister X's phone by scanning the code on the screen.
    app.tap("game.seats")
    app.wait_screen("seats")
    assert "seats.qr" not in app.state()["tids"]  # never shown unasked
    app.tap("seats.show.mrx")
    app.wait(lambda s: "seats.qr" in s["tids"], what="the QR code")
    url = decode_qr(app.screenshot("seats_qr_mrx"))
    port = app.info()["port"]
    assert url.startswith(f"http://127.0.0.1:{port}/s/")
    phone = SyncPhone(url)
    try:
        welcome = phone.connect()
        assert welcome["type"] == "welcome" and welcome["seat"] == "mrx"
        seats = app.wait(
            lambda s: "seats.qr" not in s["tids"] and "seats.release.mrx" in s["tids"],
            what="the code hidden once claimed",
        )
        assert "seats.show.d1" in seats["tids"]
        app.tap("seats.back")
        app.wait_screen("game")

        # Round 1: Mister X moves (safely) on his phone; the table shows the ticket at once.
        secret = phone.state()["view"]["secret"]
        x1 = x_move(phone, want_threat=False)
        # The touchscreen draws it in its next frame (the phones do not wait for the touchscreen's drawing).
        state = app.wait_seq(x1["seq"])
        assert state["seq"] == x1["seq"]
        assert state["tids"]["sy.log.1.main"]["text"] == text(f"ui.sy.short.{x1['ticket']}", {}, "en", ("ui",))
        assert str(x1["station"]) not in state["tids"]["sy.log.1.main"]["text"]
        assert secret["station"] != x1["station"]

        # A refusal is shown in words: a station no taxi line reaches.
        far = next(
            s
            for s in range(1, 200)
            if all(
                s not in BOARD.neighbours(line, f["station"]) for f in phone.state()["view"]["figures"] for line in LAND
            )
            and s not in [f["station"] for f in phone.state()["view"]["figures"]]
        )
        app.submit({"kind": "sy.move", "figure": "D1", "ticket": "taxi", "station": far})
        refused = app.wait(lambda s: s["toast"] != "", what="the refusal")
        assert refused["toast_kind"] == "error"
        taxi = text("sy.ticket.taxi", {}, "en")  # the ticket in words, not its id
        assert refused["toast"] == text("sy.not_connected", {"ticket": taxi, "station": far}, "en"), refused["toast"]

        # Detectives: tap a figure, then a destination; undo the first move with confirmation.
        before = app.state()
        app.tap("sy.figure.D1")
        dest = app.wait(lambda s: any(t.startswith("sy.dest.") for t in s["tids"]))
        app.screenshot("sy_table_destinations")
        target = next(t for t in sorted(dest["tids"]) if t.startswith("sy.dest.taxi."))
        app.tap(target)
        moved = app.wait_seq(before["seq"] + 1)
        assert "game.undo" in moved["tids"]
        app.tap("game.undo")
        app.wait(lambda s: s["dialog"])
        app.screenshot("sy_undo_confirm")
        app.tap("confirm.yes")
        undone = app.wait(lambda s: s["seq"] > moved["seq"] and not s["dialog"])
        assert "sy.figure.D1.movable" in undone["tids"]
        assert detectives_move(app, x1["station"], capture=False) is False

        # Round 2: a double move whose second step is field 3, a reveal.
        x2 = x_double(phone)
        state = app.wait_seq(x2["seq"])
        assert state["tids"]["sy.shown"]["text"] == text("sy.reveal_now", {"station": x2["station"], "field": 3}, "en")
        assert state["tids"]["sy.log.3.main"]["text"] == str(x2["station"])
        short = text(f"ui.sy.short.{x2['ticket']}", {}, "en", ("ui",))  # the ticket stays on a reveal box
        assert state["tids"]["sy.log.3.top"]["text"] == f"3 ×2 {short}", state["tids"]["sy.log.3.top"]
        assert state["tids"]["sy.log.2.main"]["text"] != str(phone.state()["view"]["secret"]["route"][1]["station"])
        app.screenshot("sy_table_reveal")

        # One detective moves, then the power is cut; the app comes back where it was.
        state = app.state()
        app.tap(next(t for t in sorted(state["tids"]) if t.endswith(".movable"))[: -len(".movable")])
        dest = app.wait(lambda s: any(t.startswith("sy.dest.") for t in s["tids"]))
        app.tap(next(t for t in sorted(dest["tids"]) if t.startswith("sy.dest.")))
        before_kill = app.wait_seq(state["seq"] + 1)
        app.kill()
        app.start()
        after = app.wait_screen("game")
        assert after["seq"] == before_kill["seq"]
        assert after["texts"] == before_kill["texts"]
        app.screenshot("sy_table_after_restart")

        # The phone comes back by itself (same device, no new scan).
        phone.close()
        phone = SyncPhone(url, device=phone.device)
        assert phone.connect()["type"] == "welcome"
        assert phone.state()["seq"] == after["seq"]
        assert detectives_move(app, x2["station"], capture=False) is False

        # Rounds 3+: Mister X walks next to a detective, who catches him.
        for _ in range(6):
            x = x_move(phone, want_threat=True)
            app.wait_seq(x["seq"])
            if detectives_move(app, x["station"], capture=True, shots="sy_table_capture_choice"):
                break
        end = app.wait_screen("end")
        assert end["tids"]["end.headline"]["text"] == text("sy.captured", {}, "en")
        route = phone.state()["view"]["secret"]["route"]
        for entry in route:  # the whole route is shown to everyone now
            assert end["tids"][f"sy.log.{entry['field']}.main"]["text"] == str(entry["station"])
        app.screenshot("sy_end")
        app.tap("end.board")
        app.wait_screen("game")
        app.screenshot("sy_table_over")

        # Releasing a seat asks first, drops the phone and makes a new link.
        app.tap("game.seats")
        app.tap("seats.release.mrx")
        app.wait(lambda s: s["dialog"])
        app.screenshot("seats_release_confirm")
        app.tap("confirm.yes")
        app.wait(lambda s: "seats.show.mrx" in s["tids"] and not s["dialog"], what="a fresh link for mrx")
        assert phone.until_error() == "link.released"
    finally:
        phone.close()
