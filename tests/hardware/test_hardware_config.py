"""The [hardware] section: the example file, strict errors, twin selection, build() end to end."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from hwkit import PtyDevice, Recorder, wait_until

from companion.core.errors import CompanionError
from hardware import system
from hardware.config import ALL_KEYS, HardwareConfigError, parse_hardware
from hardware.diagnostics import report
from hardware.events import ButtonPressed, ReaderStatus, TagGone, TagSeen
from hardware.frames import rdm6300_frame
from hardware.system import build, on_raspberry_pi

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "deploy" / "companion.example.toml"


def example_section() -> dict[str, Any]:
    with EXAMPLE.open("rb") as fh:
        section: dict[str, Any] = tomllib.load(fh)["hardware"]
    return section


def test_the_example_configuration_parses_and_documents_every_key() -> None:
    hc = parse_hardware(example_section())
    assert hc.mode == "auto"
    assert [b.role for b in hc.buttons] == ["confirm", "undo", "next", "seat:p1", "seat:p2"]
    assert hc.buttons[1].hold_ms == 1500
    assert dict(hc.seat_lights) == {"p1": 23, "p2": 24}
    assert hc.buzzer is not None and hc.buzzer.pin == 18
    assert hc.tracks[0].pins == (16, 20, 21, 26) and hc.tracks[0].maximum == 12
    assert [(r.name, r.type, r.port, r.baudrate) for r in hc.readers] == [
        ("table", "rdm6300", "/dev/ttyAMA0", 9600),
        ("p1", "pn532", "/dev/ttyUSB0", 115200),
    ]
    text = EXAMPLE.read_text("utf-8")
    mentioned = set(re.findall(r"^#?\s*([a-z_]+)\s*=", text, re.MULTILINE))
    mentioned |= set(re.findall(r"^\[\[?hardware\.([a-z_]+)\]", text, re.MULTILINE))
    assert ALL_KEYS - mentioned == set(), "keys the parser knows but the example does not show"


def test_the_example_builds_with_simulated_twins() -> None:
    rec = Recorder()
    with build(example_section(), rec, mode="simulated") as hw:
        assert hw.pin_factory_name == "MockFactory"
        assert set(hw.simulators) == {"table", "p1"}
        assert wait_until(lambda: all(r.info().status == "connected" for r in hw.readers.values()))
        hw.press("confirm")
        rec.wait_event(ButtonPressed("confirm", "confirm"))
        hw.simulator("table").place("67003B51C6")
        rec.wait_event(TagSeen("table", "67003B51C6"))
        hw.simulator("p1").place("04A1B2C3")
        rec.wait_event(TagSeen("p1", "04A1B2C3"))
        hw.simulator("p1").remove()
        rec.wait_event(TagGone("p1", "04A1B2C3"))
        data = report(hw)
        assert data["pin_factory"] == "MockFactory"
        assert [b["pressed"] for b in data["buttons"]][:2] == [True, False]
        assert {r["name"]: r["last_uid"] for r in data["readers"]} == {"table": "67003B51C6", "p1": "04A1B2C3"}


def test_an_empty_section_is_valid_and_builds_nothing() -> None:
    with build({}, Recorder(), mode="simulated") as hw:
        assert hw.buttons is None and hw.readers == {} and hw.pin_factory is None
        hw.indicators.show_turn("p1")  # nothing fitted: does nothing
        hw.indicators.show_track("secret_service", 3)
        hw.indicators.signal("reveal")
        assert report(hw)["pin_factory"].startswith("none")


@pytest.mark.parametrize(
    "section, key",
    [
        ({"mdoe": "real"}, "hardware.mdoe"),
        ({"mode": "sometimes"}, "mode"),
        ({"pin_factory": "gpiod"}, "pin_factory"),
        ({"bounce_ms": 500}, "hardware.bounce_ms"),
        ({"buttons": [{"pin": 17}]}, "buttons[0].role"),
        ({"buttons": [{"pin": 17, "role": "Confirm!"}]}, "buttons[0].role"),
        ({"buttons": [{"pin": 40, "role": "confirm"}]}, "buttons[0].pin"),
        ({"buttons": [{"pin": True, "role": "confirm"}]}, "buttons[0].pin"),
        ({"buttons": [{"pin": 17, "role": "confirm", "colour": "red"}]}, "buttons[0].colour"),
        ({"buttons": [{"pin": 17, "role": "confirm"}, {"pin": 27, "role": "confirm"}]}, "buttons"),
        ({"buttons": [{"pin": 17, "role": "confirm"}], "buzzer": {"pin": 17}}, "buzzer.pin"),
        ({"buttons": {"pin": 17}}, "buttons"),
        ({"seat_lights": {"p1": "GPIO5"}}, "seat_lights.p1"),
        ({"tracks": [{"track": "ss", "pins": [], "maximum": 12}]}, "tracks[0].pins"),
        ({"tracks": [{"track": "ss", "pins": [5], "maximum": 0}]}, "tracks[0].maximum"),
        ({"readers": [{"name": "a", "type": "mfrc522", "port": "/dev/x"}]}, "readers[0].type"),
        ({"readers": [{"name": "a", "type": "rdm6300"}]}, "readers[0].port"),
        ({"readers": [{"name": "a", "type": "rdm6300", "port": "/dev/x", "poll_ms": 50}]}, "readers[0].poll_ms"),
        ({"readers": [{"name": "a", "type": "pn532", "port": "/x", "gone_after_ms": 50}]}, "readers[0].gone_after_ms"),
        ({"readers": [{"name": "a", "type": "pn532", "port": "/dev/x"}] * 2}, "readers"),
        (
            {"readers": [{"name": "a", "type": "pn532", "port": "/x"}, {"name": "b", "type": "rdm6300", "port": "/x"}]},
            "readers",
        ),
    ],
)
def test_mistakes_are_reported_with_the_key(section: dict[str, Any], key: str) -> None:
    with pytest.raises(HardwareConfigError) as info:
        parse_hardware(section)
    assert isinstance(info.value, CompanionError)
    assert info.value.code == "hardware.config"
    assert info.value.params["key"] == key


def test_auto_is_real_only_on_a_raspberry_pi(tmp_path: Path) -> None:
    model = tmp_path / "model"
    assert not on_raspberry_pi(model)
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert on_raspberry_pi(model)
    model.write_bytes(b"Some other board\x00")
    assert not on_raspberry_pi(model)


def test_real_mode_honours_gpiozero_pin_factory_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setenv("GPIOZERO_MOCK_REVISION", "d04170")  # a Pi 5
    factory = system.make_pin_factory("real")
    try:
        assert type(factory).__name__ == "MockFactory"
        assert "Pi 5" in factory.board_info.model or factory.board_info.revision == "d04170"
    finally:
        factory.close()


def test_an_unknown_pin_factory_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    with pytest.raises(HardwareConfigError) as info:
        system.make_pin_factory("real")
    assert "lgpio" in str(info.value)


def test_real_mode_with_mock_pins_and_a_real_serial_port() -> None:
    """pin_factory = "mock" in real mode: buttons simulated, readers on the configured port."""
    pty = PtyDevice()
    rec = Recorder()
    section = {
        "mode": "real",
        "pin_factory": "mock",
        "buttons": [{"role": "confirm", "pin": 17}],
        "readers": [{"name": "r", "type": "rdm6300", "port": pty.path}],
    }
    try:
        with build(section, rec) as hw:
            assert hw.simulators == {}
            assert hw.simulated_pins
            rec.wait_event(ReaderStatus("r", "connected", pty.path))
            pty.write(rdm6300_frame("67003B51C6"))
            rec.wait_event(TagSeen("r", "67003B51C6"))
            assert hw.readers["r"].info().simulated is False
    finally:
        pty.close()


def test_a_reader_marked_simulated_is_simulated_even_in_real_mode() -> None:
    section = {"mode": "real", "readers": [{"name": "r", "type": "id20la", "port": "simulated"}]}
    rec = Recorder()
    with build(section, rec) as hw:
        assert set(hw.simulators) == {"r"} and hw.pin_factory is None
        rec.wait_event(ReaderStatus("r", "connected", "simulated"))
        hw.simulator("r").place("0102030405")
        rec.wait_event(TagSeen("r", "0102030405"))
        assert hw.readers["r"].info().type == "id20la"


def test_injected_pin_factory_and_fake_clock_for_tests() -> None:
    factory = MockFactory()
    rec = Recorder()
    now = [0.0]
    with build(
        {"buttons": [{"role": "next", "pin": 22}]}, rec, pin_factory=factory, clock=lambda: now[0], autotick=False
    ) as hw:
        assert hw.buttons is not None
        factory.pin(22).drive_low()
        now[0] += 0.05
        hw.buttons.tick()
        assert rec.events == [ButtonPressed("next", "next")]
