"""``companion doctor`` and ``companion enroll``.

The main ``companion`` command calls :func:`add_commands` with its subparsers; each command
is then called as ``func(args, config)`` with the app's loaded configuration (anything with
``hardware``, ``path`` and ``tags_path`` attributes). Without a configuration file the
commands run on a simulated demo box, so they work on any desktop.

    companion doctor [--json] [--watch] [--seconds N] [--simulate]
    companion enroll --reader R --game G --piece P [--label L] [--replace] [--timeout S] [--simulate-tag UID]
    companion enroll --batch FILE --reader R          (a JSON list of {"game", "piece", "label"})
    companion enroll --list | --forget UID | --export FILE | --import FILE [--prefer theirs]
    companion say TEXT [--lang L] [--volume N] [--device D] [--wav FILE]   (the speaker check)

Standalone: ``python -m hardware.cli [--config FILE] [--data-dir DIR] doctor|enroll ...``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import queue
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.app.i18n import error_text, text
from hardware.config import HardwareConfig, HardwareConfigError, parse_hardware
from hardware.enrollment import EnrollmentSession, EnrollResult, Piece, TagTable, TagTableError
from hardware.events import ButtonHeld, ButtonPressed, ButtonReleased, HardwareEvent, ReaderStatus, TagGone, TagSeen

if TYPE_CHECKING:  # the drivers (gpiozero, serial) load only for a command that uses them
    from hardware.system import Hardware

# What a desktop without a configuration file gets: every kind of part, all simulated.
DEMO_CONFIG: dict[str, Any] = {
    "mode": "simulated",
    "buttons": [
        {"role": "confirm", "pin": 17},
        {"role": "undo", "pin": 27},
        {"role": "next", "pin": 22},
    ],
    "seat_lights": {"p1": 23, "p2": 24},
    "buzzer": {"pin": 18},
    "tracks": [{"track": "secret_service", "pins": [16, 20, 21, 26], "maximum": 12}],
    "readers": [
        {"name": "rfid1", "type": "rdm6300", "port": "simulated"},
        {"name": "nfc1", "type": "pn532", "port": "simulated"},
    ],
}

Command = Callable[[argparse.Namespace, Any], int]


@dataclasses.dataclass(frozen=True)
class Settings:
    hardware: Mapping[str, Any]
    config_path: str | None
    tags_path: Path | None
    demo: bool
    speech: Any = None  # the configuration's [speech] (companion.app.config.SpeechConfig)


def settings(config: Any) -> Settings:
    """What the commands need from the app's configuration object (or None)."""
    path = getattr(config, "path", None)
    hardware = getattr(config, "hardware", None) or {}
    tags_path = getattr(config, "tags_path", None)
    demo = path is None and not hardware
    speech = getattr(config, "speech", None)
    return Settings(DEMO_CONFIG if demo else hardware, None if path is None else str(path), tags_path, demo, speech)


def add_commands(subparsers: Any) -> None:
    """Add ``doctor`` and ``enroll`` to the ``companion`` command's subparsers."""
    p = subparsers.add_parser("doctor", help="hardware diagnostics: pins, buttons, readers, last tags")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--watch", action="store_true", help="then print every button and tag event until Ctrl-C")
    p.add_argument("--seconds", type=float, default=None, help="watch for this many seconds, then report again")
    p.add_argument("--simulate", action="store_true", help="use the simulated twins whatever the configuration says")
    p.set_defaults(func=cmd_doctor)

    p = subparsers.add_parser("say", help="the speaker check: say TEXT through the table's voice ([speech])")
    p.add_argument("text", help='what to say, e.g. "Mister X zeigt sich auf Station 54"')
    p.add_argument("--lang", dest="voice_lang", metavar="LANG", help="the voice's language (default: the table's)")
    p.add_argument("--volume", type=int, default=None, help="0..100 %% (default: 80)")
    p.add_argument("--device", help="the ALSA device to play on (default: [speech] device; `aplay -L` lists them)")
    p.add_argument("--wav", metavar="FILE", help="write the words to this WAV file instead of playing them")
    p.set_defaults(func=cmd_say)

    p = subparsers.add_parser("enroll", help="teach the box which tag is which game piece")
    action = p.add_mutually_exclusive_group()
    action.add_argument("--list", action="store_true", help="list enrolled tags")
    action.add_argument("--forget", metavar="UID", help="forget one tag")
    action.add_argument("--export", metavar="FILE", help="write the table to FILE (to share it)")
    action.add_argument("--import", dest="import_file", metavar="FILE", help="merge a shared table")
    action.add_argument("--batch", metavar="FILE", help='enroll a JSON list of {"game", "piece", "label"} in turn')
    p.add_argument("--prefer", choices=("ours", "theirs"), default="ours", help="--import: who wins a conflict")
    p.add_argument("--reader", help="the reader to hold the tag on (its name in the configuration)")
    p.add_argument("--game", help="e.g. victorian_masterminds")
    p.add_argument("--piece", help="e.g. building:paris:monument")
    p.add_argument("--label", default="", help='what people call it, e.g. "Eiffel Tower"')
    p.add_argument("--uid", help="record this uid directly instead of reading a tag")
    p.add_argument("--replace", action="store_true", help="re-enroll a tag that is already another piece")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for each tag (default 60)")
    p.add_argument("--simulate-tag", metavar="UID", help="with a simulated reader: place this tag on it")
    p.add_argument("--simulate", action="store_true", help="use the simulated twins whatever the configuration says")
    p.set_defaults(func=cmd_enroll)


# --------------------------------------------------------------------------- doctor


def wait_for_readers(hw: Hardware, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(r.info().status != "starting" for r in hw.readers.values()):
            return
        time.sleep(0.05)


def describe_event(event: HardwareEvent, tags: TagTable | None) -> str:
    if isinstance(event, ButtonPressed | ButtonHeld):
        verb = "pressed" if isinstance(event, ButtonPressed) else "held"
        return f"button {event.name} ({event.role}) {verb}"
    if isinstance(event, ButtonReleased):
        return f"button {event.name} ({event.role}) released" + (" after a long press" if event.held else "")
    if isinstance(event, TagSeen | TagGone):
        piece = tags.lookup(event.uid) if tags is not None else None
        what = f"{piece.title} [{piece.game}/{piece.piece}]" if piece else "unknown tag"
        verb = "placed on" if isinstance(event, TagSeen) else "gone from"
        return f"tag {event.uid} ({what}) {verb} {event.reader}"
    assert isinstance(event, ReaderStatus)
    return f"reader {event.reader}: {event.status} {event.detail}".rstrip()


def _tags(s: Settings) -> TagTable | None:
    return TagTable.load(s.tags_path) if s.tags_path is not None else None


def cmd_doctor(args: argparse.Namespace, config: Any) -> int:
    s = settings(config)
    events: queue.Queue[HardwareEvent] = queue.Queue()
    tags = _tags(s)
    from hardware.system import build

    with build(s.hardware, events.put, mode="simulated" if args.simulate else None) as hw:
        wait_for_readers(hw, 2.0)
        _print_report(hw, tags, s, args.json)
        seconds = args.seconds if args.seconds is not None else (float("inf") if args.watch else 0.0)
        if seconds > 0:
            if not args.json:
                print("listening: press buttons, hold tags (Ctrl-C to stop)", file=sys.stderr)
            _watch(events, tags, seconds, args.json)
            if args.seconds is not None:
                _print_report(hw, tags, s, args.json)
    return 0


def _print_report(hw: Hardware, tags: TagTable | None, s: Settings, as_json: bool) -> None:
    from hardware.diagnostics import format_report, report

    data = report(hw, tags=tags, config_path=s.config_path)
    try:  # the appliance adds display/OpenGL and storage facts when the app is installed around us
        from companion.appliance import doctor as appliance
    except ImportError:
        appliance = None  # type: ignore[assignment]
    system = appliance.report(s.tags_path.parent if s.tags_path else None) if appliance else None
    data["voice"] = _voice_report(s)
    if as_json:
        print(json.dumps({**data, "system": system} if system else data, indent=1))
    else:
        from hardware.voice import format_report as voice_text

        text_report = format_report(data) + "\n" + voice_text(data["voice"])
        print(text_report + (f"\n{appliance.format_report(system)}" if appliance and system else ""))


def _voice_report(s: Settings) -> dict[str, Any]:
    """The voice output: the configured voice and device, the sound cards, the voices found."""
    from companion.app.i18n import LANGUAGES
    from hardware.voice import open_voice, report

    speech = s.speech
    voice = open_voice(speech.voice, speech.device, speech.record) if speech is not None else open_voice()
    return report(voice, LANGUAGES)


def _watch(events: queue.Queue[HardwareEvent], tags: TagTable | None, seconds: float, as_json: bool) -> None:
    from hardware.events import event_json

    deadline = time.monotonic() + seconds
    try:
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                event = events.get(timeout=min(remaining, 0.5))
            except queue.Empty:
                continue
            print(json.dumps(event_json(event)) if as_json else describe_event(event, tags), flush=True)
    except KeyboardInterrupt:
        pass


# --------------------------------------------------------------------------- say


def cmd_say(args: argparse.Namespace, config: Any) -> int:
    """Say ``args.text`` through the configured voice, whether speech is on or off at the table."""
    from companion.app.i18n import LANGUAGES
    from companion.app.preferences import SPEECH_VOLUME
    from hardware.voice import EspeakVoice, VoiceError, open_voice

    lang = args.voice_lang or getattr(args, "language", None) or getattr(config, "language", "en")
    if lang not in LANGUAGES:
        print(_say(args, "hardware.say.language", lang=lang, languages=", ".join(LANGUAGES)), file=sys.stderr)
        return 2
    volume = SPEECH_VOLUME if args.volume is None else args.volume
    if not 0 <= volume <= 100:
        print(_say(args, "hardware.say.volume"), file=sys.stderr)
        return 2
    speech = settings(config).speech
    kind, device = (speech.voice, speech.device) if speech is not None else ("auto", "")
    voice = open_voice(kind, args.device if args.device is not None else device, speech.record if speech else "")
    try:
        if args.wav:
            wav = (voice if isinstance(voice, EspeakVoice) else EspeakVoice()).render(args.text, lang, volume)
            Path(args.wav).write_bytes(wav)
        else:
            voice.say(args.text, lang, volume)
    except VoiceError as exc:
        print(error_text(exc, getattr(args, "language", "en") or "en", ("hardware",)), file=sys.stderr)
        return 1
    return 0


# --------------------------------------------------------------------------- enroll


def cmd_enroll(args: argparse.Namespace, config: Any) -> int:
    s = settings(config)
    if s.tags_path is None:
        raise TagTableError("hardware.tags.no_data_dir", "no data directory: give --data-dir")
    table = TagTable.load(s.tags_path)
    if args.list:
        for uid, piece in table.items():
            print(f"{uid:<22} {piece.game:<24} {piece.piece:<32} {piece.label}")
        print(f"{len(table)} tags in {table.path}", file=sys.stderr)
        return 0
    if args.forget:
        gone = table.forget(args.forget)
        print(f"forgot {args.forget} ({gone.title})" if gone else f"{args.forget} was not enrolled")
        return 0 if gone else 1
    if args.export:
        table.export(args.export)
        print(f"wrote {len(table)} tags to {args.export}")
        return 0
    if args.import_file:
        report = table.import_file(args.import_file, prefer=args.prefer)
        print(f"added {len(report.added)}, unchanged {len(report.unchanged)}, replaced {len(report.replaced)}")
        for c in report.conflicts:
            kept = "took theirs" if c.uid in report.replaced else "kept ours"
            print(
                f"conflict {c.uid}: ours {c.ours.title} [{c.ours.game}/{c.ours.piece}], "
                f"theirs {c.theirs.title} [{c.theirs.game}/{c.theirs.piece}] - {kept}"
            )
        return 1 if report.conflicts and args.prefer == "ours" else 0
    pieces = _pieces(args)
    if args.uid:
        if len(pieces) != 1:
            raise HardwareConfigError("enroll", "--uid records one piece: give --game and --piece")
        session = EnrollmentSession(table, args.reader or "-", pieces[0], replace=args.replace)
        return _finish(args, session, session.offer(TagSeen(session.reader, args.uid)))
    return _enroll_from_reader(args, s, table, pieces)


def _pieces(args: argparse.Namespace) -> list[Piece]:
    if args.batch:
        data = json.loads(Path(args.batch).read_text("utf-8"))
        if not isinstance(data, list):
            raise HardwareConfigError("enroll", "--batch FILE must hold a JSON list of pieces")
        try:
            return [Piece(d["game"], d["piece"], d.get("label", "")) for d in data]
        except (KeyError, TypeError) as exc:
            raise HardwareConfigError("enroll", f"--batch: every entry needs game and piece ({exc})") from None
    if not (args.game and args.piece):
        raise HardwareConfigError("enroll", "give --game and --piece (and --reader), or --list/--batch/...")
    return [Piece(args.game, args.piece, args.label)]


def _enroll_from_reader(args: argparse.Namespace, s: Settings, table: TagTable, pieces: list[Piece]) -> int:
    hc = parse_hardware(s.hardware)
    names = [r.name for r in hc.readers]
    reader = args.reader or (names[0] if len(names) == 1 else None)
    if reader not in names:
        raise HardwareConfigError("enroll", f"give --reader, one of: {', '.join(names) or '(no reader configured)'}")
    events: queue.Queue[HardwareEvent] = queue.Queue()
    worst = 0
    from hardware.system import build

    with build(_readers_only(hc, reader), events.put, mode="simulated" if args.simulate else None) as hw:
        wait_for_readers(hw, 3.0)
        info = hw.readers[reader].info()
        if info.status != "connected":
            status = _say(args, f"hardware.reader.{info.status}")
            warning = _say(args, "hardware.enroll.reader_warning", reader=reader, status=status, detail=info.detail)
            print(warning.rstrip(), file=sys.stderr)
        for piece in pieces:
            session = EnrollmentSession(table, reader, piece, replace=args.replace)
            print(_say(args, "hardware.enroll.prompt", **session.prompt_params) + " ...", flush=True)
            if args.simulate_tag:
                timer = threading.Timer(0.3, _place, (hw, reader, args.simulate_tag))
                timer.start()
            result = session.wait(events, args.timeout)
            if result is None:
                print(_say(args, "hardware.enroll.timeout", seconds=f"{args.timeout:g}"))
                return 1
            worst = max(worst, _finish(args, session, result))
            if args.simulate_tag:
                hw.simulator(reader).remove()
    return worst


def _say(args: argparse.Namespace, code: str, **params: Any) -> str:
    """Words of the hardware catalogue in the command line's language (``--lang``, else the
    configuration's)."""
    return text(code, params, getattr(args, "language", "en") or "en", ("hardware",))


def _readers_only(hc: HardwareConfig, reader: str) -> HardwareConfig:
    """Just the one reader: enrollment needs no GPIO and must not hold other ports."""
    readers = tuple(r for r in hc.readers if r.name == reader)
    return dataclasses.replace(hc, buttons=(), seat_lights=(), buzzer=None, tracks=(), readers=readers)


def _place(hw: Hardware, reader: str, uid: str) -> None:
    """Put a simulated tag on the reader once the previous placement has ended."""
    deadline = time.monotonic() + 5.0
    while hw.readers[reader].info().present and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        hw.simulator(reader).place(uid)
    except (KeyError, ValueError) as exc:
        print(f"cannot simulate: {exc}", file=sys.stderr)


def _finish(args: argparse.Namespace, session: EnrollmentSession, result: EnrollResult | None) -> int:
    assert result is not None
    piece = result.piece
    if result.status == "conflict" and result.previous is not None:
        old = result.previous
        print(_say(args, "hardware.enroll.conflict", uid=result.uid, label=old.title, game=old.game, piece=old.piece))
        yes = {w.strip().lower() for w in _say(args, "hardware.enroll.yes_words").split(",")}
        question = _say(args, "hardware.enroll.replace", label=piece.title)
        if sys.stdin.isatty() and input(question).strip().lower() in yes:
            result = session.confirm_replace()
        else:
            print(_say(args, "hardware.enroll.not_changed"))
            return 1
    if result.status == "already":
        print(_say(args, "hardware.enroll.already", uid=result.uid, label=piece.title))
    else:
        print(_say(args, "hardware.enroll.done", uid=result.uid, label=piece.title, game=piece.game, piece=piece.piece))
    if result.others:
        print(_say(args, "hardware.enroll.others", label=piece.title, uids=", ".join(result.others)))
    return 0


# --------------------------------------------------------------------------- standalone


def main(argv: Sequence[str] | None = None) -> int:
    from companion.app.config import load_config
    from companion.core.errors import CompanionError

    parser = argparse.ArgumentParser(prog="python -m hardware.cli", description="hardware diagnostics and enrollment")
    parser.add_argument("--config", help="configuration file (TOML)")
    parser.add_argument("--data-dir", help="where tags.json lives (overrides the configuration)")
    parser.add_argument("--lang", help="language of the answers (default: the configuration's)")
    sub = parser.add_subparsers(dest="command", required=True)
    add_commands(sub)
    args = parser.parse_args(argv)
    args.language = args.lang or "en"
    try:
        config = load_config(args.config)
        if args.data_dir:
            config = dataclasses.replace(config, data_dir=Path(args.data_dir))
        args.language = args.lang or config.language
        func: Command = args.func
        return func(args, config)
    except CompanionError as exc:
        print(f"companion: {error_text(exc, args.language, ('hardware',))} [{exc.code}]", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
