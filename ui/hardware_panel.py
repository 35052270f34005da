"""The box's buttons and tag readers on the diagnostics screen — and, when they are the simulated
twins (off a Pi, or ``mode = "simulated"``), a panel to *press* buttons and *hold* tags on readers.

The twins are ``hardware/``'s own (gpiozero mock pins, simulated reader modules speaking the real
byte protocols), so a press here travels the same way as a finger on a real arcade button:
pin → debouncer → hardware event → ``hardware.router`` → bindings → the table.
Keyboard: F1…F9 press the configured buttons in order, Shift+F… holds them (``ui/shell.py``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.widget import Widget

from ui import theme
from ui.widgets import Btn, Lbl, Panel, fit_height, flow, hbox, vbox

TAG_BUTTONS = 12  # enrolled tags offered per simulated reader


def press_button(app: Any, name: str, hold: bool = False) -> None:
    """Press a simulated button (and let go: at once, or after its long-press time)."""
    inputs = app.ctl.inputs
    if inputs is None:
        return
    hw = inputs.hardware
    spec = next((b for b in hw.config.buttons if b.name == name), None)
    hold_ms = (spec.hold_ms if spec is not None and spec.hold_ms is not None else hw.config.hold_ms) or 1000
    hw.press(name)
    Clock.schedule_once(lambda _dt: hw.release(name), (hold_ms + 250) / 1000 if hold else 0.12)


def name_and_role(name: str, role: str) -> str:
    """A button's name and its role as the configuration gives them, once when they are the same
    (a name defaults to the role: "undo", not "undo · undo")."""
    return name if name == role else f"{name} · {role}"


def hardware_panel(app: Any) -> Widget:
    ctl = app.ctl
    t = ctl.t
    box = fit_height(Panel(orientation="vertical", padding=dp(8), spacing=dp(6)))
    inputs = ctl.inputs
    if inputs is None:
        box.add_widget(Lbl(t("ui.hw.title"), bold=True, size_hint_y=None, height=dp(28)))
        problem = ctl.hardware_problem
        box.add_widget(
            Lbl(
                t("ui.hw.problem", problem=problem) if problem else t("ui.hw.none"),
                colour=theme.DANGER if problem else theme.MUTED,
                wrap=True,
            )
        )
        return box
    hw = inputs.hardware
    mode = t(f"ui.hw.mode.{hw.mode}")
    box.add_widget(Lbl(t("ui.hw.mode", mode=mode), bold=True, size_hint_y=None, height=dp(28), tid="hw.mode"))
    add_buttons(box, app, hw)
    add_readers(box, t, hw, inputs.router.tags.items())
    add_recent(box, t, list(inputs.router.recent)[-5:])
    return box


def add_buttons(box: Widget, app: Any, hw: Any) -> None:
    """A row per configured button (its name, role and pin); simulated, with *press* and *hold*."""
    t = app.ctl.t
    states = hw.buttons.states() if hw.buttons is not None else []
    if not states and not hw.readers:
        box.add_widget(Lbl(t("ui.hw.none"), colour=theme.MUTED, wrap=True))
    simulated = hw.simulated_pins
    for state in states:
        row = hbox(
            Lbl(f"{name_and_role(state.name, state.role)} · GPIO{state.pin}", one_line=True),
            size_hint_y=None,
            height=theme.TOUCH,
        )
        if simulated:
            row.add_widget(
                Btn(
                    t("ui.hw.press"),
                    partial(press_button, app, state.name),
                    tid=f"hw.press.{state.name}",
                    width=dp(110),
                )
            )
            row.add_widget(
                Btn(
                    t("ui.hw.hold"),
                    partial(press_button, app, state.name, hold=True),
                    tid=f"hw.hold.{state.name}",
                    width=dp(110),
                )
            )
        box.add_widget(row)
    if simulated and states:
        box.add_widget(Lbl(t("ui.hw.keys"), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True))


def add_readers(box: Widget, t: Any, hw: Any, tags: Any) -> None:
    """A line per tag reader (type, port, status, the last tag seen); a simulated one with a button
    per enrolled tag to hold on it, and one to take it away."""
    for name, reader in hw.readers.items():
        info = reader.info()
        seen = f" · {info.last_uid}" if info.last_uid else ""
        box.add_widget(
            Lbl(
                f"{name} · {info.type} · {info.port} · {t(f'hardware.reader.{info.status}')}{seen}",
                one_line=True,
                size_hint_y=None,
                height=dp(26),
                tid=f"hw.reader.{name}",
            )
        )
        device = hw.simulators.get(name)
        if device is None:
            continue
        if not tags:
            box.add_widget(Lbl(t("ui.hw.no_tags"), size=theme.FONT_SMALL, colour=theme.MUTED, wrap=True))
        buttons = [
            Btn(
                piece.title,
                partial(device.place, uid),
                tid=f"hw.tag.{name}.{uid}",
                width=dp(150),
                size=theme.FONT_SMALL,
            )
            for uid, piece in tags[:TAG_BUTTONS]
        ]
        buttons.append(
            Btn(t("ui.hw.remove"), device.remove, tid=f"hw.remove.{name}", width=dp(150), size=theme.FONT_SMALL)
        )
        box.add_widget(flow(buttons))


def add_recent(box: Widget, t: Any, recent: list[Any]) -> None:
    """The last hardware events, newest first, with what became of them."""
    if recent:
        box.add_widget(Lbl(t("ui.hw.recent"), colour=theme.MUTED, size_hint_y=None, height=dp(22)))
        lines = vbox(size_hint_y=None)
        for entry in reversed(recent):
            words = " · ".join(str(entry[k]) for k in ("input", "outcome", "code") if entry.get(k))
            lines.add_widget(Lbl(f"{entry.get('source', '')}: {words}", size=theme.FONT_SMALL, wrap=True))
        lines.bind(minimum_height=lines.setter("height"))
        box.add_widget(lines)
