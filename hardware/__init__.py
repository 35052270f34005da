"""Buttons, lights and RFID readers behind small interfaces (see docs/wiring.md).

The drivers (every module here but ``router`` and ``cli``) know no game and no app code: they
turn the ``[hardware]`` configuration section into devices with :func:`build`, which report
:data:`HardwareEvent` values through a ``deliver`` callable made by :func:`to_loop`.
:mod:`hardware.router` is the one link to the app (events -> the open game's bindings -> intents;
public views -> lights); the entry points (``companion run``, ``serve``, ``doctor``) open it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Each name from the module that defines it, loaded when first asked for: importing one part of
# the package (e.g. ``hardware.pi`` before the first frame) loads no driver and no gpiozero.
_WHERE = {
    "HardwareConfig": "config",
    "HardwareConfigError": "config",
    "parse_hardware": "config",
    "EnrollmentSession": "enrollment",
    "EnrollResult": "enrollment",
    "ImportReport": "enrollment",
    "Piece": "enrollment",
    "TagConflict": "enrollment",
    "TagTable": "enrollment",
    "ButtonHeld": "events",
    "ButtonPressed": "events",
    "ButtonReleased": "events",
    "HardwareEvent": "events",
    "ReaderStatus": "events",
    "TagGone": "events",
    "TagSeen": "events",
    "event_json": "events",
    "to_loop": "loop",
    "to_queue": "loop",
    "Hardware": "system",
    "build": "system",
}

if TYPE_CHECKING:
    from hardware.config import HardwareConfig, HardwareConfigError, parse_hardware
    from hardware.enrollment import EnrollmentSession, EnrollResult, ImportReport, Piece, TagConflict, TagTable
    from hardware.events import (
        ButtonHeld,
        ButtonPressed,
        ButtonReleased,
        HardwareEvent,
        ReaderStatus,
        TagGone,
        TagSeen,
        event_json,
    )
    from hardware.loop import to_loop, to_queue
    from hardware.system import Hardware, build


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'hardware' has no attribute {name!r}")
    return getattr(importlib.import_module(f"hardware.{module}"), name)


__all__ = [
    "ButtonHeld",
    "ButtonPressed",
    "ButtonReleased",
    "EnrollResult",
    "EnrollmentSession",
    "Hardware",
    "HardwareConfig",
    "HardwareConfigError",
    "HardwareEvent",
    "ImportReport",
    "Piece",
    "ReaderStatus",
    "TagConflict",
    "TagGone",
    "TagSeen",
    "TagTable",
    "build",
    "event_json",
    "parse_hardware",
    "to_loop",
    "to_queue",
]
