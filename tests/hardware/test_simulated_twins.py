"""The simulated reader modules behave like the real ones, faults included, through the same reader code."""

from __future__ import annotations

import pytest
from hwkit import Recorder, brief, wait_until

from hardware import build
from hardware.events import HardwareEvent, TagSeen
from hardware.readers import Rdm6300Reader
from hardware.simulated import SimulatedTagDevice


@pytest.mark.parametrize("kind, uid", [("rdm6300", "67003B51C6"), ("id12la", "0102030405"), ("pn532", "04A1B2C3")])
def test_unplugging_and_plugging_a_simulated_reader(kind: str, uid: str) -> None:
    rec = Recorder()
    reader: dict[str, object] = {"name": "r", "type": kind, "port": "/dev/ttyNOWHERE"}  # mode wins: simulated
    if kind != "pn532":
        reader["gone_after_ms"] = 300
    section = {"mode": "simulated", "readers": [reader]}
    with build(section, rec) as hw:
        device = hw.simulator("r")
        rec.wait_for(lambda evs: "connected" in rec.statuses())
        device.place(uid)
        rec.wait_event(TagSeen("r", uid))
        device.unplug()
        rec.wait_for(lambda evs: rec.statuses()[-1:] == ["disconnected"])
        device.plug()
        rec.wait_for(lambda evs: rec.statuses()[-1:] == ["connected"])
        if kind == "id12la":
            device.place(uid)  # sends its frame once per placement: put it down again
        rec.wait_event(TagSeen("r", uid), count=2)
        assert [brief(e) for e in rec.snapshot()] == [
            "connected", "seen " + uid, "gone " + uid, "disconnected", "connected", "seen " + uid,
        ]  # fmt: skip


def test_a_failing_deliver_does_not_stop_the_reader() -> None:
    device = SimulatedTagDevice("rdm6300")
    seen: list[HardwareEvent] = []

    def flaky(event: HardwareEvent) -> None:
        seen.append(event)
        if len(seen) == 1:
            raise RuntimeError("the app's handler broke")

    reader = Rdm6300Reader("r", device.open, flaky, gone_after=0.2)
    reader.start()
    try:
        assert wait_until(lambda: len(seen) >= 1)  # the status event raised
        device.place("67003B51C6")
        assert wait_until(lambda: TagSeen("r", "67003B51C6") in seen)
        assert reader.running
    finally:
        reader.stop()
