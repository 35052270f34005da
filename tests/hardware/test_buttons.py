"""Buttons through gpiozero's MockFactory, with our own debounce and long press."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from hwkit import FakeClock, Recorder
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.buttons import ButtonBank, ButtonSpec, Debouncer, Transition
from hardware.events import ButtonHeld, ButtonPressed, ButtonReleased, HardwareEvent
from hardware.loop import to_queue

BOUNCE = 0.02
HOLD = 1.0


class Rig:
    """A bank on mock pins with a fake clock and no timer thread: fully deterministic."""

    def __init__(self, specs: list[ButtonSpec]) -> None:
        self.factory = MockFactory()
        self.clock = FakeClock()
        self.rec = Recorder()
        self.bank = ButtonBank(
            specs, self.rec, pin_factory=self.factory, bounce=BOUNCE, hold=HOLD, clock=self.clock, autotick=False
        )

    def pin(self, number: int) -> Any:
        return self.factory.pin(number)

    def at(self, dt: float) -> None:
        """Let ``dt`` seconds pass (and the timer fire whatever became due)."""
        self.clock.advance(dt)
        self.bank.tick()

    def edges(self, number: int, levels: list[int], gap: float = 0.002) -> None:
        """Drive raw levels (0 = pressed, pulled low) with ``gap`` between edges, no ticks between."""
        pin = self.pin(number)
        for level in levels:
            (pin.drive_high if level else pin.drive_low)()
            self.clock.advance(gap)

    def close(self) -> None:
        self.bank.close()
        self.factory.close()


@pytest.fixture
def rig() -> Iterator[Rig]:
    r = Rig([ButtonSpec("ok", 17, "confirm"), ButtonSpec("back", 27, "undo"), ButtonSpec("p1", 5, "seat:p1", hold=0)])
    yield r
    r.close()


def test_single_press(rig: Rig) -> None:
    rig.pin(17).drive_low()
    assert rig.rec.events == []  # not before the level has been stable for the bounce time
    rig.at(BOUNCE / 2)
    assert rig.rec.events == []
    rig.at(BOUNCE)
    assert rig.rec.events == [ButtonPressed("ok", "confirm")]
    assert [s.pressed for s in rig.bank.states()] == [True, False, False]
    rig.at(0.2)
    rig.pin(17).drive_high()
    rig.at(BOUNCE)
    assert rig.rec.events == [ButtonPressed("ok", "confirm"), ButtonReleased("ok", "confirm", held=False)]


def test_a_bouncing_press_and_a_bouncing_release_are_one_press(rig: Rig) -> None:
    # Contact bounce: five edges in 8 ms, ending pressed; ticks in the middle of it see nothing.
    rig.edges(17, [0, 1, 0, 1, 0])
    rig.bank.tick()
    assert rig.rec.events == []
    rig.at(BOUNCE)
    assert rig.rec.events == [ButtonPressed("ok", "confirm")]
    rig.at(0.3)
    # The release bounces too: it is a release, not a second press.
    rig.edges(17, [1, 0, 1, 0, 1, 0, 1], gap=0.003)
    rig.at(BOUNCE)
    rig.at(1.0)
    assert rig.rec.events == [ButtonPressed("ok", "confirm"), ButtonReleased("ok", "confirm")]


def test_bounce_is_handled_even_when_the_timer_is_late(rig: Rig) -> None:
    # No tick at all between the bursts: each new edge settles what was due before it.
    rig.edges(17, [0, 1, 0], gap=0.002)
    rig.clock.advance(0.5)  # stable pressed for half a second, but nobody ticked
    rig.edges(17, [1, 0, 1], gap=0.002)
    rig.at(BOUNCE)
    assert rig.rec.events == [ButtonPressed("ok", "confirm"), ButtonReleased("ok", "confirm")]


def test_a_glitch_shorter_than_the_bounce_time_is_nothing(rig: Rig) -> None:
    rig.edges(17, [0, 1], gap=0.005)
    rig.at(BOUNCE)
    rig.at(1.0)
    assert rig.rec.events == []


def test_long_press(rig: Rig) -> None:
    rig.pin(27).drive_low()
    rig.at(BOUNCE)
    rig.at(HOLD - BOUNCE - 0.01)
    assert rig.rec.events == [ButtonPressed("back", "undo")]
    rig.at(0.02)
    assert rig.rec.events == [ButtonPressed("back", "undo"), ButtonHeld("back", "undo")]
    rig.at(3.0)  # held longer: no second "held"
    rig.pin(27).drive_high()
    rig.at(BOUNCE)
    assert rig.rec.events == [
        ButtonPressed("back", "undo"),
        ButtonHeld("back", "undo"),
        ButtonReleased("back", "undo", held=True),
    ]


def test_a_button_without_long_press_never_reports_held(rig: Rig) -> None:
    rig.pin(5).drive_low()
    rig.at(BOUNCE)
    rig.at(5.0)
    rig.pin(5).drive_high()
    rig.at(BOUNCE)
    assert rig.rec.events == [ButtonPressed("p1", "seat:p1"), ButtonReleased("p1", "seat:p1")]


def test_two_buttons_at_once(rig: Rig) -> None:
    rig.edges(17, [0, 1, 0], gap=0.001)  # ok goes down (bouncing) ...
    rig.edges(27, [0], gap=0.001)  # ... and back a moment later
    rig.at(BOUNCE)
    rig.at(0.1)
    rig.pin(17).drive_high()
    rig.at(0.005)
    rig.pin(27).drive_high()
    rig.at(BOUNCE)
    assert rig.rec.events == [
        ButtonPressed("ok", "confirm"),
        ButtonPressed("back", "undo"),
        ButtonReleased("ok", "confirm"),
        ButtonReleased("back", "undo"),
    ]
    assert all(not s.pressed and not s.raw for s in rig.bank.states())


def test_a_button_already_down_at_start_reports_nothing_until_pressed_again() -> None:
    d = Debouncer(BOUNCE, HOLD, pressed=True)
    assert d.poll(10.0) == []  # no press, no long press
    assert d.edge(False, 10.0) == []
    assert d.poll(10.0 + BOUNCE) == []  # and no release of a press nobody saw
    d.edge(True, 11.0)
    assert d.poll(11.0 + BOUNCE) == [Transition("pressed")]


def test_with_the_real_clock_and_the_timer_thread_into_an_asyncio_queue() -> None:
    """The production path: gpiozero callback → debounce → timer thread → the app's event loop."""

    async def scenario() -> tuple[list[HardwareEvent], set[str]]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[HardwareEvent] = asyncio.Queue()
        threads: set[str] = set()

        def spy(event: HardwareEvent) -> None:
            threads.add(threading.current_thread().name)
            to_queue(loop, queue)(event)

        factory = MockFactory()
        # The bounce below is three edges in a row on the real clock: the window must outlast any
        # pause a loaded machine puts between them (with 10 ms, two such pauses made it two presses).
        bank = ButtonBank([ButtonSpec("ok", 17, "confirm", hold=1.5)], spy, pin_factory=factory, bounce=1.0)
        try:
            pin = factory.pin(17)
            await asyncio.to_thread(lambda: [pin.drive_low(), pin.drive_high(), pin.drive_low()])  # a bounce
            got = [await asyncio.wait_for(queue.get(), 30)]
            got.append(await asyncio.wait_for(queue.get(), 30))  # held after 1.5 s
            await asyncio.to_thread(pin.drive_high)
            got.append(await asyncio.wait_for(queue.get(), 30))
            await asyncio.sleep(0.1)
            assert queue.empty()
            return got, threads
        finally:
            bank.close()
            factory.close()

    events, threads = asyncio.run(scenario())
    ok = ("ok", "confirm")
    assert events == [ButtonPressed(*ok), ButtonHeld(*ok), ButtonReleased(*ok, held=True)]
    assert threads == {"buttons"}  # delivered from the bank's timer thread, handed over to the loop


# ------------------------------------------------------------------ the debouncer alone, as a property


@settings(max_examples=200, deadline=None)
@given(
    segments=st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=6),  # bounce edges at this transition
            st.floats(min_value=0.0, max_value=0.5),  # how long the level then stays (beyond the minimum)
        ),
        min_size=1,
        max_size=12,
    ),
    ticks=st.lists(st.floats(min_value=0.0, max_value=8.0), max_size=30),
)
def test_debounced_output_equals_the_true_presses_whatever_the_bounce(
    segments: list[tuple[int, float]], ticks: list[float]
) -> None:
    bounce, burst_gap = 0.02, 0.0015  # at most 6 bounce edges of 1.5 ms: a burst stays under 10 ms
    d = Debouncer(bounce, None)
    edges: list[tuple[float, bool]] = []
    t, level = 0.0, False
    expected: list[Transition] = []
    for bounces, stay in segments:
        level = not level
        expected.append(Transition("pressed") if level else Transition("released"))
        for i in range(bounces):  # chatter: the opposite level, then back
            edges.append((t, level if i % 2 == 0 else not level))
            t += burst_gap
        edges.append((t, level))
        t += bounce + 0.001 + stay
    # Interleave polls at arbitrary times with the edges, as the timer thread would.
    moments = sorted([(time, 0, lvl) for time, lvl in edges] + [(tk, 1, False) for tk in ticks])
    out: list[Transition] = []
    for moment, is_tick, lvl in moments:
        out += d.poll(moment) if is_tick else d.edge(lvl, moment)
    out += d.poll(t + 1.0)
    assert out == expected
