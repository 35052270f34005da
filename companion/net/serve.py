"""``companion serve``: the table core, the store and the phone server without a touchscreen.

Prints a link and a QR code for every seat of the current game, plus a secret *table link* that
opens the public table screen on any browser (a laptop or tablet standing in for the
touchscreen), so a table can play with phones only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from typing import TextIO

from companion.app.config import Config
from companion.app.qr import phone_address, qr_terminal, seat_url
from companion.app.seats import TABLE_SEAT, SeatLinks
from companion.app.store import Store
from companion.app.table import Table
from companion.core.audience import TABLE
from companion.core.jsonvalue import JSONObject
from companion.net.server import PhoneServer


def print_links(table: Table, links: SeatLinks, address: str, port: int, out: TextIO | None = None) -> None:
    stream = out or sys.stdout
    if table.current is None:
        print("No game is open. Start one, e.g.:\n  companion new scotland_yard --setup @setup.json", file=stream)
        return
    game = table.current.game
    seats = [*game.rules.seats(game.state), TABLE_SEAT]
    print(f"\nGame {table.current.header.id}: {table.current.header.title}", file=stream)
    for link in links.ensure(table.current.header.id, seats):
        url = seat_url(address, port, link.token)
        name = "table screen (public, any browser)" if link.seat == TABLE_SEAT else f"seat {link.seat}"
        if link.claimed:
            print(f"- {name}: joined", file=stream)
            continue
        print(f"- {name}: {url}", file=stream)
        print(qr_terminal(url), file=stream)
    stream.flush()


async def serve(config: Config) -> None:
    config.data_dir.mkdir(parents=True, exist_ok=True)
    store = Store(config.store_path)
    table = Table(store)
    await table.start()
    links = SeatLinks(store)
    server = PhoneServer(table, links, language=lambda: config.language)
    runner, port = await server.start(config.host, config.port)
    address = phone_address(config.public_address)
    print(f"Companion is serving phones on http://{address}:{port} (Ctrl-C to stop)")
    shown: list[object] = [None]

    def changed(message: JSONObject) -> None:
        game_id = message.get("game_id")
        if game_id != shown[0]:
            shown[0] = game_id
            print_links(table, links, address, port)

    table.subscribe(TABLE, changed)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
        await table.stop()
        store.close()


def main(config: Config) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    asyncio.run(serve(config))
    return 0
