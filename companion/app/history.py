"""The play history: every finished game in the store, with its date, duration, players, scores
and winners; exported as CSV or JSON (``companion history``), shown on the touchscreen and the
host page, and sent to score apps (:mod:`companion.app.bgstats`).

A play is read from the game's log (folded by its rules) and its *public* view: the history
shows what the table saw at the end, nothing more. The start is when the game was set up, the
end is its last stored action.
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from companion.app import readable
from companion.app.savedgame import load_game
from companion.app.store import GameHeader, Store
from companion.core.audience import TABLE
from companion.core.errors import CompanionError
from companion.core.jsonvalue import JSON, JSONObject, dumps
from companion.games import get_summary

HISTORY_FORMAT = "companion-history"
CSV_COLUMNS = (
    "game_id",
    "game",
    "title",
    "started",
    "finished",
    "minutes",
    "seat",
    "player",
    "role",
    "score",
    "winner",
    "rank",
    "start_player",
    "bot",
)
PAGE = 20  # plays per page on the screens that list them


class NoPlay(CompanionError):
    default_code = "history.no_play"


@dataclass(frozen=True)
class PlayerResult:
    seat: str
    name: str  # as entered at setup, "" when nothing was entered
    label: str  # the name, or the seat in words when it has none (in the language asked for)
    role: str  # "" when every seat plays alike
    score: int | None  # None in a game without points
    winner: bool
    rank: int | None
    start: bool | None
    bot: bool = False  # the table played this seat (Scotland Yard's Mister X played by the computer)


@dataclass(frozen=True)
class Play:
    game_id: int
    rules: str
    game: str  # the game's name
    title: str
    started: str  # ISO 8601, UTC
    finished: str  # ISO 8601, UTC
    minutes: int
    reason: str  # the outcome's code, e.g. "sy.captured"
    how: str  # the outcome in words
    players: tuple[PlayerResult, ...]

    @property
    def winners(self) -> list[str]:
        return [p.label for p in self.players if p.winner]

    @property
    def heading(self) -> str:
        """The play's heading on a screen: see :func:`heading`."""
        return heading(self.game, self.title)

    def to_json(self) -> JSONObject:
        players: list[JSON] = [
            {
                "seat": p.seat,
                "name": p.name,
                "label": p.label,
                "role": p.role,
                "score": p.score,
                "winner": p.winner,
                "rank": p.rank,
                "start_player": p.start,
                "bot": p.bot,
            }
            for p in self.players
        ]
        return {
            "game_id": self.game_id,
            "rules": self.rules,
            "game": self.game,
            "title": self.title,
            "started": self.started,
            "finished": self.finished,
            "minutes": self.minutes,
            "reason": self.reason,
            "how": self.how,
            "players": players,
        }


def local_time(iso: str, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """A stored UTC time as this machine's local time (what the table's clock showed)."""
    try:
        moment = _dt.datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=_dt.UTC)
    return moment.astimezone().strftime(fmt)


def capitalised(label: str) -> str:
    """A seat's words as a name: one case however the catalogue writes it mid-sentence ("blue" → "Blue")."""
    return label[:1].upper() + label[1:]


def minutes_between(start: str, end: str) -> int:
    try:
        seconds = (_dt.datetime.fromisoformat(end) - _dt.datetime.fromisoformat(start)).total_seconds()
    except ValueError:
        return 0
    return max(1, round(seconds / 60)) if seconds > 0 else 0


class History:
    """Finished games of one store. Folding a log costs milliseconds; each game is folded once
    per version (its id, last change and length), so listing the history again is cheap."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._cache: dict[tuple[int, str, int, str], Play | None] = {}
        self._lock = threading.Lock()

    def plays(self, lang: str = "en") -> list[Play]:
        """Every finished game, the latest first."""
        return self.page(lang)[0]

    def page(self, lang: str = "en", start: int = 0, count: int | None = None) -> tuple[list[Play], int]:
        """``count`` finished games from the ``start``-th (0: the latest; ``None``: all the rest), and
        how many finished games there are. Only the games of the page are read."""
        headers = [h for h in self.store.games() if h.status == "finished"]
        headers.sort(key=lambda h: (h.updated, h.id), reverse=True)  # a play ends with its game's last action
        chosen = headers[max(0, start) :] if count is None else headers[max(0, start) : max(0, start) + count]
        found = [self._play(h, lang) for h in chosen]
        return [p for p in found if p is not None], len(headers)

    def play(self, game_id: int, lang: str = "en") -> Play:
        header = self.store.header(game_id)
        play = self._play(header, lang)
        if play is None:
            raise NoPlay("history.not_finished", "that game has not ended", game=game_id)
        return play

    def _play(self, header: GameHeader, lang: str) -> Play | None:
        key = (header.id, header.updated, header.events, lang)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        play = build_play(self.store, header, lang)
        with self._lock:
            self._cache = {k: v for k, v in self._cache.items() if k[0] != header.id}
            self._cache[key] = play
        return play


def heading(game: str, title: str) -> str:
    """A saved game's heading: its title, after its game's name unless the title starts with it
    already (a title made when the game started is the game's name and the time): "Scotland Yard
    28.11. 20:15", never "Scotland Yard · Scotland Yard 28.11. 20:15". The host page's heading()
    (companion/net/static/host.js) does the same."""
    if not title:
        return game
    return title if title.casefold().startswith(game.casefold()) else f"{game} · {title}"


def build_play(store: Store, header: GameHeader, lang: str) -> Play | None:
    """The play of a finished game; ``None`` while it runs (e.g. its end was undone)."""
    game = load_game(store, header.id).game
    outcome = game.outcome()
    if outcome is None:
        return None
    summary = get_summary(header.rules)
    view = game.rules.view(game.state, TABLE)
    scores = dict(outcome.scores)
    players = []
    for p in summary.players(view):
        name = " ".join(p.name.split())
        players.append(
            PlayerResult(
                seat=p.seat,
                name=name,
                label=name or capitalised(readable.line(p.label, lang)),
                role=readable.line(p.role, lang) if p.role is not None else "",
                score=None if summary.no_points else scores.get(p.seat),
                winner=p.seat in outcome.winners,
                rank=p.rank,
                start=p.start,
                bot=p.bot,
            )
        )
    return Play(
        game_id=header.id,
        rules=header.rules,
        game=readable.phrase(f"{summary.prefix}.sum.game", {}, lang),
        title=header.title,
        started=header.created,
        finished=header.updated,
        minutes=minutes_between(header.created, header.updated),
        reason=outcome.reason,
        how=readable.phrase(outcome.reason, {}, lang),
        players=tuple(players),
    )


def to_csv(plays: Sequence[Play]) -> str:
    """One row per player of every play (spreadsheets sum and filter such rows easily)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for play in plays:
        for p in play.players:
            writer.writerow(
                [
                    play.game_id,
                    play.game,
                    play.title,
                    local_time(play.started, "%Y-%m-%d %H:%M:%S"),
                    local_time(play.finished, "%Y-%m-%d %H:%M:%S"),
                    play.minutes,
                    p.seat,
                    p.label,
                    p.role,
                    "" if p.score is None else p.score,
                    "yes" if p.winner else "no",
                    "" if p.rank is None else p.rank,
                    "" if p.start is None else ("yes" if p.start else "no"),
                    "yes" if p.bot else "no",
                ]
            )
    return out.getvalue()


def to_json(plays: Sequence[Play]) -> str:
    data: JSONObject = {"format": HISTORY_FORMAT, "version": 1, "plays": [p.to_json() for p in plays]}
    return dumps(data)
