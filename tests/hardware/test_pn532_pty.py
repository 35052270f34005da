"""A PN532 in HSU mode, played on the far end of a pseudo-terminal with the real byte protocol."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hwkit import SPEC_IN_LIST, SPEC_SAM, FakePn532, PtyDevice, Recorder, brief, in_pieces, wait_until

from hardware.events import ReaderStatus, TagGone, TagSeen
from hardware.readers import Pn532Reader, serial_opener

UID7 = "04A1B2C3D4E580"
UID4 = "DEADBEEF"


def make_reader(path: str, rec: Recorder, **options: Any) -> Pn532Reader:
    settings: dict[str, Any] = {
        "poll_interval": 0.02,
        "gone_after_polls": 2,
        "ack_timeout": 0.5,
        "response_timeout": 1.0,
        "backoff": (0.05, 0.3),
    }
    settings.update(options)
    return Pn532Reader("n1", serial_opener(path, 115200), rec, port_label=path, **settings)


class Bench:
    def __init__(self, path: Path | None = None) -> None:
        self.pty = PtyDevice(path)
        self.fake = FakePn532(self.pty)
        self.fake.start()

    def close(self) -> None:
        self.fake.stop()
        self.pty.close()


@pytest.fixture
def bench() -> Iterator[Bench]:
    b = Bench()
    yield b
    b.close()


def test_wake_up_sam_first_then_polls_and_one_placement_per_held_tag(bench: Bench) -> None:
    rec = Recorder()
    reader = make_reader(bench.pty.path, rec)
    reader.start()
    try:
        rec.wait_event(ReaderStatus("n1", "connected", f"{bench.pty.path} PN532 v1.6"))
        assert wait_until(lambda: bench.fake.command_codes().count(0x4A) >= 3)
        raw = bytes(bench.fake.raw)
        assert raw.startswith(b"\x55\x55\x00\x00")  # the HSU wake-up preamble comes first
        assert raw.index(SPEC_SAM) < raw.index(SPEC_IN_LIST)  # byte-exact commands from the spec
        assert bench.fake.command_codes()[:3] == [0x14, 0x32, 0x02]  # SAMConfiguration is the first command

        bench.fake.uid = UID7
        rec.wait_event(TagSeen("n1", UID7))
        polls = reader.polls
        assert wait_until(lambda: reader.polls >= polls + 10)  # the same tag in many polls ...
        assert rec.tags() == [TagSeen("n1", UID7)]  # ... is one placement

        bench.fake.uid = None
        rec.wait_event(TagGone("n1", UID7))
        bench.fake.uid = UID4
        rec.wait_event(TagSeen("n1", UID4))
        assert [brief(e) for e in rec.snapshot()] == ["connected", "seen " + UID7, "gone " + UID7, "seen " + UID4]
        assert reader.info().present == (UID4,)
    finally:
        reader.stop()


def test_ack_and_response_in_pieces_with_noise_and_a_damaged_response(bench: Bench) -> None:
    bench.fake.split = in_pieces([1, 2, 3, 5, 1], 0.002)
    bench.fake.noise = b"\x12\x00\x34"
    rec = Recorder()
    reader = make_reader(bench.pty.path, rec, failures_before_reinit=3)
    reader.start()
    try:
        rec.wait_event(ReaderStatus("n1", "connected", f"{bench.pty.path} PN532 v1.6"))
        bench.fake.uid = UID4
        rec.wait_event(TagSeen("n1", UID4))
        polls = reader.polls
        bench.fake.corrupt_next_response = 1  # one response with a wrong data checksum: ignored, not a miss
        assert wait_until(lambda: reader.polls >= polls + 6)
        bench.fake.uid = None
        rec.wait_event(TagGone("n1", UID4))
        assert [brief(e) for e in rec.snapshot()] == ["connected", "seen " + UID4, "gone " + UID4]
        assert reader.parser.stats.bad_checksum >= 1
        assert reader.info().dropped_bytes > 0
    finally:
        reader.stop()


@pytest.mark.parametrize("mode, detail", [("silent", "no ACK"), ("ack_only", "no response")])
def test_a_pn532_that_does_not_answer_is_an_error_then_recovers(bench: Bench, mode: str, detail: str) -> None:
    bench.fake.mode = mode
    bench.fake.uid = UID7  # a tag lies there, but nobody answers: no tag may be reported
    rec = Recorder()
    reader = make_reader(bench.pty.path, rec, ack_timeout=0.15, response_timeout=0.15)
    reader.start()
    try:
        rec.wait_for(lambda evs: len(evs) >= 1)
        assert [brief(e) for e in rec.snapshot()] == ["error"]
        assert detail in reader.info().detail
        # It keeps trying: a fresh wake-up and SAMConfiguration on every attempt.
        assert wait_until(lambda: bench.fake.command_codes().count(0x14) >= 3)
        assert bytes(bench.fake.raw).count(b"\x55\x55") >= 3
        assert rec.tags() == []
        assert rec.statuses() == ["error"]  # one event, not one per retry

        bench.fake.mode = "normal"
        rec.wait_event(TagSeen("n1", UID7))
        assert [brief(e) for e in rec.snapshot()] == ["error", "connected", "seen " + UID7]
    finally:
        reader.stop()


def test_a_pn532_that_stops_answering_ends_the_placement_and_is_reinitialised(bench: Bench) -> None:
    rec = Recorder()
    reader = make_reader(bench.pty.path, rec, ack_timeout=0.15, response_timeout=0.15, failures_before_reinit=3)
    reader.start()
    try:
        bench.fake.uid = UID7
        rec.wait_event(TagSeen("n1", UID7))
        bench.fake.mode = "silent"
        rec.wait_for(lambda evs: "error" in rec.statuses())
        assert wait_until(lambda: bench.fake.command_codes()[-1:] == [0x14])  # re-init: SAMConfiguration again
        bench.fake.mode = "normal"
        rec.wait_event(TagSeen("n1", UID7), count=2)
        assert [brief(e) for e in rec.snapshot()] == [
            "connected",
            "seen " + UID7,
            "gone " + UID7,
            "error",
            "connected",
            "seen " + UID7,
        ]
    finally:
        reader.stop()


def test_the_port_vanishing_and_coming_back(tmp_path: Path) -> None:
    link = tmp_path / "ttyNFC"
    first = Bench(link)
    second = None
    rec = Recorder()
    reader = make_reader(str(link), rec)
    reader.start()
    try:
        first.fake.uid = UID4
        rec.wait_event(TagSeen("n1", UID4))
        first.close()  # the fake stops before the fd number can be reused by the next pty
        link.unlink()
        rec.wait_for(lambda evs: "disconnected" in rec.statuses())
        second = Bench(link)
        second.fake.uid = UID4
        rec.wait_event(TagSeen("n1", UID4), count=2)
        assert [brief(e) for e in rec.snapshot()] == [
            "connected",
            "seen " + UID4,
            "gone " + UID4,
            "disconnected",
            "connected",
            "seen " + UID4,
        ]
        assert second.fake.command_codes()[0] == 0x14  # a new chip is woken and configured again
        assert reader.info().connects == 2
    finally:
        reader.stop()
        first.close()
        if second is not None:
            second.close()
