"""What the Pi's own user may read, for ``companion status``, ``doctor`` and ``hotspot status``.

The installed configuration (``/etc/companion/companion.toml``, ``0640 root:companion``) holds the
hotspot password, so only root and the group ``companion`` read it, and the saved games
(``/var/lib/companion``, ``0750``) likewise. The installer puts the user who ran it into that group,
which counts from that user's next login. Until then, and for anyone else, these three commands do
not stop at the file: they show what needs no secret (the service and its status line from
systemd, power, display, GPIO and serial facts, the hotspot's state from NetworkManager) and say
what they could not read and how to get it.
"""

from __future__ import annotations

import grp
import os
import pwd
from pathlib import Path

INSTALLED_CONFIG = Path("/etc/companion/companion.toml")
INSTALLED_DATA_DIR = Path("/var/lib/companion")  # what deploy/install-pi.sh writes into it


def fallback_data_dir(path: Path) -> Path | None:
    """The data directory when the configuration at ``path`` cannot be read: the installer's for
    the installed file (its own ``data_dir`` cannot be read); None (the default) for any other."""
    return INSTALLED_DATA_DIR if path == INSTALLED_CONFIG else None


def why_unreadable(path: Path) -> str:
    """Who may read ``path`` and how this user gets there."""
    try:
        st = path.stat()
        group = grp.getgrgid(st.st_gid).gr_name
    except (OSError, KeyError):
        return f"cannot read {path}"
    member = group in {grp.getgrgid(g).gr_name for g in os.getgroups() if _known(g)}
    listed = _listed_in(group)
    if listed and not member:
        how = f"you were added to the group {group}: log out and in again (or use sudo)"
    else:
        how = (
            f"it holds the hotspot password: root and the group {group} only (sudo, or sudo usermod -aG {group} $USER)"
        )
    return f"cannot read {path} ({how})"


def _known(gid: int) -> bool:
    try:
        grp.getgrgid(gid)
    except KeyError:
        return False
    return True


def _listed_in(group: str) -> bool:
    """Is this user a member of ``group`` in /etc/group (perhaps not yet in this login)?"""
    try:
        return pwd.getpwuid(os.getuid()).pw_name in grp.getgrnam(group).gr_mem
    except KeyError:
        return False
