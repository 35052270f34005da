"""``companion doctor`` and ``companion enroll``, standalone and through the main command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hardware import cli
from hardware.enrollment import Piece, TagTable


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)


def test_doctor_without_configuration_runs_the_simulated_demo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["--data-dir", str(tmp_path), "doctor", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mode"] == "simulated"
    assert report["pin_factory"] == "MockFactory"
    assert [b["role"] for b in report["buttons"]] == ["confirm", "undo", "next"]
    assert {r["name"]: r["status"] for r in report["readers"]} == {"rfid1": "connected", "nfc1": "connected"}
    assert report["tags"] == {"path": str(tmp_path / "tags.json"), "enrolled": 0}


def test_doctor_reads_the_configuration_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "companion.toml"
    config.write_text(
        '[hardware]\nmode = "simulated"\n'
        '[[hardware.buttons]]\nrole = "seat:d1"\npin = 5\n'
        '[[hardware.readers]]\nname = "desk"\ntype = "id12la"\nport = "/dev/ttyUSB7"\n',
        "utf-8",
    )
    assert cli.main(["--config", str(config), "--data-dir", str(tmp_path), "doctor", "--seconds", "0.2"]) == 0
    out = capsys.readouterr().out
    assert f"configuration: {config}" in out
    assert "seat:d1" in out and "GPIO5" in out
    assert "desk" in out and "id12la" in out and "connected" in out


def test_enroll_with_a_simulated_tag_then_list_export_import_forget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = ["--data-dir", str(tmp_path)]
    code = cli.main([*data, "enroll", "--reader", "rfid1", "--game", "victorian_masterminds",
                     "--piece", "building:paris:monument", "--label", "Eiffel Tower",
                     "--simulate-tag", "67003B51C6", "--timeout", "15"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    assert "Hold Eiffel Tower on reader rfid1" in out and "enrolled tag 67003B51C6" in out
    eiffel = Piece("victorian_masterminds", "building:paris:monument", "Eiffel Tower")
    assert TagTable.load(tmp_path / "tags.json").lookup("67003B51C6") == eiffel
    # The same again, in French: the prompt and the answer in the table's words.
    code = cli.main([*data, "--lang", "fr", "enroll", "--reader", "rfid1", "--game", "victorian_masterminds",
                     "--piece", "building:paris:monument", "--label", "Tour Eiffel",
                     "--simulate-tag", "67003B51C7", "--timeout", "15"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    assert "Posez Tour Eiffel sur le lecteur rfid1 ..." in out
    assert "tag 67003B51C7 enregistré comme Tour Eiffel [victorian_masterminds/building:paris:monument]" in out

    assert cli.main([*data, "enroll", "--list"]) == 0
    assert "67003B51C6" in capsys.readouterr().out

    shared = tmp_path / "club.json"
    assert cli.main([*data, "enroll", "--export", str(shared)]) == 0
    other = TagTable()
    other.enroll("67003B51C6", Piece("victorian_masterminds", "building:london:monument", "Big Ben"))
    other.enroll("04A1B2C3", Piece("scotland_yard", "pawn:mrx", "Mister X"))
    other.export(shared)
    capsys.readouterr()
    assert cli.main([*data, "enroll", "--import", str(shared)]) == 1  # a conflict: reported, ours kept
    out = capsys.readouterr().out
    assert "added 1" in out and "conflict 67003B51C6" in out and "kept ours" in out
    assert TagTable.load(tmp_path / "tags.json").lookup("67003B51C6") == eiffel

    assert cli.main([*data, "enroll", "--forget", "04A1B2C3"]) == 0
    assert cli.main([*data, "enroll", "--forget", "04A1B2C3"]) == 1


def test_enroll_refuses_to_overwrite_without_replace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = ["--data-dir", str(tmp_path)]
    assert cli.main([*data, "enroll", "--game", "g", "--piece", "a", "--uid", "0102030405"]) == 0
    assert cli.main([*data, "enroll", "--game", "g", "--piece", "b", "--uid", "0102030405"]) == 1
    assert "already enrolled as a" in capsys.readouterr().out
    assert cli.main([*data, "enroll", "--game", "g", "--piece", "b", "--uid", "0102030405", "--replace"]) == 0
    assert TagTable.load(tmp_path / "tags.json").lookup("0102030405") == Piece("g", "b")


def test_enroll_a_batch_from_a_simulated_nfc_reader(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "pieces.json"
    batch.write_text(json.dumps([{"game": "g", "piece": "a", "label": "A"}, {"game": "g", "piece": "b"}]), "utf-8")
    code = cli.main(["--data-dir", str(tmp_path), "enroll", "--batch", str(batch), "--reader", "nfc1",
                     "--simulate-tag", "04A1B2C3", "--timeout", "15"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 1, out  # the same simulated tag twice: the second piece is a conflict, not overwritten
    assert "Hold A on reader nfc1" in out and "Hold b on reader nfc1" in out
    assert TagTable.load(tmp_path / "tags.json").lookup("04A1B2C3") == Piece("g", "a", "A")


def test_bad_arguments_are_errors_not_crashes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--data-dir", str(tmp_path), "enroll", "--reader", "nope", "--game", "g", "--piece", "p"]) == 2
    assert "rfid1" in capsys.readouterr().err
    assert cli.main(["--data-dir", str(tmp_path), "enroll"]) == 2


def test_the_main_companion_command_offers_doctor(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["--data-dir", str(tmp_path), "doctor", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["pin_factory"] == "MockFactory"
