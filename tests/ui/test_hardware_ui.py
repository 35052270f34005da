"""The box's simulated twins on the real app: the diagnostics screen's panel holds an enrolled
Scotland Yard pawn on a simulated RFID reader (the figure is selected on the table screen, its
destinations shown) and holds the simulated undo button (the last move is taken back)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from driver import AppProcess
from phones import SyncPhone
from prepare import saved_game
from test_scotland_yard_ui import decode_qr

from companion.app.savedgame import load_game
from companion.app.seats import SeatLinks
from companion.app.store import Store
from companion.core.jsonvalue import JSONObject
from ui import theme

HARDWARE = """
[hotspot]
ssid = "Companion; table"
password = "pass:word"
[hardware]
mode = "simulated"
[[hardware.buttons]]
name = "confirm"
pin = 17
role = "confirm"
[[hardware.buttons]]
name = "undo"
pin = 27
role = "undo"
hold_ms = 600
[[hardware.readers]]
name = "table"
type = "rdm6300"
port = "simulated"
"""
PAWN = "0A00000040"


def d1_can_move(message: dict[str, Any]) -> bool:
    return message["view"]["phase"] == "detectives" and "D1" in message["legal"].get("moves", {})


def test_simulated_reader_and_button(display: str, tmp_path: Path) -> None:
    app = AppProcess(display, tmp_path, extra_config=HARDWARE)
    game_id = saved_game(app.data, "scotland_yard", "SY with a box", seed=11, until=d1_can_move)
    with Store(app.data / "companion.sqlite3") as store:  # test side: where Mister X hides
        x_station = load_game(store, game_id).game.state.x_station
    (app.data / "tags.json").write_text(
        json.dumps(
            {
                "format": "companion.tags",
                "version": 1,
                "tags": [{"uid": PAWN, "game": "scotland_yard", "piece": "figure:D1", "label": "pawn D1"}],
            }
        )
    )
    app.start()
    try:
        app.wait_screen("game")
        app.tap("game.home")
        app.tap("start.diagnostics")
        state = app.wait(lambda s: "hw.mode" in s["tids"])
        assert "simulated" in state["tids"]["hw.mode"]["text"]
        app.screenshot("diagnostics_hardware")

        # A pawn on the reader selects its figure on the table screen.
        app.tap(f"hw.tag.table.{PAWN}")
        app.wait(
            lambda s: PAWN in s["tids"].get("hw.reader.table", {}).get("text", "") or s["toast"] != "",
            what="the tag read",
        )
        app.tap("hw.remove.table")
        app.tap("diagnostics.back")
        app.tap("start.resume")
        state = app.wait(
            lambda s: any(t.startswith("sy.dest.") and t.count(".") == 3 for t in s["tids"]),
            what="D1's destinations, selected by the pawn",
        )
        assert "Ann from" in next(t for t in state["texts"] if " to …" in t)  # D1 by its player's name
        seq = state["seq"]
        # any destination but Mister X's station (landing there would end the game)
        dests = sorted(t for t in state["tids"] if t.startswith("sy.dest.") and t.count(".") == 3)
        app.tap(next(t for t in dests if not t.endswith(f".{x_station}")))
        app.wait_seq(seq + 1)

        # Holding the box's undo button takes the move back (the same rules as the screen's undo).
        app.tap("game.home")
        app.tap("start.diagnostics")
        app.tap("hw.hold.undo")
        state = app.wait(lambda s: s["seq"] >= seq + 2, what="the undo", timeout=10)
        app.tap("diagnostics.back")
        app.tap("start.resume")
        state = app.wait(lambda s: "sy.figure.D1.movable" in s["tids"], what="D1 movable again")

        # The hotspot's Wi-Fi code, escaped as the standard says.
        app.tap("game.seats")
        app.tap("seats.wifi")
        app.wait(lambda s: "seats.qr" in s["tids"])
        assert decode_qr(app.screenshot("seats_wifi_qr")) == r"WIFI:T:WPA;S:Companion\; table;P:pass\:word;;"
        app.tap("seats.back")

        # The table ends the game from its options, after a confirmation.
        app.tap("game.options")
        app.tap("sy.end_game")
        app.wait(lambda s: s["dialog"] and "confirm.yes" in s["tids"])
        app.tap("confirm.yes")
        end = app.wait_screen("end")
        assert end["tids"]["end.headline"]["text"] == "The game was ended at the table."
    finally:
        app.stop()


def test_diagnostics_speak_the_table_language(display: str, tmp_path: Path) -> None:
    """A French table's diagnostics: the phone linked for the blue seat is "Bleu" (not the id
    "blue"), the screen is a "fenêtre" on "pas un Raspberry Pi" (not "window · Pi: False"), the box is
    "simulés" and its reader's state French too."""
    app = AppProcess(display, tmp_path, extra_config=HARDWARE, language="fr")
    config: JSONObject = {"seats": ["blue", "red", "green"], "layout": "line4"}
    game_id = saved_game(app.data, "mykerinos", "Mykerinos", seed=1, config=config, until=lambda m: True)
    with Store(app.data / "companion.sqlite3") as store:
        token = next(link.token for link in SeatLinks(store).ensure(game_id, ["blue"]) if link.seat == "blue")
    app.start()
    phone = SyncPhone(f"http://127.0.0.1:{app.port}/s/{token}")
    try:
        app.wait_screen("game")
        assert phone.connect()["type"] == "welcome"
        app.tap("game.home")
        app.tap("start.diagnostics")
        state = app.wait(
            lambda s: s["tids"].get("diag.connected", {}).get("text") == theme.marked("blue", "Bleu"),
            what="the blue seat's phone, by its colour's shape and name",
        )
        app.screenshot("diagnostics_fr")
        tids = state["tids"]
        shown = " · ".join([*state["texts"], *(tids[t]["text"] for t in ("diag.connected", "diag.screen"))])
        words = set(shown.replace("·", " ").replace("(", " ").replace(")", " ").split())
        assert {"fenêtre", "simulés", "connecté"} <= words, words
        assert tids["diag.screen"]["text"].endswith(" · fenêtre · pas un Raspberry Pi"), tids["diag.screen"]
        # (the reader's port "simulated" is the configuration's own word, and stays)
        assert not words & {"blue", "window", "fullscreen", "Pi:", "False", "True", "connected"}, words
    finally:
        phone.close()
        app.stop()
