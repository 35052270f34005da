"""The phone server's sockets are bound before its code is loaded (``companion run`` binds them
before its first frame and serves right after it): a phone that connects in between waits in the
backlog and is served, never refused; a taken port falls back to a free one, and says so."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from types import SimpleNamespace

import aiohttp

from companion.app.config import Config
from companion.app.seats import SeatLinks
from companion.app.store import Store
from companion.app.table import Table
from companion.net.listen import bind, port_of
from companion.net.server import PhoneServer


def test_a_phone_that_comes_before_the_server_is_served(tmp_path: Path) -> None:
    async def main() -> tuple[int, str]:
        store = Store(tmp_path / "t.sqlite3")
        table = Table(store)
        await table.start()
        sockets = bind("127.0.0.1", 0)
        port = port_of(sockets)
        async with aiohttp.ClientSession() as session:
            # The phone asks while nothing serves yet: the connection waits in the backlog.
            asking = asyncio.create_task(session.get(f"http://127.0.0.1:{port}/s/some-token"))
            await asyncio.sleep(0.3)
            assert not asking.done()
            runner = await PhoneServer(table, SeatLinks(store)).serve(sockets)
            try:
                async with await asyncio.wait_for(asking, 10) as reply:
                    answer = reply.status, await reply.text()
            finally:
                await runner.cleanup()
        await table.stop()
        store.close()
        return answer

    status, page = asyncio.run(main())
    assert status == 200 and "<html" in page


def test_every_address_gets_the_same_free_port() -> None:
    sockets = bind("localhost", 0)
    try:
        assert len({s.getsockname()[1] for s in sockets}) == 1
        assert all(s.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) for s in sockets)
    finally:
        for s in sockets:
            s.close()


def test_a_taken_port_falls_back_to_a_free_one_and_says_so(tmp_path: Path) -> None:
    from ui.app import bind_phones

    taken = bind("127.0.0.1", 0)
    try:
        config = Config(host="127.0.0.1", port=port_of(taken), data_dir=tmp_path)
        ctl = SimpleNamespace(phones=SimpleNamespace(port=0, problem=""))
        sockets = bind_phones(config, ctl)
        assert sockets and ctl.phones.port == port_of(sockets) != port_of(taken)
        assert str(port_of(taken)) in ctl.phones.problem
        for s in sockets:
            s.close()
    finally:
        for s in taken:
            s.close()
