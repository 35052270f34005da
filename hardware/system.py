"""From the ``[hardware]`` section to running devices: :func:`build`.

Which twin runs is configuration, never code:

- ``mode = "simulated"``: gpiozero's ``MockFactory`` for every pin (honours
  ``GPIOZERO_MOCK_REVISION``) and a simulated module behind every reader.
- ``mode = "real"``: the pin factory named by ``pin_factory``, else gpiozero's own choice
  (``GPIOZERO_PIN_FACTORY``, then lgpio, rpigpio, ...), and the configured serial ports.
  A reader whose port is ``"simulated"`` is simulated even here.
- ``mode = "auto"`` (the default): ``real`` on a Raspberry Pi, ``simulated`` elsewhere.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Any

from hardware import _gpio
from hardware.buttons import ButtonBank, ButtonSpec
from hardware.config import HardwareConfig, HardwareConfigError, ReaderConfig, parse_hardware
from hardware.events import HardwareEvent
from hardware.indicators import BuzzerPlayer, IndicatorPanel, SeatLights, TrackBar
from hardware.pi import on_raspberry_pi
from hardware.readers import READER_CLASSES, AsciiTagReader, Pn532Reader, ReaderOptions, SerialTagReader, serial_opener
from hardware.simulated import SimulatedTagDevice

log = logging.getLogger(__name__)

Deliver = Callable[[HardwareEvent], None]
Clock = Callable[[], float]


def resolve_mode(config: HardwareConfig) -> str:
    if config.mode == "auto":
        return "real" if on_raspberry_pi() else "simulated"
    return config.mode


def make_pin_factory(mode: str, name: str = "") -> Any:
    """The gpiozero pin factory for ``mode`` (see the module docstring)."""
    if mode == "simulated" or name == "mock":
        return _gpio.MockFactory()
    try:
        if not name:
            return _gpio.Device._default_pin_factory()  # honours GPIOZERO_PIN_FACTORY like gpiozero itself
        from importlib.metadata import entry_points

        for ep in entry_points(group="gpiozero_pin_factories"):
            if ep.name == name:
                return ep.load()()
        raise _gpio.BadPinFactory(f"no pin factory called {name!r} is installed")
    except Exception as exc:
        hint = "on a Raspberry Pi 5 install lgpio (see docs/wiring.md)"
        raise HardwareConfigError("pin_factory", f"cannot load a GPIO pin factory: {exc}; {hint}") from exc


def factory_name(factory: Any) -> str:
    return "" if factory is None else type(factory).__name__


def make_reader(
    rc: ReaderConfig,
    deliver: Deliver,
    *,
    simulated: bool,
    clock: Clock = time.monotonic,
    backoff: tuple[float, float] = (0.1, 5.0),
) -> tuple[SerialTagReader, SimulatedTagDevice | None]:
    """One configured reader (and its simulated module when ``simulated``)."""
    device = SimulatedTagDevice(rc.type) if simulated else None
    opener = device.open if device is not None else serial_opener(rc.port, rc.baudrate)
    options: ReaderOptions = {
        "port_label": "simulated" if simulated else rc.port,
        "type_label": rc.type,
        "simulated": simulated,
        "clock": clock,
        "backoff": backoff,
    }
    reader: SerialTagReader
    if rc.type == "pn532":
        timeout = rc.timeout_ms / 1000
        reader = Pn532Reader(
            rc.name,
            opener,
            deliver,
            poll_interval=rc.poll_ms / 1000,
            gone_after_polls=rc.gone_after_polls,
            ack_timeout=timeout,
            response_timeout=2 * timeout,
            **options,
        )
    else:
        cls = READER_CLASSES[rc.type]
        assert issubclass(cls, AsciiTagReader)
        reader = cls(rc.name, opener, deliver, gone_after=rc.gone_after_ms / 1000, **options)
    return reader, device


class Hardware:
    """Everything :func:`build` made: buttons, indicators, readers (and simulated modules)."""

    def __init__(
        self,
        config: HardwareConfig,
        mode: str,
        pin_factory: Any,
        buttons: ButtonBank | None,
        indicators: IndicatorPanel,
        readers: Mapping[str, SerialTagReader],
        simulators: Mapping[str, SimulatedTagDevice],
    ) -> None:
        self.config = config
        self.mode = mode
        self.pin_factory = pin_factory
        self.buttons = buttons
        self.indicators = indicators
        self.readers = dict(readers)
        self.simulators = dict(simulators)
        self._closed = False

    @property
    def pin_factory_name(self) -> str:
        return factory_name(self.pin_factory)

    @property
    def simulated_pins(self) -> bool:
        return self.pin_factory_name == "MockFactory"

    def start(self) -> None:
        for reader in self.readers.values():
            reader.start()

    # -- the simulated twins, for a desktop run and a "simulate" button on the diagnostics screen
    def press(self, name: str) -> None:
        """Press a button on the mock pins (like a finger on a real one)."""
        self._mock_pin(name).drive_low()

    def release(self, name: str) -> None:
        self._mock_pin(name).drive_high()

    def _mock_pin(self, name: str) -> Any:
        if self.buttons is None or not self.simulated_pins:
            raise RuntimeError("buttons are not simulated")
        return self.buttons.device(name).pin

    def simulator(self, reader: str) -> SimulatedTagDevice:
        try:
            return self.simulators[reader]
        except KeyError:
            raise KeyError(f"reader {reader!r} is not simulated") from None

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for reader in self.readers.values():
            reader.stop()
        if self.buttons is not None:
            self.buttons.close()
        self.indicators.close()
        if self.pin_factory is not None:
            try:
                self.pin_factory.close()
            except Exception:  # closing is best effort
                log.debug("closing the pin factory failed", exc_info=True)

    def __enter__(self) -> Hardware:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def build(
    config: Mapping[str, Any] | HardwareConfig | None,
    deliver: Deliver,
    *,
    pin_factory: Any = None,
    clock: Clock = time.monotonic,
    autotick: bool = True,
    start: bool = True,
    mode: str | None = None,
) -> Hardware:
    """Turn the ``[hardware]`` section into running devices that report through ``deliver``.

    ``deliver`` is called from driver threads; give it :func:`hardware.loop.to_loop`'s result.
    ``pin_factory`` and ``mode`` override the configuration (tests, ``companion doctor --simulate``).
    """
    hc = config if isinstance(config, HardwareConfig) else parse_hardware(config)
    resolved = mode or resolve_mode(hc)
    if resolved not in ("real", "simulated"):
        raise HardwareConfigError("mode", f"cannot run in mode {resolved!r}")
    factory = pin_factory
    if factory is None and hc.uses_gpio:
        factory = make_pin_factory(resolved, hc.pin_factory)
    made: list[Any] = []
    try:
        buttons = None
        if hc.buttons:
            specs = [
                ButtonSpec(b.name, b.pin, b.role, None if b.hold_ms is None else b.hold_ms / 1000) for b in hc.buttons
            ]
            buttons = ButtonBank(
                specs,
                deliver,
                pin_factory=factory,
                bounce=hc.bounce_ms / 1000,
                hold=hc.hold_ms / 1000,
                clock=clock,
                autotick=autotick,
            )
            made.append(buttons)
        lights = SeatLights(dict(hc.seat_lights), pin_factory=factory) if hc.seat_lights else None
        if lights is not None:
            made.append(lights)
        buzzer = None
        if hc.buzzer is not None:
            buzzer = BuzzerPlayer(hc.buzzer.pin, pin_factory=factory, active_high=hc.buzzer.active_high)
            made.append(buzzer)
        tracks = {}
        for t in hc.tracks:
            tracks[t.track] = TrackBar(t.track, t.pins, t.maximum, pin_factory=factory)
            made.append(tracks[t.track])
    except Exception as exc:
        for part in reversed(made):
            part.close()
        if isinstance(exc, HardwareConfigError):
            raise
        raise HardwareConfigError("gpio", f"cannot set up the GPIO devices: {exc}") from exc
    readers: dict[str, SerialTagReader] = {}
    simulators: dict[str, SimulatedTagDevice] = {}
    for rc in hc.readers:
        simulated = resolved == "simulated" or rc.simulated_port
        reader, device = make_reader(rc, deliver, simulated=simulated, clock=clock)
        readers[rc.name] = reader
        if device is not None:
            simulators[rc.name] = device
    hardware = Hardware(hc, resolved, factory, buttons, IndicatorPanel(lights, buzzer, tracks), readers, simulators)
    if start:
        hardware.start()
    return hardware
