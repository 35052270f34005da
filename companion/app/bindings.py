"""Bindings: what a button or an enrolled piece means in each game — data, plus small pure actions.

The data (``bindings.json`` next to this file; a table may override it with ``bindings.json`` in
its data directory) says, per game:

- ``buttons``: button role (``confirm``, ``undo``, ``next``, ``seat`` for every ``seat:<place>``
  button, or any other role) → gesture (``press`` or ``hold``) → action name;
- ``pieces``: the first part of an enrolled piece id (``building`` of ``building:paris:monument``)
  → action name;
- ``tracks``: LED bar graph track name → the key of the game's public table view it shows.

An action is a pure function of the input (:class:`Input`: the game, the *public* table message,
the seat the input acts for) and the piece's arguments. It returns what should happen
(:data:`Result`): an intent to submit to the table — the same intents the screens send, so every
rule check applies —, a selection for the touchscreen, an agent to remember for a seat's next
placement, a button to pass to the screen, or a notice. Actions never see secrets: the router
gives them the table audience's message only.

Decisions (the table in docs/wiring.md, "What buttons and pieces do", says the same):

- Victorian Masterminds. A building (``building:<city>:<building>``) on a seat's reader: while a
  resolution waits for a Gunner's choice *in that city*, it is that choice (``vm.choose_building``,
  acting as the seat, so only the Gunner's owner's reader — or the table's — is accepted);
  otherwise it is the scientist action Capture (``vm.capture`` for that seat). An agent disc
  (``agent:<colour>:<agent>`` or ``agent:<agent>``) on a seat's reader: while a resolution waits
  for that seat's unidentified agent to be revealed, it is the reveal (``vm.reveal``); otherwise it
  is remembered, secretly, for that seat's next placement, which the touchscreen then sends as the
  table on the seat's behalf with the agent named (the rules accept any agent still in the pile
  for such a "tag scan"). ``next`` ends the turn of the active player (as the table), a seat's
  button ends that seat's turn (as the seat); ``confirm`` finishes a waiting Engineer, otherwise it
  is the screen's confirm.
- Scotland Yard. A pawn (``figure:<D1…D5|B1|B2>``) selects the figure for the next move entry on
  the touchscreen (a selection, not an intent); ``figure:X`` is refused: Mister X moves on his
  phone.
- Mykerinos. A patron card (``patron:<patron>``) is that patron's use by the seat (the reader's
  seat, else the player whose turn it is): if the public legal options leave exactly one way
  (Mrs. Blackmore: start; Colonel Tangerine: extend; Sir Brown: one free museum room) it is sent;
  if there are several (Lady Violet, Lord Lemon: start or extend; Sir Brown: several rooms) the
  touchscreen gets a selection listing the ready-made intents to choose from; if there is none,
  the canonical intent is sent anyway so the rules say why (Sir Brown without a room: a notice).
  A seat's button is "done": pass in the excavation, decline in the survey.
- Everywhere: ``undo`` is a long press (a short one says "hold to undo"); it acts as the table,
  or as the seat for a seat's own button.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal, cast

from companion.core.audience import Audience
from companion.core.errors import CompanionError
from companion.core.events import Intent, Undo
from companion.core.jsonvalue import JSON, JSONObject
from companion.games import GAMES
from companion.games.mykerinos.intents import Decline, Excavate, Pass, SirBrown
from companion.games.mykerinos.museum import PATRONS
from companion.games.victorian_masterminds.events import Capture, ChooseBuilding, EndTurn, EngineerDone, Reveal
from companion.games.victorian_masterminds.model import AGENTS, BUILDINGS, CITIES, Building, City

FORMAT = "companion.bindings"
VERSION = 1
GESTURES = ("press", "hold")


class BindingsError(CompanionError):
    default_code = "bindings.malformed"


# ---------------------------------------------------------------------------- what an action gets


@dataclass(frozen=True)
class Input:
    """One raw input, ready for an action: the game, its *public* table message, and who acts."""

    game: str
    message: JSONObject  # the table audience's message: {"view", "legal", "seq", ...}
    seat: str | None  # the game seat the input acts for (a seat's reader or button); None: the table
    place: str | None = None  # the place at the table it came from (p1, ...), for messages
    label: str = ""  # what the piece is called (its enrolled label), for messages
    role: str = ""  # the button role, for buttons

    @property
    def view(self) -> JSONObject:
        return _obj(self.message.get("view"))

    @property
    def legal(self) -> JSON:
        return self.message.get("legal")

    @property
    def actor(self) -> Audience:
        return Audience.of_seat(self.seat) if self.seat is not None else Audience.table()


# ---------------------------------------------------------------------------- what an action returns


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
class RecordAgent:
    """Victorian Masterminds: remember ``agent`` (secret) for ``seat``'s next placement."""

    seat: str
    agent: str


@dataclass(frozen=True)
class UiButton:
    """A button whose meaning is the screen's (e.g. confirm the move being entered)."""

    role: str


NoticeLevel = Literal["info", "warning", "refused", "unknown"]


@dataclass(frozen=True)
class Notice:
    """Something to tell the table: ``code`` has an en+de text in companion/app/messages/<lang>.json."""

    code: str
    params: Mapping[str, JSON] = field(default_factory=dict)
    level: NoticeLevel = "refused"


Result = Submit | Select | RecordAgent | UiButton | Notice
Action = Callable[[Input, Sequence[str]], Result]


# ---------------------------------------------------------------------------- small JSON helpers


def _obj(value: Any) -> JSONObject:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[JSON]:
    return value if isinstance(value, list) else []


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def bad_piece(inp: Input) -> Notice:
    return Notice("input.bad_piece", {"label": inp.label})


# ---------------------------------------------------------------------------- every game


def act_undo(inp: Input, args: Sequence[str]) -> Result:
    return Submit(Undo(), inp.actor)


def act_ui(inp: Input, args: Sequence[str]) -> Result:
    return UiButton(inp.role)


def act_none(inp: Input, args: Sequence[str]) -> Result:
    return Notice("input.unbound_button", {"button": inp.role}, "info")


# ---------------------------------------------------------------------------- Victorian Masterminds


def vm_seats(view: JSONObject) -> list[str]:
    return [s for p in _list(view.get("players")) if (s := _str(_obj(p).get("seat"))) is not None]


def vm_waiting(view: JSONObject) -> tuple[str | None, JSONObject]:
    """(the city, what it waits for) of a resolution, or (None, {})."""
    resolution = _obj(view.get("resolution"))
    return _str(resolution.get("city")), _obj(resolution.get("waiting"))


def vm_building(inp: Input, args: Sequence[str]) -> Result:
    if len(args) != 2 or args[0] not in CITIES or args[1] not in BUILDINGS:
        return bad_piece(inp)
    city, building = args
    view = inp.view
    waiting_city, waiting = vm_waiting(view)
    if waiting.get("kind") == "gunner" and waiting_city == city:
        return Submit(ChooseBuilding(cast(Building, building)), inp.actor)
    seat = inp.seat if inp.seat is not None else _str(view.get("active")) or ""
    return Submit(Capture(seat, cast(City, city), cast(Building, building)), inp.actor)


def vm_agent(inp: Input, args: Sequence[str]) -> Result:
    if not 1 <= len(args) <= 2 or args[-1] not in AGENTS:
        return bad_piece(inp)
    agent = args[-1]
    view = inp.view
    seat = inp.seat
    if len(args) == 2:
        colour = args[0]
        owner = next(
            (_str(_obj(p).get("seat")) for p in _list(view.get("players")) if _obj(p).get("colour") == colour), None
        )
        if owner is None:
            return Notice("input.vm.agent_colour", {"label": inp.label, "colour": colour})
        if seat is not None and owner != seat:
            return Notice("input.vm.agent_other_seat", {"label": inp.label, "seat": seat})
        seat = owner
    if seat is None:
        return Notice("input.vm.agent_needs_seat", {"label": inp.label})
    if view.get("phase") not in ("turn", "resolution"):
        return Notice("input.not_now", {"label": inp.label})
    _city, waiting = vm_waiting(view)
    if waiting.get("kind") == "reveal" and waiting.get("seat") == seat:
        return Submit(Reveal(agent), inp.actor)
    return RecordAgent(seat, agent)


def vm_end_turn(inp: Input, args: Sequence[str]) -> Result:
    seat = inp.seat if inp.seat is not None else _str(inp.view.get("active")) or ""
    return Submit(EndTurn(seat), inp.actor)


def vm_confirm(inp: Input, args: Sequence[str]) -> Result:
    _city, waiting = vm_waiting(inp.view)
    if waiting.get("kind") == "engineer":
        return Submit(EngineerDone(), inp.actor)
    return UiButton(inp.role)


# ---------------------------------------------------------------------------- Scotland Yard


def sy_seats(view: JSONObject) -> list[str]:
    return [s for p in _list(view.get("seats")) if (s := _str(_obj(p).get("seat"))) is not None]


def sy_figure(inp: Input, args: Sequence[str]) -> Result:
    if len(args) != 1:
        return bad_piece(inp)
    figure = args[0]
    if figure.upper() in ("X", "MRX"):
        return Notice("input.sy.mister_x", {"label": inp.label})
    view = inp.view
    known = [_str(_obj(f).get("figure")) for f in _list(view.get("figures"))]
    if figure not in known:
        return Notice("input.sy.no_figure", {"label": inp.label, "figure": figure})
    if inp.seat is not None:
        controls = next(
            (_list(_obj(s).get("figures")) for s in _list(view.get("seats")) if _obj(s).get("seat") == inp.seat), []
        )
        if figure not in controls:
            return Notice("input.sy.not_your_figure", {"figure": figure, "seat": inp.seat})
    moves = _obj(_obj(inp.legal).get("moves")).get(figure)
    if not isinstance(moves, dict):
        return Notice("input.sy.cannot_move", {"figure": figure})
    return Select({"game": "scotland_yard", "kind": "figure", "figure": figure, "seat": inp.seat, "moves": moves})


# ---------------------------------------------------------------------------- Mykerinos


def myk_seats(view: JSONObject) -> list[str]:
    return [s for s in _list(view.get("seats")) if isinstance(s, str)]


def myk_turn_seat(view: JSONObject) -> str | None:
    return _str(_obj(view.get("turn")).get("seat"))


def _myk_template(legal: JSON, kind: str, seat: str) -> JSONObject:
    for entry in _list(legal):
        entry = _obj(entry)
        if entry.get("kind") == kind and entry.get("seat") == seat:
            return entry
    return {}


def myk_patron(inp: Input, args: Sequence[str]) -> Result:
    if len(args) != 1 or args[0] not in PATRONS:
        return bad_piece(inp)
    patron = args[0]
    seat = inp.seat if inp.seat is not None else myk_turn_seat(inp.view)
    if seat is None:
        return Notice("input.not_now", {"label": inp.label})
    choices: list[JSONObject]
    if patron == "sir_brown":
        rooms = _list(_myk_template(inp.legal, "myk.sir_brown", seat).get("rooms"))
        choices = [{"kind": "myk.sir_brown", "seat": seat, "room": r} for r in rooms if isinstance(r, str)]
        if not choices:
            return Notice("input.myk.patron_not_now", {"label": inp.label, "seat": seat})
    else:
        options = _list(_myk_template(inp.legal, "myk.excavate", seat).get("options"))
        actions = [o[0] for o in options if isinstance(o, list) and len(o) == 2 and o[1] == patron]
        choices = [{"kind": "myk.excavate", "seat": seat, "action": a, "patron": patron} for a in actions]
        if not choices:  # let the rules say why (not your turn, card used, too few archaeologists, ...)
            canonical: Literal["start", "extend"] = "extend" if patron == "colonel_tangerine" else "start"
            return Submit(Excavate(seat, canonical, patron), inp.actor)
    if len(choices) == 1:
        return Submit(_myk_intent(choices[0]), inp.actor)
    return Select({"game": "mykerinos", "kind": "patron", "seat": seat, "patron": patron, "intents": list(choices)})


def _myk_intent(choice: JSONObject) -> Intent:
    seat = str(choice["seat"])
    if choice["kind"] == "myk.sir_brown":
        return SirBrown(seat, str(choice["room"]))
    action: Literal["start", "extend"] = "extend" if choice["action"] == "extend" else "start"
    return Excavate(seat, action, _str(choice.get("patron")))


def myk_done(inp: Input, args: Sequence[str]) -> Result:
    seat = inp.seat if inp.seat is not None else myk_turn_seat(inp.view)
    if seat is None:
        return Notice("input.not_now", {"label": inp.role})
    if inp.view.get("phase") == "survey":
        return Submit(Decline(seat), inp.actor)
    return Submit(Pass(seat), inp.actor)


# ---------------------------------------------------------------------------- the registry

ACTIONS: dict[str, Action] = {
    "undo": act_undo,
    "ui.confirm": act_ui,
    "ui.button": act_ui,
    "none": act_none,
    "vm.building": vm_building,
    "vm.agent": vm_agent,
    "vm.end_turn": vm_end_turn,
    "vm.confirm": vm_confirm,
    "sy.figure": sy_figure,
    "myk.patron": myk_patron,
    "myk.done": myk_done,
}
GAME_PREFIX = {"victorian_masterminds": "vm.", "scotland_yard": "sy.", "mykerinos": "myk."}
GENERIC = ("undo", "ui.", "none")


def seats_in(game: str, view: JSONObject) -> list[str]:
    """The seat ids of the open game, from its public table view."""
    if game == "victorian_masterminds":
        return vm_seats(view)
    if game == "scotland_yard":
        return sy_seats(view)
    if game == "mykerinos":
        return myk_seats(view)
    return []


# ---------------------------------------------------------------------------- the data


@dataclass(frozen=True)
class GameBindings:
    buttons: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # role key -> gesture -> action
    pieces: Mapping[str, str] = field(default_factory=dict)  # piece kind -> action
    tracks: Mapping[str, str] = field(default_factory=dict)  # track -> view key

    def button(self, role: str) -> Mapping[str, str]:
        """The gestures bound for a role (``seat:p1`` uses the ``seat`` entry)."""
        key = role.partition(":")[0] if role.startswith("seat:") else role
        return self.buttons.get(key, {})


@dataclass(frozen=True)
class Bindings:
    games: Mapping[str, GameBindings]

    def of(self, game: str) -> GameBindings:
        return self.games.get(game, GameBindings())

    def to_json(self) -> JSONObject:
        return {
            "format": FORMAT,
            "version": VERSION,
            "games": {
                g: {
                    "buttons": {r: dict(gs) for r, gs in b.buttons.items()},
                    "pieces": dict(b.pieces),
                    "tracks": dict(b.tracks),
                }
                for g, b in self.games.items()
            },
        }


def _action(game: str, name: Any, where: str) -> str:
    if not isinstance(name, str) or name not in ACTIONS:
        raise BindingsError("bindings.malformed", f"{where}: unknown action {name!r}", where=where)
    if not (name.startswith(GENERIC) or name.startswith(GAME_PREFIX.get(game, "-"))):
        raise BindingsError("bindings.malformed", f"{where}: {name} is not an action of {game}", where=where)
    return name


def parse_bindings(data: Any, source: str = "bindings") -> dict[str, GameBindings]:
    """Strictly read the JSON form (unknown keys, games and actions are errors)."""

    def bad(problem: str) -> BindingsError:
        return BindingsError("bindings.malformed", f"{source}: {problem}", where=source)

    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise bad(f'not a bindings file (expected "format": "{FORMAT}", "version": {VERSION})')
    if set(data) != {"format", "version", "games"} or not isinstance(data["games"], dict):
        raise bad('expected exactly "format", "version" and "games"')
    games: dict[str, GameBindings] = {}
    for game, entry in data["games"].items():
        if game not in GAMES:
            raise bad(f"unknown game {game!r}")
        if not isinstance(entry, dict) or not set(entry) <= {"buttons", "pieces", "tracks"}:
            raise bad(f"{game}: expected buttons, pieces, tracks")
        buttons: dict[str, dict[str, str]] = {}
        for role, gestures in _mapping(entry.get("buttons", {}), f"{game}.buttons", bad).items():
            gestures = _mapping(gestures, f"{game}.buttons.{role}", bad)
            if not set(gestures) <= set(GESTURES):
                raise bad(f"{game}.buttons.{role}: gestures are press and hold")
            buttons[role] = {g: _action(game, a, f"{source}: {game}.buttons.{role}.{g}") for g, a in gestures.items()}
        pieces = {
            kind: _action(game, a, f"{source}: {game}.pieces.{kind}")
            for kind, a in _mapping(entry.get("pieces", {}), f"{game}.pieces", bad).items()
        }
        tracks: dict[str, str] = {}
        for track, key in _mapping(entry.get("tracks", {}), f"{game}.tracks", bad).items():
            if not isinstance(key, str):
                raise bad(f"{game}.tracks.{track}: the view key must be text")
            tracks[track] = key
        games[game] = GameBindings(buttons, pieces, tracks)
    return games


def _mapping(value: Any, where: str, bad: Callable[[str], BindingsError]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise bad(f"{where} must be an object")
    return value


def default_data() -> Any:
    return json.loads(resources.files("companion.app").joinpath("bindings.json").read_text("utf-8"))


def load_bindings(override: Path | str | None = None) -> Bindings:
    """The shipped bindings, with a table's own file (if it exists) laid over them.

    The override has the same format; per game, each button role, piece kind and track it names
    replaces the shipped one (``"none"`` switches a shipped button off).
    """
    games = parse_bindings(default_data(), "companion/app/bindings.json")
    if override is not None and Path(override).is_file():
        try:
            data = json.loads(Path(override).read_text("utf-8"))
        except json.JSONDecodeError as exc:
            raise BindingsError("bindings.malformed", f"{override}: not JSON ({exc})", where=str(override)) from None
        for game, theirs in parse_bindings(data, str(override)).items():
            ours = games.get(game, GameBindings())
            games[game] = GameBindings(
                {**ours.buttons, **theirs.buttons}, {**ours.pieces, **theirs.pieces}, {**ours.tracks, **theirs.tracks}
            )
    return Bindings(games)


# ---------------------------------------------------------------------------- indicators (public views only)


def turn_seats(game: str, view: JSONObject) -> list[str]:
    """The seats whose turn it is (a seat light each), from the public table view."""
    if game == "victorian_masterminds":
        phase = view.get("phase")
        _city, waiting = vm_waiting(view)
        seat = _str(waiting.get("seat"))
        if waiting and seat is not None and seat in _list(waiting.get("by")):
            return [seat]
        active = _str(view.get("active"))
        return [active] if phase in ("turn", "resolution") and active is not None else []
    if game == "scotland_yard":
        turn = view.get("turn")
        if view.get("end") is not None:
            return []
        if turn == "mrx":
            return ["mrx"]
        if turn != "detectives":
            return []
        pending = [_obj(f) for f in _list(view.get("figures")) if _obj(f).get("can_move")]
        out = []
        for s in _list(view.get("seats")):
            s = _obj(s)
            seat, figures = _str(s.get("seat")), _list(s.get("figures"))
            if seat is not None and s.get("role") == "detective" and any(f.get("figure") in figures for f in pending):
                out.append(seat)
        return out
    if game == "mykerinos":
        if view.get("phase") == "excavation":
            seat = myk_turn_seat(view)
            return [seat] if seat is not None else []
        if view.get("phase") == "survey":
            waiting = _obj(_obj(view.get("survey")).get("waiting"))
            seat = _str(waiting.get("seat"))
            return [seat] if seat is not None and waiting.get("for") != "counts" else []
    return []


def signal(game: str, before: JSONObject | None, view: JSONObject) -> str | None:
    """The buzzer pattern for what just became public (``reveal``, ``capture``, ``end``), or None.

    ``before`` is the previous public table view of the same game (None: nothing to compare).
    Undoing something never sounds.
    """
    if before is None:
        return None
    if game == "victorian_masterminds":
        if view.get("result") is not None and before.get("result") is None:
            return "end"
        fresh = new_log_lines(before, view)
        if any(line.get("what") == "vm.log.captured" for line in fresh):
            return "capture"
        if any(line.get("what") == "vm.log.flipped" for line in fresh):
            return "reveal"
        return None
    if game == "scotland_yard":
        end = _obj(view.get("end"))
        if end and not before.get("end"):
            return "capture" if end.get("reason") == "captured" else "end"

        def reveals(v: JSONObject) -> int:
            return sum(1 for f in _list(v.get("log")) if _obj(f).get("reveal"))

        return "reveal" if reveals(view) > reveals(before) else None
    if game == "mykerinos":
        return "end" if view.get("result") is not None and before.get("result") is None else None
    return None


def new_log_lines(before: JSONObject, view: JSONObject) -> list[JSONObject]:
    """Lines of the public log (Victorian Masterminds: the last few, numbered) that ``before`` lacks."""
    old = _list(before.get("log"))
    return [_obj(line) for line in _list(view.get("log")) if line not in old]


def placed_seats(game: str, before: JSONObject | None, view: JSONObject) -> set[str]:
    """Victorian Masterminds: seats that placed an agent since ``before`` (their recorded agent is used up)."""
    if game != "victorian_masterminds" or before is None:
        return set()
    return {
        seat
        for line in new_log_lines(before, view)
        if line.get("what") in ("vm.log.placed", "vm.log.recycled") and (seat := _str(line.get("seat"))) is not None
    }


def track_values(bindings: GameBindings, view: JSONObject) -> dict[str, int]:
    out = {}
    for track, key in bindings.tracks.items():
        value = view.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            out[track] = value
    return out
