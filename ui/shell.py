"""The Kivy application: the screens, the one subscription to the table's public view, and the
toast that answers every tap that was refused.

The table publishes a snapshot after every committed action; :meth:`CompanionApp.on_message`
keeps it and draws it in the next frame (:meth:`CompanionApp.show_message`), before that frame is
drawn: the table goes on publishing meanwhile (the phones get the same action's snapshot without
waiting for the touchscreen), and of several snapshots before one frame only the newest is drawn.
It also switches screens when a game is opened, closed or over.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from kivy.app import App
from kivy.core.window import Window
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from companion.core.audience import TABLE
from companion.core.errors import CompanionError
from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.controller import PREF_LARGE_TEXT, Controller
from ui.memory import collector
from ui.widgets import Toast

log = logging.getLogger(__name__)
T = TypeVar("T")
PREF_SCREEN = "ui.screen"  # the screen to come back to after a restart
RESUMABLE = ("start", "game", "seats", "end")


class Pages(dict[str, Any]):
    """The screens by name, each made on first use (by the factory its name has) and added to the
    screen manager then: a start shows its first screen without building (or importing) the others.
    Iterating gives the screens made so far."""

    def __init__(self, app: CompanionApp, factories: Mapping[str, Callable[[CompanionApp], Screen]]) -> None:
        super().__init__()
        self.app = app
        self.factories = dict(factories)

    def __missing__(self, name: str) -> Any:
        page = self.factories[name](self.app)  # KeyError: no such screen
        self[name] = page
        self.app.screens.add_widget(page)
        return page


class CompanionApp(App):
    """``screens``: a factory for each screen by its name (a class, or a function that imports
    one), called with this app when the screen is first needed; the entry point (``ui/app.py``)
    chooses them, so this module imports no screen. ``fullscreen`` and ``on_pi`` are what the
    entry point found out about the display, for the diagnostics screen."""

    title = "Companion"

    def __init__(
        self,
        ctl: Controller,
        screens: Mapping[str, Callable[[CompanionApp], Screen]],
        *,
        fullscreen: bool = False,
        on_pi: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.ctl = ctl
        self.screen_factories = dict(screens)
        self.fullscreen = fullscreen
        self.on_pi = on_pi
        self.message: JSONObject = {"type": "no_game"}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._subscription: Any = None
        self._stop_inputs: Any = None
        self._phones_attached = False
        self.rendered_seq = -1
        self.rendered_frame = -1
        self._started = False
        self._pending: JSONObject | None = None  # a snapshot to draw in the next frame
        self._draw_pending: Any = None  # the trigger that draws it

    # -- building ------------------------------------------------------------------------------
    def build(self) -> FloatLayout:
        Window.clearcolor = theme.BACKGROUND
        theme.set_large_text(self.ctl.pref(PREF_LARGE_TEXT, False) is True)
        self.ctl.pref_changed.append(self.setting_changed)
        root = FloatLayout()
        self.screens = ScreenManager(transition=NoTransition())
        self.pages = Pages(self, self.screen_factories)
        root.add_widget(self.screens)
        self.toast = Toast()
        root.add_widget(self.toast)
        self.ctl.language_changed.append(self.refresh_words)
        self.ctl.address_changed.append(self.network_changed)
        self.ctl.health_changed.append(self.health_changed)
        return root

    def network_changed(self) -> None:
        """The phones' address changed: the screens that show it are drawn again at once."""
        for name in ("start", "diagnostics"):
            if name in self.pages and self.screen == name:
                self.pages[name].refresh()
        if "seats" in self.pages and self.screen == "seats":
            self.pages["seats"].network_changed()

    def health_changed(self) -> None:
        """A warning about the Pi came or went (under-voltage, throttling, an overlay file system)."""
        for name in ("start", "settings"):  # the Settings screen says when the voice cannot be heard
            if name in self.pages and self.screen == name:
                self.pages[name].refresh()

    def on_start(self) -> None:
        self._subscription = self.ctl.table.subscribe(TABLE, self.on_message)
        self.services_ready()
        self._started = True
        remembered = self.ctl.pref(PREF_SCREEN)
        if self.message.get("type") == "state":
            target = remembered if remembered in RESUMABLE else "game"
            if target == "game" and self.pages["game"].over(self.message):
                target = "end"
            self.go(str(target), remember=False)
        else:
            self.go("start", remember=False)

    def services_ready(self) -> None:
        """Listen to the phone server and the box's inputs, as far as they run (the entry point
        starts them after the first frame and calls this again)."""
        server = self.ctl.phones.server
        if server is not None and not self._phones_attached:
            self._phones_attached = True
            server.on_claim(self.on_claim)
            server.on_leave(self.on_phone_left)
        if self.ctl.inputs is not None and self._stop_inputs is None:
            self._stop_inputs = self.ctl.inputs.router.listen(self.on_input)
            Window.bind(on_key_down=self.on_key)
        about = ("seats", "diagnostics") if self.ctl.phones.port else ("seats", "diagnostics", "start")
        for page in list(self.pages.values()):  # what a screen says about phones (none after all?) or the box
            if page.name in about and self.screen == page.name:
                page.refresh()

    async def shutdown(self) -> None:
        if self._subscription is not None:
            self._subscription.close()
        if self._stop_inputs is not None:
            self._stop_inputs()
        for task in list(self._tasks):
            task.cancel()

    # -- navigation ----------------------------------------------------------------------------
    @property
    def screen(self) -> str:
        return str(self.screens.current)

    def go(self, name: str, remember: bool = True) -> None:
        if name in ("game", "end", "seats") and self.message.get("type") != "state":
            name = "start"
        self.pages[name]  # made on first use
        self.screens.current = name
        if remember and name in RESUMABLE and self.ctl.pref(PREF_SCREEN) != name:
            self.run(self.ctl.set_pref(PREF_SCREEN, name))

    def setting_changed(self, key: str) -> None:
        """Large text switched on or off: every screen is drawn again at the new size."""
        if key == PREF_LARGE_TEXT and (self.ctl.pref(PREF_LARGE_TEXT, False) is True) != theme.large_text():
            theme.set_large_text(self.ctl.pref(PREF_LARGE_TEXT, False) is True)
            self.refresh_words()

    def refresh_words(self) -> None:
        for page in self.pages.values():
            page.refresh()
        self.on_message(self.message)

    # -- the table's public view ---------------------------------------------------------------
    def on_message(self, message: JSONObject) -> None:
        """A new snapshot from the table: drawn in the next frame (at once before the app started)."""
        self._pending = message
        if not self._started:
            self.show_message()
        elif self._draw_pending is None:
            from kivy.clock import Clock

            self._draw_pending = Clock.create_trigger(lambda _dt: self.show_message(), -1)
            self._draw_pending()
        else:
            self._draw_pending()

    def show_message(self) -> None:
        """Draw the newest snapshot (the screens show only what changed)."""
        message, self._pending = self._pending, None
        if message is None:
            return
        previous = self.message
        self.message = message
        if message.get("type") != "state":
            self._no_game_open()
            return
        game_page = self.pages["game"]
        game_page.show(message)
        self.pages["end"].show(message)
        if self.screen == "seats":
            self.pages["seats"].update_from_message()
        if "start" in self.pages and self.screen == "start":  # else drawn when it is shown
            self.pages["start"].refresh()
        from kivy.clock import Clock

        self.rendered_seq = int(str(message.get("seq", -1)))
        self.rendered_frame = Clock.frames
        collector.drawn()
        if self._started:
            self._follow_the_game(previous, message)

    def _no_game_open(self) -> None:
        """No game is open (it was closed or deleted): its screens go back to the start."""
        if "game" in self.pages:
            self.pages["game"].clear()
        if "start" in self.pages and self.screen == "start":
            self.pages["start"].refresh()
        if self._started and self.screen in ("game", "end", "seats"):
            self.go("start")

    def _follow_the_game(self, previous: JSONObject, message: JSONObject) -> None:
        """The screen that goes with the new snapshot: another game opens on its own screen, a game
        that ends shows its end (or says so if the table is elsewhere), an undone end goes back."""
        game_page = self.pages["game"]
        changed_game = previous.get("game_id") != message.get("game_id")
        was_over = previous.get("type") == "state" and not changed_game and game_page.over(previous)
        if changed_game:
            self.go("end" if game_page.over(message) else "game")
            collector.game_opened()  # the previous game's screens are collected after this frame
        elif game_page.over(message) and not was_over:
            if self.screen == "game":
                self.go("end")  # its banner is the announcement
            else:
                announcement = game_page.announcement(message)
                if announcement:
                    self.toast.show(announcement, "good", 8.0)
        elif was_over and not game_page.over(message) and self.screen == "end":
            self.go("game")

    # -- the box's buttons and tag readers (hardware.router) -------------------------------------------
    def on_input(self, message: JSONObject) -> None:
        kind = message.get("type")
        view = self.pages["game"].view
        if kind == "notice":
            level = message.get("level")
            self.toast.show(str(message.get("text", "")), "info" if level == "info" else "error")
        elif kind == "selection" and view is not None:
            selection = message.get("selection")
            view.on_selection(selection if isinstance(selection, dict) else None)
        elif kind == "remembered" and view is not None:
            seats = message.get("seats")
            view.on_remembered([str(s) for s in seats] if isinstance(seats, list) else [])
        elif kind == "button" and message.get("role") == "confirm":
            from ui.widgets import Dialog

            dialogs = [w for w in Window.children if isinstance(w, Dialog)]
            if dialogs and dialogs[0].default is not None:
                dialogs[0].default()

    def on_key(self, _window: Any, key: int, _scancode: int, _text: str | None, modifiers: list[str]) -> bool:
        """F1…F9 press the simulated box's buttons in configuration order (Shift: a long press)."""
        from ui.hardware_panel import press_button

        if 282 <= key <= 290 and self.ctl.inputs is not None:  # F1..F9
            hw = self.ctl.inputs.hardware
            names = [b.name for b in hw.config.buttons]
            index = key - 282
            if index < len(names) and hw.simulated_pins:
                press_button(self, names[index], hold="shift" in modifiers)
                return True
        return False

    def on_claim(self, game_id: int, seat: str) -> None:
        if "seats" in self.pages:  # a screen never shown holds no code to hide
            self.pages["seats"].claimed(game_id, seat)
        self.phones_changed(game_id)

    def on_phone_left(self, game_id: int, seat: str) -> None:
        if self.screen == "seats" and game_id == self.ctl.game_id:
            self.pages["seats"].refresh()
        self.phones_changed(game_id)

    def phones_changed(self, game_id: int) -> None:
        """A phone came or went: the table screen may say who has none (e.g. Mister X)."""
        if game_id == self.ctl.game_id and self.screen == "game":
            self.pages["game"].update()

    # -- doing things --------------------------------------------------------------------------
    def run(
        self,
        job: Awaitable[T],
        ok: Callable[[T], object] | None = None,
        failed: Callable[[CompanionError], object] | None = None,
    ) -> asyncio.Task[None]:
        """Run a coroutine on the loop; a refusal becomes a readable message on the toast."""

        async def wrapper() -> None:
            try:
                result = await job
            except CompanionError as exc:
                self.toast.show(self.ctl.error(exc), "error")
                self.last_refusal = exc.code
                if failed is not None:
                    failed(exc)
                return
            except Exception:
                log.exception("a touchscreen action failed")
                self.toast.show(self.ctl.t("ui.error.unexpected"), "error")
                return
            if ok is not None:
                ok(result)

        task = asyncio.get_event_loop().create_task(wrapper())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    last_refusal = ""

    def busy(self) -> bool:
        """Is something the user started still running (e.g. an intent being committed)?"""
        return any(not t.done() for t in self._tasks)

    def submit(
        self,
        intent: JSONObject,
        seq: int | None = None,
        ok: Callable[[Any], object] | None = None,
        game_id: int | None = None,
    ) -> None:
        """Send an intent against the state this screen shows (``seq`` and game of the rendered view)."""
        if seq is None:
            seq = int(str(self.message.get("seq", 0)))
        if game_id is None:
            game_id = int(str(self.message.get("game_id", 0)))
        self.run(self.ctl.submit(intent, seq, game_id), ok)

    def last_action_words(self, message: JSONObject) -> tuple[str, str]:
        """The snapshot's last action and where it came from, in words ("" when not known)."""
        last = message.get("last")
        if not isinstance(last, dict):
            return "", ""
        view = self.pages["game"].view
        label = view.seat_label if view is not None else str
        return self.ctl.said(last.get("text")), self.ctl.source_words(last.get("source"), label)

    def undo(self) -> None:
        """Ask first, naming the action ("Undo: D2 taxi 53 → 69 (from D2's phone)?"). The undo
        is sent against the state the question named: if anything happened meanwhile, it is
        refused as stale instead of undoing something else."""
        from ui.widgets import confirm

        seq = int(str(self.message.get("seq", 0)))
        game_id = int(str(self.message.get("game_id", 0)))
        what, source = self.last_action_words(self.message)
        if what and source:
            question = self.ctl.t("ui.undo.confirm_action", what=what, source=source)
        elif what:
            question = self.ctl.t("ui.undo.confirm_what", what=what)
        else:
            question = self.ctl.t("ui.undo.confirm")

        def done(_: object) -> None:
            self.toast.show(self.ctl.t("ui.undo.done"), "info")

        confirm(
            question,
            self.ctl.t("ui.undo.yes"),
            self.ctl.t("ui.undo.no"),
            lambda: self.submit({"kind": "core.undo"}, seq, done, game_id),
            danger=True,
        )

    def vanished(self, message: JSONObject, since: int) -> None:
        """A half-done choice on this screen (a figure's destinations, a room to tap) was cleared
        because another device acted first: say who and what, so nobody wonders where it went."""
        last = message.get("last")
        if self.busy() or (isinstance(last, dict) and last.get("source") == "touchscreen"):
            return  # this screen's own action (on its way, or done): nothing vanished
        what, source = self.last_action_words(message)
        newer = isinstance(last, dict) and isinstance(last.get("seq"), int) and int(str(last["seq"])) > since
        if newer and what and source:
            words = self.ctl.t("ui.vanished.by", who=source, what=what)
        elif newer and what:
            words = self.ctl.t("ui.vanished.what", what=what)
        else:
            words = self.ctl.t("ui.vanished")
        self.toast.show(words, "info", 8.0)
