"""Pure frame parsing: known answers from the spec, then properties over arbitrary chunking and noise."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hardware import pn532
from hardware.frames import AsciiFrameParser, card_number, id12_frame, normalize_uid, rdm6300_frame, xor_checksum

FAST = settings(max_examples=150, deadline=None)


# ------------------------------------------------------------------ known answers


def test_rdm6300_frame_matches_the_spec_example() -> None:
    assert xor_checksum(bytes.fromhex("67003B51C6")) == 0xCB
    assert rdm6300_frame("67003B51C6") == b"\x0267003B51C6CB\x03"
    assert len(rdm6300_frame("67003B51C6")) == 14
    assert card_number("67003B51C6") == 3887558


def test_id12_frame_has_crlf_before_etx() -> None:
    frame = id12_frame("67003B51C6")
    assert frame == b"\x0267003B51C6CB\r\n\x03"
    assert len(frame) == 16


def test_parsers_read_their_own_type_only() -> None:
    rdm, id12 = AsciiFrameParser(), AsciiFrameParser(b"\r\n")
    assert rdm.feed(rdm6300_frame("0102030405")) == ["0102030405"]
    assert id12.feed(rdm6300_frame("0102030405")) == []
    assert id12.feed(id12_frame("0102030405")) == ["0102030405"]
    assert rdm.feed(id12_frame("0102030405")) == []


def test_wrong_checksum_is_counted_and_dropped() -> None:
    parser = AsciiFrameParser()
    bad = b"\x0267003B51C6CC\x03"
    assert parser.feed(bad + rdm6300_frame("67003B51C6")) == ["67003B51C6"]
    assert parser.stats.bad_checksum == 1
    assert parser.stats.frames == 1


def test_truncated_frame_then_valid_frame() -> None:
    parser = AsciiFrameParser()
    truncated = rdm6300_frame("1122334455")[:9]
    assert parser.feed(truncated + rdm6300_frame("67003B51C6")) == ["67003B51C6"]
    assert parser.stats.dropped == len(truncated)


def test_lower_case_digits_are_accepted_and_normalized() -> None:
    parser = AsciiFrameParser()
    assert parser.feed(b"\x0267003b51c6cb\x03") == ["67003B51C6"]


@pytest.mark.parametrize("bad", ["", "1", "xyz", "0g"])
def test_normalize_uid_refuses_non_hex(bad: str) -> None:
    with pytest.raises(ValueError):
        normalize_uid(bad)


def test_normalize_uid_strips_separators() -> None:
    assert normalize_uid("04:a1:b2:c3") == "04A1B2C3"


def test_pn532_commands_are_byte_exact() -> None:
    assert pn532.sam_configuration() == bytes.fromhex("0000FF05FBD4140100001700")
    assert pn532.in_list_passive_target() == bytes.fromhex("0000FF04FCD44A0100E100")


def test_pn532_parser_reads_ack_response_and_error_frames() -> None:
    parser = pn532.Pn532Parser()
    response = pn532.target_response(["04A1B2C3D4E580"], sens_res=b"\x00\x44", sel_res=0x00)
    items = parser.feed(pn532.ACK_BYTES + response + bytes.fromhex("0000FF01FF7F8100") + pn532.NACK_BYTES)
    assert items[0] == pn532.ACK
    assert isinstance(items[1], pn532.Frame) and items[1].answers(pn532.IN_LIST_PASSIVE_TARGET)
    assert pn532.parse_targets(items[1].data) == ["04A1B2C3D4E580"]
    assert isinstance(items[2], pn532.Frame) and items[2].is_error
    assert items[3] == pn532.NACK


def test_pn532_parser_finds_a_frame_behind_a_false_start() -> None:
    # "00 FF 10 F0" looks like the header of a 16-byte frame; the real ACK hides inside it.
    parser = pn532.Pn532Parser()
    assert parser.feed(b"\x00\xff\x10\xf0\x01" + pn532.ACK_BYTES + bytes(20)) == [pn532.ACK]
    assert parser.stats.bad_checksum >= 1


def test_pn532_bad_data_checksum_is_dropped() -> None:
    good = pn532.target_response(["04A1B2C3"])
    bad = good[:-2] + bytes([good[-2] ^ 1, 0])
    parser = pn532.Pn532Parser()
    assert parser.feed(bad) == []
    assert parser.stats.bad_checksum == 1
    assert parser.feed(good) == [pn532.Frame(pn532.CHIP, good[6:-2])]


@pytest.mark.parametrize(
    "data",
    [
        b"\x4b\x01\x01\x00\x04\x08\x05\x01\x02\x03\x04\x05",  # impossible uid length 5
        b"\x4b\x01\x01\x00\x04\x08\x04\x01\x02",  # uid cut short
        b"\x4b\x01\x01\x00",  # target cut short
        b"\x4b\x07",  # impossible count
        b"\x15",  # another command's answer
    ],
)
def test_malformed_target_lists_are_refused_not_guessed(data: bytes) -> None:
    with pytest.raises(ValueError):
        pn532.parse_targets(data)


def test_no_target_is_an_empty_list() -> None:
    assert pn532.parse_targets(b"\x4b\x00") == []


def test_firmware_version() -> None:
    assert pn532.parse_firmware(bytes([0x03, 0x32, 0x01, 0x06, 0x07])) == "PN532 v1.6"


# ------------------------------------------------------------------ properties

em_uid = st.binary(min_size=5, max_size=5).map(lambda b: b.hex().upper())
nfc_bytes = st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n))
nfc_uid = nfc_bytes.map(lambda b: b.hex().upper())


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    pieces, last = [], 0
    for p in [*points, len(data)]:
        pieces.append(data[last:p])
        last = p
    return pieces


def feed_all(parser: AsciiFrameParser, pieces: list[bytes]) -> list[str]:
    out: list[str] = []
    for piece in pieces:
        out += parser.feed(piece)
    return out


@FAST
@given(
    kind=st.sampled_from(["rdm6300", "id12la"]),
    uids=st.lists(em_uid, max_size=8),
    noise=st.lists(st.binary(max_size=30), min_size=9, max_size=9),
    cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=40),
)
def test_ascii_streams_yield_exactly_their_tags_whatever_the_chunks_and_noise(
    kind: str, uids: list[str], noise: list[bytes], cuts: list[int]
) -> None:
    trailer = b"" if kind == "rdm6300" else b"\r\n"
    for n in noise:
        assume(AsciiFrameParser(trailer).feed(n) == [])  # noise that is itself a valid frame is not noise
    make = rdm6300_frame if kind == "rdm6300" else id12_frame
    stream = noise[0] + b"".join(make(u) + noise[i + 1] for i, u in enumerate(uids))
    assert feed_all(AsciiFrameParser(trailer), chunked(stream, cuts)) == uids


@FAST
@given(garbage=st.binary(max_size=400), cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=30))
def test_ascii_garbage_yields_no_tag(garbage: bytes, cuts: list[int]) -> None:
    for trailer in (b"", b"\r\n"):
        parser = AsciiFrameParser(trailer)
        assert feed_all(parser, chunked(garbage, cuts)) == []
        assert parser.stats.frames == 0


@FAST
@given(data=st.binary(max_size=300), cuts=st.lists(st.integers(min_value=0, max_value=300), max_size=30))
def test_ascii_chunking_never_changes_the_result(data: bytes, cuts: list[int]) -> None:
    whole = AsciiFrameParser().feed(data)
    assert feed_all(AsciiFrameParser(), chunked(data, cuts)) == whole


def pn532_feed_all(pieces: list[bytes]) -> list[pn532.Item]:
    parser = pn532.Pn532Parser()
    out: list[pn532.Item] = []
    for piece in pieces:
        out += parser.feed(piece)
    return out


@FAST
@given(
    answers=st.lists(st.one_of(st.none(), st.lists(nfc_uid, max_size=1)), max_size=6),
    noise=st.lists(st.binary(max_size=20).map(lambda b: b.replace(b"\xff", b"\xfe")), min_size=7, max_size=7),
    cuts=st.lists(st.integers(min_value=0, max_value=5000), max_size=40),
)
def test_pn532_streams_yield_exactly_their_items_whatever_the_chunks_and_noise(
    answers: list[list[str] | None], noise: list[bytes], cuts: list[int]
) -> None:
    # None stands for an ACK; a list for an InListPassiveTarget response carrying those uids.
    stream = noise[0]
    expected: list[object] = []
    for i, answer in enumerate(answers):
        if answer is None:
            stream += pn532.ACK_BYTES
            expected.append(pn532.ACK)
        else:
            stream += pn532.target_response(answer)
            expected.append(answer)
        stream += noise[i + 1]
    got = pn532_feed_all(chunked(stream, cuts))
    decoded = [pn532.parse_targets(item.data) if isinstance(item, pn532.Frame) else item for item in got]
    assert decoded == expected


@FAST
@given(data=st.binary(max_size=400), cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=30))
def test_pn532_garbage_yields_no_tag_and_chunking_does_not_matter(data: bytes, cuts: list[int]) -> None:
    whole = pn532_feed_all([data])
    assert pn532_feed_all(chunked(data, cuts)) == whole
    for item in whole:
        if isinstance(item, pn532.Frame) and item.answers(pn532.IN_LIST_PASSIVE_TARGET):
            try:
                uids = pn532.parse_targets(item.data)
            except ValueError:
                uids = []
            assert uids == []  # a frame made of chance bytes never carries a uid
