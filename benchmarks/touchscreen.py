"""P9 and P10: the touchscreen's own work, in the real app under Xvfb (800×480), through the real table.

- P9: the main thread's CPU time per table-screen update after one action (random legal play of
  each game, ``tests/drivers.py``): from the snapshot reaching the touchscreen to the end of the
  frame that shows it (absolute, against issue 25's targets: no floor). A game's last action,
  whose frame shows the end screen, is reported apart (``to_end_screen``), and every full garbage
  collection, inside an update or after it, under ``full_collections``; at the end one more,
  split into freeing what the last moves left and walking what lives (``last_collection``); and
  the wall time of every buffer swap (``buffer_swaps``: the loop waits there while the GL
  renderer finishes the frame — under Xvfb that is Mesa's software renderer on this machine's
  cores, which a Pi's GPU does instead).
- P10: a tap on a button of the table screen that acts → the frame that shows its result, wall
  time, with the app's CPU capped to model one Raspberry Pi 4 core (``--pi``: ``pispeed.py``).
- with either, a phone on one seat (``phone_probe.py``, its own process, not capped): the action
  submitted (or the finger lifted) → that phone holding the action's state, wall time — does the
  touchscreen's drawing make the phones wait?

Both run the app with ``ui_probe.py`` inside it (see there for what is measured exactly). ``code``
may name another checkout of the project (e.g. an export of an older commit) to measure it with
the same probe: ``python benchmarks/touchscreen.py --code /tmp/old --games scotland_yard``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import ROOT, percentile

HERE = Path(__file__).resolve().parent
GAMES = {
    "scotland_yard": ("Scotland Yard", "sy."),
    "victorian_masterminds": ("Victorian Masterminds", "vm."),
    "mykerinos": ("Mykerinos", "myk."),
}


def run_app(
    code: Path,
    folder: Path,
    display: str,
    probe: dict[str, Any],
    cgroup: Path | None = None,
    timeout: float = 1800.0,
) -> list[dict[str, Any]]:
    """The app (from ``code``) with the probe inside; its samples."""
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / "data"
    config = folder / "companion.toml"
    config.write_text(
        f'[server]\nhost = "127.0.0.1"\nport = 0\npublic_address = "127.0.0.1"\n'
        f'[table]\nlanguage = "{probe.get("language", "en")}"\ndata_dir = "{data}"\n'
    )
    out = folder / "samples.json"
    probe = {**probe, "out": str(out), "spawned": time.perf_counter()}  # the process's start (evening.py)
    (folder / "probe.json").write_text(json.dumps(probe))
    (folder / "kivy").mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "SDL_", "COMPANION_"))}
    env.update(
        DISPLAY=display,
        KIVY_NO_ARGS="1",
        KIVY_HOME=str(folder / "kivy"),
        KIVY_WINDOW="sdl2",
        KIVY_LOG_MODE="PYTHON",
        COMPANION_CONFIG=str(config),
        COMPANION_FULLSCREEN="0",
        COMPANION_BENCH_PROBE=str(folder / "probe.json"),
        PYTHONPATH=os.pathsep.join([str(code), str(code / "tests"), str(HERE)]),
    )
    module = "evening_probe" if probe.get("mode") == "evening" else "ui_probe"  # each sets up the probe it is
    command = [sys.executable, "-c", f"import sys, {module}; from companion.cli import main; sys.exit(main(['run']))"]
    preexec = None
    if cgroup is not None:
        import pispeed

        def preexec() -> None:
            pispeed.CpuCap.join(cgroup)  # capped from its first instruction

    with (folder / "app.log").open("wb") as log:
        proc = subprocess.Popen(command, cwd=code, env=env, stdout=log, stderr=log, preexec_fn=preexec)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise RuntimeError(f"the app did not finish; see {folder / 'app.log'}") from None
    if not out.exists():
        raise RuntimeError(f"the probe wrote nothing; see {folder / 'app.log'}")
    samples: list[dict[str, Any]] = json.loads(out.read_text())
    errors = [s["error"] for s in samples if "error" in s]
    if errors:
        raise RuntimeError(f"the probe failed:\n{errors[0]}")
    return samples


def summary(values: list[float]) -> dict[str, float]:
    ms = [v * 1000 for v in values]
    return {
        "n": len(ms),
        "median": round(statistics.median(ms), 2),
        "p90": round(percentile(ms, 90), 2),
        "max": round(max(ms), 2),
        "min": round(min(ms), 2),
    }


def updates(
    code: Path,
    folder: Path,
    display: str,
    games: list[str],
    actions: int,
    seed: int,
    shots: list[int] | None = None,
    profile: bool = False,
    cgroup: Path | None = None,
    profile_end: bool = False,
) -> list[dict[str, Any]]:
    probe = {
        "mode": "updates",
        "profile": str(folder / "profile.pstats") if profile else "",
        "profile_end": str(folder / "profile-end") if profile_end else "",
        "games": [{"rules": g, "actions": actions, "seed": seed, "shots": shots or []} for g in games],
        "shots_dir": str(folder / "shots") if shots else "",
    }
    if shots:
        (folder / "shots").mkdir(parents=True, exist_ok=True)
    return run_app(code, folder, display, probe, cgroup=cgroup)


def taps(
    code: Path, folder: Path, display: str, games: list[str], actions: int, seed: int, cgroup: Path | None
) -> list[dict[str, Any]]:
    probe = {
        "mode": "taps",
        "games": [{"rules": g, "actions": actions, "seed": seed, "prefix": GAMES[g][1]} for g in games],
    }
    return run_app(code, folder, display, probe, cgroup=cgroup)


def measure(args: argparse.Namespace, folder: Path, display: str, cgroup: Path | None) -> list[dict[str, Any]]:
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    code = Path(args.code)
    if args.mode == "updates":
        shots = [int(s) for s in args.shots.split(",") if s.strip()]
        return updates(
            code, folder, display, games, args.actions, args.seed, shots, args.profile, cgroup, args.profile_end
        )
    return taps(code, folder, display, games, args.actions, args.seed, cgroup)


def report_of(samples: list[dict[str, Any]], games: list[str], mode: str) -> dict[str, Any]:
    """Per game: P9 (``frame``: main-thread CPU per update; ``show``: the part in GameScreen.show)
    or P10 (``tap_action``, ``tap_local``: wall time, tap to frame), and ``phone``: the action
    submitted (or the finger lifted) → a phone holding its state, wall time."""
    report: dict[str, Any] = {}
    for game in games:
        mine = [s for s in samples if s.get("rules") == game and "kind" in s]
        row: dict[str, Any] = {}
        if mode == "updates":
            table = [s for s in mine if s.get("screen", "game") == "game"]
            row["frame"] = summary([s["frame"] for s in table])
            row["show"] = summary([s["show"] for s in table])
            ended = [s["frame"] for s in mine if s.get("screen", "game") != "game"]
            if ended:
                row["to_end_screen"] = summary(ended)  # the last action's frame shows the end screen
        else:
            for kind in ("tap_action", "tap_local"):
                lat = [s["latency"] for s in mine if s["kind"] == kind]
                if lat:
                    row[kind] = summary(lat)
                    # less the buffer swaps meanwhile: Mesa's software renderer here, a GPU on a Pi
                    rest = [s["latency"] - s.get("swapping", 0.0) for s in mine if s["kind"] == kind]
                    row[f"{kind}_without_swaps"] = summary(rest)
        phone = [s["phone"] for s in mine if "phone" in s]
        if phone:
            row["phone"] = summary(phone)
            # the same waits without the time a full collection held the loop meanwhile
            rest = [s["phone"] - s.get("phone_gc", 0.0) for s in mine if "phone" in s]
            row["phone_without_collections"] = summary(rest)
            row["phone_waits_with_a_collection"] = sum(1 for s in mine if s.get("phone_gc", 0.0) > 0)
            rest = [s["phone"] - s.get("phone_swapping", 0.0) for s in mine if "phone" in s]
            row["phone_without_swaps"] = summary(rest)
        report[game] = row
    return report


def run(args: argparse.Namespace) -> dict[str, Any]:
    """One run as the command line says; its report (also written to the folder, with the samples)."""
    sys.path.insert(0, str(ROOT / "tests" / "ui"))
    from driver import xvfb

    games = [g.strip() for g in args.games.split(",") if g.strip()]
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="companion-touch-"))
    report: dict[str, Any] = {"code": args.code, "mode": args.mode, "pi": args.pi}
    started = time.monotonic()
    with xvfb() as display:
        if args.pi:
            import pispeed

            cal, cpu_cap = pispeed.cap_for("companion-touch")
            report["calibration"] = cal.as_json()
            report["calibration_text"] = cal.describe()
            with cpu_cap as cap:
                samples = measure(args, folder, display, cap.path)
                report["throttled"] = cap.throttled()
        else:
            samples = measure(args, folder, display, None)
    report["seconds"] = round(time.monotonic() - started)
    report["objects"] = [s["objects"] for s in samples if s.get("kind") in ("gc_start", "gc")]  # start, end
    full = [t for s in samples if s.get("kind") == "gc_full" for t in s["seconds"]]
    report["full_collections"] = summary(full) if full else {"n": 0}  # in the updates or between them
    swaps = [t for s in samples if s.get("kind") == "swaps" for t in s["seconds"]]
    report["buffer_swaps"] = summary(swaps) if swaps else {"n": 0}  # wall time the loop waits in each flip
    for s in samples:  # one full collection at the end, in two parts: freeing the garbage, walking the rest
        if s.get("kind") == "gc_walk":
            report["last_collection"] = {
                "freed_objects": s["freed"],
                "freeing_ms": round(1000 * (s["freeing"] - s["walk"]), 1),
                "walk_ms": round(1000 * s["walk"], 1),
            }
    report.update(report_of(samples, games, args.mode))
    (folder / "report.json").write_text(json.dumps({"report": report, "samples": samples}, indent=1))
    print(f"kept in {folder}", file=sys.stderr)
    return report


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--code", default=str(ROOT), help="the checkout whose app is measured")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--actions", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", choices=("updates", "taps"), default="updates")
    parser.add_argument("--pi", action="store_true", help="cap the app's CPU to one Pi 4 core (pispeed.py; root)")
    parser.add_argument("--shots", default="", help="updates: steps to screenshot, e.g. 5,40,120")
    parser.add_argument("--profile", action="store_true", help="updates: cProfile them (folder/profile.pstats)")
    parser.add_argument(
        "--profile-end", action="store_true", help="updates: cProfile each game's end (folder/profile-end-SEQ.pstats)"
    )
    parser.add_argument("--keep", default="", help="a folder to keep the run in (screenshots, logs, samples)")
    return parser


def main(argv: list[str] | None = None) -> int:
    print(json.dumps(run(parser().parse_args(argv)), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
