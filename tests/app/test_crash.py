"""Pulling the power loses nothing acknowledged: a real child process plays into a real SQLite
file and is killed with SIGKILL at random moments; the reopened file must fold to a state the
game really passed through, at or after the last acknowledged one, and never half an action."""

from __future__ import annotations

import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

import pytest
from drivers import DRIVERS, reference_run

from companion.app.savedgame import load_game
from companion.app.store import Store

CHILD = Path(__file__).with_name("crash_child.py")
RUNS = int(os.environ.get("COMPANION_CRASH_RUNS", "20"))


LONGEST = 400  # events: the kills land in the first 400 events of a game (or at its end)


def _read_lines(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)  # the child's end of the pipe is closed


def run_and_kill(db: Path, driver: str, game_seed: int, driver_seed: int, kill_at: int, linger: float) -> int:
    """Start the child, which plays until its log reaches ``kill_at`` (0: at once), says ``ARMED``
    and plays one action more; SIGKILL it ``linger`` seconds after ``ARMED`` (0: most often while
    that action is being written); return the last acknowledged seq it printed. Where the kill
    lands is chosen by the test, not by how fast the machine is."""
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(db), driver, str(game_seed), str(driver_seed), str(kill_at)],
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert proc.stdout is not None
    # Lines are read by a thread: select() on the pipe would wait for more bytes while the lines the
    # child already wrote ("ACK 79", "END") sit in the reader's buffer, until the deadline.
    lines: queue.Queue[str | None] = queue.Queue()
    reader = threading.Thread(target=_read_lines, args=(proc.stdout, lines), daemon=True)
    reader.start()
    last_ack = 0
    ready = False
    try:
        deadline = time.monotonic() + 120  # a loaded machine: generous, never part of the result
        while True:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            ready = ready or line.startswith("READY")
            if line.startswith("ACK "):
                last_ack = int(line.split()[1])
            if line.startswith(("ARMED", "END")):
                break
        time.sleep(linger)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        reader.join(timeout=30)
        # Whatever the child acknowledged but we have not read yet still counts.
        while not lines.empty():
            line = lines.get()
            if line is not None and line.startswith("ACK "):
                last_ack = int(line.split()[1])
    assert ready, "the child never became ready"
    return last_ack


@pytest.mark.slow
@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_sigkill_at_random_points_loses_nothing_acknowledged(tmp_path: Path, driver: str) -> None:
    rng = random.Random(20261121)
    rules_name, config, _ = DRIVERS[driver]
    positions = set()
    for run in range(RUNS):
        db = tmp_path / f"crash-{run}.sqlite3"
        game_seed, driver_seed = rng.randrange(1 << 62), rng.randrange(1 << 30)
        # The game as it goes on, a little past the latest kill point (the child plays one action on).
        whole = reference_run(rules_name, config, game_seed, driver_seed, past_seq=LONGEST + 60)
        kill_at = rng.randrange(min(whole.seq, LONGEST) + 1)  # any point, the game's end included
        last_ack = run_and_kill(db, driver, game_seed, driver_seed, kill_at, rng.choice((0.0, 0.0, 0.002, 0.01)))

        with Store(db) as store:
            [header] = store.games()
            loaded = load_game(store, header.id)
        game = loaded.game
        assert header.seed == game_seed
        assert game.seq >= last_ack, f"run {run}: acknowledged seq {last_ack} lost (log has {game.seq})"

        # Every logged event is the one the game really produced, in order ...
        assert game.entries == whole.entries[: game.seq]
        # ... whole actions only (the next entry, if any, starts a new action) ...
        if game.seq < whole.seq:
            nxt = whole.entries[game.seq]
            assert nxt.seq == nxt.action, f"run {run}: half an action survived"
        # ... and the folded state is the live state the game had there.
        replay = type(game)(game.rules, game.config, game.seed, whole.entries[: game.seq])
        assert game.state == replay.state
        positions.add(game.seq)
    # The kills really landed at many different points of the game (chosen above, so this holds
    # on a slow machine too).
    assert len(positions) >= RUNS // 3
