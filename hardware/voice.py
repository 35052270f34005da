"""The table's voice: words spoken through the Pi's speaker, offline.

Real: :class:`EspeakVoice` — Debian's ``espeak-ng`` (voices for English, German, French and Spanish
in the package itself, nothing downloaded) renders the words to a WAV stream, and ALSA's ``aplay``
plays it on the configured device: ``""`` is the system's default (PipeWire on a Raspberry Pi OS
desktop, the default card on Lite), or a name ``aplay -L`` lists — the 3.5 mm jack, HDMI, a USB
speaker. Simulated twin: :class:`RecordingVoice` — a stand-in sink that records what would be said
(in memory, and one JSON line per utterance in a file when given one), used by the app tests and
the game-night test. :class:`SilentVoice` says nothing (``voice = "auto"`` where espeak-ng is not
installed) and tells why.

Every ``say`` blocks until the words are spoken (or fails with :class:`VoiceError`): callers run it
off the event loop (``companion.app.speech.Speaker``). Which voice runs is configuration
(``[speech] voice``), never code: :func:`open_voice`.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.core.errors import CompanionError

VOICES = ("auto", "espeak", "record")
SPEED = 150  # espeak-ng's default speed, words per minute
LOUDEST = 150  # espeak-ng's amplitude at volume 100 % (its default is 100; 200 clips its peaks)
TIMEOUT = 60.0  # seconds one utterance may take before its player is stopped


class VoiceError(CompanionError):
    default_code = "voice"


def _silence(seconds: float = 0.05, rate: int = 22050) -> bytes:
    """A WAV file of silence (16-bit mono): what a check plays."""
    data = bytes(2 * round(seconds * rate))
    header = b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt "
    header += struct.pack("<IHHIIHH", 16, 1, 1, rate, 2 * rate, 2, 16) + b"data" + struct.pack("<I", len(data))
    return header + data


SILENCE = _silence()


@dataclass(frozen=True)
class Utterance:
    text: str
    lang: str
    volume: int  # 0..100 %

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "lang": self.lang, "volume": self.volume}


def amplitude(volume: int) -> int:
    """espeak-ng's ``-a`` for a volume of 0..100 %."""
    return round(max(0, min(100, volume)) * LOUDEST / 100)


class EspeakVoice:
    """espeak-ng into ALSA's aplay. ``device``: an ALSA device name ("" for the default)."""

    kind = "espeak"

    def __init__(self, device: str = "", speed: int = SPEED, espeak: str | None = None, player: str | None = None):
        self.device = device
        self.speed = speed
        self.espeak = espeak or shutil.which("espeak-ng") or ""
        self.player = player or shutil.which("aplay") or ""

    def command(self, lang: str, volume: int) -> list[str]:
        if not self.espeak:
            raise VoiceError("voice.no_espeak", "espeak-ng is not installed (sudo apt install espeak-ng)")
        return [self.espeak, "-v", lang, "-a", str(amplitude(volume)), "-s", str(self.speed), "--stdout"]

    def render(self, text: str, lang: str, volume: int) -> bytes:
        """The words as a WAV file (16-bit mono, espeak-ng's 22,050 Hz)."""
        done = subprocess.run(
            self.command(lang, volume), input=text.encode("utf-8"), capture_output=True, timeout=TIMEOUT, check=False
        )
        if done.returncode != 0 or not done.stdout:
            why = _first_line(done.stderr) or f"exit status {done.returncode}"
            raise VoiceError("voice.failed", f"espeak-ng: {why}", program="espeak-ng", detail=why)
        return done.stdout

    def say(self, text: str, lang: str, volume: int) -> None:
        self.play(self.render(text, lang, volume))

    def check(self) -> None:
        """Can words be heard? espeak-ng is there and the device plays a twentieth of a second of
        silence (nobody hears the check); raises :class:`VoiceError` with ALSA's reason if not."""
        if not self.espeak:
            raise VoiceError("voice.no_espeak", "espeak-ng is not installed (sudo apt install espeak-ng)")
        self.play(SILENCE)

    def play(self, wav: bytes) -> None:
        if not self.player:
            raise VoiceError("voice.no_player", "aplay is not installed (sudo apt install alsa-utils)")
        command = [self.player, "-q", *(("-D", self.device) if self.device else ()), "-"]
        try:
            done = subprocess.run(command, input=wav, capture_output=True, timeout=TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            why = f"no end after {TIMEOUT:.0f} s"
            raise VoiceError("voice.failed", f"aplay: {why}", program="aplay", detail=why) from None
        except OSError as exc:
            raise VoiceError("voice.failed", f"aplay: {exc}", program="aplay", detail=str(exc)) from None
        if done.returncode != 0:
            why = _last_lines(done.stderr) or f"exit status {done.returncode}"  # ALSA's cause, then aplay's
            raise VoiceError("voice.failed", f"aplay: {why}", program="aplay", detail=why)

    def close(self) -> None:
        pass


class RecordingVoice:
    """The simulated twin: records what would be said (``said``), and appends one JSON line per
    utterance to ``path`` when given one (so a test can read what an app in another process said)."""

    kind = "record"

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path else None
        self.said: list[Utterance] = []
        self._lock = threading.Lock()

    def say(self, text: str, lang: str, volume: int) -> None:
        utterance = Utterance(text, lang, volume)
        with self._lock:
            self.said.append(utterance)
            if self.path is not None:
                with self.path.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(utterance.to_json(), ensure_ascii=False) + "\n")

    def check(self) -> None:
        """The stand-in sink always "hears"."""

    def close(self) -> None:
        pass


class SilentVoice:
    """Says nothing: no voice can speak here (``why``)."""

    kind = "silent"

    def __init__(self, why: str) -> None:
        self.why = why

    def say(self, text: str, lang: str, volume: int) -> None:
        raise VoiceError("voice.no_espeak", self.why)

    def check(self) -> None:
        raise VoiceError("voice.no_espeak", self.why)

    def close(self) -> None:
        pass


Voice = EspeakVoice | RecordingVoice | SilentVoice


def open_voice(kind: str = "auto", device: str = "", record: str = "", speed: int = SPEED) -> Voice:
    """The voice ``[speech]`` configures: ``espeak``, ``record`` (the stand-in sink, into the file
    ``record`` if given) or ``auto`` (espeak-ng where it is installed, else silence that says why)."""
    if kind == "record":
        return RecordingVoice(record or None)
    if kind == "espeak" or shutil.which("espeak-ng"):
        return EspeakVoice(device, speed)
    return SilentVoice("espeak-ng is not installed (sudo apt install espeak-ng alsa-utils)")


# -- what `companion doctor` says about it -----------------------------------------------------------


def _first_line(raw: bytes | str) -> str:
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


_WHERE = re.compile(r"^(?:ALSA lib \S+ |aplay: \w+:\d+: )")  # the source file and line ALSA and aplay put first


def _last_lines(raw: bytes, count: int = 2) -> str:
    """aplay's last lines, without where in ALSA's source they come from: "Unknown PCM speaker;
    audio open error: No such file or directory"."""
    lines = [_WHERE.sub("", line.strip()) for line in raw.decode("utf-8", "replace").splitlines() if line.strip()]
    return "; ".join(lines[-count:])


def _run(command: Sequence[str]) -> tuple[int, str]:
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return -1, str(exc)
    return done.returncode, done.stdout + done.stderr


def voices_for(espeak: str, lang: str) -> list[str]:
    """espeak-ng's own voices (not MBROLA's, which need another package) for ``lang``."""
    code, out = _run([espeak, f"--voices={lang}"])
    if code != 0:
        return []
    found = []
    for line in out.splitlines()[1:]:
        parts = line.split()
        if len(parts) >= 5 and not parts[4].startswith("mb/") and parts[1].split("-")[0] == lang:
            found.append(f"{parts[3]} ({parts[4]})")
    return found


def sound_cards(player: str) -> list[str]:
    """The sound cards ALSA knows (``aplay -l``): "card 0: Headphones [bcm2835 Headphones]"."""
    if not player:
        return []
    code, out = _run([player, "-l"])
    return [line.split(",")[0].strip() for line in out.splitlines() if line.startswith("card ")] if code == 0 else []


def report(voice: Voice, languages: Sequence[str]) -> dict[str, Any]:
    """The voice output for ``companion doctor``: which voice, the device, the sound cards, the
    voices found for each of the table's languages, and what is missing."""
    espeak = shutil.which("espeak-ng") or ""
    player = shutil.which("aplay") or ""
    problems = []
    voices = {lang: voices_for(espeak, lang) if espeak else [] for lang in languages}
    if not espeak:
        problems.append("espeak-ng is not installed (sudo apt install espeak-ng)")
    else:
        problems += [f"no espeak-ng voice for {lang}" for lang, found in voices.items() if not found]
    cards = sound_cards(player)
    if not player:
        problems.append("aplay is not installed (sudo apt install alsa-utils)")
    elif not cards:
        problems.append("ALSA finds no sound card: plug in a speaker (USB), or use HDMI or the 3.5 mm jack")
    if isinstance(voice, SilentVoice):
        problems.append(voice.why)
    return {
        "voice": voice.kind,
        "device": (voice.device or "default") if isinstance(voice, EspeakVoice) else None,
        "record": str(voice.path) if isinstance(voice, RecordingVoice) and voice.path else None,
        "espeak": espeak or None,
        "player": player or None,
        "cards": cards,
        "voices": voices,
        "problems": problems if voice.kind != "record" else [],
    }


def format_report(data: dict[str, Any]) -> str:
    lines = [f"Voice: {data['voice']}" + (f" on ALSA device {data['device']}" if data.get("device") else "")]
    if data.get("record"):
        lines.append(f"  recording what would be said to {data['record']}")
    lines.append(f"  sound cards: {', '.join(data['cards']) or 'none'}")
    for lang, found in data["voices"].items():  # espeak-ng -v <lang> speaks with the first
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        lines.append(f"  voice for {lang}: {found[0] + more if found else 'none'}")
    lines += [f"  problem: {p}" for p in data["problems"]]
    return "\n".join(lines)
