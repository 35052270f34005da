"""gpiozero, imported in this one place (it ships no type information)."""

from __future__ import annotations

from gpiozero import LED, Button, Buzzer, Device, LEDBarGraph  # type: ignore[import-untyped]
from gpiozero.exc import BadPinFactory  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

__all__ = ["LED", "BadPinFactory", "Button", "Buzzer", "Device", "LEDBarGraph", "MockFactory"]
