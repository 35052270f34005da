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


def quiet_env(data: Path) -> dict[str, str]:
    """The environment of a command typed over SSH to a machine with no screen (the seed stays)."""
    drop = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    return {**{k: v for k, v in os.environ.items() if k not in drop}, "COMPANION_DATA_DIR": str(data)}


def test_plain_companion_with_no_screen_says_so_and_holds_nothing(tmp_path: Path) -> None:
    """`companion` over SSH to a Pi with no screen ran the touchscreen app unseen for 40 s, holding
    the phones' port and the data lock. It says there is no screen and points to `companion serve`,
    on stderr, with exit code 2; the port and the saved games are free at once."""
    port = free_port()
    config = tmp_path / "companion.toml"
    config.write_text(f'[server]\nhost = "127.0.0.1"\nport = {port}\n')
    env = quiet_env(tmp_path / "data")
    for command in ([], ["run"], ["--lang", "fr"]):
        done = subprocess.run(
            [*COMPANION, "--config", str(config), *command], env=env, capture_output=True, text=True, timeout=120
        )
        assert (done.returncode, done.stdout) == (2, ""), done
        assert "companion serve" in done.stderr and "[cli.no_display]" in done.stderr, done.stderr
    assert "Il n'y a pas d'écran ici" in done.stderr
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))  # nobody took the phones' port
    made = subprocess.run(
        [*COMPANION, "--config", str(config), "new", "mykerinos", "seats=blue,red", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert json.loads(made.stdout) == {"game_id": 1, "through_app": False}  # the saved games were free


def test_a_screen_is_a_desktop_a_chosen_video_driver_or_a_connected_kms_output(tmp_path: Path) -> None:
    """How `companion` tells a screen (decided in companion/cli.py, see deploy/README.md): a Pi Lite's
    console with the official display runs Kivy on KMS/DRM with no DISPLAY; its connector says
    "connected" in sysfs (here a copy of that tree's shape)."""
    from companion.cli import has_screen

    drm = tmp_path / "drm"
    assert not has_screen({}, drm)  # no DRM at all: a server, a container
    (drm / "card1-HDMI-A-1").mkdir(parents=True)
    (drm / "card1-HDMI-A-1" / "status").write_text("disconnected\n")
    (drm / "card1").mkdir()  # the card itself has no status
    assert not has_screen({}, drm)  # a headless Pi
    assert has_screen({"DISPLAY": ":0"}, drm) and has_screen({"WAYLAND_DISPLAY": "wayland-0"}, drm)
    assert has_screen({"SDL_VIDEODRIVER": "kmsdrm"}, drm)  # the Lite service says so itself
    (drm / "card1-DSI-1").mkdir()
    (drm / "card1-DSI-1" / "status").write_text("connected\n")
    assert has_screen({}, drm)  # the official 7" display on the Pi's console


def test_mistakes_get_a_did_you_mean_on_stderr(tmp_path: Path) -> None:
    """A mistyped command, game, setup key, action or key gets "did you mean …?"; an unknown game
    lists the games; `--as d9` says the game has no such seat (not "Only the touchscreen can do
    this"); every refusal goes to stderr with exit code 2, nothing to stdout."""
    env = quiet_env(tmp_path)

    def refused(*args: str) -> str:
        done = subprocess.run([*COMPANION, "--lang", "en", *args], env=env, capture_output=True, text=True, timeout=120)
        assert (done.returncode, done.stdout) == (2, ""), done
        return done.stderr

    assert "There is no command shwo — did you mean show?" in refused("shwo", "--as", "table")
    err = refused("new", "scotlandyard")
    assert "did you mean scotland_yard?" in err and "scotland_yard, victorian_masterminds, mykerinos" in err
    err = refused("new", "scotland_yard", "detective=Dora")
    assert "did you mean detectives, detectives_ai, table_detectives?" in err
    subprocess.run(
        [*COMPANION, "new", "scotland_yard", "detectives=Dora,Emil"], env=env, check=True, capture_output=True
    )
    assert "did you mean sy.x_move" in refused("do", "sy.x_mvoe", "ticket=taxi", "station=1", "--as", "mrx")
    assert "did you mean ticket?" in refused("do", "sy.x_move", "tiket=taxi", "station=1", "--as", "mrx")
    for command in (["show"], ["legal"], ["undo"], ["do", "sy.draw_start"]):
        err = refused(*command, "--as", "d9")
        assert "This game has no seat d9. Its seats: mrx, d1, d2; or table." in err and "[cli.no_such_seat]" in err
        assert "touchscreen" not in err
    assert "repeat with --yes" in refused("delete", "1")
    done = subprocess.run([*COMPANION, "--lang", "fr", "hisotry"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "vouliez-vous dire history\u00a0?" in done.stderr, done
