"""Playthroughs: every audience's view after every event, as readable text.

A reviewer reads a playthrough to check that no secret leaked: each step shows the event
(as only the debug audience may see it), then the table's view and every seat's view.
Golden playthrough files in the tests are produced by :func:`render`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from companion.core.audience import DEBUG, TABLE, Audience
from companion.core.game import Entry, Game, event_codec
from companion.core.jsonvalue import JSONObject, dumps


def audiences(game: Game[Any]) -> list[Audience]:
    return [TABLE, *(Audience.of_seat(s) for s in game.rules.seats(game.state))]


def steps(game: Game[Any]) -> Iterator[tuple[Entry | None, dict[str, JSONObject]]]:
    """Replay ``game`` from its start; yield (entry, {audience label: snapshot}) per event."""
    replay: Game[Any] = Game(game.rules, game.config, game.seed)
    yield None, {a.label(): replay.snapshot(a) for a in audiences(replay)}
    for entry in game.entries:
        # An action is committed as a whole; views are shown after each event of it too,
        # so a reader sees that even the middle of a double move leaks nothing.
        replay.append(entry)
        yield entry, {a.label(): replay.snapshot(a) for a in audiences(replay)}


def render(game: Game[Any], with_debug: bool = True) -> str:
    codec = event_codec(game.rules)
    lines: list[str] = [f"# playthrough of {game.rules.name}", f"# setup {dumps(game.config)}"]
    for entry, views in steps(game):
        if entry is None:
            lines.append("== start")
        else:
            lines.append(f"== event {entry.seq} (action {entry.action})")
            if with_debug:
                lines.append(f"  debug   {dumps(codec.encode(entry.event))}")
        for label, snap in views.items():
            lines.append(f"  {label:<7} {dumps(snap)}")
    return "\n".join(lines) + "\n"


def render_entries(game: Game[Any], labels: Sequence[str]) -> str:
    """Only the named audiences (e.g. what the table saw), for a focused read."""
    out = []
    for entry, views in steps(game):
        head = "start" if entry is None else f"event {entry.seq}"
        out.append(f"== {head}")
        out.extend(f"  {label:<7} {dumps(views[label])}" for label in labels if label in views)
    return "\n".join(out) + "\n"


__all__ = ["DEBUG", "audiences", "render", "render_entries", "steps"]
