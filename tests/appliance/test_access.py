"""`companion status`, `doctor`, `doctor --bundle` and `hotspot status` as the Pi's own user.

The installed configuration holds the hotspot password (0640 root:companion), so a user outside the
group cannot read it. These commands ran into "[Errno 13] Permission denied" and exit status 2 for
exactly the user the installer tells to run them; now they show what needs no secret and say what
they cannot read. Run for real as an unprivileged user (``setpriv``, as root), outside and inside
the file's group.
"""

from __future__ import annotations

import grp
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.store import Store
from companion.app.table import Table

ROOT = Path(__file__).resolve().parents[2]
SECRET = "table-secret-4711"
GROUP = "users"  # the file's group in this test (stands in for companion)


def interpreter_for(user: str) -> list[str]:
    """A Python the unprivileged user may run with this checkout and its packages."""
    probe = ["setpriv", f"--reuid={user}", "--regid=nogroup", "--clear-groups", sys.executable, "-c", "pass"]
    if subprocess.run(probe, capture_output=True, timeout=30).returncode == 0:
        return [sys.executable]
    # e.g. a pyenv Python under root's 0700 home: Debian's python3 of the same version, with the venv's packages
    system = shutil.which("python3", path="/usr/bin")
    if system is None:
        pytest.skip(f"no Python that {user} may run")
    version = subprocess.run([system, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True, text=True)
    if version.stdout.strip() != str(sys.version_info[:2]):
        pytest.skip(f"{system} is not Python {sys.version_info[:2]}")
    return [system]


@pytest.fixture
def setup() -> Iterator[dict[str, object]]:
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv (util-linux) to run the commands as another user")
    gid = grp.getgrnam(GROUP).gr_gid
    # Not under pytest's tmp_path: its parents are root's alone (0700), as no Pi's /etc is.
    base = Path(tempfile.mkdtemp(prefix="companion-access-", dir="/tmp"))
    try:
        yield _prepare(base, gid)
    finally:
        shutil.rmtree(base)


def _prepare(base: Path, gid: int) -> dict[str, object]:
    data = base / "data"
    data.mkdir()
    store = Store(data / "companion.sqlite3")
    table = Table(store)
    import asyncio

    async def one_game() -> None:
        await table.start()
        await table.new_game("scotland_yard", {"detectives": ["Dora"]}, "Friday", seed=7)
        await table.stop()

    asyncio.run(one_game())
    store.close()
    config = base / "companion.toml"
    config.write_text(
        f'[table]\ndata_dir = "{data}"\n[hotspot]\nssid = "Companion"\npassword = "{SECRET}"\n'
        '[hardware]\nmode = "simulated"\n'
    )
    for path in (config, *data.iterdir()):
        os.chown(path, 0, gid)
        path.chmod(0o640)
    os.chown(data, 0, gid)
    data.chmod(0o750)
    base.chmod(0o755)
    return {"config": config, "data": data, "gid": gid, "python": interpreter_for("nobody")}


def as_nobody(setup: dict[str, object], *args: str, groups: str = "") -> subprocess.CompletedProcess[str]:
    python = setup["python"]
    assert isinstance(python, list)
    site = [p for p in sys.path if p.endswith("site-packages")]
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": "/nonexistent",
        "LANG": "C.UTF-8",
        "COMPANION_CONFIG": str(setup["config"]),
        "PYTHONPATH": os.pathsep.join([str(ROOT), *site]),
    }
    who = ["--groups", groups] if groups else ["--clear-groups"]
    return subprocess.run(
        ["setpriv", "--reuid=nobody", "--regid=nogroup", *who, *python, "-m", "companion.cli", *args],
        capture_output=True, text=True, timeout=120, env=env, cwd="/",
    )  # fmt: skip


def test_outside_the_group_the_commands_show_what_needs_no_secret(setup: dict[str, object]) -> None:
    config = setup["config"]
    status = as_nobody(setup, "status")
    assert status.returncode == 0, status.stderr
    assert f"cannot read {config}" in status.stdout and f"the group {GROUP}" in status.stdout
    assert "service:" in status.stdout and "power:" in status.stdout  # what systemd and vcgencmd say
    doctor = as_nobody(setup, "doctor")
    assert doctor.returncode == 0, doctor.stderr
    assert f"Hardware: not shown: cannot read {config}" in doctor.stdout
    assert "Display" in doctor.stdout and "GPIO" in doctor.stdout and "Serial ports" in doctor.stdout
    hotspot = as_nobody(setup, "hotspot", "status")
    assert hotspot.returncode == 0, hotspot.stderr
    assert "otspot" in hotspot.stdout
    bundle = as_nobody(setup, "doctor", "--bundle", "-")
    assert bundle.returncode == 0, bundle.stderr
    assert f"cannot read {config}" in bundle.stdout
    for said in (status, doctor, hotspot, bundle):
        assert SECRET not in said.stdout + said.stderr
        assert "Errno 13" not in said.stdout + said.stderr


def test_in_the_group_they_read_the_config_and_the_games_but_no_secret_leaves(setup: dict[str, object]) -> None:
    gid = str(setup["gid"])
    status = as_nobody(setup, "status", groups=gid)
    assert status.returncode == 0, status.stderr
    assert "cannot read" not in status.stdout
    assert f"config:  {setup['config']}" in status.stdout
    assert str(setup["data"]) in status.stdout and "1 saved game" in status.stdout
    bundle = as_nobody(setup, "doctor", "--bundle", "-", groups=gid)
    assert bundle.returncode == 0, bundle.stderr
    assert 'ssid = "Companion"' in bundle.stdout
    assert f'password = "(hidden: {len(SECRET)} characters)"' in bundle.stdout
    assert SECRET not in bundle.stdout
    # a command that changes the network still refuses clearly (no nmcli here, or no root)
    on = as_nobody(setup, "hotspot", "on", groups=gid)
    assert on.returncode == 2 and on.stderr.startswith("companion: ") and "Traceback" not in on.stderr


def test_a_data_directory_it_may_not_enter_is_named_not_a_crash(setup: dict[str, object]) -> None:
    """The configuration readable (its group), the saved games not (another group): as for a user
    the installer has just added to the group, in the shell it ran the installer from."""
    data = setup["data"]
    assert isinstance(data, Path)
    os.chown(data, 0, 0)
    status = as_nobody(setup, "status", groups=str(setup["gid"]))
    assert status.returncode == 0, status.stderr
    assert f"{data} is not readable for this user" in status.stdout
    bundle = as_nobody(setup, "doctor", "--bundle", "-", groups=str(setup["gid"]))
    assert bundle.returncode == 0, bundle.stderr
