"""Deciding an action that causes several events: each one is folded onto a scratch copy of the
state, so the next step of ``decide`` sees its effect. Nothing is committed here — the events are
returned to the table, which commits them together; the scratch state is thrown away."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

from companion.core.events import Event

S = TypeVar("S")


def folded(apply: Callable[[S, Event], S], state: S, events: Iterable[Event]) -> S:
    """The state after ``events``."""
    for event in events:
        state = apply(state, event)
    return state


class Scratch(Generic[S]):
    """The events of one action so far, and the state they lead to."""

    def __init__(self, apply: Callable[[S, Event], S], state: S) -> None:
        self.apply = apply
        self.state = state
        self.events: list[Event] = []

    def emit(self, *events: Event) -> S:
        for event in events:
            self.events.append(event)
            self.state = self.apply(self.state, event)
        return self.state

    def settle(self, next_event: Callable[[S], Event | None], limit: int) -> tuple[Event, ...]:
        """Add what follows by itself (``next_event`` until it says None); at most ``limit`` steps."""
        for _ in range(limit):
            event = next_event(self.state)
            if event is None:
                return tuple(self.events)
            self.emit(event)
        raise RuntimeError("automatic steps did not settle")
