"""Storage, power and display facts: real files where this machine has them, kernel texts otherwise."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.appliance import facts

ROOT = Path(__file__).resolve().parents[2]

# /proc/self/mountinfo of a Pi with raspi-config's "Overlay File System" switched on: the SD card's
# root lies read-only below an overlay whose writable layer is a tmpfs (overlayroot=tmpfs).
OVERLAYROOT = """\
22 28 0:5 / /dev rw,relatime shared:2 - devtmpfs udev rw,size=1800000k
27 1 179:2 / /media/root-ro ro,relatime shared:3 - ext4 /dev/mmcblk0p2 ro
28 1 0:24 / /media/root-rw rw,relatime shared:4 - tmpfs tmpfs-root rw
1 0 0:25 / / rw,relatime shared:1 - overlay overlayroot rw,lowerdir=/media/root-ro,\
upperdir=/media/root-rw/overlay,workdir=/media/root-rw/overlay-workdir/_
30 1 179:1 / /boot/firmware rw,relatime shared:5 - vfat /dev/mmcblk0p1 rw
"""
PLAIN_PI = """\
1 0 179:2 / / rw,noatime shared:1 - ext4 /dev/mmcblk0p2 rw
30 1 179:1 / /boot/firmware rw,relatime shared:5 - vfat /dev/mmcblk0p1 rw
41 1 0:40 / /var/lib/with\\040space rw - tmpfs tmpfs rw
"""


def test_raspi_config_overlay_is_volatile() -> None:
    mounts = facts.parse_mountinfo(OVERLAYROOT)
    reason = facts.volatile_reason("/var/lib/companion", mounts)
    assert "writable layer (/media/root-rw/overlay) is a tmpfs" in reason
    cmdline = "console=tty1 overlayroot=tmpfs root=PARTUUID=1234-02 rootwait"
    assert "overlayroot=tmpfs" in facts.volatile_reason("/var/lib/companion", mounts, cmdline)
    assert facts.volatile_reason("/boot/firmware/x", mounts, cmdline) == ""  # the boot partition persists


def test_plain_sd_card_is_not_volatile_and_escaped_mount_points_match() -> None:
    mounts = facts.parse_mountinfo(PLAIN_PI)
    assert facts.volatile_reason("/var/lib/companion", mounts) == ""
    assert facts.mount_of("/var/lib/with space/games", mounts).point == "/var/lib/with space"  # type: ignore[union-attr]
    assert "tmpfs" in facts.volatile_reason("/var/lib/with space/games", mounts)
    assert facts.mount_of("/var/lib/with spaceship", mounts).point == "/"  # type: ignore[union-attr]


def test_a_real_tmpfs_data_dir_is_reported() -> None:
    shm = Path("/dev/shm")
    if not shm.is_dir():
        pytest.skip("no /dev/shm here")
    with tempfile.TemporaryDirectory(dir=shm) as tmp:
        found = facts.storage(Path(tmp) / "not-yet-created")
    assert found["fstype"] == "tmpfs" and "tmpfs" in found["volatile"]
    assert found["exists"] is False and found["free_bytes"] > 0


def test_store_size_is_counted_with_its_wal(tmp_path: Path) -> None:
    (tmp_path / "companion.sqlite3").write_bytes(b"x" * 100)
    (tmp_path / "companion.sqlite3-wal").write_bytes(b"y" * 50)
    assert facts.storage(tmp_path)["store_bytes"] == 150


@given(st.integers(min_value=0, max_value=0xFFFFF))
def test_throttled_bits_decode(value: int) -> None:
    flags = facts.decode_throttled(facts.parse_throttled(f"throttled={hex(value)}\n"))
    assert flags == [text for bit, text in sorted(facts.THROTTLED_BITS.items()) if value >> bit & 1]


def test_throttled_known_values() -> None:
    assert facts.decode_throttled(0x50005) == [
        "under-voltage now",
        "throttled now",
        "under-voltage since boot",
        "throttled since boot",
    ]
    assert facts.decode_throttled(0) == []
    with pytest.raises(ValueError):
        facts.parse_throttled("VCHI initialization failed")


def fake_vcgencmd(folder: Path, output: str, code: int = 0) -> None:
    exe = folder / "vcgencmd"
    exe.write_text(f"#!/bin/sh\n[ \"$1\" = get_throttled ] || exit 9\nprintf '{output}'\nexit {code}\n")
    exe.chmod(0o755)


def test_companion_status_reads_vcgencmd(tmp_path: Path) -> None:
    """`companion status` as a user runs it, with a vcgencmd that reports under-voltage now."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_vcgencmd(bin_dir, "throttled=0x50005\\n")
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "COMPANION_DATA_DIR": str(tmp_path / "data")}
    env.pop("COMPANION_CONFIG", None)
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "status"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"^power: +WARNING: under-voltage now", done.stdout, re.M), done.stdout
    assert re.search(rf"^data: +{re.escape(str(tmp_path / 'data'))} ", done.stdout, re.M), done.stdout
    fake_vcgencmd(bin_dir, "VCHI initialization failed\\n", 255)
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "status"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert "vcgencmd failed: VCHI initialization failed (the user needs the group video" in done.stdout


def test_drm_outputs_from_sysfs(tmp_path: Path) -> None:
    for name, status, modes in (("card1-DSI-1", "connected", "800x480\n"), ("card1-HDMI-A-1", "disconnected", "")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "status").write_text(status + "\n")
        (tmp_path / name / "modes").write_text(modes)
    (tmp_path / "card1").mkdir()  # the device itself, not a connector
    assert facts.drm_outputs(tmp_path) == [
        {"connector": "DSI-1", "status": "connected", "mode": "800x480"},
        {"connector": "HDMI-A-1", "status": "disconnected", "mode": ""},
    ]
    assert facts.drm_outputs(tmp_path / "missing") == []
