"""HOOK: the simulated hardware panel (diagnostics screen).

Filled in once ``hardware/`` offers its simulated twins to the app; until then it says so.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.widget import Widget

from ui import theme
from ui.widgets import Lbl, Panel


def hardware_panel(app: Any) -> Widget:
    panel = Panel(orientation="vertical", size_hint_y=None, height=theme.TOUCH * 2)
    panel.add_widget(Lbl(app.ctl.t("ui.hw.title"), bold=True))
    panel.add_widget(Lbl(app.ctl.t("ui.hw.none"), colour=theme.MUTED, wrap=True))
    return panel
