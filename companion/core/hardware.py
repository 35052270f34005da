"""A game's part in the box's hardware: what its buttons and pieces mean, and what its lights show.

A game package offers one :class:`HardwareRules` as ``HARDWARE`` (found through the registry in
``companion.games``). The router on the hardware side (``hardware/router.py``) looks up which
*action* a button role or an enrolled piece kind is bound to (the game's default ``bindings``,
with a table's own file laid over them, see ``companion/app/bindings.py``) and calls it with an
:class:`Input`: the *public* table message and the seat the input acts for. The action returns a
:data:`Result`: an intent to submit (the same intents the screens send, so every rule check
applies), a selection for the touchscreen, a value to remember secretly for a seat, a button for
the screen, or a notice. The lights are computed from the public table view as well, so nothing a
game hides ever reaches a light or a sound.

Standard library only; all functions here are pure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from companion.core.audience import Audience
from companion.core.events import Intent
from companion.core.jsonvalue import JSON, JSONObject, as_list, as_object


@dataclass(frozen=True)
class Input:
    """One raw input, ready for an action: the *public* table message, and who acts."""

    message: JSONObject  # the table audience's message: {"view", "legal", "seq", ...}
    seat: str | None  # the game seat the input acts for (a seat's reader or button); None: the table
    place: str | None = None  # the place at the table it came from (p1, ...), for messages
    label: str = ""  # what the piece is called (its enrolled label), for messages
    role: str = ""  # the button role, for buttons

    @property
    def view(self) -> JSONObject:
        return as_object(self.message.get("view"))

    @property
    def legal(self) -> JSON:
        return self.message.get("legal")

    @property
    def actor(self) -> Audience:
        return Audience.of_seat(self.seat) if self.seat is not None else Audience.table()


@dataclass(frozen=True)
class Submit:
    """Send ``intent`` to the table as ``actor`` (with ``seq=None``: hardware shows no view)."""

    intent: Intent
    actor: Audience


@dataclass(frozen=True)
class Select:
    """Show ``selection`` on the touchscreen (public); it completes the entry itself."""

    selection: JSONObject


@dataclass(frozen=True)
class Remember:
    """Keep ``value`` (secret: never shown) for ``seat``'s next action; see :attr:`HardwareRules.complete`."""

    seat: str
    value: str
    notice: str = ""  # the code of the notice that says so (without the value)


@dataclass(frozen=True)
class UiButton:
    """A button whose meaning is the screen's (e.g. confirm the move being entered)."""

    role: str


NoticeLevel = Literal["info", "warning", "refused", "unknown"]


@dataclass(frozen=True)
class Notice:
    """Something to tell the table: ``code`` has a text in a catalogue (the game's, or the app's)."""

    code: str
    params: Mapping[str, JSON] = field(default_factory=dict)
    level: NoticeLevel = "refused"


Result = Submit | Select | Remember | UiButton | Notice
Action = Callable[[Input, Sequence[str]], Result]


def bad_piece(inp: Input) -> Notice:
    """The answer to a piece whose id does not fit its action (e.g. a city the game does not have)."""
    return Notice("input.bad_piece", {"label": inp.label})


def _no_signal(before: JSONObject | None, view: JSONObject) -> str | None:
    return None


def _nothing_used(before: JSONObject | None, view: JSONObject) -> set[str]:
    return set()


def _unchanged(intent: JSONObject, remembered: Mapping[str, str]) -> JSONObject:
    return intent


@dataclass(frozen=True)
class HardwareRules:
    """What the box means in one game: data plus pure functions of the public table view.

    - ``bindings``: the game's shipped bindings, ``{"buttons": {role: {gesture: action}},
      "pieces": {piece kind: action}, "tracks": {bar graph track: key of the table view}}``;
    - ``actions``: the game's actions by name (each name starts with the game's prefix);
    - ``seats(view)``: the seat ids of the game;
    - ``signal(before, view)``: the buzzer pattern for what just became public (``reveal``,
      ``capture``, ``end``) or None; ``before`` is the previous view of the same game or None;
    - ``used(before, view)``: seats whose remembered value was used up since ``before``;
    - ``complete(intent, remembered)``: fill in what the hardware remembered (seat -> value) and a
      screen does not know, before the screen submits ``intent``.
    """

    bindings: JSONObject
    actions: Mapping[str, Action]
    seats: Callable[[JSONObject], list[str]]
    signal: Callable[[JSONObject | None, JSONObject], str | None] = _no_signal
    used: Callable[[JSONObject | None, JSONObject], set[str]] = _nothing_used
    complete: Callable[[JSONObject, Mapping[str, str]], JSONObject] = _unchanged


def acting_seats(view: JSONObject) -> list[str]:
    """Who acts now (a seat light each): the table view's ``acting``, which every game's rules fill
    in from their one :meth:`~companion.core.rules.Rules.acting`."""
    return [s for s in as_list(view.get("acting")) if isinstance(s, str)]


def seat_ids(entries: JSON, key: str = "seat") -> list[str]:
    """The ``key`` of every object in a JSON list (e.g. the seats of a view's ``players``)."""
    return [s for e in as_list(entries) if isinstance(s := as_object(e).get(key), str)]
