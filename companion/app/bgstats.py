"""A finished play as a BG Stats "createPlay" link, and its QR code.

BG Stats (the score app) adds a play when its link is opened on a phone that has the app:
``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``. The JSON's fields, as
BG Stats documents them ("Push plays to BG Stats from other apps or websites"):
``sourceName``, ``sourcePlayId``, ``playDate`` (``YYYY-MM-DD HH:MM:SS``), ``durationMin``,
``game`` (``name``, ``bggId``, ``sourceGameId``, ``highestWins``, ``noPoints``), ``players``
(``name``, ``sourcePlayerId``, ``score``, ``winner``, ``rank``, ``startPlayer``, ``role``),
``location``, ``board``, ``comments``. Empty optional fields are left out: the link must fit a
QR code that a phone reads off the 800×480 touchscreen (:data:`MAX_LINK` characters; see
``docs/bgstats.md``).
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Callable

from companion.app.history import Play, local_time
from companion.core.jsonvalue import JSON, JSONObject
from companion.games import get_summary

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Companion"
MAX_LINK = 700  # characters: a version 18 QR code (89 modules) with error correction L at most
SAFE = ":,"  # left as they are in the query (RFC 3986 allows them; every decoder keeps them)


def play_id(play: Play) -> str:
    """Unique per play, also across stores: the game's number and when it was set up."""
    stamp = "".join(c for c in play.started[:19] if c.isdigit())
    return f"{play.game_id}-{stamp}"


def play_data(play: Play) -> JSONObject:
    """The createPlay JSON of a play, every field the play knows."""
    summary = get_summary(play.rules)
    players: list[JSON] = []
    for p in play.players:
        entry: JSONObject = {
            "name": p.label,
            # A named player is the same person next time; an unnamed seat ("red") is not.
            "sourcePlayerId": p.name if p.name else f"{play.game_id}-{p.seat}",
            "winner": p.winner,
        }
        if p.score is not None:
            entry["score"] = p.score
        if p.rank is not None and not summary.no_points:  # without points, winning is the whole result
            entry["rank"] = p.rank
        if p.start:
            entry["startPlayer"] = True
        if p.role:
            entry["role"] = p.role
        players.append(entry)
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id(play),
        "playDate": local_time(play.started, "%Y-%m-%d %H:%M:%S"),
        "durationMin": play.minutes,
        "game": {
            "name": play.game,
            "bggId": summary.bgg_id,
            "sourceGameId": play.rules,
            "highestWins": summary.highest_wins,
            "noPoints": summary.no_points,
        },
        "players": players,
    }


def encode(data: JSONObject) -> str:
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return CREATE_PLAY + urllib.parse.quote(text, safe=SAFE)


def decode(link: str) -> JSON:
    """The JSON inside a createPlay link (what BG Stats reads; used by tests and ``--check``)."""
    if not link.startswith(CREATE_PLAY):
        raise ValueError("not a BG Stats createPlay link")
    value: JSON = json.loads(urllib.parse.unquote(link[len(CREATE_PLAY) :]))
    return value


def _players(data: JSONObject) -> list[JSONObject]:
    players = data.get("players")
    return [p for p in players if isinstance(p, dict)] if isinstance(players, list) else []


def _drop(key: str) -> Callable[[JSONObject], None]:
    def step(data: JSONObject) -> None:
        for p in _players(data):
            p.pop(key, None)

    return step


def _shorten(length: int) -> Callable[[JSONObject], None]:
    def step(data: JSONObject) -> None:
        for p in _players(data):
            for key in ("name", "sourcePlayerId"):
                value = p.get(key)
                if isinstance(value, str) and len(value) > length:
                    p[key] = value[: length - 1] + "."

    return step


def _drop_top(key: str) -> Callable[[JSONObject], None]:
    def step(data: JSONObject) -> None:
        data.pop(key, None)

    return step


# What goes when a link is too long, least useful first; winners and scores always stay.
SHRINK: tuple[Callable[[JSONObject], None], ...] = (
    _drop("role"),
    _drop("rank"),
    _shorten(10),
    _drop("sourcePlayerId"),
    _drop("startPlayer"),
    _shorten(5),
    _drop_top("durationMin"),
)


def link(play: Play, limit: int = MAX_LINK) -> str:
    """The createPlay link of a play, at most ``limit`` characters if it can be made so."""
    data = play_data(play)
    out = encode(data)
    for step in SHRINK:
        if len(out) <= limit:
            break
        step(data)
        out = encode(data)
    return out
