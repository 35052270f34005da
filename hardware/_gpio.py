"""gpiozero, imported in this one place (it ships no type information), and only when a part on
GPIO pins is first made: a box without buttons or lights never loads it."""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "LED": "gpiozero",
    "Button": "gpiozero",
    "Buzzer": "gpiozero",
    "Device": "gpiozero",
    "LEDBarGraph": "gpiozero",
    "BadPinFactory": "gpiozero.exc",
    "MockFactory": "gpiozero.pins.mock",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'hardware._gpio' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
