"""Pulling the power loses nothing acknowledged: a real child process plays into a real SQLite
file and is killed with SIGKILL at random moments; the reopened file must fold to a state the
game really passed through, at or after the last acknowledged one, and never half an action."""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from drivers import DRIVERS, reference_run

from companion.app.savedgame import load_game
from companion.app.store import Store

CHILD = Path(__file__).with_name("crash_child.py")
RUNS = int(os.environ.get("COMPANION_CRASH_RUNS", "20"))


def run_and_kill(db: Path, driver: str, driver_seed: int, delay: float) -> int:
    """Start the child, let it play for ``delay`` seconds after it is ready, SIGKILL it; return the
    last acknowledged seq it printed."""
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(db), driver, str(driver_seed)],
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert proc.stdout is not None
    last_ack = 0
    deadline: float | None = None
    try:
        while True:
            timeout = 30.0 if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([proc.stdout], [], [], timeout)
            if not ready:
                break
            line = proc.stdout.readline()
            if not line:
                break
            if line.startswith("READY"):
                deadline = time.monotonic() + delay
            elif line.startswith("ACK "):
                last_ack = int(line.split()[1])
            if deadline is not None and time.monotonic() >= deadline:
                break
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        # Whatever the child acknowledged but we have not read yet still counts.
        rest = proc.stdout.read()
        for line in rest.splitlines():
            if line.startswith("ACK "):
                last_ack = int(line.split()[1])
    assert deadline is not None, "the child never became ready"
    return last_ack


@pytest.mark.slow
@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_sigkill_at_random_points_loses_nothing_acknowledged(tmp_path: Path, driver: str) -> None:
    rng = random.Random(20261121)
    positions = set()
    for run in range(RUNS):
        db = tmp_path / f"crash-{run}.sqlite3"
        driver_seed = rng.randrange(1 << 30)
        last_ack = run_and_kill(db, driver, driver_seed, rng.uniform(0.0, 0.6))

        with Store(db) as store:
            [header] = store.games()
            loaded = load_game(store, header.id)
        game = loaded.game
        assert game.seq >= last_ack, f"run {run}: acknowledged seq {last_ack} lost (log has {game.seq})"

        reference = reference_run(header.rules, header.config, header.seed, driver_seed, past_seq=game.seq)
        # Every logged event is the one the game really produced, in order ...
        assert game.entries == reference.entries[: game.seq]
        # ... whole actions only (the next entry, if any, starts a new action) ...
        if game.seq < reference.seq:
            nxt = reference.entries[game.seq]
            assert nxt.seq == nxt.action, f"run {run}: half an action survived"
        # ... and the folded state is the live state the game had there.
        replay = type(game)(game.rules, game.config, game.seed, reference.entries[: game.seq])
        assert game.state == replay.state
        positions.add(game.seq)
    # The kills really landed at many different points of the game.
    assert len(positions) >= RUNS // 3
