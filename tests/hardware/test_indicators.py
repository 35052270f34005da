"""Seat lights, buzzer patterns and LED bar graphs on gpiozero's mock pins."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory
from hwkit import wait_until

from hardware.indicators import BuzzerPlayer, IndicatorPanel, SeatLights, TrackBar, lit_count


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.close()


def test_lit_count_spreads_a_track_over_the_leds() -> None:
    assert [lit_count(v, 12, 4) for v in range(13)] == [0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    assert [lit_count(v, 3, 6) for v in range(4)] == [0, 2, 4, 6]
    assert lit_count(-3, 12, 4) == 0 and lit_count(99, 12, 4) == 4
    with pytest.raises(ValueError):
        lit_count(1, 0, 4)


def test_the_seat_light_follows_the_turn(factory: MockFactory) -> None:
    lights = SeatLights({"p1": 23, "p2": 24, "p3": 25}, pin_factory=factory)
    try:
        lights.show_turn("p2")
        assert lights.states() == {"p1": False, "p2": True, "p3": False}
        assert factory.pin(24).state and not factory.pin(23).state
        lights.show_turn("p3")
        assert lights.states() == {"p1": False, "p2": False, "p3": True}
        lights.show_turn(None)
        assert not any(lights.states().values())
        lights.show_turn("nobody")  # an unknown seat lights nothing and breaks nothing
        assert not any(lights.states().values())
    finally:
        lights.close()


def test_a_bar_graph_shows_the_secret_service_level(factory: MockFactory) -> None:
    bar = TrackBar("secret_service", (16, 20, 21, 26), 12, pin_factory=factory)
    try:
        bar.show(5)
        assert [bool(factory.pin(p).state) for p in (16, 20, 21, 26)] == [True, True, False, False]
        bar.show(12)
        assert bar.lit == 4
        bar.show(0)
        assert bar.lit == 0
        for value in range(13):
            bar.show(value)
            assert bar.lit == lit_count(value, 12, 4)
    finally:
        bar.close()


def test_buzzer_patterns_play_in_the_background(factory: MockFactory) -> None:
    patterns = {"reveal": ((0.02, 0.02), (0.02, 0.02), (0.02, 0.0)), "capture": ((0.05, 0.0),)}
    buzzer = BuzzerPlayer(18, pin_factory=factory, patterns=patterns)
    pin = factory.pin(18)
    try:
        pin.clear_states()
        buzzer.play("reveal")  # returns at once
        assert buzzer.wait_idle(10)
        assert [s.state for s in pin.states] == [False, True, False, True, False, True, False]
        pin.clear_states()
        buzzer.play("capture")
        assert buzzer.wait_idle(10)
        assert [s.state for s in pin.states] == [False, True, False]
        with pytest.raises(ValueError):
            buzzer.play("fanfare")
        assert list(buzzer.played) == ["reveal", "capture"]
    finally:
        buzzer.close()


def test_a_new_pattern_interrupts_the_playing_one(factory: MockFactory) -> None:
    buzzer = BuzzerPlayer(18, pin_factory=factory, patterns={"long": ((30.0, 0.0),), "short": ((0.01, 0.0),)})
    pin = factory.pin(18)
    try:
        buzzer.play("long")
        assert wait_until(lambda: bool(pin.state))
        buzzer.play("short")
        assert buzzer.wait_idle(10)  # far less than the 30 s of "long"
        assert not pin.state
    finally:
        buzzer.close()
    assert not pin.state


def test_the_panel_with_every_part_and_with_none(factory: MockFactory) -> None:
    panel = IndicatorPanel(
        SeatLights({"mrx": 5, "d1": 6}, pin_factory=factory),
        BuzzerPlayer(18, pin_factory=factory, patterns={"end": ((0.01, 0.0),)}),
        {"secret_service": TrackBar("secret_service", (16, 20), 12, pin_factory=factory)},
    )
    try:
        panel.show_turn("d1")
        panel.show_track("secret_service", 7)
        panel.show_track("no_such_track", 3)  # not fitted: ignored
        panel.signal("end")
        assert panel.buzzer is not None and panel.buzzer.wait_idle(10)
        states = panel.states()
        assert states["turn"] == "d1"
        assert states["seat_lights"] == {"mrx": False, "d1": True}
        assert states["tracks"]["secret_service"] == {"value": 7, "maximum": 12, "lit": 2, "leds": 2}
    finally:
        panel.close()
    empty = IndicatorPanel()
    empty.show_turn("d1")
    empty.signal("capture")
    with pytest.raises(ValueError):
        empty.signal("fanfare")  # a typo in a binding is caught even without a buzzer
