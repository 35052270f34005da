"""The tag table (uid → piece), sharing it between clubs, and the enrollment session."""

from __future__ import annotations

import json
import queue
import threading
from pathlib import Path

import pytest

from companion.files import damaged_copies
from hardware import build
from hardware.enrollment import EnrollmentSession, Piece, TagConflict, TagTable, TagTableError
from hardware.events import HardwareEvent, ReaderStatus, TagGone, TagSeen

EIFFEL = Piece("victorian_masterminds", "building:paris:monument", "Eiffel Tower")
BIG_BEN = Piece("victorian_masterminds", "building:london:monument", "Big Ben")
PAWN = Piece("scotland_yard", "pawn:d1", "Detective 1")


def test_enroll_lookup_forget_and_persist(tmp_path: Path) -> None:
    path = tmp_path / "data" / "tags.json"
    table = TagTable.load(path)  # no file yet: empty
    assert len(table) == 0
    assert table.enroll("67:00:3b:51:c6", EIFFEL) is None
    assert table.enroll("04A1B2C3", PAWN) is None
    assert table.lookup("67003B51C6") == EIFFEL
    assert table.lookup("0000000000") is None  # unknown: reported as unknown, never guessed
    assert table.lookup("not hex") is None
    assert "67003b51c6" in table

    again = TagTable.load(path)
    assert again.items() == table.items()
    assert json.loads(path.read_text("utf-8"))["tags"][0] == {"uid": "04A1B2C3", **PAWN.to_json()}

    assert again.forget("04A1B2C3") == PAWN
    assert again.forget("04A1B2C3") is None
    assert TagTable.load(path).lookup("04A1B2C3") is None


def test_a_tag_is_not_silently_re_enrolled_as_another_piece(tmp_path: Path) -> None:
    table = TagTable(tmp_path / "tags.json")
    table.enroll("67003B51C6", EIFFEL)
    assert table.enroll("67003B51C6", EIFFEL) == EIFFEL  # the same again changes nothing
    with pytest.raises(TagConflict) as info:
        table.enroll("67003B51C6", BIG_BEN)
    assert info.value.code == "hardware.tags.conflict"
    assert info.value.params == {"uid": "67003B51C6", "label": "Eiffel Tower"}
    assert table.lookup("67003B51C6") == EIFFEL
    assert table.enroll("67003B51C6", BIG_BEN, replace=True) == EIFFEL
    assert TagTable.load(tmp_path / "tags.json").lookup("67003B51C6") == BIG_BEN


def test_a_piece_may_have_a_spare_tag(tmp_path: Path) -> None:
    table = TagTable(tmp_path / "tags.json")
    table.enroll("67003B51C6", EIFFEL)
    table.enroll("0102030405", EIFFEL)
    assert table.uids_for(EIFFEL) == ("0102030405", "67003B51C6")


def test_export_import_round_trip(tmp_path: Path) -> None:
    ours = TagTable(tmp_path / "ours.json")
    ours.enroll("67003B51C6", EIFFEL)
    ours.enroll("04A1B2C3", PAWN)
    ours.export(tmp_path / "club.json")
    theirs = TagTable(tmp_path / "theirs.json")
    report = theirs.import_file(tmp_path / "club.json")
    assert report.added == ("04A1B2C3", "67003B51C6") and report.conflicts == ()
    assert theirs.items() == ours.items()
    report = theirs.import_file(tmp_path / "club.json")
    assert report.added == () and report.unchanged == ("04A1B2C3", "67003B51C6")


def test_import_reports_every_conflict_and_keeps_ours_unless_told(tmp_path: Path) -> None:
    ours = TagTable(tmp_path / "ours.json")
    ours.enroll("67003B51C6", EIFFEL)
    ours.enroll("04A1B2C3", PAWN)
    club = TagTable()
    club.enroll("67003B51C6", BIG_BEN)  # they call this tag Big Ben
    club.enroll("04A1B2C3", PAWN)  # agreed
    club.enroll("0A0B0C0D0E", EIFFEL)  # new to us
    report = ours.merge(club.to_json())
    assert report.added == ("0A0B0C0D0E",)
    assert report.unchanged == ("04A1B2C3",)
    assert [(c.uid, c.ours, c.theirs) for c in report.conflicts] == [("67003B51C6", EIFFEL, BIG_BEN)]
    assert report.replaced == ()
    assert ours.lookup("67003B51C6") == EIFFEL
    report = ours.merge(club.to_json(), prefer="theirs")
    assert report.replaced == ("67003B51C6",) and len(report.conflicts) == 1
    assert TagTable.load(tmp_path / "ours.json").lookup("67003B51C6") == BIG_BEN


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"format": "something", "version": 1, "tags": []},
        {"format": "companion.tags", "version": 2, "tags": []},
        {"format": "companion.tags", "version": 1, "tags": {}},
        {"format": "companion.tags", "version": 1, "tags": [], "extra": 1},
        {"format": "companion.tags", "version": 1, "tags": [{"uid": "zz", "game": "g", "piece": "p"}]},
        {"format": "companion.tags", "version": 1, "tags": [{"uid": "0102", "game": "", "piece": "p"}]},
        {"format": "companion.tags", "version": 1, "tags": [{"uid": "0102", "game": "g"}]},
        {"format": "companion.tags", "version": 1, "tags": [{"uid": "0102", "game": "g", "piece": 3}]},
        {
            "format": "companion.tags",
            "version": 1,
            "tags": [{"uid": "0102", "game": "g", "piece": "a"}, {"uid": "0102", "game": "g", "piece": "b"}],
        },
    ],
)
def test_malformed_tables_are_refused_whole(tmp_path: Path, data: object) -> None:
    table = TagTable(tmp_path / "t.json")
    table.enroll("67003B51C6", EIFFEL)
    with pytest.raises(TagTableError) as info:
        table.merge(data)
    assert info.value.code == "hardware.tags.malformed"
    assert table.items() == [("67003B51C6", EIFFEL)]  # bad input changes nothing


def test_a_torn_file_is_kept_aside_and_said_not_repaired_or_overwritten(tmp_path: Path) -> None:
    """A tag table a power cut tore (or emptied) is not a tag table of nobody's: its bytes are kept
    as found, under a name that says so, and the table starts empty so the readers still work; a
    new enrollment writes a new file and never touches the copy."""
    path = tmp_path / "tags.json"
    torn = b'{"format": "companion.tags", "version": 1, "tags": [{"uid": "67003B51C6", "ga'
    path.write_bytes(torn)
    table = TagTable.load(path)
    assert table.items() == []
    (copy,) = damaged_copies(tmp_path)
    assert copy.name.startswith("tags.json.damaged-") and copy.read_bytes() == torn
    assert not path.exists()
    table.enroll("67003B51C6", EIFFEL)
    assert TagTable.load(path).items() == [("67003B51C6", EIFFEL)]
    assert damaged_copies(tmp_path) == [copy] and copy.read_bytes() == torn
    path.write_bytes(b"\xff\xfe\x00")  # not even text
    assert TagTable.load(path).items() == []
    assert len(damaged_copies(tmp_path)) == 2


def test_json_that_is_not_a_tag_table_is_an_error_and_stays(tmp_path: Path) -> None:
    path = tmp_path / "tags.json"
    path.write_text('{"format": "something else"}', "utf-8")
    with pytest.raises(TagTableError):
        TagTable.load(path)
    assert path.read_text("utf-8") == '{"format": "something else"}' and damaged_copies(tmp_path) == []


def test_the_session_takes_the_next_tag_on_its_reader_only(tmp_path: Path) -> None:
    table = TagTable(tmp_path / "tags.json")
    session = EnrollmentSession(table, "p1", EIFFEL)
    assert session.prompt == "Hold Eiffel Tower on reader p1"
    assert session.offer(TagSeen("p2", "0102030405")) is None  # another reader
    assert session.offer(TagGone("p1", "0102030405")) is None
    assert session.offer(ReaderStatus("p1", "connected")) is None
    result = session.offer(TagSeen("p1", "67003b51c6"))
    assert result is not None and result.status == "recorded" and result.uid == "67003B51C6"
    assert session.done and session.offer(TagSeen("p1", "0A0B0C0D0E")) is None  # one tag per session
    assert table.lookup("67003B51C6") == EIFFEL
    again = EnrollmentSession(table, "p1", EIFFEL)
    assert again.offer(TagSeen("p1", "67003B51C6")).status == "already"  # type: ignore[union-attr]


def test_a_conflict_is_reported_and_replaced_only_on_confirmation(tmp_path: Path) -> None:
    table = TagTable(tmp_path / "tags.json")
    table.enroll("67003B51C6", BIG_BEN)
    session = EnrollmentSession(table, "p1", EIFFEL)
    result = session.offer(TagSeen("p1", "67003B51C6"))
    assert result is not None and result.status == "conflict" and result.previous == BIG_BEN
    assert table.lookup("67003B51C6") == BIG_BEN
    result = session.confirm_replace()
    assert result.status == "recorded" and result.previous == BIG_BEN
    assert table.lookup("67003B51C6") == EIFFEL


def test_enrolling_from_a_simulated_reader(tmp_path: Path) -> None:
    """The whole flow as the CLI and the screen run it: hardware → queue → session → table."""
    events: queue.Queue[HardwareEvent] = queue.Queue()
    table = TagTable(tmp_path / "tags.json")
    section = {"mode": "simulated", "readers": [{"name": "p1", "type": "pn532", "port": "simulated"}]}
    with build(section, events.put) as hw:
        session = EnrollmentSession(table, "p1", EIFFEL)
        timer = threading.Timer(0.2, hw.simulator("p1").place, ("04A1B2C3D4E580",))
        timer.start()
        result = session.wait(events, timeout=15)
        timer.join()
    assert result is not None and result.status == "recorded"
    assert TagTable.load(tmp_path / "tags.json").lookup("04A1B2C3D4E580") == EIFFEL


def test_waiting_gives_up_after_the_timeout(tmp_path: Path) -> None:
    session = EnrollmentSession(TagTable(), "p1", EIFFEL)
    events: queue.Queue[HardwareEvent] = queue.Queue()
    events.put(TagSeen("p2", "0102030405"))
    assert session.wait(events, timeout=0.05) is None
    assert not session.done
