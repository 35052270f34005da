"""The table's voice (``hardware/voice.py``): Debian's espeak-ng into ALSA's aplay, and its stand-in.

Every announcement the games make (each different line of ``tests/games/speech_samples.py``) is
rendered by the real espeak-ng in every language and measured from the WAV itself (Python's
``wave`` module): speech, not silence and not a tone — loud enough, of a length that fits its
words, with the pauses and onsets of syllables. Played through the real aplay on ALSA's ``null``
device (this machine has no sound card); ``companion say`` and ``companion doctor`` as a person
types them."""

from __future__ import annotations

import array
import io
import itertools
import json
import math
import subprocess
import sys
import wave
from pathlib import Path

import pytest

from companion.app.i18n import LANGUAGES
from companion.app.readable import line
from hardware import cli
from hardware.voice import EspeakVoice, RecordingVoice, SilentVoice, VoiceError, amplitude, open_voice, report

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))
from speech_samples import distinct_lines

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)


def measure(wav: bytes) -> dict[str, float]:
    """Seconds, the loudest 20 ms (RMS of 16-bit samples), the share of 20 ms frames with sound (above
    a tenth of the loudest) and the onsets (a frame with sound after one without)."""
    with wave.open(io.BytesIO(wav)) as w:
        assert (w.getnchannels(), w.getsampwidth()) == (1, 2) and w.getframerate() >= 16000
        rate = w.getframerate()
        samples = array.array("h", w.readframes(10**9))  # espeak-ng streams: the header's length is a placeholder
    frame = rate // 50
    rms = [math.sqrt(sum(x * x for x in samples[i : i + frame]) / frame) for i in range(0, len(samples) - frame, frame)]
    loudest = max(rms, default=0.0)
    sound = [r > loudest / 10 for r in rms]
    onsets = sum(1 for a, b in itertools.pairwise(sound) if b and not a) + (1 if sound[:1] == [True] else 0)
    return {
        "seconds": len(samples) / rate,
        "loudest": loudest,
        "sound": sum(sound) / max(1, len(sound)),
        "onsets": onsets,
    }


def assert_speech(wav: bytes, text: str) -> dict[str, float]:
    m = measure(wav)
    words = len(text.split())
    assert m["loudest"] > 2000, (text, m)  # heard, not silence (at 80 %: about 10,000 of 32,767)
    assert 0.2 * words <= m["seconds"] <= 1.0 * words + 1.0, (text, m)  # about 0.3 to 0.6 s a word
    assert 0.35 <= m["sound"] <= 0.95, (text, m)  # words with pauses between them, not a tone
    assert m["onsets"] >= max(2, words // 4), (text, m)
    return m


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_announcement_is_spoken_in_every_language(lang: str) -> None:
    voice = EspeakVoice()
    lines = distinct_lines()
    assert len(lines) > 60
    seconds = []
    for _game, item in lines.values():
        text = line(item, lang)
        seconds.append(assert_speech(voice.render(text, lang, 80), text)["seconds"])
    assert max(seconds) < 8.0  # nothing the table says takes longer than a few breaths


def test_a_tone_and_silence_are_not_speech() -> None:
    """The measure tells speech from what a broken voice would give."""
    rate = 22050

    def wav(samples: list[int]) -> bytes:
        out = io.BytesIO()
        with wave.open(out, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(array.array("h", samples).tobytes())
        return out.getvalue()

    tone = [int(8000 * math.sin(2 * math.pi * 440 * i / rate)) for i in range(rate * 2)]
    with pytest.raises(AssertionError):
        assert_speech(wav(tone), "Mister X shows himself")
    with pytest.raises(AssertionError):
        assert_speech(wav([0] * rate * 2), "Mister X shows himself")


def test_the_voice_follows_the_language_and_the_volume() -> None:
    voice = EspeakVoice()
    text = "Mister X zeigt sich auf Station 54."
    german, english = voice.render(text, "de", 80), voice.render(text, "en", 80)
    assert german != english  # another voice, other sounds
    loud, soft = measure(voice.render(text, "de", 100)), measure(voice.render(text, "de", 30))
    assert soft["loudest"] < 0.5 * loud["loudest"]
    assert measure(voice.render(text, "de", 0))["loudest"] < 50
    assert [amplitude(v) for v in (0, 50, 100, 150, -5)] == [0, 75, 150, 150, 0]


def test_spoken_through_aplay_on_an_alsa_device_and_a_missing_device_is_a_clear_error() -> None:
    EspeakVoice(device="null").say("Mister X shows himself at station 54.", "en", 80)  # ALSA's null device
    with pytest.raises(VoiceError) as caught:
        EspeakVoice(device="no_such_card").say("Hello", "en", 80)
    assert caught.value.code == "voice.failed" and "no_such_card" in str(caught.value.params["detail"])
    with pytest.raises(VoiceError) as bad:
        EspeakVoice().render("Hello", "xx", 80)
    assert bad.value.params["program"] == "espeak-ng"


def test_the_stand_in_records_what_would_be_said(tmp_path: Path) -> None:
    record = tmp_path / "said.jsonl"
    voice = open_voice("record", record=str(record))
    assert isinstance(voice, RecordingVoice)
    voice.say("Mister X se montre à la station 54.", "fr", 60)
    voice.say("Gana Rojo.", "es", 60)
    assert [u.text for u in voice.said] == ["Mister X se montre à la station 54.", "Gana Rojo."]
    lines = [json.loads(raw) for raw in record.read_text("utf-8").splitlines()]
    assert lines == [
        {"text": "Mister X se montre à la station 54.", "lang": "fr", "volume": 60},
        {"text": "Gana Rojo.", "lang": "es", "volume": 60},
    ]


def test_auto_is_espeak_where_installed_and_silent_with_a_reason_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(open_voice("auto", device="null"), EspeakVoice)
    monkeypatch.setattr("hardware.voice.shutil.which", lambda name: None)
    silent = open_voice("auto")
    assert isinstance(silent, SilentVoice) and "espeak-ng" in silent.why
    with pytest.raises(VoiceError):
        silent.say("Hello", "en", 80)


def test_the_report_names_the_voice_the_device_and_a_voice_for_every_language() -> None:
    data = report(EspeakVoice(device="plughw:CARD=Headphones"), LANGUAGES)
    assert data["voice"] == "espeak" and data["device"] == "plughw:CARD=Headphones"
    assert data["espeak"] and data["player"]
    assert set(data["voices"]) == set(LANGUAGES) and all(data["voices"].values()), data["voices"]
    assert "German (gmw/de)" in data["voices"]["de"]
    assert any("sound card" in p for p in data["problems"]) == (data["cards"] == [])


# -- the command line --------------------------------------------------------------------------------


def test_companion_say_writes_speech_in_the_language_asked_for(tmp_path: Path) -> None:
    out = tmp_path / "check.wav"
    assert cli.main(["say", "Mister X se montre à la station 54.", "--lang", "fr", "--wav", str(out)]) == 0
    assert_speech(out.read_bytes(), "Mister X se montre à la station 54.")
    assert out.read_bytes() == EspeakVoice().render("Mister X se montre à la station 54.", "fr", 80)


def test_companion_say_through_the_main_command_with_the_configured_voice(tmp_path: Path) -> None:
    record = tmp_path / "said.jsonl"
    config = tmp_path / "companion.toml"
    config.write_text(f'[speech]\nvoice = "record"\nrecord = "{record}"\n', "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "--config", str(config), "say", "Hallo Tisch", "--lang", "de",
         "--volume", "40"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(record.read_text("utf-8")) == {"text": "Hallo Tisch", "lang": "de", "volume": 40}


def test_companion_say_refuses_clearly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["say", "Hello", "--lang", "xx"]) == 2
    assert "en, de, es, fr" in capsys.readouterr().err
    assert cli.main(["say", "Hello", "--volume", "101"]) == 2
    assert cli.main(["say", "Hello", "--device", "no_such_card"]) == 1
    err = capsys.readouterr().err
    assert "could not speak" in err and "no_such_card" in err


def test_doctor_reports_the_voice_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "companion.toml"
    config.write_text('[speech]\ndevice = "plughw:CARD=Device"\n', "utf-8")
    assert cli.main(["--config", str(config), "--data-dir", str(tmp_path), "doctor", "--json"]) == 0
    voice = json.loads(capsys.readouterr().out)["voice"]
    assert (voice["voice"], voice["device"]) == ("espeak", "plughw:CARD=Device")
    assert all(voice["voices"][lang] for lang in LANGUAGES)
    assert cli.main(["--config", str(config), "--data-dir", str(tmp_path), "doctor"]) == 0
    out = capsys.readouterr().out
    assert "Voice: espeak on ALSA device plughw:CARD=Device" in out and "voice for de: German" in out
