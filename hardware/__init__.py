"""Buttons, lights and RFID readers behind small interfaces (see docs/wiring.md).

The drivers (every module here but ``router`` and ``cli``) know no game and no app code: they
turn the ``[hardware]`` configuration section into devices with :func:`build`, which report
:data:`HardwareEvent` values through a ``deliver`` callable made by :func:`to_loop`.
:mod:`hardware.router` is the one link to the app (events -> the open game's bindings -> intents;
public views -> lights); the entry points (``companion run``, ``serve``, ``doctor``) open it.
"""

from __future__ import annotations

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
