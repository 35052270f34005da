"""The real boot (`make pi-boot`): Companion on a whole emulated arm64 machine, from power on to a
game on its screen, and a power cut with the page cache lost.

    sudo .venv/bin/python deploy/pi_boot.py [--release bookworm|trixie]... [--fresh] [--keep]
                                            [--from-installed | --as-installed] [--out DIR] [--cache DIR]

For each release (both unless ``--release`` names one):

1. ``deploy/boot-image.sh`` makes (or takes from its cache) a bootable ext4 image: Debian's arm64
   kernel, systemd, udev, NetworkManager, a user ``pi`` with sudo, a text console on tty1.
2. ``qemu-system-aarch64 -M virt`` (TCG) boots it on a copy-on-write overlay, with virtio-gpu at
   800x480 (a DRM device: the app draws through SDL's ``kmsdrm``, as the installed unit says), a
   virtio tablet (an evdev pointer), an Intel HDA sound card whose output qemu writes to a WAV
   file, user-mode networking with loopback-only port forwards (the phones' port and SSH), the
   serial console logged to a file and a QMP socket.
3. Inside the guest, as ``pi`` over SSH: the README's Pi steps (clone, ``sudo
   deploy/install-pi.sh``), then a power-off and a cold boot: from there on only systemd starts
   the table.
4. Each step is checked and its evidence kept in ``--out`` (default ``artifacts/pi-boot``): the
   first frame (QMP ``screendump``), the unit active and ready, a seat's QR code decoding to the
   guest's own address, a phone from the host playing Mister X through the forwarded port, taps
   through QMP ``input-send-event`` (each one exactly one press), speech reaching the sound card,
   the watchdog restarting a stopped app, power cuts (QMP ``quit``, no shutdown) at several
   points with every acknowledged move there afterwards and the file system clean, the network
   arriving late, ``companion status`` and the journal.

One change from a family's Pi, made by the harness and said in deploy/README.md: a drop-in gives
the unit ``COMPANION_UI_CONTROL`` (the test control socket, a Unix socket in the data directory:
where each button is and which screen is up) and ``COMPANION_TEST_SEED`` (the game's seed, so a
run repeats). Every tap still arrives as a real input event through the kernel's evdev.

Runs as root (the image is built under proot by root); talks only to 127.0.0.1 and changes
nothing on the host but its own cache and output folders. Everything it starts, it stops.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tests" / "ui"), str(REPO / "tests"), str(REPO)]

GUEST_ADDRESS = "10.0.2.15"  # qemu's user-mode network gives the guest this address by DHCP
PHONE_PORT = 8080  # deploy/companion.default.toml's [server] port
CONTROL = "/var/lib/companion/ui-control.sock"
SEED = 2026120701
DROP_IN = f"""# pi-boot only: the test control socket and the game's seed (deploy/pi_boot.py)
[Service]
Environment=COMPANION_UI_CONTROL={CONTROL}
Environment=COMPANION_TEST_SEED={SEED}
"""
# In the guest: one JSON request per line on stdin to the app's control socket, one reply per line
# on stdout; a closed socket (the app restarting) is a reply {"ok": false, "error": "closed"}.
BRIDGE = r"""
import json, socket, sys
conn, buf = None, b""
for line in sys.stdin:
    try:
        if conn is None:
            conn = socket.socket(socket.AF_UNIX); conn.settimeout(60); conn.connect(PATH); buf = b""
        conn.sendall(line.encode())
        while b"\n" not in buf:
            chunk = conn.recv(1 << 16)
            if not chunk:
                raise OSError("closed")
            buf += chunk
        reply, _, buf = buf.partition(b"\n")
        sys.stdout.write(reply.decode() + "\n")
    except OSError as exc:
        conn = None
        sys.stdout.write(json.dumps({"ok": False, "error": str(exc) or "closed"}) + "\n")
    sys.stdout.flush()
""".replace("PATH", repr(CONTROL))


class Failed(Exception):
    """A step that did not pass: the run stops there and says which."""


class Log:
    def __init__(self, out: Path, release: str) -> None:
        self.start = time.monotonic()
        self.release = release
        self.file = (out / "run.log").open("a")
        self.times: list[tuple[str, float]] = []

    def __call__(self, text: str) -> None:
        line = f"[{time.monotonic() - self.start:6.0f}s] {self.release}: {text}"
        print(line, flush=True)
        self.file.write(line + "\n")
        self.file.flush()

    def time(self, what: str, seconds: float) -> None:
        self.times.append((what, seconds))
        self(f"time: {what}: {seconds:.0f} s")


class Qmp:
    """QEMU's machine protocol on a Unix socket: one command at a time, events set aside."""

    def __init__(self, path: Path, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(str(path))
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise Failed(f"no QMP socket at {path}") from None
                time.sleep(0.2)
        self.sock.settimeout(120)
        self.buffer = b""
        self.events: list[dict[str, Any]] = []
        self.read()  # the greeting
        self.cmd("qmp_capabilities")

    def read(self) -> dict[str, Any]:
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise Failed("QMP closed")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        message: dict[str, Any] = json.loads(line)
        return message

    def cmd(self, name: str, /, **arguments: Any) -> Any:
        request: dict[str, Any] = {"execute": name}
        if arguments:
            request["arguments"] = arguments
        self.sock.sendall(json.dumps(request).encode() + b"\n")
        while True:
            message = self.read()
            if "event" in message:
                self.events.append(message)
                continue
            if "error" in message:
                raise Failed(f"QMP {name}: {message['error']}")
            return message.get("return")

    def close(self) -> None:
        self.sock.close()


class Guest:
    """One emulated machine on an overlay of the release's image."""

    def __init__(self, release: str, image: Path, out: Path, log: Log) -> None:
        from served import free_port  # type: ignore[import-not-found]  # the tests' free loopback port

        self.release, self.image, self.out, self.log = release, image, out, log
        self.disk = out / "disk.qcow2"
        self.qmp_path = out / "qmp.sock"
        self.ssh_port = free_port()
        self.phone_port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.qmp: Qmp | None = None
        self.boots = 0
        self.powered_on = 0.0
        self.bridge: subprocess.Popen[str] | None = None

    # -- power ----------------------------------------------------------------------------------
    def new_disk(self, backing: Path) -> None:
        self.disk.unlink(missing_ok=True)
        subprocess.run(
            [
                "qemu-img",
                "create",
                "-q",
                "-f",
                "qcow2",
                "-F",
                "raw" if backing.suffix == ".img" else "qcow2",
                "-b",
                str(backing),
                str(self.disk),
            ],
            check=True,
        )

    def power_on(self, link_up: bool = True) -> None:
        assert self.proc is None
        self.boots += 1
        self.qmp_path.unlink(missing_ok=True)
        wav = self.out / f"sound-{self.boots}.wav"
        command = [
            "qemu-system-aarch64",
            "-M",
            "virt",
            "-cpu",
            "max",
            "-smp",
            "2",
            "-m",
            "2048",
            "-kernel",
            str(self.image / "vmlinuz"),
            "-initrd",
            str(self.image / "initrd.img"),
            # as Raspberry Pi OS: fsck at every boot (fsck.repair=yes), the root read-only until then
            "-append",
            "root=LABEL=rootfs ro rootwait fsck.repair=yes console=ttyAMA0 net.ifnames=0",
            "-drive",
            f"file={self.disk},if=none,id=disk0,format=qcow2,cache=writeback",
            "-device",
            "virtio-blk-pci,drive=disk0",
            "-device",
            "virtio-gpu-pci,xres=800,yres=480",
            "-device",
            "virtio-tablet-pci",
            "-device",
            "virtio-keyboard-pci",
            "-netdev",
            f"user,id=net0,hostfwd=tcp:127.0.0.1:{self.phone_port}-:{PHONE_PORT},"
            f"hostfwd=tcp:127.0.0.1:{self.ssh_port}-:22",
            "-device",
            "virtio-net-pci,netdev=net0,id=nic0,romfile=",
            "-audiodev",
            f"wav,id=snd0,path={wav}",
            "-device",
            "intel-hda",
            "-device",
            "hda-output,audiodev=snd0",
            "-serial",
            f"file:{self.out / f'serial-{self.boots}.log'}",
            "-qmp",
            f"unix:{self.qmp_path},server=on,wait=off",
            "-display",
            "none",
            "-nodefaults",  # no default devices: the serial line above is the console
        ]
        with (self.out / "qemu.log").open("a") as err:
            self.proc = subprocess.Popen(command, stdout=err, stderr=err, start_new_session=True)
        self.powered_on = time.monotonic()
        self.qmp = Qmp(self.qmp_path)
        if not link_up:
            self.qmp.cmd("set_link", name="nic0", up=False)
        self.log(f"power on (boot {self.boots}{'' if link_up else ', network cable out'})")

    def cut(self) -> None:
        """The plug pulled: qemu ends at once, whatever the guest had in its page cache is gone."""
        self.close_bridge()
        if self.qmp is not None:
            with contextlib.suppress(Failed, OSError):
                self.qmp.cmd("quit")
            self.qmp.close()
            self.qmp = None
        if self.proc is not None:
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
            self.proc = None

    def power_off(self) -> None:
        """A clean shutdown from inside, then qemu ends by itself."""
        self.close_bridge()
        with contextlib.suppress(Failed, subprocess.TimeoutExpired):
            self.ssh("sudo systemctl poweroff", check=False, timeout=30)
        if self.proc is not None:
            try:
                self.proc.wait(180)
            except subprocess.TimeoutExpired:
                self.log("the guest did not power off in 180 s: cutting it")
            self.cut()

    # -- inside ---------------------------------------------------------------------------------
    def ssh_args(self) -> list[str]:
        return [
            "ssh",
            "-q",
            "-i",
            str(self.image / "id_ed25519"),
            "-p",
            str(self.ssh_port),
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "BatchMode=yes",
            "-o",
            "ConnectTimeout=10",
            "-o",
            "ServerAliveInterval=15",
            "pi@127.0.0.1",
        ]

    def ssh(self, command: str, check: bool = True, timeout: float = 300, stdin: str | None = None) -> str:
        result = subprocess.run(
            [*self.ssh_args(), command], input=stdin, capture_output=True, text=True, timeout=timeout
        )
        if check and result.returncode != 0:
            raise Failed(
                f"in the guest: {command}: exit {result.returncode}\n{result.stdout[-2000:]}{result.stderr[-2000:]}"
            )
        return result.stdout

    def wait_ssh(self, timeout: float = 600) -> float:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise Failed(f"qemu ended (exit {self.proc.returncode}): {self.out / 'qemu.log'}")
            with contextlib.suppress(subprocess.TimeoutExpired):
                if subprocess.run([*self.ssh_args(), "true"], capture_output=True, timeout=30).returncode == 0:
                    return time.monotonic() - self.powered_on
            time.sleep(3)
        raise Failed(
            f"no SSH login {timeout:.0f} s after power on (serial console: {self.out}/serial-{self.boots}.log)"
        )

    # -- the screen -----------------------------------------------------------------------------
    def screendump(self, name: str) -> Any:
        """The display as the guest drew it: saved as NAME-RELEASE.png, returned as a PIL image."""
        from PIL import Image

        assert self.qmp is not None
        raw = self.out / "screendump.ppm"
        raw.unlink(missing_ok=True)
        self.qmp.cmd("screendump", filename=str(raw))
        image = Image.open(raw)
        image.load()
        image.save(self.out / f"{name}-{self.release}.png")
        return image

    def finger(self, x: float, y: float) -> None:
        """The tablet's absolute position: (x, y) in the 800x480 display's pixels."""
        assert self.qmp is not None
        self.qmp.cmd(
            "input-send-event",
            events=[
                {"type": "abs", "data": {"axis": "x", "value": round(x * 32767 / 799)}},
                {"type": "abs", "data": {"axis": "y", "value": round(y * 32767 / 479)}},
            ],
        )

    def press(self, down: bool) -> None:
        assert self.qmp is not None
        self.qmp.cmd("input-send-event", events=[{"type": "btn", "data": {"down": down, "button": "left"}}])

    def tap_box(self, box: list[float]) -> None:
        """One finger on the centre of a widget's box (left, top, width, height) as the app gave it."""
        left, top, width, height = box
        self.tap(left + width / 2, top + height / 2)

    def tap(self, x: float, y: float) -> None:
        """One finger: the tablet's absolute position, then one press and one release."""
        self.finger(x, y)
        self.press(True)
        time.sleep(0.15)
        self.press(False)

    def swipe(self, x: float, y0: float, y1: float, steps: int = 20) -> None:
        """One finger down at (x, y0), moved to (x, y1) in 0.6 s, lifted: a scroll view scrolls.
        (Tried on the app under Xvfb with xdotool: the same 200 px in 8 moves of 15 ms did not
        scroll; in 20 moves of 30 ms it did.)"""
        self.finger(x, y0)
        self.press(True)
        # the first 30 px at once, so the scroll view sees the move in the frame of the press: a
        # frame of the emulated machine can take longer than the view's 0.2 s timeout, after which
        # it hands the finger to the widget under it instead of scrolling
        y0 += 30 if y1 > y0 else -30
        self.finger(x, y0)
        for step in range(1, steps + 1):
            self.finger(x, y0 + (y1 - y0) * step / steps)
            time.sleep(0.03)
        self.press(False)

    # -- the app's control socket (read only: where things are, what is shown) ----------------
    def ui(self, request: dict[str, Any], timeout: float = 120) -> dict[str, Any]:
        if self.bridge is None or self.bridge.poll() is not None:
            self.bridge = subprocess.Popen(
                [*self.ssh_args(), f"sudo python3 -u -c {shell_quote(BRIDGE)}"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        assert self.bridge.stdin is not None and self.bridge.stdout is not None
        self.bridge.stdin.write(json.dumps(request) + "\n")
        self.bridge.stdin.flush()
        line = self.bridge.stdout.readline()
        if not line:
            self.close_bridge()
            return {"ok": False, "error": "no bridge"}
        reply: dict[str, Any] = json.loads(line)
        return reply

    def close_bridge(self) -> None:
        if self.bridge is not None:
            with contextlib.suppress(OSError):
                if self.bridge.stdin is not None:
                    self.bridge.stdin.close()
            self.bridge.kill()
            self.bridge.wait()
            self.bridge = None

    def state(self) -> dict[str, Any]:
        return self.ui({"cmd": "state"})

    def wait(self, predicate: Callable[[dict[str, Any]], bool], what: str, timeout: float = 180) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        state: dict[str, Any] = {}
        while time.monotonic() < deadline:
            state = self.state()
            if "tids" in state and predicate(state):
                return state
            time.sleep(1)
        raise Failed(
            f"not seen in {timeout:.0f} s: {what} (last: screen {state.get('screen')}, {state.get('error', '')})"
        )

    def touch(self, tid: str, then: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        """Tap the widget ``tid`` where the app says it is, through the tablet (evdev), once. One
        that a scroll view hides (a long set-up form) is first scrolled into view by swipes, as a
        finger would: up while it lies below, down while it lies above."""
        for swipes in itertools.count():
            state = self.wait(lambda s: tid in s["tids"] and not s["tids"][tid]["disabled"], f"the button {tid}")
            widget = state["tids"][tid]
            if "box" in widget and not widget.get("partly"):
                if swipes == 0:
                    break
                # after a swipe, only once the scroll has come to rest: on a slow frame it can still
                # glide, and the tap would land on whatever glides under the finger (a text field)
                time.sleep(1)
                if self.state()["tids"].get(tid, {}).get("box") == widget["box"]:
                    break
                continue
            if swipes == 10:
                raise Failed(f"the button {tid} not scrolled into view by 10 swipes: {widget}")
            height_now = float(state["size"][1])
            if "box" in widget:  # partly in view: from where it shows
                below = widget["box"][1] > height_now / 2
            else:  # hidden: first below (a form goes on downwards), then above
                below = swipes < 5
            self.log(f"swipe {'up' if below else 'down'} to reach {tid}")
            start, end = (380, 180) if below else (180, 380)
            self.swipe(70, start, end)
            time.sleep(2)  # the scroll's own motion comes to rest
        self.tap_box(state["tids"][tid]["box"])
        return self.wait(then, what, timeout=120)


def beyond(seq: int) -> Callable[[dict[str, Any]], bool]:
    """A screen state drawn from a newer game state than ``seq``."""
    return lambda state: int(state["seq"]) > seq


def shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def loud(wav: Path) -> float:
    """The share of 20 ms windows in qemu's WAV file of the sound card that are not silence. The
    file is read while qemu still writes it (its header's sizes are filled in only at the end)."""
    import array
    import struct

    data = wav.read_bytes()
    fmt = data.find(b"fmt ")
    start = data.find(b"data")
    if fmt < 0 or start < 0:
        return 0.0
    channels, rate = struct.unpack_from("<HI", data, fmt + 10)
    bits = struct.unpack_from("<H", data, fmt + 22)[0]
    body = data[start + 8 :]
    if bits != 16 or len(body) < 4:
        return 0.0
    samples = array.array("h", body[: len(body) // 2 * 2])
    window = max(1, rate // 50) * channels
    windows = [samples[i : i + window] for i in range(0, len(samples), window)]
    loud_windows = sum(1 for w in windows if w and max(abs(v) for v in w) > 500)
    return loud_windows / max(1, len(windows))


def decode(image: Any) -> list[str]:
    from pyzbar.pyzbar import decode as zbar  # type: ignore[import-untyped]

    return [str(found.data.decode()) for found in zbar(image)]


def blank(image: Any) -> bool:
    """One colour on (almost) the whole screen: nothing drawn, or a console with nothing on it."""
    colours = image.convert("RGB").getcolors(1 << 20) or []
    top: int = max(count for count, _ in colours) if colours else 0
    return top > 0.995 * int(image.width) * int(image.height)


@contextlib.contextmanager
def phone(url: str, device: str | None = None) -> Iterator[Any]:
    from phones import SyncPhone  # type: ignore[import-not-found]

    one = SyncPhone(url, device)
    try:
        yield one
    finally:
        with contextlib.suppress(Exception):
            one.close()


# ------------------------------------------------------------------------------------ the steps
class Run:
    """One release's run: the steps in the order a family's Pi meets them."""

    def __init__(self, release: str, args: argparse.Namespace) -> None:
        self.release = release
        self.args = args
        self.out: Path = args.out / release
        shutil.rmtree(self.out, ignore_errors=True)
        self.out.mkdir(parents=True)
        self.shots: Path = args.shots
        self.log = Log(self.out, release)
        self.image: Path = args.cache / release
        self.guest = Guest(release, self.image, self.out, self.log)
        self.passed: list[str] = []
        self.url = ""  # Mister X's link, as the QR code on the guest's screen says it
        self.device = secrets.token_hex(32)  # his phone's device secret: the same phone after each boot
        self.acked: list[dict[str, Any]] = []  # his moves the table acknowledged, in order
        self.acked_seq = 0
        self.boxes: dict[str, list[float]] = {}  # where buttons were, for taps while SSH is away
        self.unacked: dict[str, Any] | None = None  # the move sent as the plug was pulled
        self.ack_time = 0.5  # how long his last move took to be acknowledged
        self.cuts: list[tuple[str, float, str]] = []  # (point, power on -> first frame, what came back)

    def ok(self, what: str) -> None:
        self.passed.append(what)
        self.log(f"ok: {what}")

    def shot(self, name: str) -> Any:
        image = self.guest.screendump(name)
        self.shots.mkdir(parents=True, exist_ok=True)
        shutil.copy(self.out / f"{name}-{self.release}.png", self.shots / f"{name}-{self.release}.png")
        return image

    # -- 1: the image -----------------------------------------------------------------------------
    def build_image(self) -> None:
        t0 = time.monotonic()
        command = [str(REPO / "deploy" / "boot-image.sh"), "--release", self.release, "--cache", str(self.args.cache)]
        if self.args.fresh:
            command.append("--fresh")
        with (self.out / "image.log").open("w") as log:
            if subprocess.run(command, stdout=log, stderr=subprocess.STDOUT).returncode != 0:
                raise Failed(f"the image: {self.out / 'image.log'}")
        self.log.time("the image (cached unless --fresh)", time.monotonic() - t0)

    # -- 2, 3: the README's Pi steps, then a cold boot ----------------------------------------
    def install(self) -> None:
        installed = self.image / "installed.qcow2"
        if self.args.as_installed:  # a change of the harness only: the installed disk as it is
            if not installed.exists():
                raise Failed(f"--as-installed: no installed disk {installed} (run once without it)")
            self.log(f"--as-installed: {installed} as the last install left it, not updated")
            self.guest.new_disk(installed)
            return
        update = bool(self.args.from_installed and installed.exists())
        self.guest.new_disk(installed if update else self.image / "rootfs.img")
        self.guest.power_on()
        self.log.time("power on -> SSH login", self.guest.wait_ssh())
        if not update:
            self.guest.ssh("git init -q --bare -b main ~/companion.git")
        commit = subprocess.run(
            ["git", "-C", str(REPO), "stash", "create"], capture_output=True, text=True
        ).stdout.strip()
        commit = commit or "HEAD"
        env = dict(os.environ, GIT_SSH_COMMAND=" ".join(self.guest.ssh_args()[:-1]))
        subprocess.run(
            ["git", "-C", str(REPO), "push", "-q", "-f", f"ssh://pi@127.0.0.1:{self.guest.ssh_port}/home/pi/companion.git",
             f"{commit}:refs/heads/main"],
            env=env, check=True, capture_output=True,
        )  # fmt: skip
        if update:  # --from-installed: the README's update instead of the first install
            t0 = time.monotonic()
            self.log(
                f"--from-installed: {installed}, updated as the README says: git pull && sudo deploy/install-pi.sh"
            )
            with (self.out / "update.log").open("w") as log:
                result = subprocess.run(
                    [*self.guest.ssh_args(), "cd companion && git fetch -q origin && git reset -q --hard origin/main "
                     "&& sudo deploy/install-pi.sh"],
                    stdout=log, stderr=subprocess.STDOUT, timeout=5400,
                )  # fmt: skip
            if result.returncode != 0:
                raise Failed(f"the update failed (exit {result.returncode}): {self.out / 'update.log'}")
            self.log.time("the update (git pull + sudo deploy/install-pi.sh, emulated)", time.monotonic() - t0)
            self.guest.power_off()  # the next boot is a cold one, on this run's updated overlay
            return
        t0 = time.monotonic()
        self.log("the README's steps as pi: git clone, sudo deploy/install-pi.sh")
        with (self.out / "install.log").open("w") as log:
            result = subprocess.run(
                [
                    *self.guest.ssh_args(),
                    "git clone -q ~/companion.git companion && cd companion && sudo deploy/install-pi.sh",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                timeout=5400,
            )
        if result.returncode != 0:
            raise Failed(f"install-pi.sh failed (exit {result.returncode}): {self.out / 'install.log'}")
        self.log.time("git clone + sudo deploy/install-pi.sh (emulated)", time.monotonic() - t0)
        text = (self.out / "install.log").read_text()
        if "installing for Raspberry Pi OS Lite" not in text:
            raise Failed("the installer did not say it set up the Lite mode")
        self.ok("the installer ran in the booted guest (Lite found by itself)")
        for line in ("is-enabled companion", "is-active companion"):
            self.log(f"systemctl {line}: {self.guest.ssh('systemctl ' + line, check=False).strip()}")
        self.guest.ssh(
            "sudo mkdir -p /etc/systemd/system/companion.service.d && "
            "sudo tee /etc/systemd/system/companion.service.d/pi-boot.conf >/dev/null && sudo systemctl daemon-reload",
            stdin=DROP_IN,
        )
        self.guest.power_off()
        self.log("saving the installed disk for --from-installed")
        installed.unlink(missing_ok=True)
        subprocess.run(["qemu-img", "convert", "-O", "qcow2", str(self.guest.disk), str(installed)], check=True)
        self.guest.new_disk(installed)

    # -- 4: the first frame -------------------------------------------------------------------
    def first_frame(self, name: str, timeout: float = 900) -> float:
        """Power is on: wait for the app's own picture on the display (its background colour
        fills most of it), then for the control socket to say which screen it is."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.guest.proc is not None and self.guest.proc.poll() is not None:
                raise Failed("qemu ended")
            image = self.guest.screendump("last")
            if not blank(image) and app_drawn(image):
                took = time.monotonic() - self.guest.powered_on
                self.shot(name)
                return took
            time.sleep(2)
        raise Failed(
            f"no frame of the app on the display {timeout:.0f} s after power on"
            f" (last: {self.out}/last-{self.release}.png)"
        )

    def unit(self) -> dict[str, str]:
        text = self.guest.ssh(
            "systemctl show companion -p ActiveState -p SubState -p StatusText -p NRestarts -p MainPID "
            "-p ActiveEnterTimestampMonotonic -p Result"
        )
        return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)

    def cold_boot(self) -> None:
        self.guest.power_on()
        took = self.first_frame("first-frame")
        self.log.time("power on -> the table's first frame (KMS/DRM on virtio-gpu)", took)
        self.guest.wait_ssh()
        unit = self.unit()
        if unit.get("ActiveState") != "active" or unit.get("SubState") != "running":
            raise Failed(f"companion.service is not active: {unit}")
        self.ok(f"companion.service active (running), READY=1 reached; status: {unit.get('StatusText')}")
        state = self.guest.wait(lambda s: s["screen"] == "start", "the start screen")
        self.remember(state)
        self.ok("the start screen on the display, drawn by systemd's unit through kmsdrm")

    def remember(self, state: dict[str, Any]) -> None:
        for tid, widget in state["tids"].items():
            if "box" in widget:
                self.boxes[tid] = widget["box"]

    # -- touch, the seat's QR code, the phone ------------------------------------------------
    def touch(self, tid: str, then: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        state = self.guest.touch(tid, then, what)
        self.remember(state)
        return state

    def his_code(self, name: str) -> list[str]:
        """What the display's QR codes say on the Phones screen. The app shows his seat's code by
        itself (``sy.link_x``); under emulation that takes seconds to tens of seconds (the first code
        loads the QR library, and every frame is drawn by llvmpipe under TCG), and the app's state
        says "shown" before the display does. Polled from the display; Show QR is tapped only when
        a minute has passed without the code and the button is still there, because a tap that
        lands just as the code comes lands on Hide, in the same place."""
        t0 = time.monotonic()
        found: list[str] = []
        shown = False
        while time.monotonic() < t0 + 150:
            time.sleep(2)
            found = decode(self.shot(name))
            if found:
                break
            seats = self.guest.state().get("tids", {})
            self.log(f"no code read yet; the app shows {sorted(t for t in seats if t.startswith('seats.'))}")
            if time.monotonic() > t0 + 60 and "seats.show.mrx" in seats and not shown:
                self.log(f"no code a minute after the Phones screen: {seats['seats.show.mrx']['text']!r} tapped")
                self.guest.tap_box(seats["seats.show.mrx"]["box"])
                shown = True
        self.log(
            f"{name}: {len(found)} code(s) read from the display {time.monotonic() - t0:.0f} s after the Phones screen"
        )
        return found

    def forwarded(self, url: str) -> str:
        """A link of the guest's (its own address) as the host's phone reaches it: the forwarded
        loopback port."""
        return url.replace(f"//{GUEST_ADDRESS}:{PHONE_PORT}", f"//127.0.0.1:{self.guest.phone_port}")

    def start_game(self) -> None:
        g = self.guest
        self.touch("start.new", lambda s: s["screen"] == "new", "the new-game screen")
        self.touch(
            "new.scotland_yard", lambda s: "setup.sy.detectives_ai.normal" in s["tids"], "Scotland Yard's set-up"
        )
        self.touch(
            "setup.sy.detectives_ai.normal", lambda s: "setup.sy.people.0" in s["tids"], "the table's detectives"
        )
        self.touch("setup.sy.people.0", lambda s: "setup.sy.name.1" not in s["tids"], "no person's seat among them")
        self.shot("setup")
        self.touch("new.start", lambda s: s["screen"] == "game", "the game screen")
        self.touch("sy.draw_start", lambda s: "sy.link_x" in s["tids"], "Mister X without a phone")
        self.touch("sy.link_x", lambda s: s["screen"] == "seats", "the Phones screen")
        found = self.his_code("seat-qr")
        if len(found) != 1:
            raise Failed(f"expected one QR code on the Phones screen, found {found}")
        address = g.ssh("ip -4 -o addr show dev eth0").split()[3].split("/")[0]
        url = found[0]
        if f"//{address}:" not in url or address != GUEST_ADDRESS:
            raise Failed(f"the QR code says {url}, the guest's address is {address}")
        self.ok(f"the seat's QR code decodes to the guest's own DHCP address: {url}")
        self.url = self.forwarded(url)
        with phone(self.url, self.device) as x:
            welcome = x.connect()
            if welcome.get("seat") != "mrx":
                raise Failed(f"his phone was not welcomed to his seat: {welcome}")
            g.wait(lambda s: "seats.qr" not in s["tids"], "his code gone once his phone holds the seat")
            self.ok("a phone from the host joined Mister X's seat through the forwarded port")
            self.touch("seats.back", lambda s: s["screen"] == "game", "the game again")
            self.x_move(x)
        self.ok("his phone played his first move (acknowledged)")

    def x_move(self, x: Any, wait_ack: bool = True) -> None:
        snap = x.state()
        while "sy.x_move" not in snap["legal"]["intents"]:
            snap = x.state(snap["seq"] + 1, timeout=120)
        ticket, stations = sorted(snap["legal"]["x"]["single"].items())[0]
        intent = {"kind": "sy.x_move", "ticket": ticket, "station": stations[0]}
        if not wait_ack:  # sent, and the plug pulled before the answer: see cut_during_commit
            x._run(x.phone.send({"type": "intent", "id": 999, "seq": snap["seq"], "intent": intent}))
            self.unacked = {"ticket": ticket, "station": stations[0]}
            return
        t0 = time.monotonic()
        reply = x.intent(intent, snap["seq"])
        self.ack_time = time.monotonic() - t0
        if reply.get("type") != "ack":
            raise Failed(f"his move was refused: {reply}")
        self.acked.append({"ticket": ticket, "station": stations[0]})
        self.acked_seq = int(reply["seq"])
        self.log(f"Mister X: {ticket} to {stations[0]} (acknowledged, seq {self.acked_seq})")

    def confirm_round(self, x: Any, taps: int | None = None) -> int:
        """The table's detectives: tap Done on the touchscreen for each of its instructions, and
        check that each tap confirmed exactly one. A figure of the table's counts as moved as soon
        as the table says where it goes; its instruction then waits for the pawn. So a tap must
        take away the instruction it was made for, and no press may be refused on the toast (a
        second press of one tap finds nothing to confirm). Returns how many taps were made."""
        made = 0
        self.guest.ui({"cmd": "toasts"})  # from here on
        while taps is None or made < taps:
            before = x.state()
            while before["view"]["instruction"] is None and before["view"]["phase"] == "detectives":
                before = x.state(before["seq"] + 1, timeout=180)  # the table is thinking
            wanted = before["view"]["instruction"]
            if wanted is None:  # the detectives' turn is over and every pawn confirmed
                break
            self.touch("sy.confirm", beyond(int(before["seq"])), f"the instruction confirmed: {wanted}")
            time.sleep(1.5)
            after = x.state()
            if after["view"]["instruction"] == wanted:
                raise Failed(f"a tap on Done left its instruction waiting: {wanted}")
            later = self.guest.ui({"cmd": "toasts"}).get("toasts", [])
            refused = [t for t in later if t.get("kind") == "error"]
            if refused:
                raise Failed(f"a tap on Done was taken twice or refused: {refused}")
            moved = sum(1 for f in after["view"]["figures"] if f["moved"])
            self.log(f"Done tapped for {wanted['figure']} to {wanted['station']}: confirmed ({moved} moved so far)")
            made += 1
            self.acked_seq = max(self.acked_seq, int(after["seq"]))
        return made

    def play_round(self) -> None:
        with phone(self.url, self.device) as x:
            if x.connect().get("seat") != "mrx":
                raise Failed("his phone did not get his seat back")
            taps = self.confirm_round(x)
            self.ok(f"{taps} taps on Done, each one press: {taps} figures confirmed")
            self.x_move(x)


def theme_colour(name: str) -> tuple[int, ...]:
    """A colour of ui/theme.py (read from the file: importing it would start Kivy)."""
    import re

    found = re.search(rf'^{name} = rgb\("#([0-9a-fA-F]{{6}})"\)', (REPO / "ui" / "theme.py").read_text(), re.M)
    if found is None:
        raise Failed(f"ui/theme.py has no {name} = rgb(...)")
    return tuple(int(found.group(1)[i : i + 2], 16) for i in (0, 2, 4))


def share_of(image: Any, colour: tuple[int, ...], box: tuple[float, float, float, float] | None = None) -> float:
    """The share of the display (or of the box: left, top, width, height) drawn in ``colour``."""
    rgb = image.convert("RGB")
    if box is not None:
        left, top, width, height = box
        rgb = rgb.crop((int(left), int(top), int(left + width), int(top + height)))
    colours = rgb.getcolors(1 << 20) or []
    near: int = sum(count for count, c in colours if all(abs(a - b) <= 8 for a, b in zip(c, colour, strict=True)))
    return near / max(1, int(rgb.width) * int(rgb.height))


def app_drawn(image: Any) -> bool:
    """The app's own colours (ui/theme.py's BACKGROUND and PANEL) on much of the display: the
    start screen is mostly background, a game's table (the first frame after a cut) mostly panels."""
    return share_of(image, theme_colour("BACKGROUND")) + share_of(image, theme_colour("PANEL")) > 0.3


class Evening(Run):
    """The steps after the first frame: power cuts at several points, the watchdog, the voice,
    the network arriving late, the commands and the journal."""

    # -- power cuts ---------------------------------------------------------------------------
    def cut_and_check(self, point: str) -> None:
        self.log(f"power cut: {point}")
        self.guest.cut()
        self.guest.power_on()
        took = self.first_frame(f"after-cut-{len(self.cuts) + 1}")
        self.guest.wait_ssh()
        came_back = self.check_after_cut()
        self.cuts.append((point, took, came_back))
        self.ok(f"after the cut ({point}): {came_back}; first frame {took:.0f} s after power on")

    def check_after_cut(self) -> str:
        g = self.guest
        fsck = g.ssh("journalctl -b -u systemd-fsck-root --no-pager -o cat", check=False)
        (self.out / f"fsck-{g.boots}.txt").write_text(fsck)
        if "clean" not in fsck or "UNEXPECTED INCONSISTENCY" in fsck:
            raise Failed(f"the root file system was not clean at boot {g.boots}:\n{fsck}")
        errors = g.ssh("sudo dmesg | grep -i 'EXT4-fs error' || true")
        if errors.strip():
            raise Failed(f"ext4 errors after the cut:\n{errors}")
        integrity = g.ssh(
            'sudo sh -c \'for f in /var/lib/companion/*.sqlite3 /var/lib/companion/*.db; do [ -f "$f" ] && '
            'python3 -c "import sqlite3,sys; print(sys.argv[1], sqlite3.connect(sys.argv[1]).execute('
            '\\"pragma integrity_check\\").fetchone()[0])" "$f"; done; true\''
        )
        if not integrity.strip() or any(not line.endswith(" ok") for line in integrity.strip().splitlines()):
            raise Failed(f"the saved games' database after the cut: {integrity!r}")
        unit = self.unit()
        if unit.get("ActiveState") != "active":
            raise Failed(f"companion.service after the cut: {unit}")
        state = g.wait(lambda s: s["screen"] == "game", "the same game on the table by itself after the cut")
        self.remember(state)
        with phone(self.url, self.device) as x:
            if x.connect().get("seat") != "mrx":
                raise Failed("his phone did not get his seat back after the cut")
            snap = x.state()
        route = [{"ticket": r["ticket"], "station": r["station"]} for r in snap["view"]["secret"]["route"]]
        extra = ""
        if self.unacked is not None:
            if route == [*self.acked, self.unacked]:
                self.acked.append(self.unacked)
                extra = " and the move sent as the plug was pulled (committed before the cut)"
            else:
                extra = " (the move sent as the plug was pulled: not committed, as it was never acknowledged)"
            self.unacked = None
        if route != self.acked:
            raise Failed(f"his moves after the cut: {route}, acknowledged before it: {self.acked}")
        if int(snap["seq"]) < self.acked_seq:
            raise Failed(f"the game is at seq {snap['seq']} after the cut, {self.acked_seq} was acknowledged")
        recovered = "journal recovered, " if "recover" in fsck.lower() else ""
        moves = f"{len(self.acked)} of his{extra}, seq {snap['seq']}"
        return f"{recovered}file system clean, database ok, every acknowledged move there ({moves})"

    def cuts_through_a_game(self) -> None:
        self.cut_and_check("right after Mister X's move was acknowledged")
        with phone(self.url, self.device) as x:
            x.connect()
            self.confirm_round(x, taps=1)
        self.cut_and_check("right after a tap on Done was shown")
        with phone(self.url, self.device) as x:
            x.connect()
            self.confirm_round(x)
            self.x_move(x, wait_ack=False)
            time.sleep(max(0.05, self.ack_time / 2))  # half of what his last move took to be acknowledged
            self.cut_and_check("during his move's commit (half its usual time to the acknowledgement)")
        self.play_round()
        time.sleep(20)
        self.cut_and_check("idle, 20 s after the last acknowledged move")
        # a cut while the table is starting: SSH is up, the app has not drawn yet
        self.guest.cut()
        self.guest.power_on()
        self.guest.wait_ssh()
        self.cut_and_check("while the system and the table start")

    # -- the watchdog -------------------------------------------------------------------------
    def watchdog(self) -> None:
        g = self.guest
        before = self.unit()
        game = g.ui({"cmd": "info"}).get("game_id")
        pid = before["MainPID"]
        g.close_bridge()
        t0 = time.monotonic()
        g.ssh(f"sudo kill -STOP {pid}")
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            unit = self.unit()
            if unit.get("MainPID") not in (pid, "0") and unit.get("ActiveState") == "active":
                break
            time.sleep(3)
        else:
            raise Failed(f"the stopped app was not restarted in 240 s: {self.unit()}")
        took = time.monotonic() - t0
        journal = g.ssh("journalctl -b -u companion --no-pager -o cat | grep -i watchdog || true")
        if "watchdog" not in journal.lower():
            raise Failed("the journal does not say the watchdog ended the stopped app")
        state = g.wait(lambda s: s["screen"] == "game", "the game back after the watchdog's restart")
        if g.ui({"cmd": "info"}).get("game_id") != game:
            raise Failed("another game after the watchdog's restart")
        self.remember(state)
        self.shot("after-watchdog")
        self.log.time("SIGSTOP -> restarted by the watchdog, back in the game", took)
        self.ok(
            "the watchdog killed the stopped app and systemd started it again, in the same game"
            f" ({journal.strip().splitlines()[0]})"
        )

    # -- the voice ----------------------------------------------------------------------------
    def speech_on(self) -> None:
        """On the start screen: the voice switched on in the settings, by touch."""
        g = self.guest
        cards = g.ssh("cat /proc/asound/cards", check=False)
        self.log(f"sound cards: {' '.join(cards.split())}")
        self.touch("start.settings", lambda s: "settings.speech.on" in s["tids"], "the settings")
        self.touch("settings.speech.on", lambda s: True, "speech switched on")
        time.sleep(5)
        self.shot("settings-speech-on")
        back = next(t for t in self.boxes if t.endswith(".back") and t.startswith(("settings", "page")))
        self.touch(back, lambda s: s["screen"] == "start", "the start screen")

    def speech_heard(self) -> None:
        """Since this boot, his moves and the table's instructions were said: the WAV qemu wrote
        of the sound card's output holds speech, not silence."""
        g = self.guest
        wav = g.out / f"sound-{g.boots}.wav"
        time.sleep(5)
        share = loud(wav) if wav.exists() else 0.0
        if share < 0.01:
            raise Failed(f"no speech on the sound card: {wav} ({share:.1%} of it loud)")
        self.ok(f"the table's voice reached the emulated sound card ({share:.1%} of {wav.name} is speech)")

    # -- the network late -------------------------------------------------------------------
    def network_late(self) -> None:
        """Booted with the cable out: his seat's code on the Phones screen says there is no
        network; once the link is up the code is there with the guest's address, and the app was
        never restarted. His phone holds his seat, and a held seat shows no code (a detective must
        not photograph it), so first the seat is released on the touchscreen, as a host does for a
        player whose phone went flat, and its new code shown."""
        g = self.guest
        self.touch("game.seats", lambda s: "seats.release.mrx" in s["tids"], "the Phones screen, his seat held")
        self.touch("seats.release.mrx", lambda s: "confirm.yes" in s["tids"], "the question: release his seat?")
        self.touch("confirm.yes", lambda s: "seats.show.mrx" in s["tids"], "his seat free again")
        self.touch("seats.back", lambda s: s["screen"] == "game", "the game")
        g.power_off()
        g.power_on(link_up=False)
        took = self.first_frame("offline-first-frame")
        self.log.time("power on with no network -> first frame", took)
        # no SSH now, so no state from the app: taps where its buttons were, then the display
        time.sleep(10)
        g.tap_box(self.boxes["game.seats"])
        time.sleep(15)
        g.tap_box(self.boxes["seats.show.mrx"])
        deadline = time.monotonic() + 120
        danger = theme_colour("DANGER")
        panel = (400.0, 70.0, 390.0, 400.0)  # the code's side of the Phones screen
        while True:
            time.sleep(3)
            image = self.shot("offline-seats")
            if share_of(image, danger, panel) > 0.002:
                break
            if time.monotonic() > deadline:
                raise Failed("his seat's code without a network: no warning in its place (offline-seats)")
        self.ok("with no network his seat's code gives way to a warning (screendump offline-seats)")
        assert g.qmp is not None
        link_up = time.monotonic()
        g.qmp.cmd("set_link", name="nic0", up=True)
        g.wait_ssh()
        state = g.wait(lambda s: s["screen"] == "seats" and "seats.qr" in s["tids"], "his code once the link is up")
        self.remember(state)
        uptime = float(g.ssh("cut -d' ' -f1 /proc/uptime"))
        unit = self.unit()
        started = int(unit.get("ActiveEnterTimestampMonotonic", "0")) / 1e6
        if unit.get("NRestarts") != "0" or started > uptime - (time.monotonic() - link_up):
            raise Failed(f"the app was restarted when the network came: {unit}")
        found = self.his_code("online-seat-qr")
        if len(found) != 1 or f"//{GUEST_ADDRESS}:" not in found[0]:
            raise Failed(f"his code once the network came: {found}")
        self.ok(f"the network came {time.monotonic() - link_up:.0f} s ago: the code says {found[0]}, no restart")
        self.url = self.forwarded(found[0])
        with phone(self.url, self.device) as x:
            if x.connect().get("seat") != "mrx":
                raise Failed("his phone did not take his seat with the new code")
        self.ok("his phone took his seat again with the code shown after the network came")
        self.touch("seats.back", lambda s: s["screen"] == "game", "the game")

    # -- the commands and the journal -------------------------------------------------------
    def commands_and_journal(self) -> None:
        g = self.guest
        for who, command in (("pi", "companion status"), ("root", "sudo companion status")):
            text = g.ssh(command, check=False)
            (self.out / f"status-{who}.txt").write_text(text)
            if "scotland_yard" not in text and "Scotland Yard" not in text:  # "game 1 scotland_yard at seq 4"
                raise Failed(f"`{command}` does not name the open game:\n{text}")
            self.ok(f"`{command}` answers and names the open game")
        journal = g.ssh("journalctl -u companion --no-pager -o short-monotonic")
        (self.out / "journal.txt").write_text(journal)
        if "Traceback" in journal:
            raise Failed(f"a traceback in the journal: {self.out / 'journal.txt'}")
        lines = [line for line in journal.splitlines() if "]" in line]  # with its time: written twice, not said twice
        doubled = [a for a, b in itertools.pairwise(lines) if a == b and a.strip()]
        if len(doubled) > 2:
            raise Failed(f"log lines written twice in the journal: {doubled[:3]}")
        self.ok(f"the journal: {len(lines)} lines of the table, none twice, no traceback")

    def evidence(self) -> None:
        """What the guest shows and says at a failure, kept beside failure.txt: the display, the
        app's own state (its screen and where each control is) and this boot's journal."""
        with contextlib.suppress(Exception):
            self.guest.screendump("at-failure")
        with contextlib.suppress(Exception):
            (self.out / "state-at-failure.json").write_text(json.dumps(self.guest.state(), indent=1))
        with contextlib.suppress(Exception):
            (self.out / "journal-at-failure.txt").write_text(self.guest.ssh("sudo journalctl -b --no-pager -n 400"))

    # -- all of it --------------------------------------------------------------------------
    def run(self) -> None:
        t0 = time.monotonic()
        try:
            self.build_image()
            self.install()
            self.cold_boot()
            self.speech_on()
            self.start_game()
            self.speech_heard()
            self.cuts_through_a_game()
            self.watchdog()
            self.network_late()
            self.commands_and_journal()
            self.guest.power_off()
        except BaseException:
            self.evidence()
            raise
        finally:
            self.guest.cut()
            self.log.time("the whole run", time.monotonic() - t0)
            summary = {"release": self.release, "passed": self.passed, "times": self.log.times, "cuts": self.cuts}
            (self.out / "summary.json").write_text(json.dumps(summary, indent=2))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", action="append", choices=("bookworm", "trixie"))
    parser.add_argument("--fresh", action="store_true", help="build the images again")
    installed = parser.add_mutually_exclusive_group()
    installed.add_argument("--from-installed", action="store_true", help="start from the last run's installed disk")
    installed.add_argument(
        "--as-installed",
        action="store_true",
        help="boot the last run's installed disk without updating it (when only the harness changed)",
    )
    parser.add_argument("--cache", type=Path, default=Path("/var/cache/companion-pi-boot"))
    parser.add_argument("--out", type=Path, default=REPO / "artifacts" / "pi-boot")
    parser.add_argument("--shots", type=Path, default=REPO / "docs" / "screenshots" / "boot")
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("run as root (the image is built as root): sudo make pi-boot", file=sys.stderr)
        return 1
    tools = {"qemu-system-aarch64": "qemu-system-arm", "qemu-img": "qemu-utils", "ssh": "openssh-client", "git": "git"}
    missing = sorted({package for tool, package in tools.items() if shutil.which(tool) is None})
    if missing:
        print(f"installing Debian packages: {' '.join(missing)}", flush=True)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], check=True, env=env)
    failed = []
    for release in args.release or ["bookworm", "trixie"]:
        run = Evening(release, args)
        try:
            run.run()
            run.log(f"PASSED ({len(run.passed)} checks)")
        except Exception as exc:  # every failure is reported, with where it happened
            import traceback

            run.log(f"FAILED: {exc}")
            (run.out / "failure.txt").write_text(traceback.format_exc())
            failed.append(release)
    print("pi-boot:", "FAILED: " + " ".join(failed) if failed else "PASSED")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
