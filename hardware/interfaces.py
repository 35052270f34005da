"""The small interfaces the app programs against.

Each has a real adapter and a simulated twin of equal standing, picked by configuration
(see :mod:`hardware.system`):

=============  ==============================================  ================================================
interface      real                                            simulated twin
=============  ==============================================  ================================================
Buttons        :class:`~hardware.buttons.ButtonBank` on the    the same ButtonBank on gpiozero's ``MockFactory``
               Pi's pin factory (lgpio on a Pi 5)              (``Hardware.press``/``release`` drive the pins)
Indicators     :class:`~hardware.indicators.IndicatorPanel`    the same panel on ``MockFactory`` (pin states
               (LEDs, buzzer, LEDBarGraph)                     are recorded by the mock pins)
TagReader      :class:`~hardware.readers.SerialTagReader`      the same reader thread on a
               subclasses on a pyserial port                   :class:`~hardware.simulated.SimulatedTagDevice`
=============  ==============================================  ================================================
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol, runtime_checkable

from hardware.buttons import ButtonState
from hardware.readers import ReaderInfo


@runtime_checkable
class Buttons(Protocol):
    def states(self) -> list[ButtonState]: ...

    def close(self) -> None: ...


@runtime_checkable
class Indicators(Protocol):
    def show_turn(self, seat: str | None) -> None: ...

    def show_turns(self, seats: Collection[str]) -> None: ...

    def signal(self, pattern: str) -> None: ...

    def show_track(self, track: str, value: int) -> None: ...

    def close(self) -> None: ...


@runtime_checkable
class TagReader(Protocol):
    name: str

    def start(self) -> None: ...

    def stop(self, timeout: float = 5.0) -> None: ...

    def info(self) -> ReaderInfo: ...
