"""An evening at the table at Pi speed, and every pause of the touchscreen's loop with its cause.

    .venv/bin/python benchmarks/evening.py [--pi] [--actions 40] [--rounds 1] [--keep DIR]
    .venv/bin/python benchmarks/evening.py --soak [--rounds 34]     # weeks without a restart

The real app (``companion run``) under Xvfb at 800×480, with ``evening_probe.py`` inside it (see
there for the evening: the three games back to back, phones acting over their web sockets, taps,
a language switch, the history screen, a saved game reopened, the host page open). With ``--pi``
its CPU is capped to one Raspberry Pi 4 core (``pispeed.py``; root).

It prints the pauses of the loop (a gap between two Kivy clock ticks beyond the frame time): how
many over 100 ms, 250 ms and 1 s, as measured and less the buffer swaps within them (under Xvfb
Mesa draws on this machine's CPU inside the swap; a Pi's GPU does that), apart those inside a
game's start (asking for it → its first frame) or a saved game's reopening; the longest five with
their causes; taps → frame (median, p90, max; less the swaps); process start → first frame and →
phones can join. ``--soak`` plays ``--rounds`` evenings in one process (3 games each) and prints
every ``--every`` games the process's memory, open files, threads, objects, Kivy's textures,
widgets and clock events, and the log's size (``--plot FILE`` draws them: Kivy, offscreen).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import ROOT, percentile

GAMES = ("scotland_yard", "victorian_masterminds", "mykerinos")
LIMITS = (0.100, 0.250, 1.0)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT / "tests" / "ui"))
    import touchscreen
    from driver import xvfb

    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="companion-evening-"))
    probe = {
        "mode": "evening",
        "games": list(GAMES),
        "actions": args.actions,
        "rounds": args.rounds,
        "every": args.every,
    }
    report: dict[str, Any] = {"pi": args.pi, "folder": str(folder)}
    started = time.monotonic()
    with xvfb() as display:
        if args.pi:
            import pispeed

            cal, cpu_cap = pispeed.cap_for("companion-evening")
            report["calibration"] = cal.describe()
            with cpu_cap as cap:
                samples = touchscreen.run_app(Path(args.code), folder, display, probe, cgroup=cap.path, timeout=14400)
        else:
            samples = touchscreen.run_app(Path(args.code), folder, display, probe, timeout=14400)
    report["seconds"] = round(time.monotonic() - started)
    by_kind = {s["kind"]: s for s in samples if "kind" in s}
    report["startup"] = by_kind.get("startup", {})
    report["collector"] = by_kind.get("collector", {})
    pauses = by_kind["pauses"]["pauses"]
    report["ticks"] = by_kind["pauses"]["ticks"]
    report["pauses"] = pauses
    report["taps"] = [s for s in samples if s.get("kind") == "tap_action"]
    report["soak"] = by_kind.get("soak", {}).get("rows", [])
    (folder / "evening.json").write_text(json.dumps(report, indent=1))
    return report


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def causes_of(pause: dict[str, Any], key: str) -> str:
    """A pause's three longest causes, and what no span explains (Kivy's layout, text textures,
    its other callbacks, the asyncio loop's other work)."""
    shown = [(c, t) for c, t in pause["causes"] if key == "pause" or not c.startswith("buffer swap")]
    rest = pause["pause"] - sum(t for _, t in pause["causes"])
    parts = [f"{c} {ms(t)}" for c, t in shown[:3]]
    if rest > 0.02:
        parts.append(f"in no span {ms(rest)}")
    return "; ".join(parts)


def text(report: dict[str, Any]) -> str:
    pauses = report["pauses"]
    play = [p for p in pauses if not p["window"]]
    starts = [p for p in pauses if p["window"]]
    lines = [report.get("calibration", "UNCAPPED: this machine's speed, not a Pi's")]
    up = report["startup"]
    if up:
        lines.append(
            f"start-up: process start → first frame {up['first_frame']:.2f} s, → phones can join "
            f"{up['phones_can_join']:.2f} s"
        )
    lines.append(f"loop ticks: {report['ticks']}; pauses of two frames or more: {len(pauses)}")
    lines.append("pauses over 100 ms / 250 ms / 1 s:")
    for label, chosen in (("during play", play), ("in a game's start or reopening", starts)):
        raw = [sum(1 for p in chosen if p["pause"] > limit) for limit in LIMITS]
        bare = [sum(1 for p in chosen if p["pause"] - p["swapping"] > limit) for limit in LIMITS]
        lines.append(
            f"  {label}: as measured {' / '.join(map(str, raw))}; less the buffer swaps {' / '.join(map(str, bare))}"
        )
    for label, key in (("as measured", "pause"), ("less the buffer swaps", "bare")):
        for p in pauses:
            p["bare"] = p["pause"] - p["swapping"]
        lines.append(f"longest five during play, {label}:")
        for p in sorted(play, key=lambda p: -p[key])[:5]:
            lines.append(f"  {ms(p[key])} on {p['screen']}: {causes_of(p, key)}")
    if starts:
        worst = max(starts, key=lambda p: p["pause"])
        lines.append(f"longest in a start: {ms(worst['pause'])} ({worst['window']}): {causes_of(worst, 'pause')}")
    taps = report["taps"]
    if taps:
        for label, values in (
            ("taps → frame", [t["latency"] for t in taps]),
            ("less the swaps", [t["latency"] - t["swapping"] for t in taps]),
        ):
            lines.append(
                f"{label} (n={len(values)}): median {ms(statistics.median(values))}, "
                f"p90 {ms(percentile(values, 90))}, max {ms(max(values))}"
            )
    collections = [c for p in play for c, _ in p["causes"] if c.startswith("gc generation 2")]
    lines.append(f"pauses during play that held a full collection: {len(collections)}")
    bare = sorted((p["pause"] - p["swapping"] for p in play), reverse=True)
    if bare:
        gcs = [p for p in play if any(c.startswith("gc generation 2") for c, _ in p["causes"])]
        worst_gc = max((p["pause"] - p["swapping"] for p in gcs), default=0.0)
        lines.append(f"longest pause during play holding a full collection, less the swaps: {ms(worst_gc)}")
    if report["collector"]:
        lines.append(f"collector: {json.dumps(report['collector'])}")
    if report["soak"]:
        keys = [k for k in report["soak"][0] if k != "games"]
        lines.append("games | " + " | ".join(keys))
        for row in report["soak"]:
            lines.append(f"{row['games']} | " + " | ".join(str(row[k]) for k in keys))
    lines.append(f"{report['seconds']} s; kept in {report['folder']}")
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--code", default=str(ROOT), help="the checkout whose app is measured")
    parser.add_argument("--pi", action="store_true", help="cap the app's CPU to one Pi 4 core (pispeed.py; root)")
    parser.add_argument("--actions", type=int, default=40, help="actions per game")
    parser.add_argument("--rounds", type=int, default=1, help="evenings in one process (3 games each)")
    parser.add_argument("--every", type=int, default=10, help="games between two soak samples")
    parser.add_argument("--soak", action="store_true", help="weeks without a restart: 34 rounds (102 games)")
    parser.add_argument("--plot", default="", help="with --soak: a PNG of the soak's figures")
    parser.add_argument("--keep", default="", help="a folder to keep the run in")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.soak and args.rounds == 1:
        args.rounds = 34
    report = measure(args)
    print(text(report))
    if args.plot and report["soak"]:
        import soakplot

        soakplot.draw(report["soak"], Path(args.plot))
        print(f"plot: {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
