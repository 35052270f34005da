"""The protocol documents list every refusal their game can give: a phone or a script that gets a
code finds it in docs/protocol/<game>.md (Mykerinos' listed about a dozen of its ~40)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.core import errors

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"scotland_yard": "scotland-yard", "victorian_masterminds": "victorian-masterminds", "mykerinos": "mykerinos"}
# Error("code", ...) for every class of the core's error tree: a refusal, not a log line or a notice.
REFUSALS = tuple(
    name for name, value in vars(errors).items() if isinstance(value, type) and issubclass(value, errors.CompanionError)
)
RAISED = re.compile(r"\b(" + "|".join(REFUSALS) + r")\(\s*\"([a-z]+\.[a-z_.]+)\"")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_refusal_of_a_game_is_in_its_protocol_document(game: str) -> None:
    raised = {
        code
        for source in (ROOT / "companion" / "games" / game).glob("*.py")
        for _, code in RAISED.findall(source.read_text())
    }
    document = (ROOT / "docs" / "protocol" / f"{GAMES[game]}.md").read_text()
    assert len(raised) >= 10, raised  # the pattern still finds the game's refusals
    assert sorted(code for code in raised if f"`{code}`" not in document and f"`{code} " not in document) == []
