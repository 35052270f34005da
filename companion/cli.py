"""The ``companion`` command: readable answers for people, ``--json`` for programs.

companion                          start the touchscreen app (same as ``companion run``)
companion serve [--host --port]    phones only: table core, store and web server
companion games                    list saved games
companion new GAME key=value ...   start a new game (``companion new GAME`` lists the setup keys)
companion show --as AUDIENCE       what one screen shows, in words (table, a seat id, or debug)
companion legal --as ACTOR         what ACTOR may do now: each intent's keys and choices
companion do KIND key=value ... --as ACTOR   act (or give the intent as JSON); says what happened
companion undo --as ACTOR          undo the last action, if the rules let ACTOR
companion history [--csv|--json] [--bgstats ID [--qr]]   finished games; a play for BG Stats
companion host-link [--qr] [--new] the host page's link (run it as the service's user: sudo)
companion open ID | delete ID | export ID FILE | import FILE
companion playthrough ID|FILE      every audience's view after every event
companion doctor | enroll          hardware diagnostics and tag enrollment
companion status | hotspot         the Pi appliance: service state, the Pi's own Wi-Fi
companion --version

One writer per data directory: ``run`` and ``serve`` hold its lock (a second one is refused). While
one of them runs, ``new``, ``do``, ``undo``, ``open``, ``delete`` and ``import`` act through it (see
``companion/app/writer.py``); the reading commands read the saved games directly.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import importlib
import itertools
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from companion.app.autoplay import TablePlayer
from companion.app.config import Config, load_config
from companion.app.i18n import LANGUAGES, error_text, text
from companion.app.store import Store
from companion.app.table import Ack, NoGame, Table
from companion.app.writer import WriterLock, ask_running_app
from companion.core.audience import Audience
from companion.core.errors import CompanionError, MalformedInput
from companion.core.events import Undo
from companion.core.game import Game, intent_codec
from companion.core.jsonvalue import JSON, JSONObject, has_lone_surrogate, loads
from companion.files import private_dir, write_atomic
from companion.games import game_names, get_summary

# Each command imports what only it needs, so `companion run` starts with less.
T = TypeVar("T")


def _json_arg(value: str) -> JSON:
    if value.startswith("@"):
        from companion.app.savedgame import read_game_file

        return read_game_file(value[1:])  # its limits and one-line refusals
    try:
        data = loads(value)
    except (ValueError, RecursionError) as exc:
        raise MalformedInput("malformed.json", f"not JSON: {str(exc)[:80]}") from None
    if has_lone_surrogate(data):
        raise MalformedInput("malformed.json", "text that cannot be stored (a lone surrogate)")
    return data


def _store(config: Config) -> Store:
    private_dir(config.data_dir)  # 0700, its files 0600, whatever the umask (an older one is fixed)
    return Store(config.store_path)


def _game_id(store: Store, given: int | None) -> int:
    if given is not None:
        return given
    current = store.current()
    if current is None:
        raise CompanionError("table.no_game", "no game is open; give --game ID or start one with 'companion new'")
    return current


async def _with_table(config: Config, work: Callable[[Table], Any]) -> Any:
    store = _store(config)
    table = Table(store)
    player = TablePlayer(table, thinking=0, cpu_budget=config.ai_cpu_budget)  # e.g. Mister X's answer
    try:
        await table.start()
        player.start()
        result = await work(table)
        await player.idle()
        return result
    finally:
        await player.stop()
        await table.stop()
        store.close()


def _say(args: argparse.Namespace, code: str, **params: JSON) -> str:
    return text(code, params, args.language)


def _print_json(value: JSON) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))


def _writing(config: Config, offline: Callable[[], T], request: JSONObject) -> tuple[T | JSONObject, bool]:
    """Run a writing command here while holding the data directory's lock or, while ``run`` or
    ``serve`` holds it, send ``request`` to that running app (which refuses or acts). Returns the
    result and whether the running app did it."""
    lock = WriterLock(config.data_dir)
    if lock.try_acquire("cli"):
        try:
            return offline(), False
        finally:
            lock.release()
    return ask_running_app(lock, request), True


def _done(args: argparse.Namespace, words: str, through_app: bool, data: JSONObject) -> None:
    """A writing command's answer (saying so when the running app did it)."""
    if getattr(args, "json", False):
        _print_json({**data, "through_app": through_app})
        return
    print(words)
    if through_app:
        print(_say(args, "cli.through_app"))


# -- games ------------------------------------------------------------------------------------------
def cmd_games(args: argparse.Namespace, config: Config) -> int:
    from companion.app.history import local_time

    with _store(config) as store:
        current = store.current()
        games = store.games()
    if args.json:
        _print_json(
            [
                {
                    "id": h.id,
                    "rules": h.rules,
                    "title": h.title,
                    "status": h.status,
                    "events": h.events,
                    "created": h.created,
                    "updated": h.updated,
                    "current": h.id == current,
                }
                for h in games
            ]
        )
        return 0
    if not games:
        print(_say(args, "cli.games.none"))
    for h in games:
        mark = "*" if h.id == current else " "
        status = _say(args, f"cli.status.{h.status}")
        when = local_time(h.updated)
        print(
            f"{mark} {h.id:>4}  {h.rules:<22} {status:<10} {h.events:>5} {_say(args, 'cli.events')}  {when}  {h.title}"
        )
    return 0


def cmd_new(args: argparse.Namespace, config: Config) -> int:
    from companion.app import readable
    from companion.app.savedgame import check_title

    rules_name = args.game
    if rules_name not in game_names():  # refused before anything else, with the games there are
        raise CompanionError(
            "cli.unknown_game",
            f"unknown game {rules_name!r}",
            game=rules_name[:40],
            games=", ".join(game_names()),
            **readable.close_to(rules_name, game_names()),
        )
    summary = get_summary(rules_name)
    setup: JSONObject = {}
    if args.setup is not None:
        given = _json_arg(args.setup)
        if not isinstance(given, dict):
            raise MalformedInput("malformed.json", "the setup must be a JSON object")
        setup.update(given)
    setup.update(readable.parse_setup(summary, args.keys))
    missing = readable.missing_setup(summary, setup)
    if missing:
        print(
            _say(args, "cli.new.missing", game=rules_name, keys=", ".join(k.key for k in missing)),
            file=sys.stderr,
        )
        print(_say(args, "cli.new.keys"), file=sys.stderr)
        print(readable.setup_help(summary, args.language), file=sys.stderr)
        example = " ".join(f"{k.key}={_quoted(k.example)}" for k in summary.setup_keys if k.required)
        print(_say(args, "cli.new.example", command=f"companion new {rules_name} {example}"), file=sys.stderr)
        return 2
    name = readable.phrase(f"{summary.prefix}.sum.game", {}, args.language)
    title = args.title or f"{name} {datetime.datetime.now().strftime('%d.%m. %H:%M')}"  # as the touchscreen names it
    check_title(title)
    result, through_app = _writing(
        config,
        lambda: asyncio.run(_with_table(config, lambda t: t.new_game(rules_name, setup, title))),
        {"op": "new", "rules": rules_name, "setup": setup, "title": title},
    )
    game_id = result["game_id"] if isinstance(result, dict) else result
    _done(args, _say(args, "cli.new.started", id=game_id), through_app, {"game_id": game_id})
    return 0


def _quoted(value: str) -> str:
    return value if value and all(c.isalnum() or c in ",.-_:=>" for c in value) else f"'{value}'"


# -- one screen in words --------------------------------------------------------------------------------
def _seat_of(game: Game[Any], audience: Audience) -> Audience:
    """``audience`` when the game has it: the table, debug, or one of its seats; a seat it has not
    (``--as d9``) is refused naming the seats it has, before the rules see it."""
    from companion.app.readable import close_to

    seats = list(game.rules.seats(game.state))
    if audience.seat is not None and audience.seat not in seats:
        raise CompanionError(
            "cli.no_such_seat",
            f"no seat {audience.seat!r}",
            seat=audience.seat[:40],
            seats=", ".join(seats),
            **close_to(audience.seat, [*seats, "table"]),
        )
    return audience


def _load(config: Config, given: int | None) -> tuple[int, str, Game[Any]]:
    from companion.app.savedgame import load_game

    with _store(config) as store:
        loaded = load_game(store, _game_id(store, given))
    return loaded.header.id, loaded.header.title, loaded.game


def cmd_show(args: argparse.Namespace, config: Config) -> int:
    from companion.app import readable
    from companion.app.history import heading

    game_id, title, game = _load(config, args.game)
    audience = _seat_of(game, Audience.parse(args.audience))
    snapshot = game.snapshot(audience)
    if args.json:
        _print_json(snapshot)
        return 0
    summary = get_summary(game.rules.name)
    view = snapshot["view"]
    assert isinstance(view, dict)
    print(
        _say(
            args,
            "cli.show.header",
            id=game_id,
            heading=heading(readable.phrase(f"{summary.prefix}.sum.game", {}, args.language), title),
            seq=game.seq,
            audience=_audience_words(args, audience, game.rules.name, view),
        )
    )
    print(readable.lines(summary.overview(view), args.language))
    if not audience.is_debug:
        kinds = [kind for kind, _ in summary.choices(snapshot["legal"])]
        if kinds:
            print(_say(args, "cli.show.may", kinds=", ".join(kinds), actor=audience.label()))
        if snapshot["can_undo"]:
            print(_say(args, "cli.show.can_undo"))
    return 0


def _audience_words(args: argparse.Namespace, audience: Audience, rules: str, view: JSONObject) -> str:
    """Whose screen it is, in words: "the table", "Dora (d1)", "debug"."""
    from companion.app.names import seat_names
    from companion.app.readable import param

    if audience.is_table:
        return _say(args, "cli.show.as_table")
    if audience.seat is None:
        return _say(args, "cli.show.as_debug")
    name = seat_names(rules, view).get(audience.seat)
    return f"{param(name, args.language)} ({audience.seat})" if name else audience.seat


def cmd_legal(args: argparse.Namespace, config: Config) -> int:
    from companion.app import readable

    game_id, _title, game = _load(config, args.game)
    actor = _seat_of(game, Audience.parse(args.actor))
    legal = game.rules.legal(game.state, actor)
    if args.json:
        _print_json({"game_id": game_id, "seq": game.seq, "legal": legal, "can_undo": game.can_undo(actor)})
        return 0
    summary = get_summary(game.rules.name)
    codec = intent_codec(game.rules)
    offered = summary.choices(legal)
    if not offered:
        print(_say(args, "cli.legal.none", actor=actor.label()))
    for kind, choices in offered:
        print(readable.shape(codec, kind))
        for key, value in choices.items():
            if value is not None:
                print(readable.choice_lines(key, value, indent=2))
    if game.can_undo(actor):
        print(readable.shape(codec, Undo.kind))
    print(_say(args, "cli.legal.how", actor=actor.label()))
    return 0


# -- acting -----------------------------------------------------------------------------------------
def _intent_from(args: argparse.Namespace, config: Config) -> JSONObject:
    from companion.app import readable

    words: list[str] = args.intent
    if not words:
        raise MalformedInput("cli.no_intent", "give an intent: KIND key=value ... (see companion legal)")
    first = words[0]
    if first.startswith(("{", "@")):
        if len(words) > 1:
            raise MalformedInput("cli.json_and_words", "give the intent either as JSON or as key=value words")
        value = _json_arg(first)
        if not isinstance(value, dict):
            raise MalformedInput("malformed.json", "an intent is a JSON object")
        return value
    _gid, _title, game = _load(config, args.game)
    return readable.parse_intent(intent_codec(game.rules), first, words[1:])


def _submit(args: argparse.Namespace, config: Config, intent_json: JSONObject | None) -> int:
    from companion.app import readable

    actor = Audience.parse(args.actor)
    if actor.seat is not None:  # a seat the game has (the running app's game: the same saved game)
        _seat_of(_load(config, args.game)[2], actor)

    async def work(table: Table) -> Ack:
        if args.game is not None and (table.current is None or table.current.header.id != args.game):
            await table.open_game(args.game)
        if table.current is None:
            raise NoGame("table.no_game", "no game is open; give --game ID or start one with 'companion new'")
        game_id = table.current.header.id
        seq = table.seq if args.seq is None else args.seq
        if intent_json is None:
            return await table.submit(Undo(), actor, seq, game_id=game_id, source="cli")
        return await table.submit_json({"seq": seq, "intent": intent_json}, actor, game_id=game_id, source="cli")

    request: JSONObject = {
        "op": "do",
        "actor": args.actor,
        "intent": intent_json,
        "seq": args.seq,
        "game_id": args.game,
    }
    result, through_app = _writing(config, lambda: asyncio.run(_with_table(config, work)), request)
    ack = Ack(int(str(result["game_id"])), int(str(result["seq"]))) if isinstance(result, dict) else result
    _gid, _title, game = _load(config, ack.game_id)
    if args.json:
        _print_json({"game_id": ack.game_id, "seq": ack.seq, "through_app": through_app})
        return 0
    if through_app:
        print(_say(args, "cli.through_app"))
    summary = get_summary(game.rules.name)
    game_kind = intent_json is not None and not str(intent_json.get("kind", "")).startswith("core.")
    did = summary.did(intent_json) if intent_json is not None and game_kind else None
    what = readable.line(did, args.language) if did is not None else _say(args, "cli.did.undo")
    print(_say(args, "cli.did.ok", what=what, id=ack.game_id, seq=ack.seq))
    view = game.rules.view(game.state, actor)
    print(_say(args, "cli.did.now", status=readable.line(summary.status(view), args.language)))
    return 0


def cmd_do(args: argparse.Namespace, config: Config) -> int:
    return _submit(args, config, _intent_from(args, config))


def cmd_undo(args: argparse.Namespace, config: Config) -> int:
    return _submit(args, config, None)


# -- history -------------------------------------------------------------------------------------------
def cmd_history(args: argparse.Namespace, config: Config) -> int:
    from companion.app import bgstats
    from companion.app.history import History, local_time, to_csv, to_json
    from companion.app.qr import qr_terminal

    with _store(config) as store:
        history = History(store)
        if args.bgstats is not None:
            play = history.play(args.bgstats, args.language)
            plays = [play]
        else:
            plays = history.plays(args.language)
    if args.bgstats is not None:
        link = bgstats.link(plays[0])
        if args.json:
            _print_json({"link": link, "data": bgstats.decode(link)})
        else:
            if args.qr:
                print(qr_terminal(link, error="L"))
            print(link)
        return 0
    if args.csv:
        sys.stdout.write(to_csv(plays))
        return 0
    if args.json:
        sys.stdout.write(to_json(plays) + "\n")
        return 0
    if not plays:
        print(_say(args, "cli.history.none"))
    for play in plays:
        people = []
        for p in play.players:
            score = "" if p.score is None else f" {p.score}"
            mark = " ★" if p.winner else ""
            people.append(f"{p.label}{score}{mark}")
        print(
            _say(
                args,
                "cli.history.line",
                id=play.game_id,
                when=local_time(play.started),
                minutes=play.minutes,
                heading=play.heading,
                how=play.how,
                players=", ".join(people),
            )
        )
    return 0


# -- saved games ---------------------------------------------------------------------------------------
def cmd_open(args: argparse.Namespace, config: Config) -> int:
    from companion.app.savedgame import load_game

    def offline() -> None:
        with _store(config) as store:
            load_game(store, args.id)  # refuse a game that does not fold
            store.set_current(args.id)

    _result, through_app = _writing(config, offline, {"op": "open", "game_id": args.id})
    _done(args, _say(args, "cli.open.done", id=args.id), through_app, {"game_id": args.id})
    return 0


def cmd_delete(args: argparse.Namespace, config: Config) -> int:
    if not args.yes:
        print(_say(args, "cli.delete.confirm"), file=sys.stderr)
        return 2

    def offline() -> None:
        with _store(config) as store:
            store.delete(args.id)

    _result, through_app = _writing(config, offline, {"op": "delete", "game_id": args.id})
    _done(args, _say(args, "cli.delete.done", id=args.id), through_app, {"game_id": args.id})
    return 0


def cmd_export(args: argparse.Namespace, config: Config) -> int:
    from companion.app.savedgame import export_game

    with _store(config) as store:
        data = export_game(store, args.id)
    # Every secret of the game is in it: its owner's alone, and written whole or not at all.
    write_atomic(Path(args.file), json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(_say(args, "cli.export.done", id=args.id, file=args.file))
    return 0


def cmd_import(args: argparse.Namespace, config: Config) -> int:
    from companion.app.savedgame import import_game

    data = _json_arg("@" + args.file)

    def offline() -> int:
        with _store(config) as store:
            return import_game(store, data, make_current=args.open)

    result, through_app = _writing(config, offline, {"op": "import", "data": data, "open": bool(args.open)})
    game_id = result["game_id"] if isinstance(result, dict) else result
    _done(args, _say(args, "cli.import.done", id=game_id), through_app, {"game_id": game_id})
    return 0


def cmd_playthrough(args: argparse.Namespace, config: Config) -> int:
    from companion.app.savedgame import check_game, load_game, parse_export
    from companion.core.playthrough import render, render_entries

    source = args.source
    if source.isdigit():
        with _store(config) as store:
            game = load_game(store, int(source)).game
    else:
        rules, _title, setup, seed, stored = parse_export(_json_arg("@" + source))
        game = check_game(rules, setup, seed, stored)  # a file from outside: re-checked
    if args.audiences:
        sys.stdout.write(render_entries(game, [a.strip() for a in args.audiences.split(",")]))
    else:
        sys.stdout.write(render(game, with_debug=not args.no_debug))
    return 0


def cmd_host_link(args: argparse.Namespace, config: Config) -> int:
    """The host page's link, from the token file in the data directory (the service's, with sudo)."""
    from companion.app.hostlink import HostLink, host_url
    from companion.app.qr import phone_address, qr_terminal

    link = HostLink(config.data_dir)
    token = link.rotate() if args.new else link.token()
    # The port the running table really serves (`serve --port`, a fallback port), else the configured one.
    port = WriterLock(config.data_dir).running_port() or config.port
    url = host_url(phone_address(config.public_address), port, token)
    if args.qr:
        print(qr_terminal(url))
    print(url)
    if args.new:
        print(_say(args, "cli.host_link.new"), file=sys.stderr)
    return 0


# -- the long-running parts ----------------------------------------------------------------------------
def _listen(args: argparse.Namespace, config: Config) -> Config:
    changes: dict[str, Any] = {}
    if args.host is not None:
        changes["host"] = args.host
    if args.port is not None:
        if not 0 <= args.port <= 65535:
            raise CompanionError("cli.bad_port", "a port is 0 to 65535", port=args.port)
        changes["port"] = args.port
    return Config(**{**config.__dict__, **changes}) if changes else config


def has_screen(env: Mapping[str, str], drm: Path = Path("/sys/class/drm")) -> bool:
    """Can the touchscreen app be seen here? Yes with a desktop's display (``DISPLAY``,
    ``WAYLAND_DISPLAY``), with a video driver chosen for SDL (``SDL_VIDEODRIVER``: the Lite service's
    ``kmsdrm``, a test's ``offscreen``), or with a screen connected to a KMS/DRM output (a Pi Lite's
    console with the official display or HDMI: SDL draws there by itself). Over SSH to a Pi with no
    screen, or to a server: no."""
    if any(env.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")):
        return True
    for status in drm.glob("card*-*/status"):
        try:
            if status.read_text().strip() == "connected":
                return True
        except OSError:
            continue
    return False


def cmd_run(args: argparse.Namespace, config: Config) -> int:
    if not has_screen(os.environ):  # before the app takes the data's lock and the phones' port
        WriterLock(config.data_dir).acquire("run").release()  # a running table is said first (the service)
        raise CompanionError("cli.no_display", "no display: use companion serve")
    try:
        app = importlib.import_module("ui.app")
    except ImportError as exc:
        print(f"the touchscreen app cannot start here: {exc}", file=sys.stderr)
        return 1
    result: int = app.main(_listen(args, config) if "host" in args else config)
    return result


def cmd_serve(args: argparse.Namespace, config: Config) -> int:
    serve = importlib.import_module("companion.net.serve")
    result: int = serve.main(_listen(args, config))
    return result


# -- the parser ----------------------------------------------------------------------------------------
def _number(text: str) -> int:
    """A game id or a seq: an integer the saved games can hold (a larger one names nothing)."""
    value = int(text)
    if not -(2**63) <= value < 2**63:
        shown = text if len(text) <= 24 else text[:24] + "…"
        raise argparse.ArgumentTypeError(f"{shown} is larger than any saved game's number")
    return value


GAMES_HELP = ", ".join(game_names())


class _Version(argparse.Action):
    """``--version``: the version (and the build an installer wrote) is read when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, ns: argparse.Namespace, values: Any, opt: Any = None) -> None:
        from companion.appliance.version import version_text

        print(version_text())
        parser.exit()


_TAKES_VALUE = ("--config", "--data-dir", "--lang")


def _command_word(argv: Sequence[str]) -> str | None:
    """The command a command line names (its first word that is no option), ``None`` for none, and
    ``"-h"`` when it asks for help or the version first."""
    words = iter(argv)
    for word in words:
        if word in ("-h", "--help", "--version"):
            return "-h"
        if word in _TAKES_VALUE:
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def _runs_the_app(argv: Sequence[str]) -> bool:
    """Does this command line start the touchscreen app (``run``, or no command)? Then only the
    options it can have are set up: the other commands' parsers load their parts (hardware...)."""
    return _command_word(argv) in (None, "run")


def _unknown_command(parser: argparse.ArgumentParser, argv: Sequence[str]) -> CompanionError | None:
    """A command line naming no command there is ("companion shwo"): the refusal, with "did you
    mean show?" (argparse's own message lists every command, in English only)."""
    from companion.app.readable import close_to

    word = _command_word(argv)
    commands = next((a.choices for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    if word is None or word == "-h" or not isinstance(commands, dict) or word in commands:
        return None
    return CompanionError("cli.unknown_command", f"no command {word!r}", command=word[:40], **close_to(word, commands))


def _early_language(argv: Sequence[str]) -> str:
    """The language of a refusal made before the command line is read: ``--lang``, else the
    configuration's (``--config``), else English."""
    given = dict(itertools.pairwise(argv))
    if given.get("--lang") in LANGUAGES:
        return given["--lang"]
    try:
        return load_config(given.get("--config")).language
    except (CompanionError, OSError):
        return "en"


def build_parser(just_run: bool = False) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Companion: a table companion for board games. Without a command: the touchscreen app.",
        epilog="Answers are in words for people; --json (where offered) prints them for programs.",
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="print the version and exit")
    parser.add_argument("--config", metavar="FILE", help="configuration file (TOML); default: see deploy/README.md")
    parser.add_argument(
        "--data-dir", metavar="DIR", help="where saved games and tags live (overrides the configuration)"
    )
    parser.add_argument("--lang", choices=LANGUAGES, help="language of the answers (default: the configuration's)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", help="what to do (default: run)")

    def add(name: str, func: Callable[[argparse.Namespace, Config], int], help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help[:1].upper() + help[1:] + ".")
        p.set_defaults(func=func)
        return p

    def listen(p: argparse.ArgumentParser) -> None:
        p.add_argument("--host", help="address to listen on for phones (default: [server] host, 0.0.0.0)")
        p.add_argument("--port", type=int, help="port for phones (default: [server] port, 8080; 0 = any free)")

    def game_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument("--game", type=_number, metavar="ID", help="a saved game's id (default: the open game)")

    def json_arg(p: argparse.ArgumentParser, what: str) -> None:
        p.add_argument("--json", action="store_true", help=f"print {what} as JSON")

    listen(add("run", cmd_run, "start the touchscreen app (the default)"))
    if just_run:
        return parser
    listen(add("serve", cmd_serve, "serve phones without a touchscreen"))
    json_arg(add("games", cmd_games, "list saved games"), "the list")
    p = add("new", cmd_new, "start a new game and make it the open one")
    p.add_argument("game", help=f"the game: {GAMES_HELP}")
    p.add_argument("keys", nargs="*", metavar="key=value", help="setup, e.g. detectives=Dora,Emil (without: the list)")
    p.add_argument("--setup", metavar="JSON", help="the setup as JSON, or @file (key=value words add to it)")
    p.add_argument("--title", help="a name for the saved game")
    json_arg(p, "the new game's id")
    p = add("show", cmd_show, "print what one screen shows, in words")
    p.add_argument("--as", dest="audience", required=True, help="table, a seat id (e.g. mrx, d1, p1, blue), or debug")
    game_arg(p)
    json_arg(p, "the screen's whole snapshot (view, legal, can_undo)")
    p = add("legal", cmd_legal, "list what one seat or the table may do now")
    p.add_argument("--as", dest="actor", required=True, help="table or a seat id")
    game_arg(p)
    json_arg(p, "the rules' legal value")
    for name, func, helptext in (("do", cmd_do, "act: submit an intent"), ("undo", cmd_undo, "undo the last action")):
        p = add(name, func, helptext)
        if name == "do":
            p.add_argument(
                "intent",
                nargs="+",
                metavar="KIND key=value",
                help="e.g. sy.move figure=D1 ticket=taxi station=69 (see companion legal); or JSON, or @file",
            )
        p.add_argument("--as", dest="actor", required=True, help="who acts: table or a seat id")
        game_arg(p)
        p.add_argument("--seq", type=_number, help="the state you saw (default: the current one)")
        json_arg(p, "the acknowledgement")
    p = add("history", cmd_history, "list finished games (date, duration, players, scores, winners)")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--csv", action="store_true", help="print CSV, one row per player of every game")
    form.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--bgstats", type=_number, metavar="ID", help="print the BG Stats link of finished game ID")
    p.add_argument("--qr", action="store_true", help="with --bgstats: also draw its QR code to scan with BG Stats")
    p = add("host-link", cmd_host_link, "print the host page's link (on a Pi running the service: with sudo)")
    p.add_argument("--qr", action="store_true", help="also draw its QR code")
    p.add_argument("--new", action="store_true", help="make a new link; the old one stops working at once")
    p = add("open", cmd_open, "make a saved game the open one")
    p.add_argument("id", type=_number, help="the saved game's id (see companion games)")
    p = add("delete", cmd_delete, "delete a saved game")
    p.add_argument("id", type=_number, help="the saved game's id (see companion games)")
    p.add_argument("--yes", action="store_true", help="really delete it (it cannot be undone)")
    p = add("export", cmd_export, "write a game to a JSON file (every secret included: a backup)")
    p.add_argument("id", type=_number, help="the saved game's id")
    p.add_argument("file", help="the file to write")
    p = add("import", cmd_import, "read a game from a JSON file")
    p.add_argument("file", help="a file written by companion export")
    p.add_argument("--open", action="store_true", help="make it the open game")
    p = add("playthrough", cmd_playthrough, "every audience's view after every event")
    p.add_argument("source", help="a saved game id or an exported file")
    p.add_argument("--as", dest="audiences", help="only these audiences, comma separated (e.g. table,d1)")
    p.add_argument("--no-debug", action="store_true", help="leave out the hidden event lines")
    try:
        hardware_cli = importlib.import_module("hardware.cli")
    except ImportError:
        hardware_cli = None
    if hardware_cli is not None:
        hardware_cli.add_commands(sub)
    from companion.app.qr import lan_address, local_addresses

    # The bundle names the network's addresses (the app's own reading of them).
    from companion.app.writer import running_status
    from companion.appliance import commands as appliance_commands

    appliance_commands.add_commands(
        sub, addresses=lambda config: (lan_address(config.public_address), local_addresses()), running=running_status
    )
    return parser


def _running_status(data_dir: Path, language: str) -> dict[str, Any] | None:
    """``companion status``'s question to the running app (imported only when it is asked)."""
    from companion.app.writer import running_status

    return running_status(data_dir, language)


def main(argv: Sequence[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(just_run=_runs_the_app(given))
    unknown = _unknown_command(parser, given)
    if unknown is not None:
        print(f"companion: {error_text(unknown, _early_language(given))} [{unknown.code}]", file=sys.stderr)
        return 2
    args = parser.parse_args(given)
    del parser  # (the parser goes: `run` lives on)
    lang = args.lang or "en"
    try:
        try:
            config = load_config(args.config)
        except PermissionError as exc:
            # status, doctor, hotspot status: what needs no secret, and what could not be read.
            if not getattr(args, "without_config", False):
                raise
            from companion.app.config import find_config
            from companion.appliance.access import INSTALLED_CONFIG, fallback_data_dir, why_unreadable

            path = Path(exc.filename) if exc.filename else (find_config(args.config) or INSTALLED_CONFIG)
            data_dir = fallback_data_dir(path)
            config = Config(path=path, unreadable=why_unreadable(path))
            if data_dir is not None:
                config = Config(path=path, unreadable=config.unreadable, data_dir=data_dir)
        if args.data_dir:
            config = Config(**{**config.__dict__, "data_dir": Path(args.data_dir)})
        lang = args.lang or config.language
        args.language = lang
        # The parts' own commands (appliance, hardware) speak through this: the command line
        # composes every part, so it knows every part's texts.
        args.say = lambda code, params: text(code, params, lang, extra=("hardware", "companion.appliance"))
        func = getattr(args, "func", cmd_run)
        result: int = func(args, config)
        sys.stdout.flush()
        return result
    except BrokenPipeError:
        # `companion show | head`: the reader left. Say nothing more, and let Python's own flush
        # at exit go nowhere instead of printing a traceback.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except CompanionError as exc:
        # The command line composes every part, so it knows every part's texts.
        words = error_text(exc, lang, extra=("hardware", "companion.appliance"))
        print(f"companion: {words} [{exc.code}]", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
