"""A file the card tore anyway: the app says so, keeps a copy, and the table still starts.

Every file is flushed before it counts (docs/power-cuts.md), so the forgetting file system never
tears one; a real card's controller may all the same (a page it was writing when the power went,
under-voltage). What must then hold (issue: "Nothing may be repaired silently: if a file is found
torn, the app says so and keeps a copy"): ``companion serve`` starts, plays, names each damaged
file on the host page and in ``companion status``, and keeps its bytes as found beside it.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from evening import ROOT, SETUPS, Client, free_port  # noqa: E402

from companion.app.chance import TEST_SEED_ENV  # noqa: E402
from companion.app.store import Store, connect  # noqa: E402
from companion.files import damaged_copies  # noqa: E402

WAIT = 30.0


def _env(config: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    env.update(COMPANION_CONFIG=str(config), PYTHONPATH=str(ROOT), KIVY_NO_ARGS="1", **{TEST_SEED_ENV: "4040"})
    return env


def _cli(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        env=_env(config),
        capture_output=True,
        text=True,
        timeout=WAIT,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
        check=False,
    )


def _table(tmp_path: Path) -> tuple[Path, Path, int]:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    port = free_port()
    config = tmp_path / "companion.toml"
    config.write_text(
        f'[server]\nhost = "127.0.0.1"\nport = {port}\npublic_address = "127.0.0.1"\n'
        f'[table]\nlanguage = "en"\ndata_dir = "{data}"\n'
        f'[speech]\nvoice = "record"\nrecord = "{tmp_path / "said.jsonl"}"\n',
        "utf-8",
    )
    return config, data, port


def _serve(config: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve"],
            env=_env(config),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            cwd=ROOT,
        )
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"serve ended with {proc.returncode}: {log.read_text('utf-8')[-2000:]}"
        try:
            import socket

            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("serve did not come up")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(WAIT) == 0


async def _host_page(config: Path, port: int, new_game: str | None = None) -> tuple[list[str], list[dict[str, Any]]]:
    """What the host page shows once the Pi's warnings were read: its warnings and saved games
    (after starting ``new_game`` there, when given)."""
    made = await asyncio.to_thread(_cli, config, "host-link")
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip().splitlines()[-1].rsplit("/h/", 1)[1]
    async with aiohttp.ClientSession() as session:
        host = Client(await session.ws_connect(f"http://127.0.0.1:{port}/host/ws"))
        try:
            await host.ws.send_str(json.dumps({"type": "hello", "token": token}))
            await host.until("welcome")
            if new_game is not None:
                args = {"rules": new_game, "setup": SETUPS[new_game], "title": "After the cut"}
                await host.send({"type": "do", "id": 0, "op": "new_game", "args": args})
                assert (await host.until("done", "refused"))["type"] == "done"
            end = time.monotonic() + WAIT
            while time.monotonic() < end:
                state = await host.until("host", timeout=end - time.monotonic())
                if state.get("warnings") and (new_game is None or state.get("current")):
                    return list(state["warnings"]), list(state["games"])
            raise AssertionError("the host page showed no warning")
        finally:
            await host.close()


def test_a_torn_database_tag_table_and_host_token_are_kept_said_and_the_table_plays_on(tmp_path: Path) -> None:
    config, data, port = _table(tmp_path)
    store = Store(data / "companion.sqlite3")
    try:
        assert store.create_game("mykerinos", "Before the cut", SETUPS["mykerinos"], seed=7) == 1
    finally:
        store.close()
    # What a card may leave: the database's first sector zeroed (its header), the tag table cut
    # mid-entry, the host token's sector of another file's bytes.
    db = data / "companion.sqlite3"
    raw = bytearray(db.read_bytes())
    raw[:512] = bytes(512)
    db.write_bytes(bytes(raw))
    torn_db = bytes(raw)
    torn_tags = b'{"format": "companion.tags", "version": 1, "tags": [{"uid": "0401'
    (data / "tags.json").write_bytes(torn_tags)
    (data / "host-token").write_bytes(b"\x00\x00\xff\x13")

    log = tmp_path / "serve.log"
    proc = _serve(config, port, log)
    try:
        warnings, games = asyncio.run(_host_page(config, port, new_game="scotland_yard"))
        assert [g["title"] for g in games] == ["After the cut"]  # a new, empty file: the table plays
        # (the host token was set aside by `companion host-link`, after the server's first look at
        # the Pi's health: its warning comes with the next look, 30 s on, or the next start)
        assert len(warnings) == 2, warnings
        assert warnings[0].startswith("The saved games could not be read")
        assert "companion.sqlite3.damaged-" in warnings[0]
        assert warnings[1].startswith("tags.json could not be read") and "tags.json.damaged-" in warnings[1]
    finally:
        _stop(proc)
    copies = {p.name.partition(".damaged-")[0]: p for p in damaged_copies(data)}
    assert sorted(copies) == ["companion.sqlite3", "host-token", "tags.json"]
    assert copies["companion.sqlite3"].read_bytes() == torn_db and copies["tags.json"].read_bytes() == torn_tags
    assert copies["host-token"].read_bytes() == b"\x00\x00\xff\x13"
    assert len((data / "host-token").read_text("ascii").strip()) == 32  # a new token, whole

    status = _cli(config, "status")
    assert status.returncode == 0, status.stderr
    said = [line for line in status.stdout.splitlines() if "could not be read" in line]
    assert len(said) == 3 and all(line.startswith("WARNING") for line in said), status.stdout

    # The next start finds nothing new to set aside, says the same until the copies go, then nothing.
    proc = _serve(config, port, log)
    try:
        warnings, games = asyncio.run(_host_page(config, port))
        assert len(warnings) == 3 and [g["title"] for g in games] == ["After the cut"]
        assert any(w.startswith("host-token could not be read") for w in warnings), warnings
    finally:
        _stop(proc)
    assert len(damaged_copies(data)) == 3
    for copy in copies.values():
        copy.unlink()
    status = _cli(config, "status")
    assert "could not be read" not in status.stdout and "WARNING" not in status.stdout, status.stdout


def test_a_page_torn_inside_the_saved_games_is_found_after_a_stop_that_was_not_clean(tmp_path: Path) -> None:
    """A damaged page deep in the file (not its header) is found by ``quick_check`` when the last
    stop left a WAL (not clean), and the file is set aside with its WAL rather than read wrong."""
    made = tmp_path / "made" / "companion.sqlite3"
    made.parent.mkdir()
    store = Store(made)
    try:
        for n in range(30):
            store.create_game("mykerinos", f"Game {n} " + "x" * 400, SETUPS["mykerinos"], seed=n)
    finally:
        store.close()  # a clean stop: everything is in the file
    live = sqlite3.connect(made, isolation_level=None)
    live.execute("PRAGMA journal_mode=WAL")
    live.execute("UPDATE games SET title = 'renamed' WHERE id = 1")  # a commit still in the WAL
    path = tmp_path / "companion.sqlite3"
    for suffix in ("", "-wal"):  # what the card holds when the power goes now
        Path(f"{path}{suffix}").write_bytes(Path(f"{made}{suffix}").read_bytes())
    live.close()
    wal = Path(f"{path}-wal").read_bytes()
    assert len(wal) > 32
    page = sqlite3.connect(made).execute("PRAGMA page_size").fetchone()[0]
    pages = path.stat().st_size // page
    assert pages > 4
    raw = bytearray(path.read_bytes())
    raw[page * (pages - 2) : page * (pages - 1)] = b"\xa5" * page  # a leaf page of other bytes
    path.write_bytes(bytes(raw))

    db = connect(path)  # the table's own open
    try:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0  # a new file
    finally:
        db.close()
    (copy,) = damaged_copies(tmp_path)
    assert copy.read_bytes() == bytes(raw) and Path(f"{copy}-wal").read_bytes() == wal  # as found

    # A clean stop leaves no WAL: the same open then reads the (whole) file without the check.
    clean = tmp_path / "clean"
    clean.mkdir()
    store = Store(clean / "companion.sqlite3")
    store.create_game("mykerinos", "kept", SETUPS["mykerinos"], seed=1)
    store.close()
    assert not Path(f"{clean / 'companion.sqlite3'}-wal").exists()
    db = connect(clean / "companion.sqlite3")
    try:
        assert db.execute("SELECT title FROM games").fetchall() == [("kept",)]
    finally:
        db.close()
    assert damaged_copies(clean) == []
