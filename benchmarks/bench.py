"""Companion's benchmark — ``make bench`` — run by hand, never by the tests.

    .venv/bin/python benchmarks/bench.py [--dir DIR] [--json FILE] [--only P1,P6] [--quick]

Every figure is a ratio against a floor measured in the same run, floor and project samples
alternating, so a busy machine slows both sides alike:

- P1  intent → committed → views published, over a bare SQLite commit (WAL, synchronous=FULL)
      of a similar row plus one event loop hop (``commit.py``);
- P3  ``companion run`` cold start to its first frame, over a bare Kivy hello app (``startup.py``);
- P4  peak memory on the start screen, over the same hello app;
- P6  opening a 10,000-event game from its SQLite file, over a raw read of its rows (``opening.py``);
- P7  intent → the last of 6 phones updated, over → 1 phone (``fanout.py``);
- P8  one action late in a long game, over one early in it (``actions.py``);

and, not ratios but absolute times against the targets of issue 25 (``touchscreen.py``):

- P9  the touchscreen's main-thread CPU per table-screen update after one action, per game
      (target: median ≤ 10 ms, p90 ≤ 25 ms, max ≤ 50 ms);
- P10 a tap on an acting button → the frame that shows its result, wall time, with the app
      capped to one Raspberry Pi 4 core (``pispeed.py``; needs root, else uncapped and said so;
      target: median ≤ 100 ms); with both, a phone's wait for an action's state;

and the evening (``evening.py``): the three games back to back at Pi speed (when it can be
capped), phones acting, a language switch, the history screen, a saved game reopened, the host
page open, and every pause of the touchscreen's loop with its cause (target: none over 100 ms
during play, less the buffer swaps), start-up to the first frame and to phones joining.

It prints a Markdown table (medians and p99 over all rounds, the machine and its load named) and
writes the same as JSON. ``--dir`` puts the SQLite files on the disk to measure (a Pi's SD card
rather than /tmp): P1's floor is then that card's commit time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import common
from common import Ratio

TARGETS = ("P1", "P3", "P4", "P6", "P7", "P8", "P9", "P10", "EVENING")
TOUCH = {"P9": (10.0, 25.0, 50.0), "P10": (100.0, None, None)}  # ms: median, p90, max


def run(ids: set[str], folder: Path, quick: bool, say: Callable[[str], None]) -> list[Ratio]:
    import workloads

    scale = 0.25 if quick else 1.0

    def n(count: int) -> int:
        return max(3, int(count * scale))

    results: list[Ratio] = []
    if "P1" in ids:
        say("P1: commits through the table and bare SQLite commits ...")
        import commit

        results.append(commit.measure(folder, rounds=n(4), pairs=n(250)))
    if "P8" in ids:
        say("P8: actions early and late in long games ...")
        import actions

        vm = workloads.full_game("victorian_masterminds", 1000)
        results.append(actions.measure("Victorian Masterminds", vm, pairs=n(120)))
        toy = workloads.play("toy", 10_000 if not quick else 2000, seed=2, undo=0.1)
        results.append(actions.measure("toy game", toy, pairs=n(200)))
    if "P6" in ids:
        say("P6: opening 10,000-event games from their files ...")
        import opening

        events = 10_000 if not quick else 2000
        for label, name in (("Scotland Yard", "scotland_yard"), ("toy game", "toy")):
            played = workloads.long_game(name, events)
            results.append(opening.measure(folder, label, played, pairs=n(15)))
    if "P7" in ids:
        say("P7: fan-out to 6 phones and to 1 over real web sockets ...")
        import fanout

        results.append(fanout.measure(folder, rounds=n(3), pairs=n(150)))
    if ids & {"P3", "P4"}:
        say("P3/P4: cold starts of companion run and of a bare Kivy app under Xvfb ...")
        import startup

        p3, p4 = startup.measure(folder / "startup", pairs=n(8))
        results += [r for r in (p3, p4) if r.id in ids]
    return results


def tracker_cost() -> dict[str, Any]:
    """Not a ratio: the Scotland Yard tracker's step after each Mister X move, over real random games."""
    from drivers import DRIVERS, reference_run

    from companion.core import Undone, fold
    from companion.games.scotland_yard import tracker
    from companion.games.scotland_yard.model import XMoved

    rules_name, config, _ = DRIVERS["scotland_yard"]
    rng = random.Random(9)
    samples: list[float] = []
    while len(samples) < 2000:
        g = reference_run(rules_name, config, rng.randrange(1 << 30), rng.randrange(1 << 30), past_seq=10**9)
        undone = {e.event.target for e in g.entries if isinstance(e.event, Undone)}
        state = g.start
        for entry in g.entries:
            if entry.action in undone or isinstance(entry.event, Undone):
                continue
            if isinstance(entry.event, XMoved):
                occupied = {p for p in state.positions if p}
                t0 = time.perf_counter()
                tracker.after_x_move(state.board, state.candidates, entry.event.ticket, occupied)
                samples.append(time.perf_counter() - t0)
            state = g.rules.apply(state, entry.event)
        assert state == fold(g.rules, g.start, g.entries)
    return {
        "what": "Scotland Yard tracker, one step after a Mister X move",
        "median_ms": round(statistics.median(samples) * 1000, 4),
        "p99_ms": round(common.percentile(samples, 99) * 1000, 4),
        "n": len(samples),
    }


def touchscreen_rows(ids: set[str], folder: Path, quick: bool, say: Callable[[str], None]) -> list[dict[str, Any]]:
    """P9 and P10, per game: the measure's median, p90 and max (ms) and the phone's wait."""
    import touchscreen

    rows: list[dict[str, Any]] = []
    actions = "40" if quick else "150"
    for id_, mode in (("P9", "updates"), ("P10", "taps")):
        if id_ not in ids:
            continue
        say(f"{id_}: the touchscreen, {mode}, every game ...")
        argv = ["--mode", mode, "--actions", actions, "--keep", str(folder / id_)]
        capped = False
        if id_ == "P10":
            import pispeed

            capped = pispeed.unavailable() is None
            argv += ["--pi"] if capped else []
        report = touchscreen.run(touchscreen.parser().parse_args(argv))
        for game, (label, _) in touchscreen.GAMES.items():
            got = report[game]
            measure = got["frame"] if id_ == "P9" else got.get("tap_action", got.get("tap_local"))
            if measure is None:
                continue
            target = TOUCH[id_]
            met = all(t is None or measure[k] <= t for k, t in zip(("median", "p90", "max"), target, strict=True))
            rows.append(
                {
                    "id": id_,
                    "game": label,
                    "pi": capped,
                    "calibration": report.get("calibration_text", ""),
                    **{k: measure[k] for k in ("n", "median", "p90", "max")},
                    "phone": got.get("phone"),
                    # less the buffer swaps within it (Mesa's software renderer here; a Pi's GPU draws)
                    "without_swaps": got.get("tap_action_without_swaps", got.get("tap_local_without_swaps")),
                    "target": target,
                    "met": met,
                }
            )
    return rows


def touchscreen_markdown(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| id | measure | game | median | p90 | max | less the buffer swaps: median / p90 "
        "| phone waits: median / max | target | met |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        what = (
            "touchscreen CPU per table-screen update"
            if r["id"] == "P9"
            else "tap → frame showing its result" + (" (Pi 4 speed)" if r["pi"] else " (uncapped: no cgroup)")
        )
        phone = f"{r['phone']['median']:.3g} / {r['phone']['max']:.3g} ms" if r["phone"] else "–"
        bare = r.get("without_swaps")
        swaps = f"{bare['median']:.3g} / {bare['p90']:.3g} ms" if bare else "–"
        target = ", ".join(f"{k} ≤ {t:g} ms" for k, t in zip(("median", "p90", "max"), r["target"], strict=True) if t)
        lines.append(
            f"| {r['id']} | {what} | {r['game']} | {r['median']:.3g} ms | {r['p90']:.3g} ms | {r['max']:.3g} ms "
            f"| {swaps} | {phone} | {target} | {'yes' if r['met'] else '**no**'} |"
        )
    calibrations = {r["calibration"] for r in rows if r["calibration"]}
    lines += [f"\n{c}" for c in calibrations]
    return "\n".join(lines)


def fmt(value: float, unit: str) -> str:
    if unit == "MB":
        return f"{value / 2**20:.0f} MB"
    ms = value * 1000
    return f"{ms:.3g} ms" if ms < 100 else f"{ms:.0f} ms"


def markdown(results: list[Ratio], info: dict[str, Any]) -> str:
    m = info["machine"]
    lines = [
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory_mb']:,} MB; {m['system']}; Python {m['python']}, "
        f"SQLite {m['sqlite']}, Kivy {m['kivy']}; disk {m['disk']}.",
        f"Load average (1/5/15 min) before: {'/'.join(map(str, info['load_before']))}, "
        f"after: {'/'.join(map(str, info['load_after']))}; {info['seconds']:.0f} s.",
        "",
        "| id | measure | floor: median / p99 | project: median / p99 | ratio median | ratio p99 | target | met |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        u = r.unit
        lines.append(
            f"| {r.id} | {r.measure} | {fmt(r.floor.median, u)} / {fmt(r.floor.p99, u)} "
            f"| {fmt(r.project.median, u)} / {fmt(r.project.p99, u)} | {r.ratio_median:.2f}× | {r.ratio_p99:.2f}× "
            f"| {r.target_text()} | {'yes' if r.met else '**no**'} |"
        )
    lines.append("")
    lines += [f"- {r.id}: {r.note}." for r in results if r.note]
    lines.append("")
    lines.append("Floors: " + "; ".join(dict.fromkeys(f"{r.id}: {r.floor_name}" for r in results)) + ".")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", help="directory on the disk to measure (default: a temporary one)")
    parser.add_argument("--json", default=str(common.ROOT / "artifacts" / "bench.json"), help="where to write JSON")
    parser.add_argument("--only", help=f"comma-separated ids out of {','.join(TARGETS)} (default: all)")
    parser.add_argument("--keep", action="store_true", help="keep the SQLite files and logs (prints where)")
    parser.add_argument("--quick", action="store_true", help="fewer samples: a smoke run, not a measurement")
    args = parser.parse_args(argv)
    ids = set(TARGETS) if not args.only else {x.strip().upper() for x in args.only.split(",")}
    unknown = ids - set(TARGETS)
    if unknown:
        parser.error(f"unknown ids: {', '.join(sorted(unknown))}")

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    started = time.monotonic()
    load_before = common.load()
    if args.keep:
        folder = Path(tempfile.mkdtemp(dir=args.dir, prefix="companion-bench-"))
        say(f"files and logs kept in {folder}")
        info: dict[str, Any] = {"machine": common.machine(folder), "load_before": load_before}
        results = run(ids, folder, args.quick, say)
        touch = touchscreen_rows(ids, folder, args.quick, say)
    else:
        with tempfile.TemporaryDirectory(dir=args.dir, prefix="companion-bench-") as tmp:
            folder = Path(tmp)
            info = {"machine": common.machine(folder), "load_before": load_before}
            results = run(ids, folder, args.quick, say)
            touch = touchscreen_rows(ids, folder, args.quick, say)
    evening_text = ""
    if "EVENING" in ids:
        say("the evening: every pause of the touchscreen's loop ...")
        import evening
        import pispeed

        argv = ["--actions", "12" if args.quick else "40"] + (["--keep", str(folder / "evening")] if args.keep else [])
        argv += ["--pi"] if pispeed.unavailable() is None else []
        evening_text = evening.text(evening.measure(evening.parser().parse_args(argv)))
    extra = tracker_cost() if not args.only else None
    info.update(load_after=common.load(), seconds=time.monotonic() - started, quick=args.quick)
    if results:
        print(markdown(results, info))
    if touch:
        print("\n" + touchscreen_markdown(touch))
    if evening_text:
        print("\nThe evening:\n" + evening_text)
    if extra:
        print(f"\nAlso: {extra['what']}: median {extra['median_ms']} ms, p99 {extra['p99_ms']} ms (n={extra['n']}).")
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    document = {
        **info,
        "results": [r.as_json() for r in results],
        "touchscreen": touch,
        "extra": [extra] if extra else [],
    }
    out.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    say(f"written: {out}")
    return 0 if all(r.met for r in results) and all(r["met"] for r in touch) else 1


if __name__ == "__main__":
    sys.exit(main())
