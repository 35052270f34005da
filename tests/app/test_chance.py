"""A new game's seed: fresh randomness at a table, a repeatable sequence only where a test sets one."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.chance import TEST_SEED_ENV, Seeds

ROOT = Path(__file__).resolve().parents[2]


def test_a_table_draws_fresh_seeds_unless_a_test_fixed_them() -> None:
    fresh = Seeds.from_environment({})
    assert not fresh.fixed
    assert len({fresh.next() for _ in range(20)}) == 20  # 63 random bits each: never twice in a row
    one, two = Seeds.from_environment({TEST_SEED_ENV: "7"}), Seeds.from_environment({TEST_SEED_ENV: " 7 "})
    assert one.fixed and [one.next() for _ in range(5)] == [two.next() for _ in range(5)]
    assert all(0 <= Seeds(7).next() < 2**63 for _ in range(5))  # fits SQLite's integer
    assert Seeds(7).next() != Seeds(8).next()


def test_a_malformed_test_seed_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=f"{TEST_SEED_ENV} must be an integer"):
        Seeds.from_environment({TEST_SEED_ENV: "seven"})


def seeds_of_new_games(data: Path, test_seed: str | None) -> list[int]:
    """Start two games with the real command, in a fresh data directory, and read their seeds."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    env["COMPANION_DATA_DIR"] = str(data)
    if test_seed is not None:
        env[TEST_SEED_ENV] = test_seed
    for _ in range(2):
        command = [sys.executable, "-m", "companion.cli", "new", "scotland_yard", "detectives=A,B"]
        subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)
    with sqlite3.connect(data / "companion.sqlite3") as db:
        return [seed for (seed,) in db.execute("SELECT seed FROM games ORDER BY id")]


def test_a_command_repeats_its_games_only_under_a_test_seed(tmp_path: Path) -> None:
    """Every game a test creates, in any process, repeats exactly; without the variable each game
    gets its own fresh seed."""
    first = seeds_of_new_games(tmp_path / "a", "11")
    again = seeds_of_new_games(tmp_path / "b", "11")
    # Each command is a process of its own, whose sequence starts anew: both games get its first seed.
    assert first == again == [Seeds(11).next()] * 2
    fresh = seeds_of_new_games(tmp_path / "c", None)
    assert len(set(fresh)) == 2 and not set(fresh) & set(first)
