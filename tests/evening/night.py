"""The game night's devices and checks: phones as real Chromium pages (Playwright's sync API, Debian's
chromium from ``tests/browser/browser.py``), one browser context per device so each keeps its own
device secret, and the checks made after every step of the evening (no unexpected error on any
screen, no raw message code on a phone, no traceback in the app's log).

The touchscreen is ``tests/ui/driver.py``'s :class:`AppProcess` (the real app under Xvfb, read and
tapped through its control socket), with an evening's patience (:class:`NightApp`)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from browser import ARGS, CHROMIUM, PHONE, SHOTS
from driver import AppProcess
from playwright.sync_api import Browser, Page, sync_playwright
from spoken import expected_speech, states_of
from test_scotland_yard_ui import decode_qr

from companion.app.i18n import text
from companion.app.savedgame import load_game
from companion.app.store import Store

WAIT_S = 40.0  # a loaded two-core machine runs the app, its server and every page at once
WAIT_MS = int(WAIT_S * 1000)
RAW = re.compile(r"\b(phone|sy|vm|myk|link|ui|host)\.[a-z_]+(\.[a-z_0-9]+)*\b")  # a message code shown as is
SEAT_ID = re.compile(r"\b(p[1-6]|d[1-6]|mrx)\b|@(table|host)\b")  # a seat's internal name ("p1 placed …")
ROOM = re.compile(r"\b([A-Z0-9]{5})\b")


def words(code: str, lang: str, **params: Any) -> str:
    """The phone page's words for ``code`` (its own catalogue, the app's and the games')."""
    return text(code, params, lang, ("companion.net",))


def ui_words(code: str, lang: str, **params: Any) -> str:
    """The touchscreen's words for ``code``."""
    return text(code, params, lang, ("ui",))


class NightApp(AppProcess):
    """The touchscreen with a whole evening's patience: every wait is for a condition, with room for a
    machine that also runs the lead's test suite (a rebuilt game screen can take seconds there)."""

    def tap(self, tid: str, timeout: float = WAIT_S) -> None:
        super().tap(tid, timeout)

    def wait(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = WAIT_S, what: str = ""
    ) -> dict[str, Any]:
        return super().wait(predicate, timeout, what)

    def wait_screen(self, name: str, timeout: float = WAIT_S) -> dict[str, Any]:
        return super().wait_screen(name, timeout)

    def wait_seq(self, seq: int, timeout: float = WAIT_S) -> dict[str, Any]:
        return super().wait_seq(seq, timeout)

    def speech_of(self, game_id: int, lang: str) -> list[str]:
        """What the table's voice should have said of a saved game so far, in ``lang``: the game's
        announcements for each of its actions, worked out from the public views of its saved log
        (read while the app runs, as the command line's reading commands do)."""
        with Store(self.data / "companion.sqlite3") as store:
            game = load_game(store, game_id).game
        return expected_speech(game, states_of(game), lang)

    def said_texts(self) -> list[str]:
        return [s["text"] for s in self.said()]

    def heard(self, count: int, what: str = "") -> list[str]:
        """The texts the table said, once it has said ``count`` of them (it speaks on its own thread)."""
        said = self.wait_said(lambda s: len(s) >= count, timeout=WAIT_S, what=what or f"{count} lines")
        return [s["text"] for s in said]


@contextmanager
def chromium_sync() -> Iterator[Browser]:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


class Phone:
    """One device: a browser context of its own (its own local storage, so its own device secret)
    with one page at 360 px. ``expect`` is the error notice this phone may show now (``None``: none)."""

    def __init__(self, browser: Browser, name: str, lang: str = "en") -> None:
        self.name = name
        self.lang = lang
        self.context = browser.new_context(viewport=PHONE)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.expect: str | None = None
        self.closed = False
        self.looked = False  # its last look found it closed, and nothing was done on it since

    # -- reading ------------------------------------------------------------------------------------
    def state(self) -> Any:
        return self.page.evaluate("() => window.C && C.state")

    def legal(self) -> Any:
        state = self.state()
        return (state or {}).get("legal") or {}

    def view(self) -> Any:
        return (self.state() or {}).get("view") or {}

    def status(self) -> str:
        return str(self.page.get_attribute("#status", "data-state") or "")

    def notice(self) -> tuple[str, bool]:
        """The notice line and whether it is an error (a refusal or a final message)."""
        shown, kind, words_ = self.page.evaluate(
            "() => { const n = document.querySelector('#notice'); return [!n.hidden, n.className, n.textContent]; }"
        )
        return (str(words_), kind != "info") if shown else ("", False)

    def main(self) -> str:
        return str(self.page.inner_text("main"))

    def look(self) -> dict[str, Any]:
        """Everything a check needs in one round trip: the status, the notice and the page's words."""
        found: dict[str, Any] = self.page.evaluate(
            """() => { const n = document.querySelector('#notice');
                       return { status: document.getElementById('status')?.dataset.state || '',
                                notice: !n || n.hidden ? '' : n.textContent,
                                error: !!n && !n.hidden && n.className !== 'info',
                                body: document.body.innerText }; }"""
        )
        return found

    def wait(self, script: str, arg: Any = None, what: str = "") -> None:
        """Wait until ``script`` (a JS function of ``arg``) is true on the page."""
        try:
            self.page.wait_for_function(script, arg=arg, timeout=WAIT_MS, polling=100)
        except Exception as exc:
            notice = self.notice()
            raise AssertionError(
                f"{self.name}: timed out waiting for {what or script}: status {self.status()!r}, notice {notice!r}\n"
                f"{self.main()[:1500]}"
            ) from exc

    def wait_seq(self, seq: int) -> None:
        """The page shows the game at ``seq`` or later, with nothing of its own waiting for the table."""
        waiting = words("phone.waiting", self.lang)
        self.wait(
            "([seq, w]) => window.C && C.state && C.state.seq >= seq"
            " && document.querySelector('#notice').textContent !== w",
            [seq, waiting],
            what=f"seq {seq}",
        )

    def wait_connected(self) -> None:
        self.wait(
            "s => document.getElementById('status')?.dataset.state === 'connected'"
            " && document.getElementById('status')?.textContent === s && window.C && C.state",
            words("phone.connected", self.lang),
            what="connected",
        )

    def speaks(self, lang: str) -> None:
        """Its texts are ``lang``'s (the connection pill is a sure word)."""
        self.lang = lang
        self.wait(
            "([l, s]) => document.documentElement.lang === l && document.getElementById('status')?.textContent === s",
            [lang, words("phone.connected", lang)],
            what=f"the page in {lang}",
        )

    # -- acting -------------------------------------------------------------------------------------
    def open(self, url: str) -> None:
        self.looked = False
        self.page.goto(url)

    def tap(self, selector: str) -> None:
        self.looked = False
        self.page.locator(selector).first.click(timeout=WAIT_MS)

    def confirm(self, selector: str = "[data-action=confirm]") -> None:
        """Tap the confirm button; the page says "Done." only once the table acknowledged it."""
        waiting = words("phone.waiting", self.lang)
        self.tap(selector)
        self.wait(
            "w => { const n = document.querySelector('#notice'); return !n.hidden && n.textContent !== w; }",
            waiting,
            what="the table's answer",
        )
        notice, _ = self.notice()
        assert notice == words("phone.done", self.lang), f"{self.name}: {notice}"

    def act(self, *selectors: str) -> None:
        for selector in selectors:
            self.tap(selector)
        self.confirm()

    def shot(self, name: str) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"phone-night-{name}.png"
        self.page.evaluate("() => window.scrollTo(0, 0)")
        self.page.screenshot(path=str(path), full_page=True)
        wide = self.page.evaluate(
            "w => [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > w + 1)"
            ".map(e => e.tagName + ' ' + (e.textContent || '').slice(0, 30))",
            PHONE["width"],
        )
        assert not wide, f"{self.name}: sticks out at 360 px: {wide}"
        return path

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.context.close()


class Night:
    """The touchscreen and every open device, and the checks after each step."""

    def __init__(self, app: NightApp, browser: Browser) -> None:
        self.app = app
        self.browser = browser
        self.phones: dict[str, Phone] = {}
        self.lang = "en"
        self.shots: list[Path] = []
        self.step = 0
        self.cut_off: list[str] = []  # texts cut off on the touchscreen, reported at the end of the evening
        for old in SHOTS.glob("*-night-*.png"):  # an earlier evening's pictures would mislead
            old.unlink()
        self.seen: list[dict[str, str]] = []  # the touchscreen's toasts so far
        self.checked = 0  # how many of them a check has looked at
        self.spoken = 0  # how many lines of the table's voice a check has looked at
        self.met = False  # a Henchman's mission was met at the table (its reward asked in a dialog)
        self.laps: list[tuple[str, float]] = []  # how long each stage took (printed at the end)
        self.began = time.monotonic()

    def phone(self, name: str) -> Phone:
        phone = Phone(self.browser, name, self.lang)
        self.phones[name] = phone
        return phone

    def close(self, *names: str) -> None:
        for name in names:
            self.phones.pop(name).close()

    def toasts(self) -> list[dict[str, str]]:
        """Every toast the touchscreen has shown this evening (also those gone again)."""
        self.seen += self.app.call({"cmd": "toasts"})["toasts"]
        return self.seen

    def check(self, toast: str | None = None) -> dict[str, Any]:
        """Nothing on any screen says something went wrong unless expected; no traceback in the log."""
        state = self.app.state()
        if state["toast_kind"] == "error" and state["toast"]:
            assert state["toast"] == toast, f"the touchscreen shows an error: {state['toast']!r}"
        new = self.toasts()[self.checked :]
        self.checked = len(self.seen)
        for shown in new:
            assert shown["kind"] != "error" or shown["text"] == toast, f"the touchscreen showed an error: {shown}"
            for pattern, what in ((RAW, "a code"), (SEAT_ID, "a seat's internal name")):
                assert not pattern.search(shown["text"]), f"the touchscreen showed {what}: {shown}"
        for lang in ("en", "de"):
            assert ui_words("ui.error.unexpected", lang) not in state["texts"], state["texts"]
        for shown in [*state["texts"], state["toast"]]:
            if "://" in shown:
                continue  # a link under a QR code: its token is random letters
            for pattern, what in ((RAW, "a code"), (SEAT_ID, "a seat's internal name")):
                found = pattern.search(shown)
                assert not found, f"the touchscreen shows {what}: {shown!r}"
        log = self.app.log_path.read_text(errors="replace")
        assert "Traceback" not in log, log[log.index("Traceback") - 2000 :][:6000]
        for phone in self.phones.values():
            assert not phone.errors, f"{phone.name}: script errors {phone.errors}"
            if phone.looked:
                continue  # closed when last looked at, and untouched since: it shows the same
            seen = phone.look()
            if seen["error"]:
                assert seen["notice"] == phone.expect, f"{phone.name} shows an error: {seen['notice']!r}"
            shown = seen["body"]
            for pattern, what in ((RAW, "a code"), (SEAT_ID, "a seat's internal name")):
                found = pattern.search(shown)
                assert not found, f"{phone.name} shows {what}: {found}\n{shown[:800]}"
            phone.looked = seen["status"] == "closed"
        return state

    def shoot(self, stage: str, *phones: str) -> None:
        """The touchscreen and the named phones, as ``NN-stage``."""
        self.step += 1
        name = f"{self.step:02d}-{stage}"
        self.laps.append((name, time.monotonic() - self.began))
        self.shots.append(self.app.screenshot(f"night-{name}"))
        self.cut_off += [f"{stage}: {c['text']!r} ({c['why']})" for c in self.app.clipped()]
        for phone in phones:
            self.shots.append(self.phones[phone].shot(f"{name}-{phone}"))

    def link_from_screen(self, seat: str) -> str:
        """The seat's link as a phone's camera reads it off the touchscreen's Phones screen."""
        app = self.app
        app.tap(f"seats.show.{seat}")
        app.wait(lambda s: "seats.qr" in s["tids"], what=f"{seat}'s QR code")
        return decode_qr(app.screenshot(f"night-qr-{seat}"))

    def join(self, name: str, url: str) -> Phone:
        """A phone opens its link and claims its seat; the touchscreen hides the code and names it joined."""
        phone = self.phone(name)
        phone.open(url)
        phone.wait_connected()
        return phone


def until(predicate: Callable[[], bool], timeout: float = 40.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)
