"""The configuration file: the example parses with every section, and mistakes are clear errors."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion.app.config import ConfigError, SpeechConfig, load_config, parse_config

EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "companion.example.toml"


def test_the_example_configuration_parses_completely() -> None:
    config = load_config(EXAMPLE)
    assert config.path == EXAMPLE
    assert (config.language, config.port, config.host) == ("en", 8080, "0.0.0.0")
    assert config.hardware["mode"] == "auto"
    text = EXAMPLE.read_text("utf-8")
    assert (config.ai_cpu_budget, config.ai_thinking) == (0.5, 1.5)
    assert config.speech == SpeechConfig()  # the example shows the defaults
    for key in (
        "language",
        "data_dir",
        "ai_cpu_budget",
        "ai_thinking",
        "host",
        "port",
        "public_address",
        "ssid",
        "password",
        "voice",
        "device",
        "record",
        "speed",
    ):
        assert f"\n{key} = " in text


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"tabel": {}}, "config.unknown_section"),
        ({"table": {"langauge": "de"}}, "config.unknown_key"),
        ({"hotspot": {"ssid": "Box", "passwd": "x"}}, "config.unknown_key"),
        ({"table": {"language": "xx"}}, "config.language"),
        ({"server": {"port": "8080"}}, "config.value"),
        ({"server": {"port": 70000}}, "config.value"),
        ({"server": {"port": True}}, "config.value"),
        ({"table": []}, "config.section"),
        ({"table": {"ai_cpu_budget": 0}}, "config.value"),  # Mister X played by the table must get to think
        ({"table": {"ai_cpu_budget": "1"}}, "config.value"),
        ({"table": {"ai_thinking": -1}}, "config.value"),
        ({"table": {"ai_thinking": 61}}, "config.value"),
        ({"table": {"ai_thinking": True}}, "config.value"),
        ({"speech": {"voice": "festival"}}, "config.value"),
        ({"speech": {"speed": 500}}, "config.value"),
        ({"speech": {"device": 0}}, "config.value"),
        ({"speech": {"volume": 80}}, "config.unknown_key"),  # the volume is the table's setting, not the file's
    ],
)
def test_mistakes_are_refused_with_a_code(data: dict[str, object], code: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(data)
    assert info.value.code == code


def test_missing_and_broken_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path / "nope.toml")
    assert info.value.code == "config.missing"
    bad = tmp_path / "bad.toml"
    bad.write_text("[table\n")
    with pytest.raises(ConfigError) as info:
        load_config(bad)
    assert info.value.code == "config.syntax"
    good = tmp_path / "good.toml"
    good.write_text('[table]\nlanguage = "de"\ndata_dir = "~/games"\n')
    config = load_config(good)
    assert config.language == "de" and config.data_dir == Path("~/games").expanduser()
    assert tomllib.loads(good.read_text())["table"]["language"] == "de"


def test_the_table_players_settings() -> None:
    config = parse_config({"table": {"ai_cpu_budget": 2, "ai_thinking": 0}})
    assert (config.ai_cpu_budget, config.ai_thinking) == (2.0, 0.0)


def test_the_voice_settings() -> None:
    config = parse_config({"speech": {"voice": "record", "record": "/tmp/said.jsonl", "device": "null", "speed": 120}})
    assert config.speech == SpeechConfig("record", "null", "/tmp/said.jsonl", 120)
    assert parse_config({}).speech == SpeechConfig("auto", "", "", 150)
