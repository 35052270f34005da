"""The ``companion`` command.

companion                      start the touchscreen app (same as ``companion run``)
companion serve                phones only: table core, store and web server, links in the terminal
companion games                list saved games
companion new GAME --setup J   start a new game (J: setup JSON or @file)
companion show --as AUDIENCE   print what one screen sees (table, a seat id, or debug)
companion do INTENT --as ACTOR submit an intent (JSON) as the table or a seat
companion undo --as ACTOR      undo the last action, if the rules let ACTOR
companion open ID | delete ID | export ID FILE | import FILE
companion playthrough ID|FILE  every audience's view after every event
companion doctor | enroll      hardware diagnostics and tag enrollment
companion status | hotspot     the Pi appliance: service state, the Pi's own Wi-Fi
companion --version
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.app.config import Config, load_config
from companion.app.i18n import LANGUAGES, error_text
from companion.app.savedgame import build_game, export_game, import_game, load_game, parse_export
from companion.app.store import Store
from companion.app.table import NoGame, Table
from companion.appliance import commands as appliance_commands
from companion.appliance.version import version_text
from companion.core.audience import Audience
from companion.core.errors import CompanionError, MalformedInput
from companion.core.events import Undo
from companion.core.jsonvalue import JSON, loads
from companion.core.playthrough import render, render_entries


def _json_arg(value: str) -> JSON:
    text = Path(value[1:]).read_text("utf-8") if value.startswith("@") else value
    try:
        return loads(text)
    except ValueError as exc:
        raise MalformedInput("malformed.json", f"not JSON: {exc}") from None


def _store(config: Config) -> Store:
    config.data_dir.mkdir(parents=True, exist_ok=True)
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
    try:
        await table.start()
        return await work(table)
    finally:
        await table.stop()
        store.close()


def cmd_games(args: argparse.Namespace, config: Config) -> int:
    with _store(config) as store:
        current = store.current()
        games = store.games()
        if not games:
            print("no saved games")
        for h in games:
            mark = "*" if h.id == current else " "
            print(f"{mark} {h.id:>4}  {h.rules:<22} {h.status:<9} {h.events:>5} events  {h.updated}  {h.title}")
    return 0


def cmd_new(args: argparse.Namespace, config: Config) -> int:
    setup = _json_arg(args.setup)
    if not isinstance(setup, dict):
        raise MalformedInput("malformed.json", "the setup must be a JSON object")
    game_id = asyncio.run(_with_table(config, lambda t: t.new_game(args.game, setup, args.title or "")))
    print(f"game {game_id} started and open")
    return 0


def cmd_show(args: argparse.Namespace, config: Config) -> int:
    with _store(config) as store:
        loaded = load_game(store, _game_id(store, args.game))
    print(json.dumps(loaded.game.snapshot(Audience.parse(args.audience)), indent=2, ensure_ascii=False))
    return 0


def _submit(args: argparse.Namespace, config: Config, intent_json: JSON | None) -> int:
    actor = Audience.parse(args.actor)

    async def work(table: Table) -> Any:
        if args.game is not None and (table.current is None or table.current.header.id != args.game):
            await table.open_game(args.game)
        if table.current is None:
            raise NoGame("table.no_game", "no game is open; give --game ID or start one with 'companion new'")
        game_id = table.current.header.id
        seq = table.seq if args.seq is None else args.seq
        if intent_json is None:
            return await table.submit(Undo(), actor, seq, game_id=game_id)
        return await table.submit_json({"seq": seq, "intent": intent_json}, actor, game_id=game_id)

    ack = asyncio.run(_with_table(config, work))
    print(f"ok: game {ack.game_id} is at seq {ack.seq}")
    return 0


def cmd_do(args: argparse.Namespace, config: Config) -> int:
    return _submit(args, config, _json_arg(args.intent))


def cmd_undo(args: argparse.Namespace, config: Config) -> int:
    return _submit(args, config, None)


def cmd_open(args: argparse.Namespace, config: Config) -> int:
    with _store(config) as store:
        load_game(store, args.id)  # refuse a game that does not fold
        store.set_current(args.id)
    print(f"game {args.id} is open")
    return 0


def cmd_delete(args: argparse.Namespace, config: Config) -> int:
    if not args.yes:
        print("deleting a game cannot be undone; repeat with --yes")
        return 2
    with _store(config) as store:
        store.delete(args.id)
    print(f"game {args.id} deleted")
    return 0


def cmd_export(args: argparse.Namespace, config: Config) -> int:
    with _store(config) as store:
        data = export_game(store, args.id)
    Path(args.file).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"game {args.id} written to {args.file}")
    return 0


def cmd_import(args: argparse.Namespace, config: Config) -> int:
    data = _json_arg("@" + args.file)
    with _store(config) as store:
        game_id = import_game(store, data, make_current=args.open)
    print(f"imported as game {game_id}")
    return 0


def cmd_playthrough(args: argparse.Namespace, config: Config) -> int:
    source = args.source
    if source.isdigit():
        with _store(config) as store:
            game = load_game(store, int(source)).game
    else:
        rules, _title, setup, seed, stored = parse_export(_json_arg("@" + source))
        game = build_game(rules, setup, seed, stored)
    if args.audiences:
        sys.stdout.write(render_entries(game, [a.strip() for a in args.audiences.split(",")]))
    else:
        sys.stdout.write(render(game, with_debug=not args.no_debug))
    return 0


def cmd_run(args: argparse.Namespace, config: Config) -> int:
    try:
        app = importlib.import_module("ui.app")
    except ImportError as exc:
        print(f"the touchscreen app cannot start here: {exc}", file=sys.stderr)
        return 1
    result: int = app.main(config)
    return result


def cmd_serve(args: argparse.Namespace, config: Config) -> int:
    serve = importlib.import_module("companion.net.serve")
    result: int = serve.main(config)
    return result


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Companion: a table companion for board games")
    parser.add_argument("--config", help="configuration file (TOML)")
    parser.add_argument("--data-dir", help="where saved games and tags live (overrides the configuration)")
    parser.add_argument("--lang", choices=LANGUAGES, help="language of messages")
    parser.add_argument("--version", action="version", version=version_text())
    sub = parser.add_subparsers(dest="command")

    def add(name: str, func: Callable[[argparse.Namespace, Config], int], help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help)
        p.set_defaults(func=func)
        return p

    add("run", cmd_run, "start the touchscreen app (the default)")
    add("serve", cmd_serve, "serve phones without a touchscreen")
    add("games", cmd_games, "list saved games")
    p = add("new", cmd_new, "start a new game")
    p.add_argument("game", help="scotland_yard, victorian_masterminds or mykerinos")
    p.add_argument("--setup", default="{}", help="setup JSON, or @file")
    p.add_argument("--title", help="a name for the saved game")
    p = add("show", cmd_show, "print one screen's view")
    p.add_argument("--as", dest="audience", required=True, help="table, a seat id (e.g. mrx, d1), or debug")
    p.add_argument("--game", type=int)
    for name, func, helptext in (("do", cmd_do, "submit an intent"), ("undo", cmd_undo, "undo the last action")):
        p = add(name, func, helptext)
        if name == "do":
            p.add_argument("intent", help='intent JSON, e.g. {"kind": "sy.move", ...}, or @file')
        p.add_argument("--as", dest="actor", required=True, help="table or a seat id")
        p.add_argument("--game", type=int)
        p.add_argument("--seq", type=int, help="the state you saw (default: the current one)")
    p = add("open", cmd_open, "make a saved game the current one")
    p.add_argument("id", type=int)
    p = add("delete", cmd_delete, "delete a saved game")
    p.add_argument("id", type=int)
    p.add_argument("--yes", action="store_true")
    p = add("export", cmd_export, "write a game to a JSON file")
    p.add_argument("id", type=int)
    p.add_argument("file")
    p = add("import", cmd_import, "read a game from a JSON file")
    p.add_argument("file")
    p.add_argument("--open", action="store_true", help="make it the current game")
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
    appliance_commands.add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    lang = args.lang or "en"
    try:
        config = load_config(args.config)
        if args.data_dir:
            config = Config(**{**config.__dict__, "data_dir": Path(args.data_dir)})
        lang = args.lang or config.language
        func = getattr(args, "func", cmd_run)
        result: int = func(args, config)
        return result
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
