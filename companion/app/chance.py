"""Where a new game's seed comes from.

A game's seed decides every draw its rules make with ``decide``'s ``rng`` (start cards, shuffles,
the patrons' order); the draws are recorded as events, so a replay never draws again. At a real
table each new game gets fresh randomness from the operating system (:mod:`secrets`), and no
screen, command or file lets a player choose it.

Tests must repeat exactly, including the games that an app process, a command or a phone starts
(the new-game screen, the host page, ``companion new``). For them, and only for them, the
environment variable ``COMPANION_TEST_SEED`` (an integer) makes every :class:`Seeds` of the process
draw its seeds from ``random.Random(<that integer>)`` in order: the first game a table starts
gets the same seed on every run, the second the same second seed, and so on. ``tests/conftest.py``
sets it for every test (from the test's name); ``docs/testing.md`` says how to use it.
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Mapping

TEST_SEED_ENV = "COMPANION_TEST_SEED"
SEED_BITS = 63  # a seed fits SQLite's signed 64-bit integer


class Seeds:
    """The seeds of the games one table starts: fresh randomness, or a fixed sequence for tests."""

    def __init__(self, test_seed: int | None = None) -> None:
        self._draw = random.Random(test_seed) if test_seed is not None else None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Seeds:
        text = environ.get(TEST_SEED_ENV, "").strip()
        if not text:
            return cls()
        try:
            return cls(int(text))
        except ValueError:
            raise ValueError(f"{TEST_SEED_ENV} must be an integer, not {text!r}") from None

    @property
    def fixed(self) -> bool:
        """True when a test fixed the sequence."""
        return self._draw is not None

    def next(self) -> int:
        """The seed of the next game."""
        if self._draw is None:
            return secrets.randbits(SEED_BITS)
        return self._draw.getrandbits(SEED_BITS)
