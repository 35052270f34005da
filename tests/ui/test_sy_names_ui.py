"""Scotland Yard calls people by the names typed at setup (issue 42, item 4): the figure list says
"Ann · at 123" beside the chip "D1" (not "Detective 1 · at 123"), the Phones screen gives Mister X
his role beside his name as it does every detective, a bobby — moved by every detective — stays
"Bobby 1", and a detective nobody named keeps "Detective 2"."""

from __future__ import annotations

from driver import AppProcess

from companion.app.i18n import text


def test_the_table_names_the_detectives_and_mister_x_as_typed(app: AppProcess) -> None:
    app.tap("start.new")
    app.tap("new.scotland_yard")
    app.tap("setup.sy.detectives.2")
    app.type("setup.sy.name.mrx", "Xavier")
    # the first tap on a text field: SDL's clipboard, and no CRITICAL traceback about a cut buffer
    assert "CRITICAL" not in app.log() and "Traceback" not in app.log(), app.log()
    app.type("setup.sy.name.1", "Ann")  # the second detective left unnamed
    app.tap("new.start")
    app.wait_screen("game")
    app.tap("sy.draw_start")
    state = app.wait(lambda s: "sy.x_no_phone" in s["tids"], what="Mister X's turn")
    app.screenshot("sy_names_table")
    at = text("ui.sy.at", {"station": 0}, "en", ("ui",)).replace("0", "")
    rows = [t for t in state["texts"] if at in t]
    assert len(rows) == 4, rows  # D1, D2, B1, B2
    assert rows[0].startswith("Ann · "), rows
    detective_2 = text("ui.sy.figure.detective", {"n": 2}, "en", ("ui",))
    assert rows[1].startswith(f"{detective_2} · "), rows
    assert rows[2].startswith(text("ui.sy.figure.bobby", {"n": 1}, "en", ("ui",)) + " · "), rows
    assert not any(t.startswith(text("ui.sy.figure.detective", {"n": 1}, "en", ("ui",))) for t in state["texts"])

    app.tap("game.seats")
    seats = app.wait_screen("seats")
    app.screenshot("sy_names_phones")
    mister_x = text("ui.sy.mrx", {}, "en", ("ui",))
    assert f"Xavier ({mister_x})" in seats["texts"], seats["texts"]
    assert any(t.startswith("Ann (") for t in seats["texts"]), seats["texts"]
