"""What every measure shares: statistics, the result of one ratio, interleaving, the machine."""

from __future__ import annotations

import importlib.metadata
import math
import os
import platform
import sqlite3
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for folder in (ROOT, ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))


def percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of at least one sample."""
    ordered = sorted(samples)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Series:
    """The samples of one side of a ratio, in seconds (or bytes, for memory)."""

    samples: list[float] = field(default_factory=list)

    def add(self, value: float) -> None:
        self.samples.append(value)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def p99(self) -> float:
        return percentile(self.samples, 99)

    def as_json(self, unit: str) -> dict[str, Any]:
        scale = 1000.0 if unit == "ms" else 1.0
        return {
            "unit": unit,
            "n": len(self.samples),
            "median": round(self.median * scale, 4),
            "p99": round(self.p99 * scale, 4),
            "min": round(min(self.samples) * scale, 4),
            "max": round(max(self.samples) * scale, 4),
        }


@dataclass
class Ratio:
    """One row of the table: the project's measure over a floor measured in the same run."""

    id: str
    measure: str
    floor_name: str
    project_name: str
    target_median: float
    target_p99: float | None = None
    unit: str = "ms"  # "ms" for times, "MB" for memory
    floor: Series = field(default_factory=Series)
    project: Series = field(default_factory=Series)
    note: str = ""

    @property
    def ratio_median(self) -> float:
        return self.project.median / self.floor.median

    @property
    def ratio_p99(self) -> float:
        return self.project.p99 / self.floor.p99

    @property
    def met(self) -> bool:
        ok = self.ratio_median <= self.target_median
        if self.target_p99 is not None:
            ok = ok and self.ratio_p99 <= self.target_p99
        return ok

    def target_text(self) -> str:
        text = f"≤ {self.target_median:g}× median"
        if self.target_p99 is not None:
            text += f", ≤ {self.target_p99:g}× p99"
        return text

    def as_json(self) -> dict[str, Any]:
        unit = "ms" if self.unit == "ms" else "MB"
        return {
            "id": self.id,
            "measure": self.measure,
            "floor": {"what": self.floor_name, **self._series_json(self.floor, unit)},
            "project": {"what": self.project_name, **self._series_json(self.project, unit)},
            "ratio_median": round(self.ratio_median, 3),
            "ratio_p99": round(self.ratio_p99, 3),
            "target_median": self.target_median,
            "target_p99": self.target_p99,
            "met": self.met,
            "note": self.note,
        }

    @staticmethod
    def _series_json(series: Series, unit: str) -> dict[str, Any]:
        if unit == "MB":
            return Series([s / 2**20 for s in series.samples]).as_json("MB")
        return series.as_json("ms")


def interleaved(pairs: int, floor: Callable[[], float], project: Callable[[], float], ratio: Ratio) -> None:
    """Measure floor and project alternately (and alternately first), so load spikes hit both."""
    for i in range(pairs):
        if i % 2 == 0:
            ratio.floor.add(floor())
            ratio.project.add(project())
        else:
            ratio.project.add(project())
            ratio.floor.add(floor())


def cpu_model() -> str:
    """``model name`` on x86; on a Raspberry Pi, ``Model`` names the board."""
    fields: dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, sep, value = line.partition(":")
            if sep:
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    for key in ("Model", "model name", "Hardware"):
        if fields.get(key):
            return fields[key]
    return platform.processor() or platform.machine()


def memory_mb() -> int:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 0


def filesystem_of(path: Path) -> str:
    """The mount (device and type) that holds ``path``: the disk the commit figures belong to."""
    best = ("", "?", "?")
    try:
        for line in Path("/proc/mounts").read_text().splitlines():
            device, mount, kind = line.split()[:3]
            if str(path.resolve()).startswith(mount) and len(mount) >= len(best[0]):
                best = (mount, device, kind)
    except OSError:
        pass
    return f"{best[1]} ({best[2]}) on {best[0] or '?'}"


def machine(data_dir: Path) -> dict[str, Any]:
    try:
        kivy_version = importlib.metadata.version("kivy")  # without importing Kivy (it would read argv)
    except importlib.metadata.PackageNotFoundError:
        kivy_version = "not installed"
    return {
        "host": platform.node(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "memory_mb": memory_mb(),
        "system": platform.platform(),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "kivy": kivy_version,
        "disk": filesystem_of(data_dir),
    }


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]
