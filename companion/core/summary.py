"""How a game tells people, in words, what one screen shows: the other half of a game's rules.

Each game package has a ``summary`` module whose ``SUMMARY`` implements :class:`Summary`. It reads
only *views* (never the state), so a text made for an audience can say nothing that audience's
screen does not show. Words are never written here: every line is a message ``code`` with JSON
``params``, turned into the table's language by the application's catalogues (each game's
``messages/<lang>.json``), the same way as error messages.

Used by the readable command line (``companion show``, ``do``, ``legal``, ``new``), the play
history and the BG Stats export.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from companion.core.jsonvalue import JSON, JSONObject


@dataclass(frozen=True)
class Line:
    """One line of text: a message code and the values its words need."""

    code: str
    params: Mapping[str, JSON] = field(default_factory=dict)
    indent: int = 0  # 0 = a heading or a sentence, 1+ = a detail under the line before


@dataclass(frozen=True)
class Player:
    """One seat of a game as the public table sees it (for the history and score apps)."""

    seat: str
    name: str  # what the table entered at setup; "" when nothing was entered
    label: Line  # the seat in words when it has no name ("Mister X", "Detective 2", "red")
    role: Line | None = None  # an asymmetric role ("Mister X" / "Detective"), None when all play alike
    start: bool | None = None  # whether this seat started, when the game knows
    rank: int | None = None  # 1 = best, shared on a tie; None while the game runs
    bot: bool = False  # played by the table itself (Scotland Yard's Mister X played by the computer)


SetupKind = Literal["text", "texts", "flag", "int", "choice", "json"]


@dataclass(frozen=True)
class SetupKey:
    """One key of a game's setup, for people: how to write it on a command line or in a form."""

    key: str
    kind: SetupKind  # text, texts (a comma separated list), flag (true/false), int, choice, json
    required: bool = False
    choices: tuple[str, ...] = ()
    example: str = ""  # as typed on a command line, e.g. "Dora,Emil"
    remembered: bool = False  # who plays (names, colours): a new game's form starts from the last game's


class Summary(Protocol):
    """A game's words about its views. Every method takes a view of one audience and must use
    nothing else, so what it says can never be more than that audience's screen shows."""

    prefix: str  # the game's message codes start with this (``sy``, ``vm``, ``myk``)
    bgg_id: int  # the game's id on BoardGameGeek (for score apps such as BG Stats)
    highest_wins: bool  # whether a higher score is better
    no_points: bool  # whether the game has no points (only winners and losers)

    @property
    def setup_keys(self) -> Sequence[SetupKey]:
        """Every setup key, required ones marked; their words: ``<prefix>.setup_key.<key>``."""
        ...

    def overview(self, view: JSONObject) -> list[Line]:
        """What the screen shows, as lines (``companion show``)."""
        ...

    def status(self, view: JSONObject) -> Line:
        """One line: the phase and who acts now, or how the game ended."""
        ...

    def did(self, intent: JSONObject) -> Line:
        """What an accepted intent did, from the intent the actor sent (``companion do``)."""
        ...

    def choices(self, legal: JSON) -> list[tuple[str, JSONObject]]:
        """The intent kinds a ``legal`` value offers, each with the choices it lists."""
        ...

    def players(self, view: JSONObject) -> tuple[Player, ...]:
        """The seats, from the table's view (names, roles, start player, ranks once over)."""
        ...


# -- reading views (untyped JSON) without surprises --------------------------------------------------
def obj(value: JSON) -> JSONObject:
    """``value`` if it is an object, else an empty one."""
    return value if isinstance(value, dict) else {}


def items(value: JSON) -> list[JSON]:
    """``value`` if it is a list, else an empty one."""
    return value if isinstance(value, list) else []


def txt(value: JSON) -> str:
    return value if isinstance(value, str) else ""


def num(value: JSON, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def tidy_name(raw: str) -> str:
    """A name as typed at setup, kept for every audience alike: its words as typed (no change of
    case: "om" stays "om"), single spaces, none at either end."""
    return " ".join(raw.split())


def person(player: Player) -> JSON:
    """A seat for people, as every screen, the voice and the command line say it: the name typed
    at setup (as typed), else the seat's label in words ("Red", "Detective 2")."""
    return player.name if player.name else {"t": player.label.code, **player.label.params}


def t(code: str, **params: JSON) -> JSONObject:
    """A parameter that is itself a text in the reader's language (e.g. a ticket's name)."""
    return {"t": code, **params}


def joined(values: Sequence[JSON], sep: str = ", ") -> JSONObject:
    """A parameter made of several values (texts from :func:`t` or plain values), joined."""
    return {"join": list(values), "sep": sep}


def listed(values: Sequence[JSON], code: str) -> JSON:
    """Several values as one phrase, as a sentence says them: "Red", "Red and Blue", "Red, Blue and
    Green" (``code``'s text joins ``{first}`` — all but the last, with commas — and ``{last}``)."""
    if len(values) == 1:
        return values[0]
    return t(code, first=joined(list(values[:-1])), last=values[-1])
