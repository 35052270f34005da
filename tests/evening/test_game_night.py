"""A game night, played the way a group plays it, with real parts only (issue 12, "the game-night test").

The touchscreen app runs as ``companion run`` would, in a real X window at 800x480 (Xvfb), with its real
phone server; phones are real pages in Debian's Chromium at 360 px, each its own device; the host's
laptop opens the host page from the Phones screen and from it the public table link.

1. Scotland Yard with three detectives: Mister X's code in one tap from the table screen, two
   detectives scan theirs, the third types the room code on the landing page, the table link is opened
   from the host page. Mister X moves on his phone, detectives on theirs (one on the touchscreen), until
   a detective lands on Mister X's station. The rulebook: "Zieht ein Detektiv oder Bobby auf den Ort, auf
   dem sich Mister X befindet, hat Mister X ebenfalls verloren."
2. Victorian Masterminds with the Scotland Yard phones still open: they say the table started another
   game and disturb nothing. Three phones join and play; in the middle the table switches to German in
   Settings and every open phone follows without a reload. The first Henchman's mission is met at the
   table (its reward, printed on the card, asked in a dialog); the others are not.
3. The plug is pulled (SIGKILL) mid-game; the app comes back on the same screen and every phone returns
   to its seat by itself.
4. Mykerinos with three new phones, played to its end (two excavations and the survey of season 1, then
   passes): "Das Spiel endet nach der vierten Runde ... Der Spieler, der nach dieser Abrechnung die
   meisten Punkte besitzt, gewinnt das Spiel." (the exhibition is scored first).
5. The Victorian Masterminds game is resumed from Saved games: its phones come back with "Try again"
   and play goes on; the Mykerinos phones say the table opened another game.

The table speaks all evening: speech is switched on in Settings before the first game, and the
stand-in voice (``[speech] voice = "record"``) records what the speaker would say. After each game,
what it said is exactly what the public views of that saved game give (worked out on the test side):
Mister X's capture and the detectives' win in English; each resolved stack of agents and the Secret
Service level in German ("Der Komplizenstapel in London ist abgehandelt."), including the actions after
the power cut; the Mykerinos survey, its zones and the winner in German.

After every step: what each screen shows (the touchscreen's texts through its control socket, each
phone's DOM), no error on any screen that is not expected, no raw message code and no seat's internal
name ("p1", "@table") on any screen, no traceback in the app's log; at each stage's screenshot, no text
cut off and no panel over its edge on the touchscreen, nothing wider than 360 px on a phone.
Screenshots: artifacts/screenshots/ui-night-*.png and phone-night-*.png.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from driver import xvfb
from night import ROOM, Night, NightApp, chromium_sync, ui_words, until, words
from test_scotland_yard_ui import decode_qr, distance, threatened

from companion.app.i18n import text
from ui import theme

DETECTIVES = ("d1", "d2", "d3")
ON_TOUCHSCREEN = "d3"  # this detective's player moves on the touchscreen (the phone lies face down)


def dest(ticket: str, station: int) -> str:
    return f"[data-section=move] button.dest[data-ticket={ticket}][data-station='{station}']"


# -- 1. Scotland Yard --------------------------------------------------------------------------------


def sy_join(n: Night) -> None:
    app = n.app
    app.tap("start.new")
    app.tap("new.scotland_yard")
    app.tap("setup.sy.detectives.3")
    app.tap("new.start")
    app.wait_screen("game")
    app.tap("sy.draw_start")
    app.wait(lambda s: "sy.x_no_phone" in s["tids"], what="no phone for Mister X yet")
    n.check()

    # Mister X: his code one tap away from the table screen.
    app.tap("sy.link_x")
    app.wait(lambda s: s["screen"] == "seats" and "seats.qr" in s["tids"], what="Mister X's QR code")
    n.join("mrx", decode_qr(app.screenshot("night-qr-mrx")))
    app.wait(lambda s: "seats.release.mrx" in s["tids"] and "seats.qr" not in s["tids"], what="the code hidden")
    n.join("d1", n.link_from_screen("d1"))
    n.join("d2", n.link_from_screen("d2"))

    # The third detective's camera will not focus: the room code typed on the landing page.
    app.tap("seats.show.d3")
    state = app.wait(lambda s: "seats.qr.code" in s["tids"], what="d3's room code")
    shown = state["tids"]["seats.qr.code"]["text"]
    room = ROOM.search(shown)
    assert room is not None, shown
    d3 = n.phone("d3")
    d3.open(f"http://127.0.0.1:{app.port}/")
    d3.page.fill("#code", room.group(1))
    d3.tap("#join button")
    d3.wait_connected()

    # The host's laptop: the host page's code is on the Phones screen; the table link comes from there.
    app.wait(lambda s: "seats.release.d3" in s["tids"], what="d3 joined")
    app.tap("seats.host")
    app.wait(lambda s: "seats.qr" in s["tids"], what="the host page's code")
    host = n.phone("host")
    host.open(decode_qr(app.screenshot("night-qr-host")))
    host.wait("() => document.getElementById('status')?.dataset.state === 'connected'", what="the host page")
    host.tap("[data-show='@table']")
    host.wait("() => document.querySelector(\"[data-showing='@table'] .qr-url\")", what="the table link")
    table = n.join("table", host.page.inner_text("[data-showing='@table'] .qr-url"))
    opened = ui_words("ui.seats.table_now", "en")  # the table screen opened, in words
    until(lambda: any(t["text"] == opened for t in n.toasts()), what=opened)
    assert table.view()["mrx"]["station"] is None  # the public view: where Mister X is, nobody knows

    state = app.wait(
        lambda s: all(f"seats.release.{seat}" in s["tids"] for seat in ("mrx", *DETECTIVES)),
        what="every seat joined",
    )
    assert all(s["text"] != ui_words("ui.seats.free", "en") for t, s in state["tids"].items() if t.endswith(".state"))
    n.shoot("sy-phones-joined", "host")
    app.tap("seats.back")
    state = app.wait(lambda s: s["screen"] == "game" and "sy.waiting" in s["tids"], what="waiting for Mister X")
    assert "sy.x_no_phone" not in state["tids"]
    n.check()


def x_moves(n: Night, round_: int) -> dict[str, Any]:
    """Mister X on his phone: away from the detectives in round 1, then next to one of them."""
    x = n.phones["mrx"]
    x.wait("() => C.state && C.state.legal && (C.state.legal.intents || []).includes('sy.x_move')", what="his turn")
    view, legal = x.view(), x.legal()
    figures = [f for f in view["figures"] if f["station"]]
    detectives = [f for f in figures if f["figure"].startswith("D")]
    options = sorted((t, s) for t, dests in legal["x"]["single"].items() for s in dests if t != "black")
    if round_ == 1:
        fitting = [o for o in options if not threatened(o[1], figures)]
    else:
        fitting = [o for o in options if threatened(o[1], detectives)]
    if not fitting:
        fitting = sorted(options, key=lambda o: min(distance(o[1], f["station"]) for f in detectives))
    ticket, station = fitting[0]
    secret_before = view["secret"]["station"]
    x.tap(dest(ticket, station))
    x.confirm()
    state = x.state()
    assert state["view"]["secret"]["station"] == station != secret_before
    return {"ticket": ticket, "station": station, "seq": state["seq"], "field": state["view"]["log"][-1]["field"]}


def detectives_move(n: Night, x_station: int) -> bool:
    """Every figure moves once: a detective on his phone (D3 on the touchscreen), the bobbies on the
    touchscreen; a figure that can reach Mister X's station goes first and takes it. True when he
    was caught."""
    app = n.app
    while True:
        state = app.wait(lambda s: s["screen"] in ("game", "end") and not s["dialog"])
        if state["screen"] == "end":
            return True
        seq = state["seq"]
        movable = sorted(
            t.split(".")[2] for t in state["tids"] if t.startswith("sy.figure.") and t.endswith(".movable")
        )
        if not movable:
            return False
        at = {f["figure"]: f["station"] for f in n.phones["table"].view()["figures"]}
        figure = min(movable, key=lambda f: (not threatened(x_station, [{"station": at.get(f)}]), f[0] != "D", f))
        seat = figure.lower()
        phone = n.phones.get(seat) if seat != ON_TOUCHSCREEN else None
        if phone is not None:
            phone.wait_seq(seq)
            options = [(t, s) for t, dests in phone.legal()["moves"][figure].items() for s in dests]
        else:
            app.tap(f"sy.figure.{figure}")
            shown = app.wait(lambda s: any(t.startswith("sy.dest.") for t in s["tids"]), what="destinations")
            options = [
                (t.split(".")[2], int(t.split(".")[3]))
                for t in shown["tids"]
                if t.startswith("sy.dest.") and t.count(".") == 3
            ]
        hits = [o for o in options if o[1] == x_station]
        ticket, station = hits[0] if hits else min(options, key=lambda o: (distance(o[1], x_station), o))
        if phone is not None:
            phone.tap(f"[data-select={figure}]")
            phone.tap(dest(ticket, station))
            phone.confirm()
        else:
            app.tap(f"sy.dest.{ticket}.{station}")
            app.wait_seq(seq + 1)
        n.check()
        if hits:
            return True


def scotland_yard(n: Night) -> None:
    app = n.app
    sy_join(n)
    for round_ in range(1, 9):
        x = x_moves(n, round_)
        state = app.wait_seq(x["seq"])
        shown = state["tids"][f"sy.log.{x['field']}.main"]["text"]
        short = ui_words(f"ui.sy.short.{x['ticket']}", "en")
        assert shown in (short, str(x["station"])), shown  # the ticket; the station only on a reveal field
        for seat in DETECTIVES:
            phone = n.phones[seat]
            phone.wait_seq(x["seq"])
            if shown == short:
                assert str(x["station"]) not in phone.page.inner_text(f"[data-field='{x['field']}']")
        n.check()
        if round_ == 1:
            n.shoot("sy-x-moved", "mrx")
        if detectives_move(n, x["station"]):
            break
    else:
        raise AssertionError("nobody caught Mister X")
    state = app.wait_screen("end")
    assert state["tids"]["end.headline"]["text"] == text("sy.captured", None, "en")
    for name in ("mrx", *DETECTIVES, "table"):
        phone = n.phones[name]
        phone.wait("() => document.querySelector('[data-end=captured]')", what="the end")
        assert words("phone.sy.winner.detectives", "en") in phone.main()
    host = n.phones["host"]
    host.wait("() => document.querySelector('[data-result]')", what="the result on the host page")
    n.check()
    n.shoot("sy-end", "d1", "table")


# -- 2. Victorian Masterminds, with the Scotland Yard phones still open ---------------------------------

VM_SEATS = ("p1", "p2", "p3")
VM_FLOW = (  # what a phone does when offered several things: answer the resolution first, never capture
    "vm.reveal",
    "vm.choose_order",
    "vm.choose_building",
    "vm.engineer_done",
    "vm.take_loot",
    "vm.henchman",
    "vm.place",
    "vm.end_turn",
)
VM_TAPS = {
    "vm.reveal": ("[data-choice=reveal] .vm-pick",),
    "vm.choose_order": ("[data-choice=order] button",),
    "vm.choose_building": ("[data-choice=choose_building] button",),
    "vm.engineer_done": ("[data-choice=engineer_done]",),
    "vm.take_loot": ("[data-choice=take_loot] [data-take-loot]",),
    "vm.henchman": ("[data-choice=henchman] [data-met='0']",),
    "vm.end_turn": ("[data-choice=end_turn]",),
}


def players_join(n: Night, seats: tuple[str, ...]) -> None:
    """From the table screen: each player scans his seat's code off the Phones screen."""
    app = n.app
    app.tap("game.seats")
    app.wait_screen("seats")
    for seat in seats:
        n.join(seat, n.link_from_screen(seat))
    app.wait(lambda s: all(f"seats.release.{seat}" in s["tids"] for seat in seats), what="every phone joined")
    app.tap("seats.back")


def left_for(n: Night, names: tuple[str, ...], code: str) -> None:
    """The phones of a game the table left say so (and offer to try again); the message is expected."""
    message = words(code, n.phones[names[0]].lang)
    for name in names:
        phone = n.phones[name]
        phone.wait("() => document.querySelector('[data-action=retry]')", what="the game-left message")
        assert phone.notice() == (message, True)
        assert phone.status() == "closed"
        phone.expect = message


def come_back(n: Night, names: tuple[str, ...], seq: int) -> None:
    """The players tap "Try again": each phone is back on its seat, in the table's language."""
    for name in names:
        phone = n.phones[name]
        phone.tap("[data-action=retry]")
        phone.lang = n.lang
        phone.expect = None
        phone.wait_connected()
        phone.wait_seq(seq)


def vm_step(n: Night, city: str = "london") -> str:
    """One move of the game, by whoever must make it: a player on the phone, or the table (a
    Henchman's mission) on the touchscreen. Returns the intent's kind."""
    app = n.app
    state = app.wait(lambda s: s["screen"] == "game" and not s["dialog"])
    seq = state["seq"]
    for seat in VM_SEATS:
        phone = n.phones[seat]
        phone.wait_seq(seq)
        offered = {a["kind"]: a for a in phone.legal().get("actions", []) if a["kind"] in VM_FLOW}
        if offered:
            break
    else:
        if "vm.henchman.no" in state["tids"] and not n.met:
            # the first mission of the evening is met: its reward, printed on the card, is asked for
            n.met = True
            app.tap("vm.henchman.yes")
            state = app.wait(lambda s: s["dialog"] or s["seq"] > seq, what="the reward or the answer")
            if state["dialog"]:
                assert ui_words("ui.vm.met_reward_note", n.lang) in state["texts"], state["texts"]
                n.shoot("vm-mission-reward")
                app.tap("vm.henchman.yes.3")
            app.wait_seq(seq + 1)
            n.check()
            return "vm.henchman"
        if "vm.henchman.no" in state["tids"]:
            app.tap("vm.henchman.no")
            app.wait_seq(seq + 1)
            n.check()
            return "vm.henchman"
        raise AssertionError(f"nobody can move: {sorted(state['tids'])}")
    kind = next(k for k in VM_FLOW if k in offered)
    if kind == "vm.place":
        option = offered[kind]
        if len(option["agents"] or [None]) + len(option["recycle"]) > 1:
            phone.tap("[data-choice=place] .vm-pick")
        phone.act(f"[data-choice=place] [data-city={city if city in option['cities'] else option['cities'][0]}]")
    else:
        phone.act(*VM_TAPS[kind])
    app.wait_seq(seq + 1)
    n.check()
    return kind


def switch_language(n: Night, lang: str, back: str) -> None:
    """Settings on the touchscreen, mid-game: every screen and every open phone follows at once."""
    app = n.app
    app.tap("game.home")
    app.tap("start.settings")
    app.wait_screen("settings")
    app.tap(f"settings.lang.{lang}")
    app.wait(lambda s: s["tids"]["settings.back"]["text"] == back, what=f"Settings in {lang}")
    n.lang = lang
    for phone in n.phones.values():
        if phone.status() == "connected" and phone.name != "host":
            phone.speaks(lang)
    n.check()
    n.shoot(f"settings-{lang}", "p2")
    app.tap("settings.back")
    app.tap("start.resume")
    state = app.wait_screen("game")
    assert state["tids"]["game.seats"]["text"] == ui_words("ui.phones", lang)


def victorian_masterminds(n: Night) -> int:
    app = n.app
    app.tap("end.home")
    app.tap("start.new")
    app.tap("new.victorian_masterminds")
    app.tap("setup.vm.players.3")
    app.tap("setup.vm.level.plus")
    app.wait(lambda s: s["tids"]["setup.vm.level.value"]["text"] == "1", what="the start level")
    app.tap("new.start")
    app.wait_screen("game")
    game_id = int(app.info()["game_id"])
    left_for(n, ("mrx", *DETECTIVES, "table"), "link.game_switched")
    n.check()
    n.shoot("vm-started", "mrx")

    players_join(n, VM_SEATS)
    app.tap("vm.start")
    app.wait(lambda s: "vm.place.london" in s["tids"], what="the first turn")
    for phone in (n.phones[s] for s in VM_SEATS):
        phone.wait("() => C.state && C.state.view.phase === 'turn'", what="the first turn on the phone")
    n.check()

    # Red and Blue place in London; then the table switches to German, and Green completes the stack.
    assert vm_step(n) == "vm.place"
    assert vm_step(n) == "vm.place"
    n.shoot("vm-two-placed")
    switch_language(n, "de", "‹ Zurück")
    assert vm_step(n) == "vm.place"
    kinds = []
    while not n.phones["p1"].view().get("last_stack"):
        kinds.append(vm_step(n))
        assert len(kinds) < 12, kinds
    state = app.state()
    assert state["tids"]["vm.stack.title"]["text"] == ui_words("ui.vm.stack.last", "de", city="London")
    n.shoot("vm-stack-resolved", "p1")
    return game_id


# -- 3. The plug pulled -------------------------------------------------------------------------------


def power_cut(n: Night) -> None:
    app = n.app
    assert vm_step(n) == "vm.place"  # a new stack begins
    before = app.wait(lambda s: s["screen"] == "game" and not s["dialog"])
    for seat in VM_SEATS:
        n.phones[seat].wait_seq(before["seq"])
    app.kill()
    for seat in VM_SEATS:
        n.phones[seat].wait("() => document.getElementById('status')?.dataset.state === 'reconnecting'")
    n.phones["p1"].shot("power-cut-p1")
    app.start()
    after = app.wait_screen("game")
    assert after["seq"] == before["seq"]
    assert after["texts"] == before["texts"]
    for seat in VM_SEATS:  # by themselves: nobody touches a phone
        phone = n.phones[seat]
        phone.wait_connected()
        phone.wait_seq(before["seq"])
        assert phone.state()["seq"] == before["seq"]
    for name in ("mrx", *DETECTIVES, "table"):  # the old game's phones stay as they were
        assert n.phones[name].status() == "closed"
    n.phones["host"].wait("() => document.getElementById('status')?.dataset.state === 'connected'")
    n.check()
    n.shoot("vm-after-restart", "p1")
    vm_step(n)  # and play goes on


# -- 4. Mykerinos, the earlier game resumed, Mykerinos to its end -------------------------------------

MYK_SEATS = ("blue", "red", "green")
PATRONS = ("lady_violet", "lord_lemon", "sir_brown", "mrs_blackmore", "colonel_tangerine")


def myk_step(n: Night) -> str:
    """One move: the player whose turn it is on the phone (pass; in the first season two players
    excavate once each, the zone's first takes the museum, the second a parcel), the zone counts on
    the touchscreen (every archaeologist on the board in the first zone)."""
    app = n.app
    state = app.wait(lambda s: s["screen"] in ("game", "end") and not s["dialog"])
    seq = state["seq"]
    if state["screen"] == "end":
        return "end"
    watcher = n.phones["blue"]
    watcher.wait_seq(seq)
    view = watcher.view()
    if view["phase"] == "survey":  # a player of the zone's ranking chooses, or the table counts
        waiting = view["survey"]["waiting"]
        turn = waiting["seat"] if waiting["for"] != "counts" else None
    else:
        turn = (view.get("turn") or {}).get("seat")
    phone, offered = watcher, {}
    if turn in MYK_SEATS:
        phone = n.phones[turn]
        phone.wait_seq(seq)
        offered = {a["kind"]: a for a in phone.legal() or [] if isinstance(a, dict)}
    if not offered:
        if "myk.counts.done" not in state["tids"]:
            raise AssertionError(f"nobody can move: {sorted(state['tids'])}")
        view = n.phones["blue"].view()
        for colour, count in view["board"].items():
            for _ in range(count):
                app.tap(f"myk.count.{colour}.plus")
        app.tap("myk.counts.done")
        app.wait_seq(seq + 1)
        n.check()
        return "myk.zone_counts"
    view = phone.view()
    if "myk.pass" in offered:
        # season 1: the first to act passes, the other two start one excavation each, then pass
        digs = view["season"] == 1 and view["pass_track"] and not view["board"].get(turn)
        if digs and "myk.excavate" in offered:
            phone.act("[data-choice=excavate][data-action=start]")
            kind = "myk.excavate"
        else:
            phone.act("[data-choice=pass]")
            kind = "myk.pass"
    elif "myk.museum" in offered and not view["museum"]:
        phone.tap("[data-choice=museum]")
        phone.act(f"button.myk-room[data-room='{offered['myk.museum']['rooms'][0]}']")
        kind = "myk.museum"
    else:
        patron = PATRONS[view["season"] % len(PATRONS)]
        phone.act(f"[data-choice=parcel][data-patron={patron}]", "[data-points='2']")
        kind = "myk.take_parcel"
    app.wait_seq(seq + 1)
    n.check()
    return kind


def mykerinos(n: Night) -> None:
    """A third game: three new phones join, the season-1 excavation and survey, then passes to the end."""
    app = n.app
    app.tap("game.home")
    app.tap("start.new")
    app.tap("new.mykerinos")
    for colour in MYK_SEATS:
        app.tap(f"setup.myk.colour.{colour}")
    app.tap("new.start")
    app.wait_screen("game")
    left_for(n, VM_SEATS, "link.game_switched")
    n.check()
    players_join(n, MYK_SEATS)
    app.tap("myk.draw_start_player")
    app.wait(lambda s: "myk.draw_patrons" in s["tids"], what="the patrons' draw")
    app.tap("myk.draw_patrons")
    app.wait(lambda s: "myk.pass" in s["tids"], what="season 1")
    n.check()
    kinds = []
    while (kind := myk_step(n)) != "end":
        kinds.append(kind)
        if kinds.count("myk.zone_counts") == 1 and kind == "myk.zone_counts":
            n.shoot("myk-survey", "red")
        assert len(kinds) < 60, kinds
    assert "myk.museum" in kinds and "myk.take_parcel" in kinds
    state = app.wait_screen("end")
    scores = {seat: int(state["tids"][f"end.score.{seat}"]["text"]) for seat in MYK_SEATS}
    view = n.phones["blue"].view()
    winners = view["result"]["winners"]
    assert scores == {seat: view["players"][seat]["score"] for seat in MYK_SEATS}
    assert all(scores[w] == max(scores.values()) > 0 for w in winners)  # the parcel's patron card counts
    names = " & ".join(theme.marked(w, ui_words(f"ui.myk.colour.{w}", "de")) for w in winners)  # each with its shape
    assert state["tids"]["end.headline"]["text"] == ui_words("ui.myk.winner", "de", players=names, count=len(winners))
    for seat in MYK_SEATS:
        phone = n.phones[seat]
        phone.wait("() => document.querySelector('[data-end=over]')", what="the end")
    n.check()
    n.shoot("myk-end", "blue")


def resume(n: Night, game_id: int, home: str) -> dict[str, Any]:
    """The earlier game, from Saved games (where it waits, unfinished, beside the finished ones)."""
    app = n.app
    app.tap(home)
    app.tap("start.saved")
    state = app.wait_screen("saved")
    assert f"saved.open.{game_id}" in state["tids"], sorted(state["tids"])
    n.shoot("saved-games")
    app.tap(f"saved.open.{game_id}")
    state = app.wait_screen("game")
    assert state["toast"] == "" or state["toast_kind"] != "error", state["toast"]
    return state


def victorian_masterminds_resumed(n: Night, vm_game: int) -> None:
    """The Victorian Masterminds game goes on: its phones come back with "Try again", the Mykerinos
    phones say the table opened another game."""
    state = resume(n, vm_game, "end.home")
    assert int(n.app.info()["game_id"]) == vm_game
    left_for(n, MYK_SEATS, "link.game_switched")
    come_back(n, VM_SEATS, state["seq"])
    n.check()
    vm_step(n)
    n.shoot("vm-resumed", "p2", "blue")


# -- the table's voice --------------------------------------------------------------------------------


def speech_on(n: Night) -> None:
    """Settings → Speech: On. The table says so (the stand-in voice records it)."""
    app = n.app
    app.tap("start.settings")
    app.wait_screen("settings")
    app.tap("settings.speech.on")
    assert app.heard(1, "the speaker check") == [ui_words("speech.check", "en")]
    n.spoken = 1
    n.shoot("settings-speech")
    app.tap("settings.back")
    app.wait_screen("start")


def spoken_since(n: Night, game_id: int, lang: str, already: int = 0) -> list[str]:
    """The game's announcements the table said since the last check (beyond its first ``already``
    ones), checked against what the public views of the saved game give; returns them."""
    expected = n.app.speech_of(game_id, lang)[already:]
    heard = n.app.heard(n.spoken + len(expected), f"the announcements of game {game_id}")
    assert heard[n.spoken :] == expected
    n.spoken += len(expected)
    return expected


# -- the evening -------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_game_night(tmp_path: Path) -> None:
    began = time.monotonic()
    with xvfb() as display:
        app = NightApp(display, tmp_path)
        app.start()
        try:
            with chromium_sync() as browser:
                n = Night(app, browser)
                n.shoot("start")
                speech_on(n)
                scotland_yard(n)
                sy_said = spoken_since(n, int(app.info()["game_id"]), "en")
                assert sy_said[-1] == text("sy.say.winner.detectives", None, "en"), sy_said
                assert re.fullmatch(r"(Detective|Bobby) \d catches Mister X at station \d+\.", sy_said[-2]), sy_said
                vm_game = victorian_masterminds(n)
                power_cut(n)
                vm_said = spoken_since(n, vm_game, "de")
                assert "Der Komplizenstapel in London ist abgehandelt." in vm_said, vm_said
                mykerinos(n)
                myk_said = spoken_since(n, int(app.info()["game_id"]), "de")
                assert myk_said[:2] == [
                    "Runde 1 ist zu Ende: die Auswertung beginnt.",
                    "Zählt Zone 1 von 4: Reihe 1 vom Spielplan, links.",
                ]
                assert myk_said[-2] == "Die Ausstellung ist gewertet. Das Spiel ist zu Ende.", myk_said
                assert re.search(r"gewinn(t|en) mit \d+ Punkt", myk_said[-1]), myk_said
                victorian_masterminds_resumed(n, vm_game)
                spoken_since(n, vm_game, "de", already=len(vm_said))
                print("the table said:\n" + "\n".join(app.said_texts()))
                print("\n".join(f"{t:6.1f} s  {name}" for name, t in n.laps))
                assert not n.cut_off, "texts cut off on the touchscreen:\n" + "\n".join(n.cut_off)
        finally:
            app.stop()
    print(f"the game night took {time.monotonic() - began:.0f} s")
