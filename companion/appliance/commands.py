"""The appliance's subcommands of ``companion``: ``status`` and ``hotspot``."""

from __future__ import annotations

from typing import Any

from companion.appliance import hotspot, status


def add_commands(subparsers: Any) -> None:
    status.add_commands(subparsers)
    hotspot.add_commands(subparsers)
