"""``companion serve``: the table core, the store and the phone server without a touchscreen.

At a terminal it shows one seat's QR code at a time, on Enter, and clears it again (a detective
must not photograph Mister X's code). Besides the player seats there is a secret *table link*
that opens the public table screen on any browser (a laptop or tablet standing in for the
touchscreen: start cards, the detectives' moves, the tracker), so a table can play with phones
only.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import signal
import sys
from collections.abc import Callable
from typing import TextIO

from companion.app.autoplay import TablePlayer
from companion.app.config import Config
from companion.app.i18n import text
from companion.app.preferences import PREF_LANGUAGE, PREF_SPEECH, Preferences
from companion.app.qr import base_url, phone_address, qr_terminal, seat_url
from companion.app.seats import TABLE_SEAT, SeatLinks
from companion.app.speech import Announcer
from companion.app.store import Store
from companion.app.table import Table
from companion.app.writer import CommandServer, WriterLock
from companion.appliance.health import HealthWatch
from companion.appliance.hooks import lock_waiting, start_heartbeat
from companion.appliance.logs import setup_logging
from companion.appliance.status import status_line
from companion.core.errors import CompanionError
from companion.core.jsonvalue import JSONObject
from companion.net.host import Host
from companion.net.server import PhoneServer
from hardware.router import Box, open_speech

CLEAR = "\033[2J\033[H"


async def print_links(table: Table, links: SeatLinks, out: TextIO | None = None) -> list[str]:
    """List every seat's state (never its link); return the seats that still wait for a phone."""
    stream = out or sys.stdout
    if table.current is None:
        print("No game is open. Start one on the host page, or e.g.:", file=stream)
        print("  companion new scotland_yard mister_x=Xavier detectives=Dora", file=stream)
        return []
    game = table.current.game
    seats = [*game.rules.seats(game.state), TABLE_SEAT]
    print(f"\nGame {table.current.header.id}: {table.current.header.title}", file=stream)
    waiting = []
    for link in await asyncio.to_thread(links.ensure, table.current.header.id, seats):  # a store write
        name = "table screen (public; open on a laptop or tablet)" if link.seat == TABLE_SEAT else f"seat {link.seat}"
        print(f"- {name}: {'joined' if link.claimed else 'waiting'}", file=stream)
        if not link.claimed:
            waiting.append(link.seat)
    stream.flush()
    return waiting


async def show_codes(
    table: Table, links: SeatLinks, address: Callable[[], str], port: int, host: Host | None = None
) -> None:
    """At the terminal: one seat's QR code at a time, on Enter, so nobody photographs another's;
    ``address()`` is read for each code (the network's address then)."""
    while True:
        waiting = await print_links(table, links)
        if not waiting or table.current is None:
            print("Every seat has joined. Press Enter to list the seats again.")
            await asyncio.to_thread(sys.stdin.readline)
            continue
        game_id = table.current.header.id
        for seat in waiting:
            print(f"\nPress Enter to show the QR code for {seat} — only that player should look.")
            if not await asyncio.to_thread(sys.stdin.readline):
                return  # stdin closed
            (link,) = await asyncio.to_thread(links.ensure, game_id, [seat])
            now = address()
            url = seat_url(now, port, link.token)
            code = ""
            if host is not None:
                code = f"\nor type the room code {host.codes.issue(game_id, seat).code} at {base_url(now, port)}"
            print(f"{qr_terminal(url)}\n{url}{code}\n\nPress Enter when the phone has joined.")
            await asyncio.to_thread(sys.stdin.readline)
            print(CLEAR, end="", flush=True)


async def serve(config: Config, lock: WriterLock | None = None) -> None:
    """Serve phones (and the box's hardware) until SIGINT/SIGTERM. ``lock``: this data directory's
    writer lock, already held (``main`` takes it; taken here when not given)."""
    lock = lock if lock is not None else WriterLock(config.data_dir).acquire("serve")
    # Ctrl-C or a service stop while still starting ends it cleanly too (after the start-up).
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    store = Store(config.store_path)
    table = Table(store)
    await table.start()
    player = TablePlayer(table, config.ai_thinking, config.ai_cpu_budget)  # e.g. Mister X played by the table
    player.start()
    inputs: Box | None = None
    health: HealthWatch | None = None

    announcer: Announcer | None = None
    commands = CommandServer(table, lock)
    try:  # buttons, lights and tag readers from [hardware] (mode auto: simulated twins off a Pi)
        await commands.start()
        inputs = Box.open(table, config)
        inputs.router.listen(_print_notice)
        links = SeatLinks(store)
        prefs = Preferences(store, config.language)
        await prefs.load()
        server = PhoneServer(table, links, language=lambda: prefs.language)
        # A language chosen on the host page reaches every phone that follows the table at once.
        prefs.changed.append(lambda key: server.language_changed() if key == PREF_LANGUAGE else None)
        # The table's voice ([speech]): on/off and the volume are the table's settings (the host page's).
        announcer = open_speech(table, config, language=lambda: prefs.language, pref=prefs.get)
        prefs.changed.append(announcer.setting_changed)
        address = phone_address(config.public_address)
        # The Pi's own warnings (under-voltage, an overlay file system) for the host page.
        # and the voice that cannot be heard, checked again at once when it fails or is switched on
        # and the tag readers unplugged or not answering
        health = HealthWatch(
            config.data_dir,
            lambda _warnings: host.refresh(),
            extra=lambda: [*announcer.warnings(), *inputs.router.warnings()],
        )
        announcer.speaker.trouble_changed = lambda _trouble: health.poke()
        inputs.router.status_changed = health.poke
        prefs.changed.append(lambda key: health.poke() if key == PREF_SPEECH else None)
        where = [config.port]  # the port phones reach, once the server is listening
        host = Host(
            server,
            store,
            table,
            links,
            config.data_dir,
            base=lambda: (phone_address(config.public_address), where[0]),  # the network's address now
            pref=prefs.get,
            set_pref=prefs.set,
            language=lambda: prefs.language,
            warnings=lambda lang: [text(c, p, lang, ("companion.appliance",)) for c, p in health.last or []],
        )
        health.start()
        commands.phones = server.connected_seats  # companion status: the phones and warnings of the running table
        commands.warnings = lambda: health.last or []
        try:
            runner, port = await server.start(config.host, config.port)
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            raise CompanionError("net.port_taken", f"port {config.port} is in use", port=config.port) from None
        where[0] = port
        lock.announce_port(port)  # `companion host-link` prints the port phones really reach
    except BaseException:
        if health is not None:
            await health.stop()

        if announcer is not None:
            await asyncio.to_thread(announcer.close)
        if inputs is not None:
            await inputs.aclose()
        await commands.close()
        await player.stop()
        await table.stop()
        store.close()
        raise
    hw = inputs.hardware
    if hw.buttons is not None or hw.readers:
        print(f"Hardware ({hw.mode}): {len(hw.config.buttons)} buttons, {len(hw.readers)} tag readers")
    print(f"Companion is serving phones on http://{address}:{port} (Ctrl-C to stop)", flush=True)
    codes: asyncio.Task[None] | None = None
    if sys.stdin.isatty():
        # Shown once, here only: the host page runs the table from any phone or tablet.
        url = await asyncio.to_thread(host.url)
        print(f"\nThe host page (keep this link to yourself):\n{qr_terminal(url)}\n{url}\n")
        codes = asyncio.create_task(show_codes(table, links, lambda: phone_address(config.public_address), port, host))
    else:
        # No terminal to take turns at (e.g. a service log): list the seats, never their links.
        await print_links(table, links)
        print(
            "Hand out the seats' QR codes on the host page (`sudo companion host-link` prints its link) "
            "or on the touchscreen.",
            flush=True,
        )
    beat = start_heartbeat(config.data_dir, lambda: status_line(table, server))  # systemd: ready, status, watchdog
    try:
        await stop.wait()
    finally:
        if beat is not None:
            beat.cancel()
        if codes is not None:
            codes.cancel()
        await health.stop()
        await runner.cleanup()
        if announcer is not None:
            await asyncio.to_thread(announcer.close)
        await inputs.aclose()
        await commands.close()
        await player.stop()
        await table.stop()
        store.close()


def _print_notice(message: JSONObject) -> None:
    """Without a touchscreen, what the box's inputs report goes to the terminal (or service log)."""
    if message.get("type") == "notice":
        print(f"[{message.get('source')}] {message.get('text')}", flush=True)


def main(config: Config) -> int:
    setup_logging()
    # First of all: one writer per data directory (a second `serve` or `run` is refused here; an
    # offline command, or under systemd anyone, is waited for: see WriterLock.acquire_waiting).
    waiting, always = lock_waiting()
    lock = WriterLock(config.data_dir).acquire_waiting("serve", waiting, always)
    try:
        asyncio.run(serve(config, lock))
    finally:
        lock.release()
    return 0
