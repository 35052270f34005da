"""Screens that update in place: each part of a screen is kept while what it shows is unchanged.

A screen describes itself, every time it is drawn, as a list of :class:`Part` values: a name (what
the part shows: ``"city.london"``, ``"figure.D1"``, ``"log.7"``), the function that makes its widget
and the arguments it makes it from. :func:`sync` puts those parts into a layout: a part whose
function and arguments are the same as last time keeps its widget — untouched, with its text
textures, its scroll position, its pressed state — and only a part whose arguments changed is made
again. A part may hold parts of its own (``children``), synced into its widget the same way, so a
panel stays while one row of it changes. A part whose arguments changed may also be changed in
place (``update``: a label given its new text) rather than made again: a Kivy widget costs far more
to make than to change (:func:`ui.widgets.text_part`).

"The same" is the very object first — a part of the game's view that did not change is the same
object in the next snapshot (``companion.core.shared``: ``per_state``, ``per_part``) — and equal
values otherwise (views are plain JSON values, so an unchanged part built again is equal).

The rule that keeps this right: a part's function draws only from its arguments (and from what
never changes while the screen lives: the game's facts, the language, the theme). Anything else it
reads — the screen's own choices (a figure picked), the phones linked — goes into its arguments;
a mutable value goes in as a copy (a tuple), never the object that will be changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.uix.widget import Widget

KEPT = "_parts_kept"  # the attribute of a layout that remembers its parts (see :class:`Kept`)


class Kept:
    """What a box remembers of one part: its key, its widget, and its own parts' (kept even when
    the widget is made again: a row whose look changed keeps the labels that did not)."""

    __slots__ = ("children", "key", "widget")

    def __init__(self, key: tuple[Any, ...], widget: Widget) -> None:
        self.key = key
        self.widget = widget
        self.children: dict[str, Kept] = {}


class Part:
    """One part of a screen: ``fn(*args)`` makes its widget, kept while ``fn`` and ``args`` stay
    the same. ``children``: parts synced into the widget's ``content`` (or the widget itself)
    every time, whether the widget was kept or made again. ``update``: when the arguments changed,
    ``update(widget, *args)`` may change the widget ``fn`` made before so that it shows the new
    ones — it returns ``False`` when it cannot (the widget is then made again), and what it leaves
    must look as ``fn(*args)`` would."""

    __slots__ = ("args", "children", "fn", "name", "update")

    def __init__(
        self,
        name: str,
        fn: Callable[..., Widget],
        *args: Any,
        children: Sequence[Part] | None = None,
        update: Callable[..., bool] | None = None,
    ) -> None:
        self.name = name
        self.fn = fn
        self.args = args
        self.children = children
        self.update = update

    def key(self) -> tuple[Any, ...]:
        return (self.fn, *self.args)

    def make(self) -> Widget:
        return self.fn(*self.args)

    def __repr__(self) -> str:
        return f"Part({self.name!r})"


def same(a: object, b: object) -> bool:
    """Unchanged: the very object, or an equal value (tuples compare their items by identity first)."""
    return a is b or bool(a == b)


def content(widget: Widget) -> Widget:
    """Where a part's children go: the widget's ``content`` if it names one, else the widget."""
    inner = getattr(widget, "content", None)
    return inner if isinstance(inner, Widget) else widget


def sync(box: Widget, parts: Sequence[Part]) -> list[Widget]:
    """Make ``box``'s children the widgets of ``parts``, in order: each kept while its part is the
    same as last time, made again otherwise; the box's other children are removed. A part left out
    is remembered, so it comes back as it was (a list of figures hidden while one figure's
    destinations are shown). Returns the widgets."""
    kept: dict[str, Kept] | None = getattr(box, KEPT, None)
    if kept is None:
        kept = {}
        setattr(box, KEPT, kept)
    return _sync(box, parts, kept)


def _sync(box: Widget, parts: Sequence[Part], kept: dict[str, Kept]) -> list[Widget]:
    names: set[str] = set()
    widgets: list[Widget] = []
    for part in parts:
        if part.name in names:
            raise ValueError(f"two parts named {part.name!r} in one box")
        names.add(part.name)
        key = part.key()
        old = kept.get(part.name)
        if old is None:
            old = kept[part.name] = Kept(key, part.make())
        elif not same(old.key, key):
            if not (part.update is not None and old.key[0] is part.fn and part.update(old.widget, *part.args)):
                old.widget = part.make()
            old.key = key
        widgets.append(old.widget)
        if part.children is not None:
            _sync(content(old.widget), part.children, old.children)
    place(box, widgets)
    return widgets


def place(box: Widget, widgets: Sequence[Widget]) -> None:
    """``box``'s children become ``widgets`` (first shown first), touching only what differs."""
    shown = list(reversed(box.children))
    if len(shown) == len(widgets) and all(a is b for a, b in zip(shown, widgets, strict=True)):
        return
    if len(shown) == len(widgets):
        fresh = [new for old, new in zip(shown, widgets, strict=True) if old is not new]
        if not {id(w) for w in fresh} & {id(w) for w in shown}:
            # the same places, some filled anew: swap just those (the others keep their place)
            for i, (old, new) in enumerate(zip(shown, widgets, strict=True)):
                if old is not new:
                    box.remove_widget(old)
                    if new.parent is not None:
                        new.parent.remove_widget(new)
                    box.add_widget(new, index=len(box.children) - i)
            return
    box.clear_widgets()
    for widget in widgets:
        if widget.parent is not None:
            widget.parent.remove_widget(widget)
        box.add_widget(widget)


def forget(box: Widget) -> None:
    """Drop every kept part of ``box`` and its children (the next :func:`sync` makes them all anew:
    the language changed, say)."""
    if hasattr(box, KEPT):
        setattr(box, KEPT, {})
    box.clear_widgets()
