"""The phone server's listening sockets, bound before the server's code is loaded.

``companion run`` binds them before its first frame (so the start screen shows the phones'
address, and a phone that connects meanwhile waits in the backlog instead of being refused) and
hands them to the web server (:meth:`companion.net.server.PhoneServer.serve`) right after that
frame. Standard library only: importing this module loads no web server.
"""

from __future__ import annotations

import contextlib
import socket

BACKLOG = 128


def bind(host: str | None, port: int) -> list[socket.socket]:
    """Listening sockets for ``host`` (a name, an address, or ``""``/None: every interface) and
    ``port`` (0: a free one, the same for every address), as asyncio's server would bind them;
    raises :class:`OSError` when the port cannot be had."""
    infos = socket.getaddrinfo(host or None, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _name, address in dict.fromkeys(infos):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)  # its own socket for IPv4
            if port == 0 and len(sockets) > 1:  # one free port for every address
                address = (address[0], sockets[0].getsockname()[1], *address[2:])
            sock.bind(address)
            sock.listen(BACKLOG)
            sock.setblocking(False)
    except OSError:
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.close()
        raise
    return sockets


def port_of(sockets: list[socket.socket]) -> int:
    return int(sockets[0].getsockname()[1])
