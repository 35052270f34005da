"""No flood reaches the log (issue 26, item 3): on main, one device's 1,100 half-open requests wrote
483,149 lines (215 MB, a traceback each) in about 70 s — on an SD card. Each kind of line is now
written at most ``BURST`` times a window, a repeated traceback once, and one line sums up the rest."""

from __future__ import annotations

import io
import logging

from companion.appliance.logs import BURST, Summarize


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def handler_with_filter(clock: Clock) -> tuple[logging.Handler, Summarize, io.StringIO]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    summarize = Summarize(handler, clock=clock)
    handler.addFilter(summarize)
    return handler, summarize, out


def test_a_flood_of_one_kind_is_a_few_lines_and_one_summary() -> None:
    clock = Clock()
    handler, summarize, out = handler_with_filter(clock)
    log = logging.getLogger("flood.test")
    log.propagate = False
    log.setLevel(logging.INFO)
    log.addHandler(handler)
    try:
        for n in range(10_000):
            try:
                raise OSError(24, "Too many open files")
            except OSError:
                log.exception("socket.accept() out of system resource (%d)", n)
            log.info("refused a connection from %s", f"10.0.0.{n % 250}")
        log.warning("something else")  # another kind: written
        clock.now += 61
        log.info("refused a connection from %s", "10.0.0.1")  # a new window: written, and the summary of the last
        summarize.close()
    finally:
        log.removeHandler(handler)
    text = out.getvalue()
    assert text.count("Traceback") == 1 and text.count("OSError: [Errno 24] Too many open files") == 1
    assert text.count("socket.accept() out of system resource") == BURST + 1  # and its summary
    assert "9990 more like this in the last 60 s, the last: socket.accept() out of system resource (9999)" in text
    assert "9990 more like this in the last 60 s, the last: refused a connection from 10.0.0.249" in text
    assert "something else" in text
    assert text.count("\n") < 40, text


def test_the_summary_comes_by_itself_when_the_window_ends() -> None:
    """No later line is needed: a timer writes the summary (here asked for at once)."""
    clock = Clock()
    handler, summarize, out = handler_with_filter(clock)
    records = [logging.LogRecord("x", logging.INFO, __file__, 1, "same %s", (n,), None) for n in range(50)]
    for record in records:
        handler.handle(record)
    assert out.getvalue().count("same") == BURST
    clock.now += 60
    summarize.flush()
    assert "40 more like this in the last 60 s, the last: same 49" in out.getvalue()
