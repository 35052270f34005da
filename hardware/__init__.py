"""Buttons, lights and RFID readers behind small interfaces (see docs/wiring.md).

The app builds everything from the ``[hardware]`` configuration section with
:func:`build`, passing a ``deliver`` callable made by :func:`to_loop`, and receives
:data:`HardwareEvent` values on its event loop. Drivers never import game code.
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
