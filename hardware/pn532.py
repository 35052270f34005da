"""Pure PN532 protocol pieces for HSU (UART) mode: frames, the incremental parser, responses.

Frame: ``00 00 FF LEN LCS TFI DATA… DCS 00``; LCS = (−LEN) mod 256, DCS = (−(TFI + ΣDATA)) mod 256;
TFI ``D4`` host→chip, ``D5`` chip→host. The chip answers each command with an ACK
``00 00 FF 00 FF 00`` and then the response, whose command code is the command's plus one.
"""

from __future__ import annotations

from dataclasses import dataclass

HOST = 0xD4
CHIP = 0xD5
ERROR_TFI = 0x7F  # the "application level error" frame 00 00 FF 01 FF 7F 81 00

ACK_BYTES = bytes.fromhex("0000FF00FF00")
NACK_BYTES = bytes.fromhex("0000FFFF0000")
# HSU wake-up: 0x55 0x55 and a long run of zeros, then the first command (SAMConfiguration).
WAKEUP = b"\x55\x55" + bytes(14)

GET_FIRMWARE_VERSION = 0x02
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A

MAX_BODY = 300  # the PN532's longest frame is well below this; longer "frames" are noise


def frame(data: bytes, tfi: int = HOST) -> bytes:
    """A normal information frame carrying ``data`` (command code first)."""
    body = bytes([tfi]) + data
    if not 1 <= len(body) <= 255:
        raise ValueError("normal frames carry 1..255 bytes")
    return b"\x00\x00\xff" + bytes([len(body), -len(body) & 0xFF]) + body + bytes([-sum(body) & 0xFF, 0x00])


def sam_configuration() -> bytes:
    """SAMConfiguration, normal mode, no timeout, no IRQ: ``00 00 FF 05 FB D4 14 01 00 00 17 00``."""
    return frame(bytes([SAM_CONFIGURATION, 0x01, 0x00, 0x00]))


def rf_max_retries(passive_activation: int = 0x02) -> bytes:
    """RFConfiguration item 5 (MaxRetries): ATR 0xFF, PSL 0x01, passive activation as given.

    By default the chip retries InListPassiveTarget forever when no tag is there; a small
    retry count makes every poll come back (with zero targets) within milliseconds.
    """
    return frame(bytes([RF_CONFIGURATION, 0x05, 0xFF, 0x01, passive_activation]))


def get_firmware_version() -> bytes:
    return frame(bytes([GET_FIRMWARE_VERSION]))


def in_list_passive_target() -> bytes:
    """InListPassiveTarget, 1 target, 106 kbps type A: ``00 00 FF 04 FC D4 4A 01 00 E1 00``."""
    return frame(bytes([IN_LIST_PASSIVE_TARGET, 0x01, 0x00]))


@dataclass(frozen=True)
class Ack:
    pass


@dataclass(frozen=True)
class Nack:
    pass


@dataclass(frozen=True)
class Frame:
    tfi: int
    data: bytes

    @property
    def is_error(self) -> bool:
        return self.tfi == ERROR_TFI

    def answers(self, command: int) -> bool:
        return self.tfi == CHIP and self.data[:1] == bytes([command + 1])


Item = Ack | Nack | Frame
ACK = Ack()
NACK = Nack()


@dataclass
class Pn532Stats:
    frames: int = 0
    acks: int = 0
    bad_checksum: int = 0  # length or data checksum wrong
    dropped: int = 0  # non-zero bytes outside any frame (zeros are pre/postambles)


class Pn532Parser:
    """Incremental parser: feed any chunks, get ACKs, NACKs and frames in order.

    Keeps undecided bytes; when a candidate frame turns out wrong, drops one byte and
    searches again, so a real frame hidden behind a false start is still found.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self.stats = Pn532Stats()

    def reset(self) -> None:
        self._drop(len(self._buf))

    def _drop(self, count: int) -> None:
        self.stats.dropped += sum(1 for b in self._buf[:count] if b != 0)
        del self._buf[:count]

    def _take(self, count: int) -> None:
        del self._buf[:count]

    def feed(self, data: bytes) -> list[Item]:
        self._buf += data
        items: list[Item] = []
        while True:
            item = self._next()
            if item is None:
                return items
            items.append(item)

    def _next(self) -> Item | None:
        buf = self._buf
        while True:
            start = buf.find(b"\x00\xff")
            if start < 0:
                self._drop(len(buf) - 1 if buf.endswith(b"\x00") else len(buf))
                return None
            self._drop(start)
            if len(buf) < 4:
                return None
            length, lcs = buf[2], buf[3]
            if length == 0x00 and lcs == 0xFF:
                self._take(4)
                self.stats.acks += 1
                return ACK
            if length == 0xFF and lcs == 0x00:
                self._take(4)
                return NACK
            if length == 0xFF and lcs == 0xFF:  # extended frame
                if len(buf) < 7:
                    return None
                length = buf[4] << 8 | buf[5]
                header = 7
                ok = (buf[4] + buf[5] + buf[6]) & 0xFF == 0
            else:
                header = 4
                ok = (length + lcs) & 0xFF == 0
            if not ok or length == 0 or length > MAX_BODY:
                self.stats.bad_checksum += 1
                self._drop(1)
                continue
            if len(buf) < header + length + 1:
                return None
            body = bytes(buf[header : header + length])
            if (sum(body) + buf[header + length]) & 0xFF != 0:
                self.stats.bad_checksum += 1
                self._drop(1)
                continue
            self._take(header + length + 1)
            self.stats.frames += 1
            return Frame(body[0], body[1:])


def parse_firmware(data: bytes) -> str:
    """``D5 03 IC Ver Rev Support`` → ``"PN532 v1.6"``."""
    if len(data) < 5 or data[0] != GET_FIRMWARE_VERSION + 1:
        raise ValueError("not a GetFirmwareVersion response")
    ic = "PN532" if data[1] == 0x32 else f"PN5{data[1]:02X}"
    return f"{ic} v{data[2]}.{data[3]}"


def parse_targets(data: bytes) -> list[str]:
    """UIDs (upper-case hex) in an InListPassiveTarget response ``4B NbTg [Tg SENS_RES(2) SEL_RES NFCIDLength UID…]``.

    Raises ValueError when the response is malformed; never guesses a uid.
    """
    if len(data) < 2 or data[0] != IN_LIST_PASSIVE_TARGET + 1:
        raise ValueError("not an InListPassiveTarget response")
    count = data[1]
    if count > 2:
        raise ValueError(f"impossible target count {count}")
    uids: list[str] = []
    pos = 2
    for index in range(count):
        if len(data) < pos + 5:
            raise ValueError("target data cut short")
        sel_res, id_length = data[pos + 3], data[pos + 4]
        if id_length not in (4, 7, 10):
            raise ValueError(f"impossible NFCID length {id_length}")
        end = pos + 5 + id_length
        if len(data) < end:
            raise ValueError("uid cut short")
        uids.append(data[pos + 5 : end].hex().upper())
        pos = end
        if sel_res & 0x20 and index < count - 1:  # ISO 14443-4 target: its ATS comes before the next one
            if len(data) <= pos or data[pos] == 0:
                raise ValueError("ATS cut short")
            pos += data[pos]
    return uids


def target_response(uids: list[str], sens_res: bytes = b"\x00\x04", sel_res: int = 0x08) -> bytes:
    """The chip's InListPassiveTarget answer for ``uids`` (for the simulated reader and tests)."""
    out = bytearray([IN_LIST_PASSIVE_TARGET + 1, len(uids)])
    for number, uid in enumerate(uids, 1):
        raw = bytes.fromhex(uid)
        out += bytes([number]) + sens_res + bytes([sel_res, len(raw)]) + raw
    return frame(bytes(out), CHIP)
