#!/usr/bin/env bash
# The emulated Pi check (`make pi-check`): the real installer in a Debian bookworm arm64 root,
# then the installed app drawing its start screen under an arm64 Xvfb at 800x480.
#
#   sudo deploy/check-arm64.sh [--cache DIR] [--out DIR] [--fresh]
#
# Debian's debootstrap + qemu-user-static + proot build the root (no binfmt_misc, no chroot
# privileges needed beyond root for debootstrap); Debian bookworm arm64 stands in for Raspberry Pi
# OS Lite, whose own archive is not used here. The root is built once and kept in the cache
# directory (default /var/cache/companion-pi-check, outside the repository; --fresh rebuilds it).
# Each run then:
#   1. copies this checkout to /home/pi/companion in the root and runs deploy/install-pi.sh there
#      as root (systemctl is a recorder: its calls are logged, not executed; there is no systemd
#      running in the root), checks what it installed, and runs it a second time (an update);
#   2. runs `systemd-analyze verify` on the installed unit inside the root;
#   3. starts the installed app the way the unit would (its Environment= lines and ExecStart=, as
#      the user companion) with two changes: SDL draws to an arm64 Xvfb at 800x480 instead of
#      KMS/DRM, and NOTIFY_SOCKET points at a socket this script listens on, so READY=1, STATUS=
#      and WATCHDOG=1 from the arm64 app are checked;
#   4. takes a screenshot of the start screen (Xvfb's frame buffer file, converted to PNG), and runs
#      `companion doctor` and `companion status` as the user companion.
# Results (screenshot, logs, recorded systemctl calls, timings) go to --out (default
# artifacts/pi-check in the checkout). Exit status 0 only when every step passed.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
CACHE=${COMPANION_PI_CHECK_CACHE:-/var/cache/companion-pi-check}
OUT=$REPO/artifacts/pi-check
FRESH=0
while [ $# -gt 0 ]; do
  case "$1" in
    --cache) CACHE=$2; shift ;;
    --out) OUT=$2; shift ;;
    --fresh) FRESH=1 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
ROOT=$CACHE/bookworm-arm64
MIRROR=${COMPANION_PI_CHECK_MIRROR:-http://deb.debian.org/debian}
SECURITY=${COMPANION_PI_CHECK_SECURITY:-http://deb.debian.org/debian-security}
START=$(date +%s)
mkdir -p "$OUT"
rm -f "$OUT"/*.log "$OUT"/*.txt "$OUT"/*.png
TIMES=$OUT/timings.txt

log() { printf '[%4ss] %s\n' "$(($(date +%s) - START))" "$*"; }
fail() { log "FAIL: $*"; exit 1; }
phase() { printf '%-44s %5ss\n' "$1" "$2" >> "$TIMES"; }

[ "$(id -u)" = 0 ] || fail "run as root (debootstrap needs it): sudo $0"

host_tools() {
  local missing=""
  for pair in debootstrap:debootstrap proot:proot qemu-aarch64-static:qemu-user-static rsync:rsync git:git; do
    command -v "${pair%%:*}" >/dev/null || missing="$missing ${pair##*:}"
  done
  if [ -n "$missing" ]; then
    log "installing Debian packages:$missing"
    # shellcheck disable=SC2086
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  fi
}

# Debian bookworm's proot (5.1.0) does not know the statx and faccessat2 system calls, which
# bookworm's glibc uses for stat() and access(): their paths would reach the host's file system
# unmapped (the root's /opt/companion looked missing, and unwritable, because the host has an /opt).
# This wrapper makes them fail with ENOSYS for proot and everything under it (a seccomp filter), so
# glibc and qemu fall back to fstatat and faccessat, which proot maps.
NOSTATX=$CACHE/nostatx.py
mkdir -p "$CACHE"
cat > "$NOSTATX" <<'EOF'
import ctypes, os, platform, struct, sys
# statx, openat2, faccessat2: newer than proot 5.1, so it would pass their paths through unmapped
numbers = {"x86_64": (332, 437, 439), "aarch64": (291, 437, 439)}.get(platform.machine())
arch = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}.get(platform.machine())  # AUDIT_ARCH_*
if numbers is not None:
    def op(code, k, jt=0, jf=0):
        return struct.pack("HBBI", code, jt, jf, k)
    allow, enosys = 0x7FFF0000, 0x00050000 | 38
    program = op(0x20, 4) + op(0x15, arch, 1, 0) + op(0x06, allow)  # another architecture: allow
    program += op(0x20, 0)  # the system call's number
    for nr in numbers:
        program += op(0x15, nr, 0, 1) + op(0x06, enosys)
    program += op(0x06, allow)
    code = ctypes.create_string_buffer(program)
    class Prog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
    prog = Prog(len(program) // 8, ctypes.addressof(code))
    libc = ctypes.CDLL(None, use_errno=True)
    # PR_SET_NO_NEW_PRIVS, then PR_SET_SECCOMP with SECCOMP_MODE_FILTER
    if libc.prctl(38, 1, 0, 0, 0) or libc.prctl(22, 2, ctypes.byref(prog), 0, 0):
        raise SystemExit("seccomp: " + os.strerror(ctypes.get_errno()))
os.execvp(sys.argv[1], sys.argv[1:])
EOF

# Run a command in the arm64 root as (fake) root, with a clean environment.
in_root() {
  env -i HOME=/root LANG=C.UTF-8 TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    python3 "$NOSTATX" proot -0 -q qemu-aarch64-static -r "$ROOT" -b /dev -b /proc -b /sys -w / "$@"
}
# The same in the background; $! is then proot's own process id.
in_root_bg() {
  (exec env -i HOME=/root LANG=C.UTF-8 TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    python3 "$NOSTATX" proot -0 -q qemu-aarch64-static -r "$ROOT" -b /dev -b /proc -b /sys -w / "$@") &
}

build_root() {
  local t0
  t0=$(date +%s)
  rm -rf "$ROOT"
  mkdir -p "$CACHE"
  log "debootstrap (first stage) bookworm arm64 -> $ROOT"
  debootstrap --arch=arm64 --foreign --variant=minbase \
    --include=debian-archive-keyring,ca-certificates \
    bookworm "$ROOT" "$MIRROR" > "$OUT/debootstrap.log" 2>&1 || fail "debootstrap: see $OUT/debootstrap.log"
  log "debootstrap (second stage, emulated: slow)"
  DEBOOTSTRAP_DIR=/debootstrap in_root /bin/sh /debootstrap/debootstrap --second-stage \
    >> "$OUT/debootstrap.log" 2>&1 || fail "debootstrap second stage: see $OUT/debootstrap.log"
  # The host's own certificate authorities (e.g. a company proxy's) for apt and pip in the root.
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    mkdir -p "$ROOT/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    in_root update-ca-certificates >/dev/null 2>&1 || true
  fi
  cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
  local key="[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]"
  printf 'deb %s %s bookworm main\ndeb %s %s bookworm-updates main\ndeb %s %s bookworm-security main\n' \
    "$key" "$MIRROR" "$key" "$MIRROR" "$key" "$SECURITY" > "$ROOT/etc/apt/sources.list"
  # systemd-tmpfiles (run by systemd's postinst) has nothing to do in a root that never boots (and
  # tripped an assertion in proot before statx was hidden): a no-op stands in for it.
  in_root /usr/bin/dpkg-divert --local --rename --divert /usr/bin/systemd-tmpfiles.real --add /usr/bin/systemd-tmpfiles \
    >> "$OUT/debootstrap.log" 2>&1
  printf '#!/bin/sh\n# pi-check: systemd-tmpfiles crashes proot; nothing boots in this root.\nexit 0\n' \
    > "$ROOT/usr/bin/systemd-tmpfiles"
  chmod 0755 "$ROOT/usr/bin/systemd-tmpfiles"
  # Nothing boots in the root: packages must not try to start services.
  printf '#!/bin/sh\n# pi-check: nothing boots in this root, so no package starts a service.\nexit 101\n' \
    > "$ROOT/usr/sbin/policy-rc.d"
  chmod 0755 "$ROOT/usr/sbin/policy-rc.d"
  log "Raspberry Pi OS Lite's basics (systemd, udev, sudo, git) and the harness's arm64 Xvfb, in the root"
  in_root /bin/sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      systemd systemd-sysv udev dbus sudo git procps \
      xvfb xauth libx11-6 libxext6 libxcursor1 libxi6 libxrandr2 libxss1 libxinerama1 libxfixes3 >/dev/null' \
    >> "$OUT/debootstrap.log" 2>&1 || fail "apt-get in the root: see $OUT/debootstrap.log"
  # The Pi's first user, who clones the repository (Raspberry Pi Imager creates one).
  in_root /bin/sh -c 'id pi >/dev/null 2>&1 || useradd --create-home --uid 1000 --shell /bin/bash pi'
  touch "$ROOT/.companion-base-ok"
  phase "build the arm64 root (once, cached)" $(($(date +%s) - t0))
}

# systemctl as a recorder: there is no systemd running in the root.
install_recorder() {
  mkdir -p "$ROOT/usr/local/sbin" "$ROOT/var/log/pi-check"
  cat > "$ROOT/usr/local/sbin/systemctl" <<'EOF'
#!/bin/sh
echo "systemctl $*" >> /var/log/pi-check/systemctl.log
case "$1" in
  get-default) echo multi-user.target ;;
  is-enabled | is-active) exit 1 ;;
esac
exit 0
EOF
  chmod 0755 "$ROOT/usr/local/sbin/systemctl"
  : > "$ROOT/var/log/pi-check/systemctl.log"
}

run_installer() {
  local name=$1 t0
  t0=$(date +%s)
  log "install-pi.sh ($name)"
  in_root /bin/bash -c 'cd /home/pi/companion && SUDO_USER=pi deploy/install-pi.sh' > "$OUT/install-$name.log" 2>&1 \
    || { tail -30 "$OUT/install-$name.log"; fail "the installer failed ($name): $OUT/install-$name.log"; }
  phase "install-pi.sh ($name)" $(($(date +%s) - t0))
}

expect() {  # expect DESCRIPTION COMMAND...: a check inside the root
  local what=$1
  shift
  if in_root /bin/sh -c "$*" >/dev/null 2>&1; then log "ok: $what"; else fail "$what ($*)"; fi
}

host_tools
if [ "$FRESH" = 1 ] || [ ! -f "$ROOT/.companion-base-ok" ]; then build_root; else log "reusing the arm64 root in $ROOT"; fi
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
install_recorder

log "cloning the checkout to /home/pi/companion (as the user would), with the working tree's changes on top"
rm -rf "$ROOT/home/pi/companion"
git clone -q "$REPO" "$ROOT/home/pi/companion"
rsync -a --exclude .git --exclude .venv --exclude artifacts --exclude '__pycache__' --exclude '*.egg-info' \
  --exclude .mypy_cache --exclude .ruff_cache --exclude .pytest_cache --exclude .hypothesis \
  "$REPO"/ "$ROOT/home/pi/companion/"

if [ "${COMPANION_PI_CHECK_SKIP_INSTALL:-0}" = 1 ]; then
  log "COMPANION_PI_CHECK_SKIP_INSTALL=1: using the installed app as it is"
else
run_installer first
cp "$ROOT/var/log/pi-check/systemctl.log" "$OUT/systemctl-first.txt"
grep -qx "systemctl enable companion.service" "$OUT/systemctl-first.txt" || fail "the installer did not enable the unit"
grep -qx "systemctl restart companion.service" "$OUT/systemctl-first.txt" || fail "the installer did not start the unit"
expect "unit installed, wanted by multi-user.target" "grep -qx WantedBy=multi-user.target /etc/systemd/system/companion.service"
# shellcheck disable=SC2016  # these run in the root's shell
expect "config 0640 root:companion" '[ "$(stat -c %a:%U:%G /etc/companion/companion.toml)" = 640:root:companion ]'
expect "data dir written into the config" "grep -qx 'data_dir = \"/var/lib/companion\"' /etc/companion/companion.toml"
expect "no example pins in the default config" "! grep -q '^pin' /etc/companion/companion.toml"
expect "companion --version" "/usr/local/bin/companion --version | grep -q '^companion '"
# shellcheck disable=SC2016
expect "user companion in dialout, video, input, render, gpio" \
  'for g in dialout video input render gpio; do id -nG companion | tr " " "\n" | grep -qx $g || exit 1; done'
expect "QR codes render on the Pi (PNG for the touchscreen)" \
  "/opt/companion/.venv/bin/python -c 'from companion.app.qr import qr_png; assert qr_png(\"http://10.42.0.1:8080/s/x\").startswith(b\"\\x89PNG\")'"
in_root /usr/local/bin/companion --version > "$OUT/version.txt"

: > "$ROOT/var/log/pi-check/systemctl.log"
echo "# local change" >> "$ROOT/etc/companion/companion.toml"
run_installer update
cp "$ROOT/var/log/pi-check/systemctl.log" "$OUT/systemctl-update.txt"
grep -qx "systemctl restart companion.service" "$OUT/systemctl-update.txt" || fail "the update did not restart the unit"
expect "the update kept the edited config" "tail -n 1 /etc/companion/companion.toml | grep -qx '# local change'"

fi

t0=$(date +%s)
in_root systemd-analyze verify /etc/systemd/system/companion.service > "$OUT/verify.txt" 2>&1 \
  || { cat "$OUT/verify.txt"; fail "systemd-analyze verify"; }
[ ! -s "$OUT/verify.txt" ] || { cat "$OUT/verify.txt"; fail "systemd-analyze verify printed warnings"; }
log "ok: systemd-analyze verify companion.service (arm64 systemd)"
phase "systemd-analyze verify (in the root)" $(($(date +%s) - t0))

# ---------------------------------------------------------------------------- the app, as the unit runs it
t0=$(date +%s)
UNIT_ENV=$(sed -n 's/^Environment=//p' "$ROOT/etc/systemd/system/companion.service" | tr '\n' ' ')
EXEC=$(sed -n 's/^ExecStart=//p' "$ROOT/etc/systemd/system/companion.service")
rm -rf "$ROOT/tmp/fb" "$ROOT/tmp/.X11-unix/X7" "$ROOT/tmp/.X7-lock" "$ROOT/run/pi-check"
mkdir -p "$ROOT/tmp/fb" "$ROOT/run/pi-check"
chmod 1777 "$ROOT/tmp"
chmod 0777 "$ROOT/run/pi-check"

log "arm64 Xvfb :7 at 800x480"
in_root_bg /usr/bin/Xvfb :7 -screen 0 800x480x24 -fbdir /tmp/fb -nolisten tcp > "$OUT/xvfb.log" 2>&1
XVFB=$!
NOTIFY_LOG=$OUT/notify.txt
# systemd's side of the notification socket: every datagram with its sender's process id.
# An abstract-namespace socket: proot does not map sendto()'s address, and systemd uses such names too.
NOTIFY_NAME=companion-pi-check-$$
python3 - "$NOTIFY_NAME" "$NOTIFY_LOG" <<'EOF' &
import os, socket, struct, sys, time
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind("\0" + sys.argv[1])
sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
sock.settimeout(1.0)
end = time.monotonic() + 3600
with open(sys.argv[2], "a") as out:
    while time.monotonic() < end:
        try:
            data, anc, _, _ = sock.recvmsg(65536, socket.CMSG_SPACE(12))
        except socket.timeout:
            continue
        pid = next((struct.unpack("3i", d)[0] for lvl, kind, d in anc if kind == socket.SCM_CREDENTIALS), 0)
        out.write(f"{time.time():.1f} pid={pid} " + data.decode(errors="replace").replace("\n", " | ") + "\n")
        out.flush()
EOF
LISTENER=$!
cleanup() {  # proot ignores SIGTERM: end what runs under it (its children), then proot itself
  local pid
  for pid in ${APP:-} $XVFB; do
    pkill -TERM -P "$pid" 2>/dev/null || true
    kill "$pid" 2>/dev/null || true
  done
  kill "$LISTENER" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 1 120); do [ -S "$ROOT/tmp/.X11-unix/X7" ] && break; sleep 1; done
[ -S "$ROOT/tmp/.X11-unix/X7" ] || fail "Xvfb did not start: $OUT/xvfb.log"

# Mesa's llvmpipe dies under qemu-user (realloc(): invalid pointer): softpipe draws instead.
log "starting the installed app as the unit would (SDL on Xvfb instead of KMS/DRM, Mesa softpipe)"
# shellcheck disable=SC2086
# As proot's (fake) root: proot cannot switch to another user (setresgid fails), so the user
# companion's file access is not part of this check.
in_root_bg /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/var/lib/companion LANG=C.UTF-8 $UNIT_ENV \
  SDL_VIDEODRIVER=x11 DISPLAY=:7 NOTIFY_SOCKET="@$NOTIFY_NAME" WATCHDOG_USEC=30000000 \
  ${COMPANION_PI_CHECK_APP_ENV:-GALLIUM_DRIVER=softpipe} \
  /bin/sh -c "cd /var/lib/companion && exec $EXEC" > "$OUT/app.log" 2>&1
APP=$!
for _ in $(seq 1 900); do
  grep -q "READY=1" "$NOTIFY_LOG" 2>/dev/null && break
  kill -0 "$APP" 2>/dev/null || { tail -40 "$OUT/app.log"; fail "the app exited before READY=1"; }
  sleep 1
done
grep -q "READY=1" "$NOTIFY_LOG" || { tail -40 "$OUT/app.log"; fail "no READY=1 from the app in 15 minutes"; }
phase "app start until READY=1 (emulated)" $(($(date +%s) - t0))
log "ok: READY=1 ($(grep -m1 READY=1 "$NOTIFY_LOG" | sed 's/.*STATUS=//'))"
sleep 20  # the first frames under emulation
python3 - "$ROOT/tmp/fb/Xvfb_screen0" "$OUT/start-screen.png" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
for order in (">", "<"):  # the XWD header's byte order is the writer's
    head = struct.unpack(order + "25I", data[:100])
    if 100 <= head[0] < 4096 and head[1] == 7:
        break
else:
    raise SystemExit("not an XWD frame buffer")
size, _, _, depth, width, height = head[:6]
bpp, bpl, ncolors = head[11], head[12], head[19]
assert bpp == 32, f"{bpp} bits per pixel"
pixels = data[size + 12 * ncolors :]
rows = []
for y in range(height):
    row = pixels[y * bpl : y * bpl + width * 4]
    rows.append(b"\0" + b"".join(bytes((row[i + 2], row[i + 1], row[i])) for i in range(0, len(row), 4)))
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
open(sys.argv[2], "wb").write(png)
distinct = len({rows[y][1 + 3 * x : 4 + 3 * x] for y in range(0, height, 8) for x in range(0, width, 8)})
print(f"{width}x{height}, {distinct} distinct colours in a sample")
if distinct < 4:
    raise SystemExit("the screen is (nearly) one colour: nothing was drawn")
EOF
log "ok: screenshot $OUT/start-screen.png"
sleep 20
WATCHDOGS=$(grep -c "WATCHDOG=1" "$NOTIFY_LOG" || true)
[ "$WATCHDOGS" -ge 2 ] || fail "the app fed the watchdog $WATCHDOGS times in the first 40 s after READY (expected every 15 s)"
log "ok: WATCHDOG=1 x$WATCHDOGS, last status: $(grep STATUS= "$NOTIFY_LOG" | tail -n 1 | sed 's/.*STATUS=//')"

t0=$(date +%s)
in_root /usr/bin/env -i PATH=/usr/bin:/bin \
  HOME=/var/lib/companion LANG=C.UTF-8 /usr/local/bin/companion doctor > "$OUT/doctor.txt" 2>&1 \
  || { cat "$OUT/doctor.txt"; fail "companion doctor"; }
grep -q "OpenGL" "$OUT/doctor.txt" || fail "companion doctor does not show the app's OpenGL facts"
in_root /usr/bin/env -i PATH=/usr/bin:/bin \
  HOME=/var/lib/companion LANG=C.UTF-8 /usr/local/bin/companion status > "$OUT/status.txt" 2>&1 \
  || { cat "$OUT/status.txt"; fail "companion status"; }
grep -q "/var/lib/companion" "$OUT/status.txt" || fail "companion status does not show the data directory"
log "ok: companion doctor and companion status (with the service's data directory, from the config)"
phase "doctor + status (emulated)" $(($(date +%s) - t0))

# SIGTERM to the app itself (the process that sent READY=1), as systemctl stop would.
APP_PID=$(grep -m1 "READY=1" "$NOTIFY_LOG" | sed -n 's/.* pid=\([0-9]*\) .*/\1/p')
if [ -n "$APP_PID" ] && [ "$APP_PID" != 0 ]; then kill -TERM "$APP_PID" 2>/dev/null || true; fi
for _ in $(seq 1 60); do kill -0 "$APP" 2>/dev/null || break; sleep 1; done
grep -q "STOPPING=1" "$NOTIFY_LOG" && log "ok: STOPPING=1 on SIGTERM"
grep -q $'\e\[' "$OUT/app.log" && fail "ANSI colour codes in the app's log"
[ -z "$(ls -A "$ROOT/var/lib/companion/kivy/logs" 2>/dev/null)" ] || fail "Kivy wrote log files under KIVY_HOME/logs"
log "ok: plain log lines, no Kivy log files"
# ---------------------------------------------------------------------------- the Desktop image's set-up
: > "$ROOT/var/log/pi-check/systemctl.log"
t0=$(date +%s)
log "install-pi.sh --mode desktop (the same root as a Desktop image: autostart for the user pi)"
in_root /bin/bash -c 'cd /home/pi/companion && SUDO_USER=pi deploy/install-pi.sh --mode desktop' \
  > "$OUT/install-desktop.log" 2>&1 || { tail -30 "$OUT/install-desktop.log"; fail "the installer failed (desktop)"; }
cp "$ROOT/var/log/pi-check/systemctl.log" "$OUT/systemctl-desktop.txt"
phase "install-pi.sh --mode desktop" $(($(date +%s) - t0))
expect "autostart entry for pi" "grep -qx 'Exec=/opt/companion/deploy/companion-desktop-start' /home/pi/.config/autostart/companion.desktop"
# shellcheck disable=SC2016
expect "autostart entry owned by pi" '[ "$(stat -c %U /home/pi/.config/autostart/companion.desktop)" = pi ]'
expect "user unit installed, system unit gone" "[ -f /etc/systemd/user/companion.service ] && [ ! -e /etc/systemd/system/companion.service ]"
expect "pi reads the config (group companion), owns the data" \
  "id -nG pi | tr ' ' '\n' | grep -qx companion && [ \"\$(stat -c %U /var/lib/companion)\" = pi ]"
grep -qx "systemctl disable --now companion.service" "$OUT/systemctl-desktop.txt" || fail "the system unit was not disabled"
in_root /bin/sh -c 'mkdir -p /run/user/1000 && XDG_RUNTIME_DIR=/run/user/1000 systemd-analyze --user verify /etc/systemd/user/companion.service' \
  > "$OUT/verify-user.txt" 2>&1 || { cat "$OUT/verify-user.txt"; fail "systemd-analyze --user verify"; }
[ ! -s "$OUT/verify-user.txt" ] || { cat "$OUT/verify-user.txt"; fail "systemd-analyze --user verify printed warnings"; }
log "ok: desktop set-up; systemd-analyze --user verify companion.service"
phase "total" $(($(date +%s) - START))
log "PASSED. Results in $OUT:"
cat "$TIMES"
