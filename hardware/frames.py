"""Pure frame parsing for the 125 kHz readers (RDM6300, ID-12LA/ID-20LA).

Both send ASCII: ``STX``, 10 hex digits (version byte + 4 tag bytes), 2 hex digits of
checksum (XOR of the 5 data bytes), a type-specific trailer (none for the RDM6300, CR LF for
the ID-12LA/ID-20LA), ``ETX``. A parser is fed arbitrary chunks of bytes and returns the uids
of the complete, valid frames in them; anything else is counted and dropped. A new ``STX``
always restarts a frame, so noise in front of a frame can never swallow it.
"""

from __future__ import annotations

from dataclasses import dataclass

STX = 0x02
ETX = 0x03
CRLF = b"\r\n"
_HEX = frozenset(b"0123456789ABCDEFabcdef")


def xor_checksum(data: bytes) -> int:
    """The checksum of an RDM6300/ID-12LA frame: XOR of the data bytes."""
    result = 0
    for byte in data:
        result ^= byte
    return result


def normalize_uid(uid: str) -> str:
    """Upper-case hex without separators (``"67:00:3b:51:c6"`` → ``"67003B51C6"``)."""
    cleaned = uid.replace(":", "").replace(" ", "").replace("-", "").upper()
    if not cleaned or len(cleaned) % 2 or any(c not in "0123456789ABCDEF" for c in cleaned):
        raise ValueError(f"not a tag uid (hex bytes): {uid!r}")
    return cleaned


def ascii_frame(uid: str, trailer: bytes = b"") -> bytes:
    """The frame a 125 kHz reader sends for ``uid`` (5 bytes as 10 hex digits)."""
    data = bytes.fromhex(normalize_uid(uid))
    if len(data) != 5:
        raise ValueError(f"an EM4100 uid has 5 bytes: {uid!r}")
    return bytes([STX]) + data.hex().upper().encode() + b"%02X" % xor_checksum(data) + trailer + bytes([ETX])


def rdm6300_frame(uid: str) -> bytes:
    return ascii_frame(uid)


def id12_frame(uid: str) -> bytes:
    return ascii_frame(uid, CRLF)


def card_number(uid: str) -> int:
    """The number printed on EM4100 cards: the last 4 bytes as a decimal."""
    return int(normalize_uid(uid)[-8:], 16)


@dataclass
class ParserStats:
    frames: int = 0  # valid frames
    bad_checksum: int = 0  # complete frames whose checksum did not match
    dropped: int = 0  # bytes thrown away (noise, truncated or malformed frames)


class AsciiFrameParser:
    """Incremental parser for one 125 kHz reader's byte stream."""

    def __init__(self, trailer: bytes = b"") -> None:
        self.trailer = trailer
        self.stats = ParserStats()
        self._frame = bytearray()  # bytes after STX of the frame in progress
        self._open = False

    def reset(self) -> None:
        if self._open:
            self.stats.dropped += 1 + len(self._frame)
        self._frame.clear()
        self._open = False

    def feed(self, data: bytes) -> list[str]:
        uids: list[str] = []
        for byte in data:
            uid = self._byte(byte)
            if uid is not None:
                uids.append(uid)
        return uids

    def _abandon(self) -> None:
        self.stats.dropped += 1 + len(self._frame)
        self._frame.clear()
        self._open = False

    def _byte(self, byte: int) -> str | None:
        if byte == STX:
            if self._open:
                self._abandon()
            self._open = True
            return None
        if not self._open:
            self.stats.dropped += 1
            return None
        position = len(self._frame)
        if position < 12:
            expected_ok = byte in _HEX
        elif position < 12 + len(self.trailer):
            expected_ok = byte == self.trailer[position - 12]
        else:
            expected_ok = byte == ETX
        if not expected_ok:
            self._abandon()
            self.stats.dropped += 1
            return None
        if position < 12 + len(self.trailer):
            self._frame.append(byte)
            return None
        digits = bytes(self._frame[:12]).decode("ascii").upper()
        self._frame.clear()
        self._open = False
        data = bytes.fromhex(digits[:10])
        if xor_checksum(data) != int(digits[10:], 16):
            self.stats.bad_checksum += 1
            return None
        self.stats.frames += 1
        return digits[:10]
