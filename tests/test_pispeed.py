"""The Pi-speed cap (``benchmarks/pispeed.py``): a real cgroup, a real capped process, no timing.

How fast the capped process runs is measured by the benchmarks (``make bench-ai
BENCH_AI_ARGS=--pi-speed`` prints the calibration and its check), never here; these tests check
that the group is made with the calibrated quota, that a process really runs inside it, that it
is removed afterwards, and that a machine without cgroups says so.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import pispeed


def calibration(quota: int = 25_000) -> pispeed.Calibration:
    return pispeed.Calibration(20.0, pispeed.PI4.seconds, 4.0, 100_000, quota, "Pi", pispeed.PI4.source, "3.11")


def test_the_ratio_converts_both_ways() -> None:
    cal = calibration()
    assert cal.pi_seconds(0.125) == 0.5 and cal.host_budget(0.5) == 0.125
    assert "quota 25000 of 100000 us" in cal.describe() and pispeed.PI4.source in cal.describe()


@pytest.mark.skipif(pispeed.unavailable() is not None, reason=str(pispeed.unavailable()))
def test_a_process_runs_inside_the_capped_group_which_is_removed_afterwards() -> None:
    with pispeed.CpuCap(calibration(), "companion-pispeed-test") as cap:
        assert (cap.path / "cpu.cfs_quota_us").read_text().strip() == "25000"
        assert (cap.path / "cpu.cfs_period_us").read_text().strip() == "100000"
        path = cap.path
        child = subprocess.run(
            [sys.executable, "-c", "print(open('/proc/self/cgroup').read())"],
            preexec_fn=lambda: pispeed.CpuCap.join(path),
            capture_output=True,
            text=True,
            check=True,
        )
        cpu_line = next(line for line in child.stdout.splitlines() if line.split(":")[1].split(",").count("cpu"))
        assert cpu_line.endswith("/companion-pispeed-test")
    assert not path.exists()


def test_without_a_cgroup_controller_it_says_why(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(pispeed, "CGROUP_CPU", tmp_path / "none")
    reason = pispeed.unavailable()
    assert reason is not None and "no cgroup v1 cpu controller" in reason
    with pytest.raises(RuntimeError, match="no cgroup"):
        pispeed.CpuCap(calibration()).__enter__()
