"""deploy/install-pi.sh's checks refuse early and clearly (32-bit, offline, old or foreign systems).

The script is run for real with `--check` (the checks only); the facts it would read from the
machine come from the overrides its header documents for tests.
"""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "install-pi.sh"
BOOKWORM = (
    'PRETTY_NAME="Raspbian GNU/Linux 12 (bookworm)"\nID=raspbian\nID_LIKE=debian\nVERSION_ID="12"\n'
    "VERSION_CODENAME=bookworm\n"
)


@pytest.fixture
def index() -> Iterator[str]:
    """A listening port standing in for PyPI."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield f"127.0.0.1:{server.getsockname()[1]}"


def closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{s.getsockname()[1]}"  # nothing listens once it is closed


def check(tmp_path: Path, os_release: str = BOOKWORM, **overrides: str) -> subprocess.CompletedProcess[str]:
    release = tmp_path / "os-release"
    release.write_text(os_release)
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_TEST_")}
    env.update(COMPANION_TEST_OS_RELEASE=str(release), COMPANION_TEST_DEFAULT_TARGET="multi-user.target")
    env.update(COMPANION_TEST_DISPLAY_MANAGER="disabled")
    env.update(overrides)
    return subprocess.run(["bash", str(SCRIPT), "--check"], capture_output=True, text=True, env=env, timeout=60)


def test_a_64_bit_bookworm_pi_online_passes(tmp_path: Path, index: str) -> None:
    done = check(tmp_path, COMPANION_TEST_ARCH="arm64", COMPANION_TEST_PYPI=index)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "architecture: arm64 (64-bit)",
        "system: raspbian 12 (bookworm)",
        f"network: {index} reachable",
        "image: lite",
        "checks passed",
    ]


@pytest.mark.parametrize("arch", ["armhf", "armel", "i386"])
def test_32_bit_systems_are_refused_before_anything_is_installed(tmp_path: Path, index: str, arch: str) -> None:
    done = check(tmp_path, COMPANION_TEST_ARCH=arch, COMPANION_TEST_PYPI=index)
    assert done.returncode == 1
    assert f"this is a 32-bit system ({arch})" in done.stderr
    assert "Raspberry Pi OS (64-bit)" in done.stderr
    assert done.stdout == ""  # refused first: no other check ran


def test_offline_is_refused_with_what_to_do(tmp_path: Path) -> None:
    target = closed_port()
    done = check(tmp_path, COMPANION_TEST_ARCH="arm64", COMPANION_TEST_PYPI=target)
    assert done.returncode == 1
    assert f"cannot reach {target}, where Kivy and the other Python packages come from" in done.stderr
    assert "Connect the Pi to the internet first" in done.stderr
    assert "checks passed" not in done.stdout


def test_bullseye_and_other_systems_are_refused(tmp_path: Path, index: str) -> None:
    bullseye = BOOKWORM.replace('VERSION_ID="12"', 'VERSION_ID="11"').replace("bookworm", "bullseye")
    done = check(tmp_path, bullseye, COMPANION_TEST_ARCH="arm64", COMPANION_TEST_PYPI=index)
    assert done.returncode == 1 and "version 12 (bookworm) or newer is needed" in done.stderr
    fedora = 'ID=fedora\nVERSION_ID="40"\n'
    done = check(tmp_path, fedora, COMPANION_TEST_ARCH="arm64", COMPANION_TEST_PYPI=index)
    assert done.returncode == 1 and "not Raspberry Pi OS or Debian" in done.stderr


def test_desktop_image_is_detected_like_raspi_config_does(tmp_path: Path, index: str) -> None:
    base = {"COMPANION_TEST_ARCH": "arm64", "COMPANION_TEST_PYPI": index, "SUDO_USER": "pi"}
    desktop = check(
        tmp_path, **base, COMPANION_TEST_DEFAULT_TARGET="graphical.target", COMPANION_TEST_DISPLAY_MANAGER="enabled"
    )
    assert "image: desktop (desktop user pi)" in desktop.stdout
    # the desktop packages installed but the Pi set to boot to the console: Lite's service
    console = check(
        tmp_path, **base, COMPANION_TEST_DEFAULT_TARGET="multi-user.target", COMPANION_TEST_DISPLAY_MANAGER="enabled"
    )
    assert "image: lite" in console.stdout


def test_unknown_options_and_help() -> None:
    done = subprocess.run(["bash", str(SCRIPT), "--frobnicate"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "unknown option --frobnicate" in done.stderr
    helped = subprocess.run(["bash", str(SCRIPT), "--help"], capture_output=True, text=True, timeout=60)
    assert "sudo deploy/install-pi.sh" in helped.stdout and "COMPANION_TEST_ARCH" in helped.stdout


def test_purge_only_with_uninstall_and_help_names_both() -> None:
    done = subprocess.run(["bash", str(SCRIPT), "--purge"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "--purge goes with --uninstall" in done.stderr
    helped = subprocess.run(["bash", str(SCRIPT), "--help"], capture_output=True, text=True, timeout=60)
    assert "--uninstall [--purge]" in helped.stdout and "deploy/requirements/" in helped.stdout


def test_a_lock_file_for_each_release_and_machine_pins_every_package_with_hashes() -> None:
    """The installer's pinned packages (make lock): Python 3.11 (bookworm) and 3.13 (trixie), on a Pi
    (aarch64) and a PC; every requirement exact and hashed, lgpio only where PyPI has its wheel."""
    folder = ROOT / "deploy" / "requirements"
    for py in ("3.11", "3.13"):
        for arch in ("aarch64", "x86_64"):
            text = (folder / f"py{py}-{arch}.txt").read_text()
            entries = [e for e in text.replace("\\\n", " ").splitlines() if e and not e.startswith("#")]
            names = {e.split("==")[0].strip() for e in entries}
            assert {"kivy", "aiohttp", "gpiozero", "pyserial", "qrcode", "pillow", "setuptools"} <= names
            assert all("==" in e and "--hash=sha256:" in e for e in entries), py
            assert ("lgpio" in names) == (py == "3.11" and arch == "aarch64")
