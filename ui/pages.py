"""The screens around the games: start, new game, saved games, settings and diagnostics."""

from __future__ import annotations

import datetime as _dt
import platform
import sys
from functools import partial
from typing import Any

from kivy.core.window import Window
from kivy.metrics import dp
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.app.i18n import LANGUAGES, language_name, text
from companion.app.preferences import PREF_SPEECH, PREF_SPEECH_VOLUME, SPEECH_VOLUME
from companion.app.seats import TABLE_SEAT
from companion.app.store import GameHeader
from companion.core.jsonvalue import JSON, JSONObject
from ui import theme
from ui.controller import PREF_LANGUAGE, PREF_LARGE_TEXT
from ui.games import game_ui, playable
from ui.page import Page
from ui.widgets import Btn, Choice, Lbl, Panel, confirm, fit_height, hbox, scroll, spacer, vbox


def game_name(page: Page, rules: str) -> str:
    """A game's name (``game.<name>`` in the game's own catalogue)."""
    return page.t(f"game.{rules}")


class StartScreen(Page):
    name = "start"
    back_to = None

    def title(self) -> str:
        return "Companion"

    def build(self) -> Widget:
        box = vbox(spacing=dp(10), padding=(dp(4), dp(6)))
        msg = self.app.message
        if msg.get("type") == "state":
            box.add_widget(self.current_game(msg))
        grid = GridLayout(cols=3, spacing=dp(10))
        for key, target in (
            ("new", "new"),
            ("saved", "saved"),
            ("history", "history"),
            ("settings", "settings"),
            ("diagnostics", "diagnostics"),
        ):
            grid.add_widget(
                Btn(
                    self.t(f"ui.start.{key}"),
                    partial(self.app.go, target),
                    tid=f"start.{key}",
                    height=dp(84),
                    size=theme.FONT_BIG,
                )
            )
        grid.size_hint_y = None
        grid.height = 2 * dp(84) + dp(10)
        box.add_widget(grid)
        box.add_widget(self.phones_line())
        for warning in self.ctl.health_words():  # saved games at risk, a weak power supply
            box.add_widget(Lbl(warning, colour=theme.DANGER, wrap=True, size=theme.FONT_SMALL, tid="start.health"))
        box.add_widget(Widget())
        return box

    def current_game(self, msg: dict[str, Any]) -> Widget:
        """The open game: its title, name and status, and the button back to it."""
        game_page = self.app.pages["game"]
        status = game_page.status_line(msg)
        info = vbox(
            Lbl(
                self.t("ui.start.current", title=msg.get("title", "")),
                size=theme.FONT_BIG,
                bold=True,
                one_line=True,
            ),
            Lbl(f"{game_name(self, str(msg.get('game')))} · {status}", colour=theme.MUTED, one_line=True),
            spacing=dp(2),
        )
        resume_to = "end" if game_page.over(msg) else "game"
        resume = Btn(
            self.t("ui.start.resume"),
            lambda: self.app.go(resume_to),
            tid="start.resume",
            colour=theme.GOOD,
            width=dp(200),
            height=dp(72),
            size=theme.FONT_BIG,
            bold=True,
        )
        return Panel(info, resume, orientation="horizontal", size_hint_y=None, height=dp(92))

    def phones_line(self) -> Widget:
        """Where phones join. Listening from before the first frame (the server itself starts right
        after it); the address is the network's now (redrawn when it changes)."""
        phones = self.ctl.phones
        if not phones.port:
            return Lbl(self.t("ui.start.phones", where=self.t("ui.start.no_phones")), colour=theme.MUTED, wrap=True)
        if phones.address is None:
            return Lbl(self.t("ui.start.no_network"), colour=theme.DANGER, wrap=True, tid="start.network")
        where = (phones.url() or "").rstrip("/")
        return Lbl(self.t("ui.start.phones", where=where), colour=theme.MUTED, wrap=True, tid="start.network")


class NewGameScreen(Page):
    """Choose a game, then its setup (each game's form lives in ``ui/games/<game>.py``)."""

    name = "new"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.chosen: str | None = None
        self.form: Any = None

    def on_pre_enter(self, *args: Any) -> None:
        self.chosen = None
        self.form = None
        self.refresh()

    def title(self) -> str:
        if self.chosen is None:
            return self.t("ui.new.title")
        return self.t("ui.new.setup", game=game_name(self, self.chosen))

    def build_header(self) -> None:
        super().build_header()
        if self.chosen is not None:  # "back" returns to the list of games, not the start screen
            back = self.header.children[-1]
            back._on = self.unchoose

    def unchoose(self) -> None:
        self.chosen = None
        self.form = None
        self.refresh()

    def choose(self, rules: str) -> None:
        self.chosen = rules
        self.form = form = game_ui(rules).SetupForm(self.app)
        self.refresh()

        def remembered(last: JSONObject) -> None:  # who played the last game of this box
            if self.form is form and last:
                form.remembered(last)
                form.rebuild()

        self.app.run(self.ctl.last_setup(rules), remembered)

    def refresh(self) -> None:
        if self.form is not None:
            self.form.rebuild()  # its words in the language now; its choices stay
        super().refresh()

    def build(self) -> Widget:
        if self.chosen is None:
            box = vbox(spacing=dp(10), padding=(0, dp(6)))
            for rules in playable():
                box.add_widget(
                    hbox(
                        Btn(
                            game_name(self, rules),
                            partial(self.choose, rules),
                            tid=f"new.{rules}",
                            width=dp(330),
                            height=dp(84),
                            size=theme.FONT_BIG,
                            bold=True,
                        ),
                        Lbl(self.t(f"game.{rules}.about"), colour=theme.MUTED, size=theme.FONT),
                        size_hint_y=None,
                        height=dp(84),
                    )
                )
            box.add_widget(Widget())
            return box
        start = Btn(
            self.t("ui.new.start"),
            self.start,
            tid="new.start",
            colour=theme.GOOD,
            size=theme.FONT_BIG,
            bold=True,
            width=dp(220),
        )
        bottom = hbox(Widget(), start, size_hint_y=None, height=theme.TOUCH)
        if self.form.parent is not None:  # rebuilt (e.g. another language): the form moves over
            self.form.parent.remove_widget(self.form)
        return vbox(scroll(self.form, tid="new.form"), bottom)

    def start(self) -> None:
        assert self.chosen is not None and self.form is not None
        problem = self.form.problem()
        if problem:
            self.app.toast.show(problem, "error")
            return
        setup = self.form.setup()
        rules = self.chosen
        when = _dt.datetime.now().strftime("%d.%m. %H:%M")
        title = f"{game_name(self, rules)} {when}"
        self.app.run(self.ctl.new_game(rules, setup, title), lambda _: self.form.remember())


class SavedScreen(Page):
    name = "saved"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.headers: list[GameHeader] = []

    def title(self) -> str:
        return self.t("ui.saved.title")

    def refresh(self) -> None:
        super().refresh()
        self.app.run(self.ctl.games(), self._show)

    def _show(self, headers: list[GameHeader]) -> None:
        self.headers = headers
        self.body.clear_widgets()
        self.body.add_widget(self.build_list())

    def build(self) -> Widget | None:
        return self.build_list()

    def build_list(self) -> Widget:
        rows = fit_height(vbox(spacing=dp(8)))
        if not self.headers:
            rows.add_widget(Lbl(self.t("ui.saved.none"), colour=theme.MUTED, wrap=True))
        current = self.ctl.game_id
        for h in self.headers:
            status = self.t(f"ui.saved.status.{h.status}")
            when = h.updated.replace("T", " ")[:16]
            marker = " •" if h.id == current else ""
            info = vbox(
                Lbl(f"{h.title}{marker}", bold=True, one_line=True),
                Lbl(
                    self.t(
                        "ui.saved.detail", game=game_name(self, h.rules), status=status, actions=h.actions, when=when
                    ),
                    colour=theme.MUTED,
                    size=theme.FONT_SMALL,
                    one_line=True,
                ),
                spacing=0,
            )
            rows.add_widget(
                Panel(
                    info,
                    Btn(
                        self.t("ui.saved.open"),
                        partial(self.open, h.id),
                        tid=f"saved.open.{h.id}",
                        colour=theme.GOOD,
                        width=dp(130),
                    ),
                    Btn(
                        self.t("ui.saved.delete"),
                        partial(self.delete, h),
                        tid=f"saved.delete.{h.id}",
                        colour=theme.DANGER,
                        width=dp(120),
                    ),
                    orientation="horizontal",
                    size_hint_y=None,
                    height=dp(76),
                )
            )
        return scroll(rows, tid="saved.list")

    def open(self, game_id: int) -> None:
        def opened(_: object) -> None:
            self.app.show_message()  # the opened game's snapshot, drawn now rather than in the next frame
            game_page = self.app.pages["game"]
            self.app.go("end" if game_page.over(self.app.message) else "game")

        self.app.run(self.ctl.open_game(game_id), opened)

    def delete(self, header: GameHeader) -> None:
        confirm(
            self.t("ui.saved.delete_confirm", title=header.title),
            self.t("ui.saved.delete_yes"),
            self.t("ui.cancel"),
            lambda: self.app.run(self.ctl.delete_game(header.id), lambda _: self.refresh()),
            detail=self.t("ui.saved.delete_detail"),
        )


VOLUMES = (20, 40, 60, 80, 100)  # the speech volumes offered on the touchscreen (the host page takes any)


class SettingsScreen(Page):
    """The table's settings, then each game's: its touchscreen module's ``SetupForm.settings(page)``
    returns its rows, made with :meth:`setting` and :meth:`on_off`."""

    name = "settings"

    def title(self) -> str:
        return self.t("ui.settings.title")

    def setter(self, key: str) -> Any:
        def store(value: JSON) -> None:
            self.app.run(self.ctl.set_pref(key, value))

        return store

    def section(self, title: str) -> Lbl:
        return Lbl(title, size=theme.FONT_BIG, bold=True, colour=theme.ACCENT, size_hint_y=None, height=dp(40))

    def setting(self, label: str, widget: Widget, note: str = "") -> Widget:
        left = vbox(Lbl(label, wrap=True), spacing=0)
        if note:
            left.add_widget(Lbl(note, colour=theme.MUTED, size=theme.FONT_SMALL, wrap=True))
        left.size_hint_x = 0.5
        left.bind(minimum_height=left.setter("height"))
        left.size_hint_y = None
        left.pos_hint = widget.pos_hint = {"center_y": 0.5}
        row = hbox(left, widget, size_hint_y=None)
        row.bind(minimum_height=row.setter("height"))
        return row

    def on_off(self, key: str, default: bool, tid: str) -> Choice:
        value = self.ctl.pref(key, default)
        return Choice([(False, self.t("ui.off")), (True, self.t("ui.on"))], value, self.setter(key), tid=tid)

    def build(self) -> Widget:
        box = fit_height(vbox(spacing=dp(10), padding=(dp(4), dp(4), dp(14), dp(4))))

        def language(value: JSON) -> None:
            self.app.run(self.ctl.set_pref(PREF_LANGUAGE, value))

        box.add_widget(self.section(self.t("ui.settings.table")))
        box.add_widget(
            self.setting(
                self.t("ui.settings.language"),
                Choice(
                    [(lang, language_name(lang)) for lang in LANGUAGES], self.ctl.lang, language, tid="settings.lang"
                ),
            )
        )
        # the table speaks (companion/app/speech.py): on or off, and how loud (a sentence says so)
        box.add_widget(
            self.setting(
                self.t("ui.settings.speech"),
                self.on_off(PREF_SPEECH, False, "settings.speech"),
                self.t("ui.settings.speech_note"),
            )
        )
        for code, params in self.ctl.health:  # switched on, but no word can be heard: it says so, and why
            if code == "appliance.health.voice":
                words = text(code, params, self.ctl.lang, ("companion.appliance",))
                box.add_widget(Lbl(words, colour=theme.WARN, size=theme.FONT_SMALL, wrap=True, tid="settings.voice"))
        box.add_widget(
            self.setting(
                self.t("ui.settings.large_text"),
                self.on_off(PREF_LARGE_TEXT, False, "settings.large_text"),
                self.t("ui.settings.large_text_note"),
            )
        )
        volume = self.ctl.pref(PREF_SPEECH_VOLUME, SPEECH_VOLUME)
        levels = [(v, f"{v}\u00a0%") for v in VOLUMES]
        box.add_widget(
            self.setting(
                self.t("ui.settings.volume"),
                Choice(levels, volume, self.setter(PREF_SPEECH_VOLUME), tid="settings.volume"),
            )
        )
        for rules in playable():  # each game's own settings, from its touchscreen module's setup form
            rows = game_ui(rules).SetupForm.settings(self)
            if rows:
                box.add_widget(self.section(game_name(self, rules)))
                for row in rows:
                    box.add_widget(row)
        box.add_widget(spacer(height=dp(20)))
        return scroll(box, tid="settings.list")


class DiagnosticsScreen(Page):
    name = "diagnostics"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self._unwatch: Any = None
        from kivy.clock import Clock

        self._redraw = Clock.create_trigger(lambda _dt: self.refresh(), 0.1)

    def on_enter(self, *args: Any) -> None:
        """Live while shown: every hardware event (a press, a tag) redraws the panel."""
        inputs = self.ctl.inputs
        if inputs is not None and self._unwatch is None:
            self._unwatch = inputs.router.watch(lambda _event: self._redraw())

    def on_leave(self, *args: Any) -> None:
        if self._unwatch is not None:
            self._unwatch()
            self._unwatch = None

    def title(self) -> str:
        return self.t("ui.diag.title")

    def build(self) -> Widget:
        import kivy

        from ui.hardware_panel import hardware_panel

        ctl = self.ctl
        phones = ctl.phones
        view = self.app.pages["game"].view  # the open game's: its seats by name ("Blue", "Dora"), never "blue"

        def seat(seat_id: str) -> str:
            if seat_id == TABLE_SEAT:
                return self.t("ui.diag.table_screen")
            return view.seat_label(seat_id) if view is not None else seat_id

        connected = ", ".join(sorted(seat(s) for s in ctl.connected())) or "–"
        rows = [
            (
                "phones",
                self.t("ui.diag.phones"),
                (phones.url() or "").rstrip("/") or (self.t("ui.start.no_network") if phones.port else "–"),
            ),
            ("phone_problem", self.t("ui.diag.phone_problem"), phones.problem or "–"),
            ("connected", self.t("ui.diag.connected"), connected),
            ("data", self.t("ui.diag.data"), str(ctl.config.store_path)),
            (
                "screen",
                self.t("ui.diag.screen"),
                f"{Window.width}×{Window.height}"
                f" · {self.t('ui.diag.fullscreen' if self.app.fullscreen else 'ui.diag.window')}"
                f" · {self.t('ui.diag.on_pi' if self.app.on_pi else 'ui.diag.not_pi')}",
            ),
            (
                "versions",
                self.t("ui.diag.versions"),
                f"Python {sys.version.split()[0]} · Kivy {kivy.__version__} · {platform.machine()}",
            ),
        ]
        box = fit_height(vbox(spacing=dp(4), padding=(dp(4), dp(4), dp(14), dp(4))))
        box.add_widget(hardware_panel(self.app))
        for key, label, value in rows:
            row = hbox(
                Lbl(label, colour=theme.MUTED, size_hint_x=0.32, wrap=True),
                Lbl(value, wrap=True, size_hint_x=0.68, tid=f"diag.{key}"),
                size_hint_y=None,
                padding=(0, dp(6)),
            )
            row.bind(minimum_height=row.setter("height"))
            box.add_widget(row)
        return scroll(box, tid="diagnostics.list")
