"""The command line for people: readable answers, ``kind key=value`` intents, ``legal``, a setup
that must be complete, the history and its BG Stats link, --json for programs, a closed pipe,
and ``serve --host/--port`` (real processes where a terminal or a pipe matters)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.app import bgstats
from companion.cli import main

COMPANION = [sys.executable, "-m", "companion.cli"]


def run(capsys: pytest.CaptureFixture[str], data: Path, *args: str) -> tuple[int, str, str]:
    code = main(["--data-dir", str(data), "--lang", "en", *args])
    out, err = capsys.readouterr()
    return code, out, err


def ok(capsys: pytest.CaptureFixture[str], data: Path, *args: str) -> str:
    """A command that must succeed; its output."""
    code, out, err = run(capsys, data, *args)
    assert (code, err) == (0, ""), err
    return out


def test_new_refuses_an_incomplete_setup_and_lists_the_keys(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, tmp_path, "new", "scotland_yard")
    assert code == 2 and out == ""
    assert "detectives missing" in err
    for key in ("mister_x", "detectives", "tracker", "bobbies_keep_game_alive", "board"):
        assert f"  {key}=" in err
    assert "companion new scotland_yard detectives=Dora,Emil" in err
    code, out, err = run(capsys, tmp_path, "games")
    assert out.strip() == "No saved games."  # nothing was created
    code, _, err = run(capsys, tmp_path, "new", "victorian_masterminds", "secret_service_start=4")
    assert code == 2 and "players missing" in err
    code, _, err = run(capsys, tmp_path, "new", "scotland_yard", "detectives=Dora", "mr_x=Xavier")
    assert code == 2 and "[cli.unknown_setup_key]" in err


def test_a_short_game_in_words(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = ok(capsys, tmp_path, "new", "scotland_yard", "mister_x=Xavier", "detectives=Dora", "--title", "Friday")
    assert out.startswith("Game 1 started")
    out = ok(capsys, tmp_path, "show", "--as", "table")
    lines = out.splitlines()
    assert lines[0] == "Game 1 · Scotland Yard · Friday · step 0 · seen as the table"
    assert "the start stations are not set yet" in lines[1]
    assert any(line.startswith("Dora (Detective 1): D1 (not placed), D2 (not placed)") for line in lines)
    out = ok(capsys, tmp_path, "legal", "--as", "table")
    assert "sy.place_detectives stations=<text>:<number>,…" in out
    out = ok(capsys, tmp_path, "do", "sy.place_detectives", "stations=D1:13,D2:26,B1:29,B2:34", "--as", "table")
    assert out.startswith("ok: The detectives' start stations are set.")
    out = ok(capsys, tmp_path, "do", "sy.place_x", "station=51", "--as", "mrx")
    assert "Now: Round 1/22 · Mister X moves" in out
    out = ok(capsys, tmp_path, "show", "--as", "mrx")
    assert "You (Mister X) are at station 51." in out
    out = ok(capsys, tmp_path, "show", "--as", "debug")  # everything, worded for whoever reads it
    assert "Mister X is at station 51 (the debug view sees every secret)." in out and "You (" not in out
    out = ok(capsys, tmp_path, "show", "--as", "d1")
    assert "51" not in out  # Mister X's station is his secret
    out = ok(capsys, tmp_path, "do", "sy.x_move", "ticket=taxi", "station=67", "--as", "mrx")
    assert out.startswith("ok: Mister X went by Taxi to 67.")
    assert "Now: Round 1/22 · the detectives move (still to move: D1, D2, B1, B2)" in out
    out = ok(capsys, tmp_path, "show", "--as", "table")
    assert "Travel log: 1 Taxi" in out and "67" not in out
    code, out, err = run(capsys, tmp_path, "do", "sy.move", "figure=D2", "ticket=bus", "station=67", "--as", "d1")
    assert code == 2 and "[sy.not_connected]" in err
    out = ok(capsys, tmp_path, "do", "sy.move", "figure=D1", "ticket=underground", "station=67", "--as", "d1")
    assert out.startswith("ok: D1 went by Underground to 67.")
    assert "Mister X has been caught – the detectives win!" in out
    out = ok(capsys, tmp_path, "history")
    assert "Scotland Yard" in out and "Dora ★" in out and "Xavier" in out
    out = ok(capsys, tmp_path, "history", "--bgstats", "1", "--json")
    data = json.loads(out)
    assert data["data"] == bgstats.decode(data["link"])
    assert [p["winner"] for p in data["data"]["players"]] == [False, True]
    out = ok(capsys, tmp_path, "history", "--csv")
    assert out.splitlines()[0].startswith("game_id,game,title,started,finished,minutes,seat,player")
    assert len(out.splitlines()) == 3
    out = ok(capsys, tmp_path, "--lang", "de", "show", "--as", "table")
    assert "Fahrtentafel: 1 Taxi → 67" in out  # over: the route is public; German words


def test_json_stays_for_programs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    run(capsys, tmp_path, "new", "mykerinos", "seats=blue,red", "--json")
    out = ok(capsys, tmp_path, "show", "--as", "table", "--json")
    snapshot = json.loads(out)
    assert snapshot["game"] == "mykerinos" and snapshot["view"]["phase"] == "setup"
    out = ok(capsys, tmp_path, "do", '{"kind": "myk.draw_start_player"}', "--as", "table", "--json")
    assert json.loads(out) == {"game_id": 1, "seq": 1, "through_app": False}
    out = ok(capsys, tmp_path, "legal", "--as", "table", "--json")
    assert json.loads(out)["legal"][0]["kind"] == "myk.draw_patrons"
    out = ok(capsys, tmp_path, "games", "--json")
    assert json.loads(out)[0]["current"] is True


def test_version_and_help_say_something_for_every_argument(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == "companion 0.1.0"
    from companion.cli import build_parser

    parser = build_parser()
    for action in parser._actions:
        assert action.help, action
    sub = next(a for a in parser._actions if a.choices and isinstance(a.choices, dict))
    for name, p in sub.choices.items():
        for action in p._actions:
            assert action.help, (name, action.dest)


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """`companion show | true`: the reader is gone before the first line is written (`true` reads
    nothing), and every command still ends without a "Broken pipe" traceback."""
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path)}
    command = " ".join(COMPANION)
    subprocess.run([*COMPANION, "new", "scotland_yard", "detectives=A,B"], env=env, check=True, capture_output=True)
    for args in ("show --as table", "show --as table --json", "legal --as table", "games", "history --json"):
        done = subprocess.run(["bash", "-c", f"{command} {args} | true"], env=env, capture_output=True, text=True)
        assert done.stderr == "", (args, done.stderr)
    done = subprocess.run(
        ["bash", "-c", f"{command} show --as table | head -1"], env=env, capture_output=True, text=True
    )
    assert done.stderr == "" and done.stdout.startswith("Game 1 · Scotland Yard")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_serve_listens_where_it_is_told(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path)}
    proc = subprocess.Popen(
        [*COMPANION, "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
                assert time.monotonic() < deadline, "serve never listened"
                time.sleep(0.2)
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    assert f":{port}" in out
    assert proc.returncode == 0
