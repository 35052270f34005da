"""A finished play as a BG Stats "createPlay" link, and the short link on the Pi that its QR code holds.

BG Stats (the score app) adds a play when its link is opened on a phone that has the app:
``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``. Every field and where it
comes from: ``docs/history.md``. In short: ``sourceName``, ``sourcePlayId``, ``playDate`` (UTC,
``YYYY-MM-DD HH:MM:SS``, when the play ended), ``durationMin``, ``game`` (``name``, ``bggId``,
``sourceGameId``, ``highestWins``, ``noPoints``) and ``players`` — every player with ``name``,
``sourcePlayerId``, ``startPlayer`` and ``winner`` (BG Stats' Android importer refuses a player
without them), ``score`` and ``rank`` in a game with points, ``role`` where seats differ.

Nothing is ever left out for size. A QR code that a phone reads off the 800×480 touchscreen holds
about 700 characters, fewer than a play of four named players; so the codes hold a short link to
the Pi instead (:func:`short_path`: the game's number and a keyed check, so nobody on the network
lists the history by guessing), which answers with the whole createPlay link. Where no code is
involved — the host page's button, ``companion history --bgstats`` — the whole link is given.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import json
import re
import unicodedata
import urllib.parse

from companion.app.history import Play
from companion.core.jsonvalue import JSON, JSONObject
from companion.games import get_summary

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Companion"
TABLE_PLAYER = "companion-table"  # the table itself (a bot): one BG Stats player for every such seat
SAFE = ":,"  # left as they are in the query (RFC 3986 allows them; every decoder keeps them)
SHORT_PREFIX = "/b/"
_SHORT = re.compile(r"^(\d{1,9})-([0-9a-f]{12})$")


def play_id(play: Play) -> str:
    """Unique per play, also across stores: the game's number and when it was set up."""
    return play_ref(play.game_id, play.started)


def play_ref(game_id: int, started: str) -> str:
    stamp = "".join(c for c in started[:19] if c.isdigit())
    return f"{game_id}-{stamp}"


def player_id(name: str) -> str:
    """The same id for the same name however it was typed ("Dora", " dora "): BG Stats remembers
    which of its players an id is, so a named player is matched once and never again."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def utc_text(iso: str) -> str:
    """A stored time (ISO 8601; UTC when it names no zone) as BG Stats reads ``playDate``: UTC."""
    moment = _dt.datetime.fromisoformat(iso)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=_dt.UTC)
    return moment.astimezone(_dt.UTC).strftime("%Y-%m-%d %H:%M:%S")


def play_data(play: Play) -> JSONObject:
    """The createPlay JSON of a play: every field the play knows, for every player."""
    summary = get_summary(play.rules)
    players: list[JSON] = []
    for p in play.players:
        if p.bot:
            source = TABLE_PLAYER  # the table is no person: one id for it, never a player's
        elif p.name:
            source = player_id(p.name)
        else:  # an unnamed seat ("Red") is nobody in particular: an id of this play only
            source = f"{play_id(play)}-{p.seat}"
        entry: JSONObject = {
            "name": p.label,
            "sourcePlayerId": source,
            "startPlayer": bool(p.start),
            "winner": p.winner,
        }
        if p.score is not None:
            entry["score"] = p.score
        if p.rank is not None and not summary.no_points:  # without points, winning is the whole result
            entry["rank"] = p.rank
        if p.role:
            entry["role"] = p.role
        players.append(entry)
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id(play),
        "playDate": utc_text(play.finished),
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


def link(play: Play) -> str:
    """The whole createPlay link of a play."""
    return encode(play_data(play))


def _check(secret: str, ref: str) -> str:
    return hmac.new(secret.encode("utf-8"), ref.encode("utf-8"), hashlib.sha256).hexdigest()[:12]


def short_path(secret: str, game_id: int, started: str) -> str:
    """The path of a play's short link on the Pi (``/b/7-1f0c…``): its game and a check made with
    ``secret`` (the host token), so only someone shown the code can open it."""
    return f"{SHORT_PREFIX}{game_id}-{_check(secret, play_ref(game_id, started))}"


def short_game(secret: str, name: str, started_of: dict[int, str]) -> int | None:
    """The game a short link's last part (``7-1f0c…``) names, if its check is right (constant time);
    ``started_of``: when each finished game was set up."""
    found = _SHORT.match(name)
    if found is None:
        return None
    game_id = int(found.group(1))
    started = started_of.get(game_id)
    if started is None or not secret:
        return None
    return game_id if hmac.compare_digest(found.group(2), _check(secret, play_ref(game_id, started))) else None
