"""Push buttons on GPIO pins (gpiozero), with our own debounce and long-press timing.

gpiozero's ``bounce_time`` is not used: the mock pin factory ignores it and lgpio implements
it differently from RPi.GPIO, so the tests would not exercise what runs on the Pi. Instead
every raw edge goes into a :class:`Debouncer` (pure, driven by an injectable clock) and a
small timer thread fires the deadlines it asks for. gpiozero's own ``when_held`` is not used
either (it runs on gpiozero's hold thread and knows nothing about bounce).

Debounce rule (the same one lgpio uses): a new level counts once it has been stable for the
whole bounce window. Several edges inside the window are one press; the bounce of a release
is not a second press; a glitch shorter than the window is nothing. Presses therefore arrive
``bounce`` late (20 ms by default, which nobody at a table notices).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from hardware import _gpio
from hardware.events import ButtonHeld, ButtonPressed, ButtonReleased, HardwareEvent

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Deliver = Callable[[HardwareEvent], None]


@dataclass(frozen=True)
class Transition:
    kind: Literal["pressed", "held", "released"]
    held: bool = False  # for "released": whether "held" came before


class Debouncer:
    """Raw edges in, clean press/hold/release out. Pure: time is always passed in.

    Call :meth:`edge` for every raw level change and :meth:`poll` at (or after) the time
    :meth:`next_deadline` names. Both return the transitions that became due, in order.
    """

    def __init__(self, bounce: float, hold: float | None, *, pressed: bool = False) -> None:
        if bounce < 0:
            raise ValueError("bounce must be >= 0")
        self.bounce = bounce
        self.hold = hold if hold else None
        # A button already down when we start (stuck, or held while the box boots) reports
        # nothing: not a press now, not a release later. It counts from its next press.
        self.raw = pressed  # the level as the pin last reported it
        self.pressed = False  # the debounced state we reported
        self._settle_at: float | None = None  # when ``raw`` will have been stable for ``bounce``
        self._hold_at: float | None = None
        self._held = False

    def next_deadline(self) -> float | None:
        times = [t for t in (self._settle_at, self._hold_at) if t is not None]
        return min(times) if times else None

    def edge(self, pressed: bool, now: float) -> list[Transition]:
        out = self.poll(now)  # whatever was due before this edge happened first
        if pressed != self.raw:
            self.raw = pressed
            self._settle_at = now + self.bounce
        return out

    def poll(self, now: float) -> list[Transition]:
        out: list[Transition] = []
        while True:
            deadline = self.next_deadline()
            if deadline is None or deadline > now:
                return out
            if deadline == self._settle_at:
                self._settle_at = None
                if self.raw != self.pressed:
                    self.pressed = self.raw
                    if self.pressed:
                        out.append(Transition("pressed"))
                        self._held = False
                        if self.hold is not None:
                            self._hold_at = deadline - self.bounce + self.hold
                    else:
                        out.append(Transition("released", self._held))
                        self._hold_at = None
            else:
                self._hold_at = None
                if self.pressed and self.raw:
                    self._held = True
                    out.append(Transition("held"))
                elif self.pressed:  # a release is settling; hold once it turns out a glitch
                    self._hold_at = self._settle_at


@dataclass(frozen=True)
class ButtonSpec:
    name: str
    pin: int | str
    role: str
    hold: float | None = None  # seconds; None: the bank's default; 0: no long press


@dataclass(frozen=True)
class ButtonState:
    name: str
    role: str
    pin: str
    pressed: bool  # debounced, as reported
    raw: bool  # the pin right now


class ButtonBank:
    """All configured buttons: gpiozero devices in, debounced events out through ``deliver``.

    ``deliver`` is called from gpiozero's callback thread or from the bank's timer thread,
    always with the bank's lock held, so one button's events keep their order.
    With ``autotick=False`` no timer thread runs and the owner calls :meth:`tick` (tests
    with a fake clock do this).
    """

    def __init__(
        self,
        specs: Sequence[ButtonSpec],
        deliver: Deliver,
        *,
        pin_factory: Any,
        bounce: float = 0.02,
        hold: float = 1.0,
        clock: Clock = time.monotonic,
        autotick: bool = True,
    ) -> None:
        names = [s.name for s in specs]
        if len(set(names)) != len(names):
            raise ValueError("button names must be unique")
        self.specs = tuple(specs)
        self._deliver = deliver
        self._clock = clock
        self._cond = threading.Condition(threading.RLock())
        self._closed = False
        self._devices: list[Any] = []
        self._debouncers: list[Debouncer] = []
        try:
            for index, spec in enumerate(self.specs):
                device = _gpio.Button(spec.pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                self._devices.append(device)
                hold_time = hold if spec.hold is None else spec.hold
                self._debouncers.append(Debouncer(bounce, hold_time, pressed=bool(device.is_pressed)))
                device.when_pressed = self._callback(index, True)
                device.when_released = self._callback(index, False)
        except Exception:
            self.close()
            raise
        self._thread: threading.Thread | None = None
        if autotick:
            self._thread = threading.Thread(target=self._run, name="buttons", daemon=True)
            self._thread.start()

    def _callback(self, index: int, pressed: bool) -> Callable[[], None]:
        def on_edge() -> None:
            self._edge(index, pressed)

        return on_edge

    def _edge(self, index: int, pressed: bool) -> None:
        with self._cond:
            if self._closed:
                return
            self._emit(index, self._debouncers[index].edge(pressed, self._clock()))
            self._cond.notify_all()

    def _emit(self, index: int, transitions: list[Transition]) -> None:
        spec = self.specs[index]
        for t in transitions:
            event: HardwareEvent
            if t.kind == "pressed":
                event = ButtonPressed(spec.name, spec.role)
            elif t.kind == "held":
                event = ButtonHeld(spec.name, spec.role)
            else:
                event = ButtonReleased(spec.name, spec.role, t.held)
            try:
                self._deliver(event)
            except Exception:
                log.exception("buttons: deliver failed for %r", event)

    def tick(self) -> None:
        """Fire every deadline that is due now (the timer thread does this by itself)."""
        with self._cond:
            if self._closed:
                return
            now = self._clock()
            for index, debouncer in enumerate(self._debouncers):
                self._emit(index, debouncer.poll(now))

    def next_deadline(self) -> float | None:
        with self._cond:
            times = [t for d in self._debouncers if (t := d.next_deadline()) is not None]
            return min(times) if times else None

    def _run(self) -> None:
        with self._cond:
            while not self._closed:
                deadline = self.next_deadline()
                if deadline is None:
                    self._cond.wait()
                    continue
                delay = deadline - self._clock()
                if delay > 0:
                    self._cond.wait(delay)
                    continue
                self.tick()

    def states(self) -> list[ButtonState]:
        with self._cond:
            result = []
            for spec, device, debouncer in zip(self.specs, self._devices, self._debouncers, strict=False):
                raw = bool(device.is_pressed) if not self._closed else False
                result.append(ButtonState(spec.name, spec.role, str(spec.pin), debouncer.pressed, raw))
            return result

    def device(self, name: str) -> Any:
        """The gpiozero ``Button`` of a named button (its ``.pin`` is a MockPin when simulated)."""
        for spec, device in zip(self.specs, self._devices, strict=False):
            if spec.name == name:
                return device
        raise KeyError(name)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        thread = getattr(self, "_thread", None)
        if thread is not None and thread is not threading.current_thread():
            thread.join(2.0)
        for device in self._devices:
            try:
                device.close()
            except Exception:  # a half-built device may fail to close
                log.debug("buttons: closing %r failed", device, exc_info=True)
        self._devices = []
