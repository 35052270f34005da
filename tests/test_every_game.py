"""What the recipe (docs/adding-a-game.md) promises of every registered game, checked for each one
— the boxed games, the test game and whichever game is added next, with no list to extend:

- its rules subclass the one base (``companion.core.rules.Rules``), so every optional part has its
  default there and nothing is looked up by name;
- it has a random legal player in ``tests/drivers.py`` (the crash, checkpoint and benchmark runs use
  it too);
- every state of a random game can be written down as a checkpoint and read back (a field the
  codec cannot write is refused when the game starts, see ``tests/core/test_checkpoints.py``);
- "who acts now" is one method: ``rules.acting(state)`` is what every audience's view says in
  ``acting`` (the seat lights read it), names only seats of the game, and a seat that is not acting
  is never the one a turn's move is offered to;
- its own catalogue names it in every language it has: ``game.<name>``, ``game.<name>.about``, the
  summary's ``<prefix>.sum.game`` (the command line, the history, the host page) and every setup
  key's words, and the summary's status line reads as words, never as a code.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from drivers import DRIVERS

from companion.app import readable
from companion.app.i18n import LANGUAGES, package_texts
from companion.core import TABLE, Audience, Game, Intent
from companion.core.checkpoint import encode_state, state_reader
from companion.core.rules import Rules
from companion.games import entry, game_names, get_rules, get_summary

STEPS = 150  # actions of each random game


def test_every_registered_game_has_a_random_player() -> None:
    assert set(DRIVERS) == set(game_names())


def seats_offered_a_turn(legal: Any) -> set[str]:
    """The seats the moves in a ``legal`` value name (``"seat": ...`` anywhere in it)."""
    found: set[str] = set()
    stack = [legal]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if isinstance(value.get("seat"), str):
                found.add(value["seat"])
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found


@pytest.mark.parametrize("name", game_names())
def test_a_random_game_keeps_the_contract(name: str) -> None:
    rules = get_rules(name)
    assert isinstance(rules, Rules)
    _rules_name, config, choose = DRIVERS[name]
    game: Game[Any] = Game(rules, config, seed=11)
    read = state_reader(game.start)
    rng = random.Random(12)
    summary = get_summary(name)
    acted_by: set[str] = set()
    for _ in range(STEPS):
        state = game.state
        assert read(encode_state(state, game.start)) == state  # every state can be written down
        acting = rules.acting(state)
        seats = rules.seats(state)
        assert set(acting) <= set(seats), acting
        for audience in (TABLE, *(Audience.of_seat(s) for s in seats)):
            snapshot = game.snapshot(audience)
            assert snapshot["view"]["acting"] == list(acting), audience
        for seat in seats:
            if seat not in acting:
                # A seat that is not acting is offered no move that names another seat's turn,
                # nor one of its own turn.
                legal = game.snapshot(Audience.of_seat(seat))["legal"]
                assert seats_offered_a_turn(legal) <= {seat}, (seat, legal)
        status = readable.line(summary.status(game.snapshot(TABLE)["view"]), "en")
        assert status and not status.startswith(f"{summary.prefix}."), status
        if game.outcome() is not None:
            break
        choice = choose(game, rng)
        if choice is None:
            break
        intent, actor = choice
        acted_by.update(_seat_of(intent, actor))
        game.commit(game.decide(intent, actor, game.seq))
    assert game.seq > 5, "the random player played"
    assert acted_by, "somebody acted"


def _seat_of(intent: Intent, actor: Audience) -> set[str]:
    return {actor.seat} if actor.seat is not None else set()


@pytest.mark.parametrize("name", game_names())
def test_a_games_own_catalogue_names_it_in_every_language_it_has(name: str) -> None:
    summary = get_summary(name)
    needed = {f"game.{name}", f"game.{name}.about", f"{summary.prefix}.sum.game"}
    needed |= {f"{summary.prefix}.setup_key.{k.key}" for k in summary.setup_keys}
    texts = package_texts(entry(name).package)
    languages = [lang for lang in LANGUAGES if texts[lang]]
    assert "en" in languages
    if entry(name).package.startswith("companion.games."):
        assert languages == list(LANGUAGES)  # a boxed game speaks every language of the table
    for lang in languages:
        assert needed <= set(texts[lang]), (lang, sorted(needed - set(texts[lang])))
