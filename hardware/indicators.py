"""Lights and sound: a status LED per seat, a buzzer with named patterns, LED bar graphs.

All optional. The app calls :class:`IndicatorPanel` (``show_turn``, ``signal``,
``show_track``) from its event loop; every call returns at once (patterns play on a small
thread of their own) and a part that is not fitted simply does nothing.
"""

from __future__ import annotations

import collections
import logging
import math
import threading
from collections.abc import Collection, Mapping
from typing import Any

from hardware import _gpio

log = logging.getLogger(__name__)

Steps = tuple[tuple[float, float], ...]  # (on seconds, off seconds) per beep

PATTERNS: dict[str, Steps] = {
    "reveal": ((0.08, 0.08), (0.08, 0.08), (0.08, 0.0)),  # three quick chirps: Mister X shows himself
    "capture": ((0.5, 0.0),),  # one long tone
    "end": ((0.15, 0.1), (0.15, 0.1), (0.6, 0.0)),  # short, short, long
    "error": ((0.05, 0.05), (0.05, 0.0)),  # a double click: refused
}


def lit_count(value: int, maximum: int, leds: int) -> int:
    """How many of ``leds`` LEDs show ``value`` on a 0..``maximum`` track.

    Rounds up: 0 lights none, any value above 0 lights at least one LED, ``maximum`` lights
    all. 12 steps on 4 LEDs: 1-3 → 1, 4-6 → 2, 7-9 → 3, 10-12 → 4. Out-of-range values clamp.
    """
    if maximum <= 0 or leds <= 0:
        raise ValueError("maximum and leds must be positive")
    value = min(max(value, 0), maximum)
    return math.ceil(value * leds / maximum)


class SeatLights:
    """One LED per seat; ``show_turn(seat)`` lights that seat's LED and no other."""

    def __init__(self, pins: Mapping[str, int | str], *, pin_factory: Any) -> None:
        self._leds: dict[str, Any] = {}
        try:
            for seat, pin in pins.items():
                self._leds[seat] = _gpio.LED(pin, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self._leds)

    def show_turn(self, seat: str | None) -> None:
        self.show_turns(() if seat is None else (seat,))

    def show_turns(self, seats: Collection[str]) -> None:
        """Light exactly the LEDs of ``seats`` (e.g. every detective who still has to move)."""
        for name, led in self._leds.items():
            if name in seats:
                led.on()
            else:
                led.off()

    def set(self, seat: str, on: bool) -> None:
        led = self._leds.get(seat)
        if led is not None:
            led.value = on

    def states(self) -> dict[str, bool]:
        return {seat: bool(led.is_lit) for seat, led in self._leds.items()}

    def close(self) -> None:
        for led in self._leds.values():
            led.close()
        self._leds.clear()


class BuzzerPlayer:
    """An active buzzer playing named patterns; a new pattern interrupts the one playing."""

    def __init__(
        self, pin: int | str, *, pin_factory: Any, active_high: bool = True, patterns: Mapping[str, Steps] = PATTERNS
    ) -> None:
        self.patterns = dict(patterns)
        self._device = _gpio.Buzzer(pin, active_high=active_high, pin_factory=pin_factory)
        self._cond = threading.Condition()
        self._next: Steps | None = None
        self._playing = False
        self._closed = False
        self.played: collections.deque[str] = collections.deque(maxlen=20)  # recent names, in order
        self._thread = threading.Thread(target=self._run, name="buzzer", daemon=True)
        self._thread.start()

    @property
    def device(self) -> Any:
        return self._device

    def play(self, pattern: str) -> None:
        steps = self.patterns.get(pattern)
        if steps is None:
            raise ValueError(f"unknown buzzer pattern {pattern!r} (known: {', '.join(sorted(self.patterns))})")
        with self._cond:
            if self._closed:
                return
            self._next = steps
            self.played.append(pattern)
            self._cond.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Block until nothing is playing or queued (for tests and the CLI)."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._playing and self._next is None, timeout)

    def _pause(self, seconds: float) -> bool:
        """Sleep; True when interrupted by a new pattern or close."""
        with self._cond:
            return self._cond.wait_for(lambda: self._next is not None or self._closed, seconds)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._next is not None or self._closed)
                if self._closed:
                    return
                steps, self._next = self._next, None
                self._playing = True
            assert steps is not None
            try:
                for on_time, off_time in steps:
                    self._device.on()
                    if self._pause(on_time):
                        break
                    self._device.off()
                    if off_time and self._pause(off_time):
                        break
                self._device.off()
            except Exception:  # the pin went away during close
                log.debug("buzzer: playing failed", exc_info=True)
            with self._cond:
                self._playing = False
                self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(2.0)
        self._device.close()


class TrackBar:
    """A ``gpiozero.LEDBarGraph`` showing one track (e.g. the Secret Service level 0..12)."""

    def __init__(self, track: str, pins: tuple[int | str, ...], maximum: int, *, pin_factory: Any) -> None:
        if maximum <= 0:
            raise ValueError("maximum must be positive")
        self.track = track
        self.maximum = maximum
        self.value = 0
        self._bar = _gpio.LEDBarGraph(*pins, pwm=False, pin_factory=pin_factory)

    @property
    def leds(self) -> int:
        return len(self._bar)

    @property
    def lit(self) -> int:
        return sum(1 for led in self._bar if led.is_lit)

    def show(self, value: int) -> None:
        self.value = min(max(value, 0), self.maximum)
        self._bar.value = lit_count(value, self.maximum, self.leds) / self.leds

    def close(self) -> None:
        self._bar.close()


class IndicatorPanel:
    """Everything that lights up or beeps, behind three calls. Missing parts do nothing."""

    def __init__(
        self,
        seat_lights: SeatLights | None = None,
        buzzer: BuzzerPlayer | None = None,
        tracks: Mapping[str, TrackBar] | None = None,
    ) -> None:
        self.seat_lights = seat_lights
        self.buzzer = buzzer
        self.tracks = dict(tracks or {})
        self.turns: tuple[str, ...] = ()

    @property
    def turn(self) -> str | None:
        """The one seat whose turn it is (None: nobody's, or several at once)."""
        return self.turns[0] if len(self.turns) == 1 else None

    def show_turn(self, seat: str | None) -> None:
        self.show_turns(() if seat is None else (seat,))

    def show_turns(self, seats: Collection[str]) -> None:
        self.turns = tuple(seats)
        if self.seat_lights is not None:
            self.seat_lights.show_turns(self.turns)

    def signal(self, pattern: str) -> None:
        if self.buzzer is not None:
            self.buzzer.play(pattern)
        elif pattern not in PATTERNS:
            raise ValueError(f"unknown buzzer pattern {pattern!r}")

    def show_track(self, track: str, value: int) -> None:
        bar = self.tracks.get(track)
        if bar is not None:
            bar.show(value)

    def states(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "turns": list(self.turns),
            "seat_lights": self.seat_lights.states() if self.seat_lights is not None else {},
            "buzzer": None if self.buzzer is None else {"played": list(self.buzzer.played)[-5:]},
            "tracks": {
                name: {"value": bar.value, "maximum": bar.maximum, "lit": bar.lit, "leds": bar.leds}
                for name, bar in self.tracks.items()
            },
        }

    def close(self) -> None:
        if self.seat_lights is not None:
            self.seat_lights.close()
        if self.buzzer is not None:
            self.buzzer.close()
        for bar in self.tracks.values():
            bar.close()
