"""Editing the user's configuration file: values change, everything else stays."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.app.config import load_config
from companion.appliance.configfile import ConfigFileError, set_values, toml_string, update

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "deploy" / "companion.example.toml"
DEFAULT = ROOT / "deploy" / "companion.default.toml"


def test_the_example_keeps_every_comment_and_gets_the_data_dir() -> None:
    text = EXAMPLE.read_text("utf-8")
    new = set_values(text, "table", {"data_dir": "/var/lib/companion"})
    changed = [(a, b) for a, b in zip(text.splitlines(), new.splitlines(), strict=True) if a != b]
    assert changed == [('data_dir = ""', 'data_dir = "/var/lib/companion"')]
    assert tomllib.loads(new)["hardware"] == tomllib.loads(text)["hardware"]


def test_missing_key_goes_under_its_header_and_missing_section_at_the_end() -> None:
    text = '[table]\nlanguage = "de"  # Deutsch\n\n[[hardware.buttons]]\npin = 17\nrole = "confirm"\n'
    new = set_values(text, "table", {"data_dir": "/srv/c"})
    assert new.splitlines()[:3] == ["[table]", 'data_dir = "/srv/c"', 'language = "de"  # Deutsch']
    new = set_values(new, "hotspot", {"ssid": "Spiel", "password": ""})
    parsed = tomllib.loads(new)
    assert parsed["hotspot"] == {"ssid": "Spiel", "password": ""}
    assert parsed["hardware"]["buttons"] == [{"pin": 17, "role": "confirm"}]  # the array table is untouched


def test_a_value_with_a_trailing_comment_keeps_the_comment() -> None:
    new = set_values('[hotspot]\nssid = "old"   # the table\'s Wi-Fi\n', "hotspot", {"ssid": "new"})
    assert new == '[hotspot]\nssid = "new"  # the table\'s Wi-Fi\n'


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_any_string_round_trips(value: str) -> None:
    assert tomllib.loads("v = " + toml_string(value))["v"] == value
    assert tomllib.loads(set_values("[hotspot]\nssid = 'x'\n", "hotspot", {"password": value}))["hotspot"] == {
        "ssid": "x",
        "password": value,
    }


def test_a_file_that_would_break_is_refused() -> None:
    with pytest.raises(ConfigFileError) as caught:
        set_values('[table]\ndata_dir = """multi\nline"""\n', "table", {"data_dir": "/x"})
    assert caught.value.code == "appliance.configfile.syntax"


def test_update_keeps_mode_and_only_fills_empty_values(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text(DEFAULT.read_text("utf-8"))
    path.chmod(0o640)
    assert update(path, "table", {"data_dir": "/var/lib/companion"}, if_empty=True)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert load_config(path).data_dir == Path("/var/lib/companion")
    # an installer run after the user chose another place leaves it alone
    update(path, "table", {"data_dir": "/media/usb/companion"})
    assert not update(path, "table", {"data_dir": "/var/lib/companion"}, if_empty=True)
    assert load_config(path).data_dir == Path("/media/usb/companion")


def test_the_installers_command_line(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text(DEFAULT.read_text("utf-8"))
    command = [sys.executable, "-m", "companion.appliance.configfile", str(path), "table.data_dir=/var/lib/companion"]
    first = subprocess.run([*command, "--if-empty"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    again = subprocess.run([*command, "--if-empty"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert first.stdout.strip().endswith("updated") and again.stdout.strip().endswith("unchanged")
    assert load_config(path).data_dir == Path("/var/lib/companion")
    assert load_config(path).hardware == {"mode": "auto"}  # the default has no example pins
