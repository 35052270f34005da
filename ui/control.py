"""A local control socket for tests: scripted taps on widgets, screenshots, what is on screen.

Enabled only when the environment variable ``COMPANION_UI_CONTROL`` names a path; the app then
listens on a Unix domain socket there (local only, mode 0600). One JSON object per line in, one
JSON object per line out. Commands:

- ``{"cmd": "state"}`` → the current screen, the seq of the rendered snapshot, the toast text,
  whether a dialog is open, every visible widget with a ``tid`` (text, disabled, its ``box``: left,
  top, width, height in window pixels from the top left; ``partly`` when
  part of it lies outside the window or its scroll view, ``scrolled_away`` when a scroll view hides
  it all) and every visible text on screen.
- ``{"cmd": "tap", "tid": "start.new"}`` → scrolls the widget into view if it sits in a scroll
  view, then presses and releases a touch at its centre through Kivy's normal input dispatch
  (``EventLoop.post_dispatch_input``), exactly like a finger: whatever lies on top (a dialog)
  gets it. Refused when the widget is missing, hidden, disabled or covered.
- ``{"cmd": "screenshot", "path": "/abs/file.png"}`` → the next drawn frame as a PNG.
- ``{"cmd": "type", "tid": "setup.sy.name.1", "text": "Dora"}`` → a text field's text, as typed.
- ``{"cmd": "memory"}`` → after a collection of everything: the Kivy widgets alive, the objects the
  collector tracks, Kivy's cached textures, the clock's events, the table's subscriptions, open files.
- ``{"cmd": "info"}`` → the phone server's address and port, the game id.
- ``{"cmd": "submit", "intent": {...}}`` → the same path a widget uses (refusals go to the toast).
- ``{"cmd": "toasts"}`` → every toast shown (text, kind) since the last time it was asked.
- ``{"cmd": "clipped"}`` → every text on screen (or in a scroll view) that does not fit its place
  (see :func:`overflow`), every box whose contents do not fit it (see :func:`crowded`), and every
  grid of like labels drawn at uneven sizes (see :func:`uneven`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import struct
import zlib
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any

from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.input.motionevent import MotionEvent
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from ui import theme
from ui.widgets import plain
from ui.widgets.text import fits

if TYPE_CHECKING:
    from ui.shell import CompanionApp


class ScriptedTouch(MotionEvent):
    """A single-finger touch at window coordinates."""

    _next_id = 1000

    def __init__(self, x: float, y: float) -> None:
        ScriptedTouch._next_id += 1
        super().__init__("scripted", ScriptedTouch._next_id, self._args(x, y), is_touch=True, type_id="touch")
        self.profile = ["pos"]

    @staticmethod
    def _args(x: float, y: float) -> dict[str, float]:
        return {"x": x / max(1.0, Window.width - 1.0), "y": y / max(1.0, Window.height - 1.0)}

    def depack(self, args: dict[str, float]) -> None:
        self.sx = args["x"]
        self.sy = args["y"]
        super().depack(args)


async def next_frames(count: int = 1) -> None:
    loop = asyncio.get_running_loop()
    for _ in range(count):
        fut: asyncio.Future[None] = loop.create_future()
        Clock.schedule_once(lambda _dt, f=fut: f.done() or f.set_result(None), 0)
        await fut


async def settled(widget: Widget, frames: int = 30) -> None:
    """Wait until the widget's place on screen stopped changing (layouts run on later frames)."""
    last = None
    for _ in range(frames):
        await next_frames(1)
        now = (*widget.to_window(*widget.pos), widget.width, widget.height)
        if now == last:
            return
        last = now


def walk(widget: Widget) -> Iterator[Widget]:
    yield widget
    for child in reversed(widget.children):
        yield from walk(child)


def roots() -> list[Widget]:
    return list(reversed(Window.children))  # the app's root first, then open dialogs on top


def ancestors(widget: Widget) -> Iterator[Widget]:
    w = widget.parent
    while w is not None and w is not Window:
        yield w
        w = w.parent


def visible(widget: Widget) -> bool:
    if widget.opacity <= 0 or any(a.opacity <= 0 for a in ancestors(widget)):
        return False
    x, y = widget.to_window(*widget.pos)
    right, top = x + widget.width, y + widget.height
    if right <= 0 or top <= 0 or x >= Window.width or y >= Window.height or widget.width <= 0:
        return False
    for a in ancestors(widget):
        if isinstance(a, ScrollView):
            ax, ay = a.to_window(*a.pos)
            if right <= ax or x >= ax + a.width or top <= ay or y >= ay + a.height:
                return False
    return True


def whole(widget: Widget) -> bool:
    """Is all of a visible widget on screen: inside the window and inside every scroll view it sits in?"""
    x, y = widget.to_window(*widget.pos)
    if x < 0 or y < 0 or x + widget.width > Window.width or y + widget.height > Window.height:
        return False
    return all(inside(widget, a) for a in ancestors(widget) if isinstance(a, ScrollView))


def scrollable_to(widget: Widget) -> bool:
    """Hidden only because a visible scroll view has scrolled it away."""
    scroller = next((a for a in ancestors(widget) if isinstance(a, ScrollView)), None)
    if scroller is None or not visible(scroller) or widget.opacity <= 0:
        return False
    return all(a.opacity > 0 for a in ancestors(widget)) and widget.width > 0 and widget.height > 0


def inside(widget: Widget, outer: Widget) -> bool:
    """Is the whole widget within ``outer`` on screen?"""
    x, y = widget.to_window(*widget.pos)
    ox, oy = outer.to_window(*outer.pos)
    return bool(ox <= x and oy <= y and x + widget.width <= ox + outer.width and y + widget.height <= oy + outer.height)


def find(tid: str) -> list[Widget]:
    return [w for root in roots() for w in walk(root) if getattr(w, "tid", "") == tid]


def covered(widget: Widget) -> bool:
    """A dialog is open and the widget is not inside it."""
    dialogs = [w for w in Window.children if isinstance(w, ModalView)]
    if not dialogs:
        return False
    top = dialogs[0]
    return top is not widget and top not in ancestors(widget)


def overflow(label: Label) -> str:
    """Why ``label``'s text does not fit its place on screen, or "" when it does: laid out again
    without a height limit, its lines are taller than the label (lines cut off), a word is wider
    than the text box (broken inside the word or spilling sideways), or a one-line label had to
    shorten its text with an ellipsis."""
    text = label.text
    core = label._label  # the label's own text renderer: same font, size, markup, padding
    if not text.strip() or core is None:
        return ""
    box_w, box_h = label.text_size
    probe = type(core)(**{**core.options, "text": text, "text_size": (None if label.shorten else box_w, None)})
    probe.options["shorten"] = False
    probe.render()
    width, height = probe._internal_size
    pad_x = core.options["padding"][0] + core.options["padding"][2]
    pad_y = core.options["padding"][1] + core.options["padding"][3]
    room_w = float(box_w if box_w is not None else label.width) - pad_x  # the text's room: inside the padding
    width -= pad_x
    if label.shorten and width > room_w + 1:
        return f"shortened: needs {width:.0f} px, has {room_w:.0f}"
    if label.shorten and getattr(core, "is_shortened", False):  # Kivy measures word by word, a little wider
        return f"shortened with an ellipsis as drawn: {width:.0f} px in {room_w:.0f}"
    words = [w for w in text.replace("\u00ad", "").split() if w] if not label.markup else []
    widest = max((probe.get_extents(w)[0] for w in words), default=0)
    if widest > room_w + 1:
        return f"a word needs {widest:.0f} px, the box has {room_w:.0f}"
    room_h = max(float(box_h if box_h is not None else label.height), label.height) - pad_y
    if height - pad_y > room_h + 1:
        return f"lines cut off: needs {height - pad_y:.0f} px high, has {room_h:.0f}"
    return ""


def not_large(label: Label) -> str:
    """Large text: why ``label`` is drawn smaller than the mode asks though its place has room for
    the large size (a label made before the mode was known, or not fitted again), or ""."""
    normal = getattr(label, "normal_size", None)
    if not theme.large_text() or normal is None or hasattr(label, "largest_size") or label._label is None:
        return ""  # not one of ours, or a wrapping label a crowded panel may give back its normal size
    largest = theme.font(normal)
    if float(label.font_size) >= largest - 0.5 or label.width <= 1 or not label.text.strip():
        return ""
    pad = label._label.options["padding"]
    room_w, room_h = label.width - pad[0] - pad[2], label.height - pad[1] - pad[3]
    if fits(label, largest, bool(label.shorten), room_w, room_h):
        return f"not large: drawn at {float(label.font_size):.0f} px, {largest:.0f} px fits"
    return ""


def uneven(grid: GridLayout) -> str:
    """Why a grid of like labels (chips, buttons of one kind) reads unevenly, or "": their text
    drawn at different sizes (the large-text mode shrinks a long word to its cell; a grid keeps
    one size, as a printed table does)."""
    cells = [c for c in grid.children if isinstance(c, Label) and c.text.strip()]
    if getattr(grid, "mixed_sizes", False) or len(cells) < 2 or len({type(c) for c in cells}) != 1:
        return ""
    sizes = sorted({round(float(c.font_size)) for c in cells})
    return f"uneven sizes in one grid: {', '.join(map(str, sizes))} px" if len(sizes) > 1 else ""


def crowded(box: BoxLayout) -> str:
    """Why ``box``'s fixed-size children do not fit it, or "" when they do: a box laid out top to
    bottom pushes what does not fit out over its top edge (over the header), side by side over its
    right edge — every label inside may fit while the panel as a whole does not."""
    if box.orientation == "vertical" and box.minimum_height > box.height + 1:
        return f"crowded: needs {box.minimum_height:.0f} px high, has {box.height:.0f}"
    if box.orientation == "horizontal" and box.minimum_width > box.width + 1:
        return f"crowded: needs {box.minimum_width:.0f} px wide, has {box.width:.0f}"
    return ""


class Control:
    def __init__(self, app: CompanionApp) -> None:
        self.app = app
        self.toasts: list[dict[str, str]] = []  # every toast shown since the last {"cmd": "toasts"}
        self.watching = False

    def watch_toasts(self) -> None:
        """Note every toast the app shows (once it has its toast), so a test sees also those that
        came and went between two looks."""
        toast = getattr(self.app, "toast", None)
        if self.watching or toast is None:
            return
        self.watching = True
        shown = toast.show

        def show(message: str, kind: str = "error", seconds: float = 5.0) -> None:
            self.toasts.append({"text": message, "kind": kind})
            shown(message, kind, seconds)

        toast.show = show

    def state(self) -> dict[str, Any]:
        tids: dict[str, Any] = {}
        texts: list[str] = []
        for root in roots():
            for w in walk(root):
                tid = getattr(w, "tid", "")
                label = plain(w.text) if isinstance(w, Label) else w.text if isinstance(w, TextInput) else ""
                if not visible(w):
                    if tid and scrollable_to(w):  # a finger can scroll it into view
                        tids[tid] = {"text": label, "disabled": bool(w.disabled), "scrolled_away": True}
                    continue
                if tid:
                    x, y = w.to_window(*w.pos)
                    box = [round(x), round(Window.height - y - w.height), round(w.width), round(w.height)]
                    tids[tid] = {"text": label, "disabled": bool(w.disabled), "box": box}
                    if not whole(w):
                        tids[tid]["partly"] = True
                if label and not covered(w) and w is not self.app.toast:  # the toast is reported apart
                    texts.append(label)
        toast = self.app.toast
        return {
            "screen": self.app.screen,
            "seq": self.app.rendered_seq,
            "frame": Clock.frames,
            "toast": plain(toast.text) if toast.opacity > 0 else "",
            "toast_kind": toast.kind,
            "dialog": any(isinstance(w, ModalView) for w in Window.children),
            "tids": tids,
            "texts": texts,
            "size": [Window.width, Window.height],
            "last_refusal": self.app.last_refusal,
        }

    async def tap(self, tid: str) -> dict[str, Any]:
        widget = None
        for _ in range(20):  # the screen may be re-rendered meanwhile: take the widget that is there now
            found = [w for w in find(tid) if w.get_root_window() is not None]
            if not found:
                return {"ok": False, "error": f"no widget {tid!r} on screen"}
            if found[0] is widget:
                break
            widget = found[0]
            await settled(widget)
        assert widget is not None
        scroller = next((a for a in ancestors(widget) if isinstance(a, ScrollView)), None)
        if scroller is not None and not inside(widget, scroller):
            scroller.scroll_to(widget, padding=10, animate=False)
            await next_frames(2)
        if not visible(widget):
            return {"ok": False, "error": f"{tid!r} is not visible"}
        if widget.disabled:
            return {"ok": False, "error": f"{tid!r} is disabled"}
        if covered(widget):
            return {"ok": False, "error": f"{tid!r} is covered by a dialog"}
        x, y = widget.to_window(*widget.center)
        touch = ScriptedTouch(x, y)
        EventLoop.post_dispatch_input("begin", touch)
        await next_frames(1)
        EventLoop.post_dispatch_input("end", touch)
        await next_frames(2)
        if scroller is not None:  # a scroll view hands a short tap to its children 0.2 s later
            await asyncio.sleep(0.3)
            await next_frames(1)
        await self.idle()
        return {"ok": True, "at": [x, y], "window": [Window.width, Window.height]}

    async def type(self, tid: str, text: str) -> dict[str, Any]:
        """Type ``text`` into a text field (what the on-screen keyboard writes), replacing its text."""
        found = [w for w in find(tid) if w.get_root_window() is not None and isinstance(w, TextInput)]
        if not found:
            return {"ok": False, "error": f"no text field {tid!r} on screen"}
        field = found[0]
        if field.disabled:
            return {"ok": False, "error": f"{tid!r} is disabled"}
        field.select_all()
        field.delete_selection()
        field.insert_text(text)
        await next_frames(2)
        await self.idle()
        return {"ok": True, "text": field.text}

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait until what the tap started (an intent being committed) is done and drawn."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.app.busy() and loop.time() < end:
            await asyncio.sleep(0.01)
        await next_frames(2)

    async def screenshot(self, path: str) -> dict[str, Any]:
        from kivy.graphics import opengl as gl

        loop = asyncio.get_running_loop()
        fut: asyncio.Future[bytes] = loop.create_future()
        width, height = int(Window.width), int(Window.height)

        def grab(*_: Any) -> None:  # bound to on_flip: runs before the buffers are swapped
            Window.unbind(on_flip=grab)
            gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
            data = gl.glReadPixels(0, 0, width, height, gl.GL_RGB, gl.GL_UNSIGNED_BYTE)
            if not fut.done():
                fut.set_result(bytes(data))

        await next_frames(2)
        Window.bind(on_flip=grab)
        Window.canvas.ask_update()
        data = await asyncio.wait_for(fut, 5.0)
        with open(path, "wb") as fh:
            fh.write(png(width, height, data))
        return {"ok": True, "path": path, "size": [width, height]}

    async def clipped(self) -> dict[str, Any]:
        """Every text cut off or crowded on the screens a finger can reach (scrolled into view too)."""
        await next_frames(2)
        found = []
        for root in roots():
            for w in walk(root):
                shown = visible(w) or scrollable_to(w)  # a finger can scroll it into view
                if isinstance(w, Label) and shown and not covered(w) and w is not self.app.toast:
                    why = overflow(w) or not_large(w)
                    if why:
                        found.append({"text": w.text, "tid": getattr(w, "tid", ""), "why": why})
                elif isinstance(w, GridLayout) and shown and not covered(w):
                    why = uneven(w)
                    if why:
                        words = " · ".join(plain(c.text) for c in reversed(w.children) if isinstance(c, Label))
                        found.append({"text": words, "tid": getattr(w, "tid", ""), "why": why})
                elif isinstance(w, BoxLayout) and shown and not covered(w):
                    why = crowded(w)
                    if why:
                        words = next((plain(x.text) for x in walk(w) if isinstance(x, Label) and x.text), "")
                        found.append({"text": words, "tid": getattr(w, "tid", ""), "why": why})
        return {"ok": True, "clipped": found}

    async def submit(self, request: dict[str, Any]) -> dict[str, Any]:
        intent = request.get("intent")
        if not isinstance(intent, dict):
            return {"ok": False, "error": "intent must be an object"}
        self.app.submit(intent)
        await self.idle()
        return {"ok": True}

    async def info(self) -> dict[str, Any]:
        phones = self.app.ctl.phones
        return {"ok": True, "address": phones.address, "port": phones.port, "game_id": self.app.ctl.game_id}

    async def state_reply(self) -> dict[str, Any]:
        return {"ok": True, **self.state()}

    async def taken_toasts(self) -> dict[str, Any]:
        found, self.toasts = self.toasts, []
        return {"ok": True, "toasts": found}

    async def frames(self, count: int) -> dict[str, Any]:
        await next_frames(count)
        return {"ok": True, "frame": Clock.frames}

    async def memory(self) -> dict[str, Any]:
        import gc
        import os

        from kivy.cache import Cache
        from kivy.uix.widget import Widget

        gc.unfreeze()  # everything, as ui/memory.py's collection at a game's start
        gc.collect()
        objects = gc.get_objects()
        widgets = sum(1 for o in objects if isinstance(o, Widget))
        count = len(objects)
        del objects
        gc.freeze()
        return {
            "ok": True,
            "widgets": widgets,
            "objects": count,
            "textures": len(getattr(Cache, "_objects", {}).get("kv.texture", {})),
            "clock_events": len(Clock.get_events()),
            "subscriptions": len(self.app.ctl.table._subscriptions),
            "fds": len(os.listdir("/proc/self/fd")),
        }

    async def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        self.watch_toasts()
        commands: dict[str, Callable[[], Awaitable[dict[str, Any]]]] = {
            "toasts": self.taken_toasts,
            "state": self.state_reply,
            "tap": lambda: self.tap(str(request.get("tid"))),
            "screenshot": lambda: self.screenshot(str(request.get("path"))),
            "type": lambda: self.type(str(request.get("tid")), str(request.get("text", ""))),
            "info": self.info,
            "memory": self.memory,
            "submit": lambda: self.submit(request),
            "clipped": self.clipped,
            "frames": lambda: self.frames(int(request.get("count", 1))),
        }
        cmd = request.get("cmd")
        command = commands.get(cmd) if isinstance(cmd, str) else None
        if command is None:
            return {"ok": False, "error": f"unknown command {cmd!r}"}
        return await command()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                try:
                    request = json.loads(line)
                    reply = await self.handle(request if isinstance(request, dict) else {})
                except Exception as exc:  # the test sees the failure; the app goes on
                    reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
                writer.write(json.dumps(reply).encode() + b"\n")
                await writer.drain()
        finally:
            writer.close()


async def serve_control(app: CompanionApp, path: str) -> asyncio.AbstractServer:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    control = Control(app)
    server = await asyncio.start_unix_server(control.serve, path=path)
    os.chmod(path, 0o600)
    return server


def png(width: int, height: int, rgb_bottom_up: bytes) -> bytes:
    """A PNG from OpenGL's bottom-up RGB rows (standard library only)."""
    stride = width * 3
    rows = b"".join(b"\x00" + rgb_bottom_up[(height - 1 - y) * stride : (height - y) * stride] for y in range(height))

    def chunk(tag: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")
