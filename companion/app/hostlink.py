"""The host link: a secret of its own that opens the host page (start games, hand out seats,
saved games, settings, history) on any phone, tablet or laptop — for a Pi without a touchscreen.

The token lives in the data directory, in the file ``host-token`` readable by its owner only
(the service's user): ``companion serve`` at a terminal shows the link once, the touchscreen's
Phones screen on request, and ``sudo companion host-link`` prints it for a Pi running as a
service. ``companion host-link --new`` makes a new one; the old link stops working at once
(every check reads the file again when it changed). The token is compared in constant time and
never logged; it appears in no view.
"""

from __future__ import annotations

import hmac
import logging
import re
import secrets
import threading
from pathlib import Path

from companion.files import private_dir, set_aside, write_atomic

log = logging.getLogger(__name__)

TOKEN_FILE = "host-token"
TOKEN_BYTES = 24  # 192 bits, like a seat's token
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")  # what secrets.token_urlsafe makes (and check accepts)


def host_url(address: str, port: int, token: str) -> str:
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/h/{token}"


class HostLink:
    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / TOKEN_FILE
        self._lock = threading.Lock()
        self._cached: tuple[float, str] | None = None

    def token(self) -> str:
        """The host token, made on first use."""
        with self._lock:
            current = self._read()
            if current:
                return current
            return self._write(secrets.token_urlsafe(TOKEN_BYTES))

    def rotate(self) -> str:
        """A new token; the old link is dead from now on."""
        with self._lock:
            return self._write(secrets.token_urlsafe(TOKEN_BYTES))

    def check(self, presented: object) -> bool:
        """Whether ``presented`` is the host token (constant time; False for anything else)."""
        if not isinstance(presented, str) or not 16 <= len(presented) <= 64:
            return False
        with self._lock:
            current = self._read()
        if not current:
            return False
        return hmac.compare_digest(presented.encode("utf-8"), current.encode("utf-8"))

    def _read(self) -> str:
        try:
            stamp = self.path.stat().st_mtime_ns
        except FileNotFoundError:
            return ""
        if self._cached is not None and self._cached[0] == stamp:
            return self._cached[1]
        text = self.path.read_bytes().decode("ascii", "replace").strip()
        if not TOKEN_SHAPE.fullmatch(text):  # torn or emptied by a card: kept aside, a new link is made
            copy = set_aside(self.path)
            log.error("the host token could not be read: kept as %s, a new host link is made", copy)
            return ""
        self._cached = (stamp, text)
        return text

    def _write(self, token: str) -> str:
        folder = private_dir(self.path.parent)
        # `sudo companion host-link` makes the file for the service: it must stay the service's.
        owner = folder.stat()
        write_atomic(self.path, token + "\n", owner=(owner.st_uid, owner.st_gid))  # old or new, whole
        self._cached = None
        return token
