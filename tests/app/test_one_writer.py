"""One writer per data directory, with real processes (issue 12, item 3): ``companion serve`` holds
the lock; a second ``serve`` or ``run`` is refused with a message saying what to do (never "address
already in use"); the command line's writing commands act through the running app over its local
socket, so the running server never trips over a commit made behind its back; after a SIGKILL the
lock is free again and the command line writes on its own."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
from pathlib import Path

import aiohttp
import pytest
from served import Box

SETUP = '{"mister_x": "Xavier", "detectives": ["Dora"]}'


async def table_link_state(port: int, token: str, seq: int) -> dict[str, object]:
    """Join the table link as a real web socket phone and wait for the state at ``seq``."""
    async with aiohttp.ClientSession() as session, session.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
        await ws.send_json({"type": "hello", "token": token, "device": "ab" * 32})
        async with asyncio.timeout(30):
            while True:
                message = json.loads((await ws.receive()).data)
                if message["type"] == "state" and message["seq"] >= seq:
                    return message  # type: ignore[no-any-return]


def test_one_writer_per_data_directory(tmp_path: Path) -> None:
    box = Box(tmp_path)
    made = box.cli("new", "scotland_yard", "--setup", SETUP, "--title", "Friday", "--json")
    assert json.loads(made.stdout) == {"game_id": 1, "through_app": False}, made  # nothing runs yet: done here
    server = box.serve()
    try:
        # A second server (or the touchscreen app) on the same saved games is refused, in words.
        for command in ("serve", "run"):
            second = box.cli(command)
            assert second.returncode == 2, second
            assert "already running" in second.stderr and "sudo systemctl stop companion" in second.stderr
            assert "address already in use" not in second.stderr.lower()
            assert f"process {server.pid}" in second.stderr and "[writer.running]" in second.stderr

        # Writing commands act through the running table: its phones see them at once.
        draw = box.cli("do", '{"kind": "sy.draw_start"}', "--as", "table", "--json")
        assert draw.returncode == 0, draw
        assert json.loads(draw.stdout) == {"game_id": 1, "seq": 2, "through_app": True}  # D cards and X card
        state = asyncio.run(table_link_state(box.port, box.token("@table"), 2))
        assert state["seq"] == 2 and state["title"] == "Friday"
        # In words, the answer says who did it.
        words = box.cli("do", "sy.set_tracker", "on=true", "--as", "table")
        assert words.returncode == 0 and "Done by the running table" in words.stdout, words
        # A refusal from the running table comes back as the table's own words and code.
        bad = box.cli("do", '{"kind": "sy.draw_start"}', "--as", "table")
        assert bad.returncode == 2 and "[sy.already_started]" in bad.stderr, bad
        # Reading commands read the saved games directly.
        shown = box.cli("show", "--as", "table", "--json")
        assert shown.returncode == 0 and json.loads(shown.stdout)["seq"] == 3
        # A new game through the app: the running table switches (and lets go of the old phones).
        second_game = box.cli("new", "scotland_yard", "--setup", SETUP, "--title", "Second", "--json")
        assert json.loads(second_game.stdout) == {"game_id": 2, "through_app": True}, second_game
        back = box.cli("open", "1")
        assert back.returncode == 0 and "Done by the running table" in back.stdout
        undo = box.cli("undo", "--as", "table", "--json")
        assert json.loads(undo.stdout)["seq"] == 4  # the tracker switch is undone (an undo marker appended)
        never = box.cli("undo", "--as", "table")
        assert never.returncode == 2 and "[undo.not_allowed]" in never.stderr  # start cards are never undone
    finally:
        server.send_signal(signal.SIGKILL)  # a power cut: the kernel lets go of the lock
        server.wait(10)
    log = box.rest_of_output(server)
    assert "Traceback" not in log and "IntegrityError" not in log, log

    # Nothing runs now: the command line writes on its own, on top of what the app committed.
    alone = box.cli("do", '{"kind": "sy.x_move", "ticket": "taxi", "station": 1}', "--as", "mrx")
    assert "Done by the running table" not in alone.stdout + alone.stderr
    assert alone.returncode == 2 and "[sy." in alone.stderr, alone  # decided here, against the state the app left
    tracker = box.cli("do", "sy.set_tracker", "on=true", "--as", "table", "--json")
    assert json.loads(tracker.stdout) == {"game_id": 1, "seq": 5, "through_app": False}, tracker
    games = box.cli("games")
    assert games.returncode == 0 and "* " in games.stdout and "Second" in games.stdout


def test_serve_on_a_taken_port_says_what_to_do(tmp_path: Path) -> None:
    """Another data directory (e.g. a user's own next to the table service): the lock does not
    meet, but the port does — the answer is a sentence, not "address already in use"."""
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        box = Box(tmp_path, port=blocker.getsockname()[1])
        result = box.cli("serve")
    assert result.returncode == 2, result
    assert "[net.port_taken]" in result.stderr and "sudo systemctl stop companion" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to act as another user")
def test_another_user_cannot_reach_the_running_app_and_is_told_what_to_do(tmp_path: Path) -> None:
    """The socket is the running table's door: only its own user may open it. Another user (a
    forked child that dropped to ``nobody``) can neither take the lock nor talk to the app, and
    is told what to do instead."""
    from companion.app.i18n import error_text
    from companion.app.writer import WriterLock, ask_running_app
    from companion.core import CompanionError

    error_text(CompanionError("writer.unreachable"))  # the texts are read before dropping the user
    box = Box(tmp_path)
    assert box.cli("new", "scotland_yard", "--setup", SETUP).returncode == 0
    for path in (tmp_path, box.data):
        os.chmod(path, 0o755)
    server = box.serve()
    try:
        sock = box.data / "companion.sock"
        assert sock.is_socket() and sock.stat().st_mode & 0o777 == 0o600
        read_end, write_end = os.pipe()
        child = os.fork()
        if child == 0:  # the other user
            try:
                os.setgid(65534)
                os.setuid(65534)
                lock = WriterLock(box.data)
                answer = "took the lock" if lock.try_acquire("cli") else ""
                if not answer:
                    try:
                        ask_running_app(lock, {"op": "status"}, timeout=10)
                        answer = "reached the app"
                    except CompanionError as exc:
                        answer = f"{exc.code}|{error_text(exc)}"
                os.write(write_end, answer.encode())
            except BaseException as exc:
                os.write(write_end, repr(exc).encode())
            finally:
                os._exit(0)
        os.close(write_end)
        os.waitpid(child, 0)
        answer = os.read(read_end, 4096).decode()
        os.close(read_end)
        code, _, words = answer.partition("|")
        assert code == "writer.unreachable", answer
        assert "sudo systemctl stop companion" in words and "touchscreen" in words
        # The app's own user is answered.
        assert box.cli("do", '{"kind": "sy.draw_start"}', "--as", "table").returncode == 0
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait(10)


def test_the_app_runs_on_where_no_local_socket_can_be_made(tmp_path: Path) -> None:
    """A data directory where no Unix socket can be made (here: its folder is gone) must not keep
    the table dark; the command line then says it cannot reach the table."""
    from companion.app.store import Store
    from companion.app.table import Table
    from companion.app.writer import CommandServer, WriterLock, ask_running_app
    from companion.core import CompanionError

    async def scenario() -> None:
        lock = WriterLock(tmp_path / "data").acquire("serve")
        table = Table(Store(tmp_path / "data" / "companion.sqlite3"))
        await table.start()
        commands = CommandServer(table, lock)
        commands.path = tmp_path / "gone" / "companion.sock"
        await commands.start()  # logs a warning, raises nothing
        await commands.close()
        other = WriterLock(tmp_path / "data")
        assert not other.try_acquire("cli")
        try:
            ask_running_app(other, {"op": "status"}, timeout=5)
        except CompanionError as exc:
            assert exc.code == "writer.unreachable"
        else:
            raise AssertionError("reached an app that has no socket")
        await table.stop()
        table.store.close()
        lock.release()

    asyncio.run(scenario())
