"""Pi-speed mode: run a measured process with its CPU capped to model ONE Raspberry Pi 4 core.

A Linux cgroup CPU quota lets a process run for ``quota`` microseconds of every ``period``; a
single-threaded process in such a group then does its work ``period / quota`` times slower in
wall time, spread evenly when the period is short (50 ms here, ``PERIOD_US``). The quota is *calibrated*: a
pure-Python workload with a published time on a Raspberry Pi 4 is measured on this machine
(thread CPU time, uncapped), and the quota is set so that the workload runs at the Pi's speed.

The published figure (see ``PI4``): the single-core CPU benchmark of Alex Dedyura's
``cpu-benchmark`` (https://github.com/alexdedyura/cpu-benchmark), whose README lists
"Raspberry Pi 4 | ARM | Ubuntu 22.04.3 LTS | 79.216s" (the row was added on 2024-01-12, commit
dc312ef; Ubuntu 22.04 ships CPython 3.10). Its workload at that time was a pure-Python loop of
float and integer arithmetic, 10,000 iterations per attempt, averaged over 10 attempts;
:func:`workload` is the same computation written here. Caveats: CPython 3.10 on the Pi against
this machine's CPython (3.11 runs such loops faster, so the cap models a Pi somewhat slower than
one running 3.11: on the safe side), and one workload for all kinds of Python code.

What to read under the cap: CPU-time counters (``time.thread_time``, ``time.process_time``) still
count this machine's CPU seconds — the cap only makes the process wait. The Pi's CPU seconds of
single-threaded work are the **wall time** it takes under the cap (``time.perf_counter``), when
the host has a free core; :meth:`Calibration.pi_seconds` converts host CPU seconds by the ratio,
as a cross-check (the two agree unless other processes crowd the host).

API::

    cal = pispeed.calibrate()                  # measure here, derive the quota (no cgroup needed)
    print(cal.describe())                      # figure, source, ratio, quota: print it with results
    reason = pispeed.unavailable()             # None, or why no cgroup can be made (e.g. not root)
    with pispeed.CpuCap(cal) as cap:           # a cgroup v1 cpu group with the quota
        proc = subprocess.Popen([...])
        cap.add(proc.pid)                      # that process (all its threads) now runs at Pi speed
        ...
    # or, inside a child process: pispeed.CpuCap.join(path) with the path of a CpuCap made by its parent

Command line: ``python benchmarks/pispeed.py`` prints the calibration and checks it (the workload
run again under the cap should take the Pi's time); ``python benchmarks/pispeed.py -- CMD ...``
runs a command under the cap.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from types import TracebackType

#: the cgroup v1 cpu controller (this machine's; cgroup v2 ``cpu.max`` is the same idea)
CGROUP_CPU = Path("/sys/fs/cgroup/cpu")
#: the group's weight against other processes (1024: one ordinary process)
SHARES = 16 * 1024
#: The quota's period. A short period spreads the throttling evenly (a 100 ms period runs the
#: process in bursts), but the kernel hands out quota in slices of
#: ``/proc/sys/kernel/sched_cfs_bandwidth_slice_us`` (5 ms by default): a quota below one slice
#: (1.7 ms of 10 ms here) was enforced loosely (checks 16 % fast), one above it held within 5 %.
PERIOD_US = 50_000


@dataclass(frozen=True)
class Figure:
    """A published time of :func:`workload` on a Raspberry Pi 4."""

    seconds: float
    iterations: int
    machine: str
    source: str


PI4 = Figure(
    seconds=79.216,
    iterations=10_000,
    machine="Raspberry Pi 4 (Cortex-A72), Ubuntu 22.04.3 LTS, CPython 3.10",
    source=(
        "github.com/alexdedyura/cpu-benchmark README, 'Benchmark Results (single core)', "
        "row 'Raspberry Pi 4' (commit dc312ef, 2024-01-12)"
    ),
)


def workload(iterations: int) -> None:
    """The published benchmark's computation: per iteration, multiply pi by 2**x for x < 1000,
    then divide x by pi and pi by x for x < 10000, in floats."""
    pi = 3.141592
    for _ in range(iterations):
        for x in range(1, 1000):
            pi * 2**x
        for x in range(1, 10000):
            float(x) / pi
        for x in range(1, 10000):
            float(pi) / x


def host_seconds(iterations: int = 300, repeats: int = 5) -> float:
    """This machine's thread CPU seconds for the published run (scaled from ``iterations``; best of
    ``repeats``, so other processes on the host disturb it least)."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.thread_time()
        workload(iterations)
        best = min(best, time.thread_time() - t0)
    return best * PI4.iterations / iterations


@dataclass(frozen=True)
class Calibration:
    host_seconds: float  # the published run's CPU time here
    pi_seconds_published: float
    ratio: float  # how many times slower a Pi 4 core runs it
    period_us: int
    quota_us: int
    machine: str
    source: str
    python: str
    checked_seconds: float | None = None  # the published run's wall time under the cap (scaled)

    def pi_seconds(self, host_cpu_seconds: float) -> float:
        """A Pi 4 core's CPU seconds for work that took ``host_cpu_seconds`` of CPU here."""
        return host_cpu_seconds * self.ratio

    def host_budget(self, pi_seconds: float) -> float:
        """This machine's CPU seconds that a Pi 4 core's ``pi_seconds`` correspond to."""
        return pi_seconds / self.ratio

    def describe(self) -> str:
        check = ""
        if self.checked_seconds is not None:
            check = f"; check under the cap: {self.checked_seconds:.1f} s (target {self.pi_seconds_published:.1f} s)"
        return (
            f"Pi-speed calibration: workload {self.pi_seconds_published:.3f} s on a {self.machine} "
            f"[{self.source}], {self.host_seconds:.3f} s CPU here (Python {self.python}): "
            f"a Pi 4 core is {self.ratio:.2f}x slower; cgroup cpu quota {self.quota_us} of {self.period_us} us"
            f"{check}"
        )

    def as_json(self) -> dict[str, object]:
        return asdict(self)


def calibrate(check: bool = False) -> Calibration:
    """Measure the workload here and derive the quota; with ``check``, run it again under the cap
    (needs :func:`unavailable` to be None) and record its wall time."""
    host = host_seconds()
    ratio = PI4.seconds / host
    quota = max(1000, round(PERIOD_US / ratio))
    cal = Calibration(host, PI4.seconds, ratio, PERIOD_US, quota, PI4.machine, PI4.source, platform.python_version())
    if check and unavailable() is None:
        # The kernel's quota enforcement is not exact: correct the quota by what the check
        # measures until the capped run is within 5 % of the Pi's time (at most 3 corrections;
        # the time reported is always the last quota's).
        for attempt in range(4):
            seconds = checked(cal)
            cal = Calibration(**{**asdict(cal), "checked_seconds": seconds})
            if abs(seconds / PI4.seconds - 1) <= 0.05 or attempt == 3:
                break
            quota = max(1000, round(cal.quota_us * seconds / PI4.seconds))
            cal = Calibration(**{**asdict(cal), "quota_us": quota})
    return cal


def unavailable() -> str | None:
    """Why no capped cgroup can be made here (``None``: it can)."""
    if not (CGROUP_CPU / "cpu.cfs_quota_us").exists():
        return f"no cgroup v1 cpu controller at {CGROUP_CPU}"
    if not os.access(CGROUP_CPU, os.W_OK):
        return f"{CGROUP_CPU} is not writable (run as root); numbers are uncapped"
    return None


class CpuCap:
    """A cgroup v1 cpu group whose quota models one Pi 4 core; removed on exit."""

    def __init__(self, cal: Calibration, name: str | None = None) -> None:
        self.cal = cal
        self.path = CGROUP_CPU / (name or f"companion-pispeed-{os.getpid()}")

    def __enter__(self) -> CpuCap:
        reason = unavailable()
        if reason:
            raise RuntimeError(reason)
        self.path.mkdir(exist_ok=True)
        (self.path / "cpu.cfs_period_us").write_text(str(self.cal.period_us))
        (self.path / "cpu.cfs_quota_us").write_text(str(self.cal.quota_us))
        # A high weight, so that other processes on the host take as little as possible of the
        # quota (the quota, not the host's load, should set the speed).
        (self.path / "cpu.shares").write_text(str(SHARES))
        return self

    def add(self, pid: int) -> None:
        """Move process ``pid`` (all its threads) into the group."""
        (self.path / "cgroup.procs").write_text(str(pid))

    @staticmethod
    def join(path: Path) -> None:
        """Move the calling process into the group at ``path`` (made by a parent's ``CpuCap``)."""
        (path / "cgroup.procs").write_text(str(os.getpid()))

    def throttled(self) -> tuple[int, float]:
        """Periods the group was throttled in, and for how many seconds in all."""
        stat = dict(line.split() for line in (self.path / "cpu.stat").read_text().splitlines())
        return int(stat.get("nr_throttled", 0)), int(stat.get("throttled_time", 0)) / 1e9

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        # Anything still inside goes back to the root group, then the group is removed.
        try:
            for pid in (self.path / "cgroup.procs").read_text().split():
                (CGROUP_CPU / "cgroup.procs").write_text(pid)
            self.path.rmdir()
        except OSError:
            pass


def cap_for(name: str) -> tuple[Calibration, CpuCap]:
    """A checked calibration (printed to stderr) and a cap made from it, for a benchmark that
    needs Pi speed (no cgroup: it stops, saying why)."""
    reason = unavailable()
    if reason:
        raise SystemExit(f"Pi speed: {reason}")
    cal = calibrate(check=True)
    print(cal.describe(), file=sys.stderr, flush=True)
    return cal, CpuCap(cal, f"{name}-{os.getpid()}")


def _timed_workload(path: str, iterations: int, out: multiprocessing.Queue[float]) -> None:
    CpuCap.join(Path(path))
    t0 = time.perf_counter()
    workload(iterations)
    out.put(time.perf_counter() - t0)


def checked(cal: Calibration, iterations: int = 400) -> float:
    """The published run's wall time (scaled) in a child process under the cap."""
    ctx = multiprocessing.get_context("fork")
    out: multiprocessing.Queue[float] = ctx.Queue()
    with CpuCap(cal, f"companion-pispeed-check-{os.getpid()}") as cap:
        child = ctx.Process(target=_timed_workload, args=(str(cap.path), iterations, out))
        child.start()
        wall = out.get()
        child.join()
    return wall * PI4.iterations / iterations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="*", help="a command to run under the cap (after --)")
    args = parser.parse_args()
    reason = unavailable()
    cal = calibrate(check=reason is None and not args.command)
    print(cal.describe())
    if reason:
        print(f"Pi-speed cap unavailable: {reason}")
        if args.command:
            sys.exit(subprocess.call(args.command))
        return
    if args.command:
        with CpuCap(cal) as cap:
            path = cap.path
            proc = subprocess.Popen(args.command, preexec_fn=lambda: CpuCap.join(path))  # capped from its start
            sys.exit(proc.wait())


if __name__ == "__main__":
    main()
