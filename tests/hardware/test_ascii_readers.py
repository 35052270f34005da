"""RDM6300 and ID-12LA readers driven through a pseudo-terminal with their real byte protocol."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hwkit import FakeClock, PtyDevice, Recorder, brief, wait_until

from hardware.events import ReaderStatus, TagGone, TagSeen
from hardware.frames import id12_frame, rdm6300_frame
from hardware.readers import AsciiTagReader, Id12Reader, Rdm6300Reader, serial_opener

KINDS = {"rdm6300": (Rdm6300Reader, rdm6300_frame), "id12la": (Id12Reader, id12_frame)}
A, B = "67003B51C6", "0A1B2C3D4E"
NOISE = b"\x55\xaa\x00\xffnoise\x03\r\n\x02zz"  # includes a lone STX followed by non-hex


class Rig:
    def __init__(self, kind: str, path: str, gone_after: float = 0.5) -> None:
        cls, self.frame = KINDS[kind]
        self.clock = FakeClock()
        self.rec = Recorder()
        self.reader: AsciiTagReader = cls(
            "r1",
            serial_opener(path, 9600),
            self.rec,
            gone_after=gone_after,
            clock=self.clock,
            port_label=path,
            backoff=(0.05, 0.2),
        )

    def frames_read(self) -> int:
        return self.reader.parser.stats.frames

    def wait_frames(self, n: int) -> None:
        assert wait_until(lambda: self.frames_read() >= n), f"only {self.frames_read()} frames read"


@pytest.fixture(params=sorted(KINDS))
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def pty() -> Iterator[PtyDevice]:
    device = PtyDevice()
    yield device
    device.close()


def byte_by_byte(pty: PtyDevice, data: bytes) -> None:
    pty.write(data, chunks=[1] * len(data), pause=0.002)


def test_frames_byte_by_byte_and_in_odd_chunks_with_noise_are_one_placement(kind: str, pty: PtyDevice) -> None:
    rig = Rig(kind, pty.path)
    rig.reader.start()
    try:
        rig.rec.wait_event(ReaderStatus("r1", "connected", pty.path))
        byte_by_byte(pty, NOISE + rig.frame(A))
        rig.wait_frames(1)
        assert rig.rec.tags() == [TagSeen("r1", A)]

        # The same tag again and again (an RDM6300 repeats while the tag lies there), in odd
        # chunks with noise, a bad checksum and a truncated frame in between: still one placement.
        bad = bytearray(rig.frame(A))
        bad[11] = ord("0") if bad[11] != ord("0") else ord("1")  # corrupt the checksum digits
        stream = NOISE + rig.frame(A) + bytes(bad) + rig.frame(A)[:8] + rig.frame(A) + NOISE + rig.frame(A)
        pty.write(stream, chunks=[3, 5, 7, 1, 11, 2, 13])
        rig.wait_frames(4)
        assert rig.reader.parser.stats.bad_checksum == 1
        assert rig.rec.tags() == [TagSeen("r1", A)]

        # Quiet for a bit less than the quiet period: still there; then gone.
        rig.clock.advance(0.45)
        time.sleep(0.2)  # let the reader loop run a few times (asserting absence, not speed)
        assert rig.rec.tags() == [TagSeen("r1", A)]
        rig.clock.advance(0.1)
        rig.rec.wait_event(TagGone("r1", A))

        # A different tag, then the first one again: each ends the previous placement.
        pty.write(rig.frame(B), chunks=[2, 9])
        rig.rec.wait_event(TagSeen("r1", B))
        pty.write(NOISE + rig.frame(A))
        rig.rec.wait_event(TagSeen("r1", A), count=2)
        assert rig.rec.tags() == [
            TagSeen("r1", A),
            TagGone("r1", A),
            TagSeen("r1", B),
            TagGone("r1", B),
            TagSeen("r1", A),
        ]
        info = rig.reader.info()
        assert info.status == "connected"
        assert info.last_uid == A
        assert info.present == (A,)
        assert info.dropped_bytes > 0
    finally:
        rig.reader.stop()
    count = len(rig.rec.snapshot())
    time.sleep(0.1)
    assert len(rig.rec.snapshot()) == count  # a stopped reader says nothing more (no TagGone at shutdown)


def test_garbage_only_gives_no_tag(kind: str, pty: PtyDevice) -> None:
    rig = Rig(kind, pty.path)
    rig.reader.start()
    try:
        rig.rec.wait_event(ReaderStatus("r1", "connected", pty.path))
        junk = bytes(range(256)) * 3 + NOISE * 5 + rig.frame(A)[:-1]  # ends with a frame missing its ETX
        pty.write(junk, chunks=[17] * 100)
        assert wait_until(lambda: rig.reader.parser.stats.dropped >= 700)
        rig.clock.advance(5)
        time.sleep(0.1)
        assert rig.rec.tags() == []
        assert rig.reader.info().frames == 0
    finally:
        rig.reader.stop()


def test_the_port_vanishing_and_coming_back(kind: str, tmp_path: Path) -> None:
    link = tmp_path / "ttyRFID"
    rig = Rig(kind, str(link))
    rig.reader.start()  # nothing plugged in yet
    first = second = None
    try:
        rig.rec.wait_for(lambda evs: any(isinstance(e, ReaderStatus) for e in evs))
        assert rig.rec.statuses() == ["disconnected"]
        assert "ttyRFID" in rig.reader.info().detail

        first = PtyDevice(link)
        rig.rec.wait_for(lambda evs: rig.rec.statuses() == ["disconnected", "connected"])
        first.write(rig.frame(A))
        rig.rec.wait_event(TagSeen("r1", A))
        first.write(rig.frame(B)[:7])  # half a frame, then the cable is pulled
        # The reader holds the cut frame (STX and 6 digits) when the line goes: else the check
        # below that its rest never becomes a tag would pass without testing anything.
        assert wait_until(lambda: len(rig.reader.parser._frame) == 6), "the half frame was never read"
        first.vanish()
        rig.rec.wait_for(lambda evs: rig.rec.statuses()[-1:] == ["disconnected"] and len(rig.rec.statuses()) == 3)

        time.sleep(0.5)  # several reconnect attempts fail meanwhile: no more status events
        assert rig.rec.statuses() == ["disconnected", "connected", "disconnected"]

        second = PtyDevice(link)  # plugged back in (a new device node behind the same name)
        rig.rec.wait_for(lambda evs: rig.rec.statuses()[-1:] == ["connected"])
        second.write(rig.frame(B)[7:])  # the rest of the cut frame must not become a tag
        second.write(rig.frame(A), chunks=[4, 4])
        rig.rec.wait_event(TagSeen("r1", A), count=2)
        events = rig.rec.snapshot()
        assert [brief(e) for e in events] == [
            "disconnected",
            "connected",
            "seen " + A,
            "gone " + A,  # the lost reader no longer vouches for the tag, and says so first
            "disconnected",
            "connected",
            "seen " + A,
        ]
        assert TagSeen("r1", B) not in events
        assert rig.reader.info().connects == 2
    finally:
        rig.reader.stop()
        for device in (first, second):
            if device is not None:
                device.close()


def test_id12_reports_once_per_placement_and_a_new_placement_after_the_quiet_period(pty: PtyDevice) -> None:
    rig = Rig("id12la", pty.path, gone_after=0.5)
    rig.reader.start()
    try:
        rig.rec.wait_event(ReaderStatus("r1", "connected", pty.path))
        pty.write(id12_frame(A))
        rig.rec.wait_event(TagSeen("r1", A))
        rig.clock.advance(0.6)
        rig.rec.wait_event(TagGone("r1", A))
        pty.write(id12_frame(A))  # lifted and put back: the module sends its frame once more
        rig.rec.wait_event(TagSeen("r1", A), count=2)
        assert rig.rec.tags() == [TagSeen("r1", A), TagGone("r1", A), TagSeen("r1", A)]
    finally:
        rig.reader.stop()
