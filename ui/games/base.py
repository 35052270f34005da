"""What every game's table screen and setup form share.

A :class:`TableView` renders one public snapshot (``{"type": "state", "seq", "view", "legal",
"can_undo", ...}``) and sends intents built only from ``legal``, with the ``seq`` of the snapshot
it shows. No game rule lives here: a choice a screen needs but ``legal`` does not list is reported
to the game's authors, never computed in the UI.

A table screen is a list of panels (:meth:`TableView.panels`): each a :class:`~ui.parts.Part`, the
function that draws it and what it draws from (pieces of the view, legal actions, the screen's own
choices). A new snapshot redraws only the panels, rows and cells whose arguments changed
(:mod:`ui.parts`); the rest of the screen — an open picker, a half-entered count — is not touched.
A button that acts is made by :meth:`TableView.action_button`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON, JSONObject
from companion.games import facts, game_names, preferences
from ui import theme
from ui.parts import Part, forget, sync
from ui.widgets import Btn, Lbl, button_part, fit_height, vbox

if TYPE_CHECKING:
    from ui.shell import CompanionApp


def obj(value: JSON) -> JSONObject:
    return value if isinstance(value, dict) else {}


def seq_of(value: JSON) -> list[JSON]:
    return value if isinstance(value, list) else []


def num(value: JSON, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def txt(value: JSON, default: str = "") -> str:
    return value if isinstance(value, str) else default


def preference(game: str, setup_key: str = "", players: int | None = None) -> tuple[str, JSON]:
    """(key, default) of one of the game's table preferences (its ``PREFERENCES``): the one that
    pre-fills ``setup_key``, or the one kept per player count."""
    for entry in preferences(game):
        if (setup_key and entry.get("setup_key") == setup_key) or (
            players is not None and entry.get("players") == players
        ):
            return str(entry["key"]), entry.get("default")
    raise KeyError(f"{game} has no preference for {setup_key or players!r}")


def strs(value: JSON) -> list[str]:
    """The texts of a JSON list (e.g. a list of the game's facts)."""
    return [s for s in seq_of(value) if isinstance(s, str)]


class Sends:
    """What a button does that sends an intent: equal to another that sends an equal intent from
    the same screen (so a part keeps the button while its intent is unchanged)."""

    __slots__ = ("intent", "screen")

    def __init__(self, screen: TableView, intent: JSONObject) -> None:
        self.screen = screen
        self.intent = intent

    def __call__(self) -> None:
        self.screen.send(self.intent)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sends) and other.screen is self.screen and other.intent == self.intent

    __hash__ = None  # type: ignore[assignment]


class TableView(BoxLayout):
    """The table screen of one game (the body under the header)."""

    game = ""

    def __init__(self, app: CompanionApp, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("spacing", theme.GAP)
        super().__init__(**kwargs)
        self.app = app
        self.ctl = app.ctl
        self.msg: JSONObject = {}
        self.seq = 0

    # -- helpers ---------------------------------------------------------------------------------
    def t(self, code: str, **params: JSON) -> str:
        return self.ctl.t(code, **params)

    @property
    def view(self) -> JSONObject:
        return obj(self.msg.get("view"))

    @property
    def facts(self) -> JSONObject:
        """The game's constants (its ``FACTS``: cities, tickets, ...), never copied into a screen."""
        return facts(self.game) if self.game in game_names() else {}

    @property
    def legal(self) -> JSON:
        return self.msg.get("legal")

    def send(self, intent: JSONObject, ok: Callable[[Any], object] | None = None) -> None:
        self.app.submit(intent, self.seq, ok, num(self.msg.get("game_id")))

    def action_button(self, label: str, act: JSONObject | Callable[[], object], tid: str, **style: Any) -> Btn:
        """The one way a table screen offers an action: a button that sends ``act`` (an intent built
        from ``legal``) against the snapshot on screen, or calls ``act`` (a choice that needs more
        than one tap: a dialog, a room to pick). ``style``: :class:`~ui.widgets.Btn`'s looks."""
        on = act if callable(act) else partial(self.send, act)
        return Btn(label, on, tid=tid, **style)

    def action_part(
        self, name: str, label: str, act: JSONObject | Callable[[], object], tid: str, **style: Any
    ) -> Part:
        """:meth:`action_button` as a part of a panel: kept while its words, looks and intent stay
        the same, and changed in place when they change (:func:`ui.widgets.button_part`)."""
        on = act if callable(act) else Sends(self, act)
        return button_part(name, label, on, tid=tid, **style)

    # -- drawing ---------------------------------------------------------------------------------
    def render(self, msg: JSONObject) -> None:
        """Show a new snapshot: only what changed is drawn again."""
        was_half_done, before = self.half_done(), self.seq
        self.msg = msg
        self.seq = num(msg.get("seq"))
        self.settle()
        self.draw()
        if was_half_done and not self.half_done() and self.seq != before:
            self.app.vanished(msg, before)

    def draw(self) -> None:
        parts = self.panels()
        if parts is None:  # a screen not yet written as panels: drawn whole
            self.clear_widgets()
            self.build()
            return
        sync(self, parts)

    def forget(self) -> None:
        """Draw everything anew next time (the language changed)."""
        forget(self)

    def redraw(self, **local: Any) -> None:
        """Change what only this screen remembers (a selected figure, a chosen room...) and draw
        again (the panels that show it)."""
        for name, value in local.items():
            setattr(self, name, value)
        self.settle()
        self.draw()

    # -- what a game provides -----------------------------------------------------------------------
    def panels(self) -> Sequence[Part] | None:
        """The screen, top to bottom: each panel with what it is drawn from (see :mod:`ui.parts`).
        ``None``: the screen is drawn whole by :meth:`build` on every snapshot."""
        return None

    def build(self) -> None:
        """The whole screen at once (a screen whose :meth:`panels` is ``None``)."""
        raise NotImplementedError

    def settle(self) -> None:
        """Before a new snapshot is drawn: drop the screen's own choices it no longer allows (a
        figure that cannot move any more)."""

    def half_done(self) -> bool:
        """Is a choice under way on this screen (a figure picked, its destination not yet)?
        If a new state clears it, the screen says why (:meth:`CompanionApp.vanished`)."""
        return False

    def status(self, msg: JSONObject) -> str:
        """One short line for the header: round, whose turn."""
        return ""

    def over(self, msg: JSONObject) -> bool:
        return False

    def announcement(self, msg: JSONObject) -> str:
        """Said once when the game ends (capture, victory)."""
        return ""

    def end_body(self, msg: JSONObject) -> Widget:
        return Lbl(self.t("ui.end.over"), size=theme.FONT_TITLE)

    def seat_label(self, seat: str) -> str:
        return seat

    def options(self) -> list[tuple[str, Callable[[], object], str]]:
        """Table options offered under the header's "Options" button: (label, action, tid)."""
        return []

    # the box's tag readers (hardware.router): a piece was put on a reader
    def on_selection(self, selection: JSONObject | None) -> None:
        """A piece selected something (e.g. a Scotland Yard pawn: that figure)."""

    def on_remembered(self, seats: list[str]) -> None:
        """The seats with a piece remembered for their next action (Victorian Masterminds: an agent
        disc scanned for the next placement; never which one)."""


class SetupForm(BoxLayout):
    """The choices before a game starts; ``setup()`` is the game's setup config JSON."""

    game = ""

    def __init__(self, app: CompanionApp, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("spacing", dp(10))
        kwargs.setdefault("padding", (dp(4), dp(4), dp(14), dp(4)))
        super().__init__(**kwargs)
        fit_height(self)
        self.app = app
        self.ctl = app.ctl
        self.rebuild()

    def t(self, code: str, **params: JSON) -> str:
        return self.ctl.t(code, **params)

    @property
    def facts(self) -> JSONObject:
        """The game's constants (its ``FACTS``), as for :attr:`TableView.facts`."""
        return facts(self.game) if self.game in game_names() else {}

    @staticmethod
    def settings(page: Any) -> list[Widget]:
        """The game's rows on the Settings screen (``page.setting(...)``, ``page.on_off(...)``):
        the table's remembered defaults for its new-game form. None by default."""
        return []

    def rebuild(self) -> None:
        self.clear_widgets()
        self.build()

    def build(self) -> None:
        raise NotImplementedError

    def setup(self) -> JSONObject:
        raise NotImplementedError

    def problem(self) -> str:
        """Why the game cannot start yet ("" when it can)."""
        return ""

    def remember(self) -> None:
        """Called once the game was created (e.g. store what should be remembered)."""

    def remembered(self, last: JSONObject) -> None:
        """Who played the last game of this box — its setup's keys the game remembers (names,
        colours) — to start the form from; called once, soon after the form is made. None by default."""

    def row(self, label: str, widget: Widget, note: str = "") -> Widget:
        from ui.widgets import hbox

        left = vbox(Lbl(label, wrap=True), spacing=0, size_hint=(0.38, None))
        if note:
            left.add_widget(Lbl(note, colour=theme.MUTED, size=theme.FONT_SMALL, wrap=True))
        left.bind(minimum_height=left.setter("height"))
        left.pos_hint = widget.pos_hint = {"center_y": 0.5}
        row = hbox(left, widget, size_hint_y=None)
        row.bind(minimum_height=row.setter("height"))
        return row
