#!/usr/bin/env bash
# The emulated Pi check (`make pi-check`): the real installer in Debian arm64 roots of both
# releases Raspberry Pi OS is built on, 12 "bookworm" (Python 3.11) and 13 "trixie" (Python 3.13),
# then the installed app, as the service user, drawing its start screen under an arm64 Xvfb.
#
#   sudo deploy/check-arm64.sh [--release bookworm|trixie]... [--fresh] [--build-only]
#                              [--cache DIR] [--out DIR] [--app-only]
#
# Debian's debootstrap + qemu-user-static + proot build each root (no binfmt_misc, no chroot);
# Debian arm64 stands in for Raspberry Pi OS, whose own archive is not used here. A root is built
# once and kept in the cache directory (default /var/cache/companion-pi-check, outside the
# repository; --fresh rebuilds it). Every command in a root runs as the host's real root under
# proot (no fake root: chown, setuid and group membership are real, so the app runs as the user
# `companion`) and inside a private mount namespace, so nothing a package mounts or unmounts there
# reaches the host; the host's mount table is compared before and after (guard_mounts).
# For each release (both unless --release names one), each run:
#   1. clones this checkout to /home/pi/companion in the root (the working tree's changes on top)
#      and runs deploy/install-pi.sh there as root. systemctl is a stand-in
#      (deploy/pi-check-systemctl) that knows the unit files that exist and refuses anything else;
#      no systemd runs in the root. It checks what the installer did, then runs it again as an
#      update after deleting a module from the checkout and adding a package to the venv: neither
#      may survive the update;
#   2. runs `systemd-analyze verify` on the installed unit with the root's own systemd;
#   3. starts the installed app the way the unit does: as its User= and Group= with the user's
#      groups, in its WorkingDirectory= with its UMask=, its Environment= and ExecStart=, before
#      any display exists; the app must wait (STATUS= says so) and come up once an arm64 Xvfb at
#      800x480 starts. Two changes from the Pi: SDL draws to that X server instead of KMS/DRM, and
#      NOTIFY_SOCKET points at a socket this script listens on (READY=1, STATUS=, WATCHDOG=1);
#   4. screenshots the start screen; runs `companion doctor`, `status` and `doctor --bundle` as the
#      user companion and `companion status` as the Pi's user pi (with and without the group the
#      installer gave it); sends SIGTERM (STOPPING=1);
#   5. installs the same root as a Desktop image (`--mode desktop`), then uninstalls
#      (`--uninstall`: the program goes, the saved games and the configuration stay).
# Results (screenshots, logs, recorded systemctl calls, timings) go to --out (default
# artifacts/pi-check in the checkout), one folder per release. Exit status 0 only when every step
# of every release passed and the host's mounts are as they were.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
CACHE=${COMPANION_PI_CHECK_CACHE:-/var/cache/companion-pi-check}
OUT_BASE=$REPO/artifacts/pi-check
FRESH=0
BUILD_ONLY=0
APP_ONLY=0  # for trying the app's steps again on an installed root: no install, no update
RELEASES=""
while [ $# -gt 0 ]; do
  case "$1" in
    --cache) CACHE=$2; shift ;;
    --out) OUT_BASE=$2; shift ;;
    --fresh) FRESH=1 ;;
    --build-only) BUILD_ONLY=1 ;;
    --app-only) APP_ONLY=1 ;;
    --release)
      case "${2:-}" in bookworm | trixie) RELEASES="$RELEASES $2" ;; *) echo "--release: bookworm or trixie" >&2; exit 2 ;; esac
      shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
RELEASES=${RELEASES:-bookworm trixie}
MIRROR=${COMPANION_PI_CHECK_MIRROR:-http://deb.debian.org/debian}
SECURITY=${COMPANION_PI_CHECK_SECURITY:-http://deb.debian.org/debian-security}
TOOLS=$REPO/deploy/pi-check-tools.py
START=$(date +%s)
RELEASE=""
ROOT=""
OUT=$OUT_BASE
mkdir -p "$OUT_BASE"
RELEASES=$(echo $RELEASES)  # one space between names
TIMES=$OUT_BASE/timings-${RELEASES// /-}.txt

log() { printf '[%5ss]%s %s\n' "$(($(date +%s) - START))" "${RELEASE:+ $RELEASE:}" "$*"; }
fail() { log "FAIL: $*"; exit 1; }
phase() { printf '%-9s %-58s %6ss\n' "${RELEASE:--}" "$1" "$2" | tee -a "$TIMES" >/dev/null; }

[ "$(id -u)" = 0 ] || { echo "run as root (debootstrap needs it): sudo $0" >&2; exit 1; }
mkdir -p "$CACHE"
: > "$TIMES"

# ---------------------------------------------------------------------------- the host's mounts
# Building a root as root once left this machine's /dev/pts unmounted: debootstrap's second stage
# unmounts /dev/pts and /proc when it ends, and under proot those are the host's. Every command in
# a root now runs in a private mount namespace (unshare), and this guard compares the host's mount
# table at the end with the one at the start: a missing /dev/pts is mounted again with its old
# options, and any difference fails the check.
MOUNTS_BEFORE=$(mktemp)
sort /proc/mounts > "$MOUNTS_BEFORE"
BACKGROUND=""
guard_mounts() {
  local status=$? pid line options
  for pid in $BACKGROUND; do  # what this script started in the background, and its children
    pkill -KILL -P "$pid" 2>/dev/null || true
    kill -KILL "$pid" 2>/dev/null || true
  done
  if grep -q ' /dev/pts devpts ' "$MOUNTS_BEFORE" && ! grep -q ' /dev/pts devpts ' /proc/mounts; then
    line=$(grep -m1 ' /dev/pts devpts ' "$MOUNTS_BEFORE")
    options=$(printf '%s' "$line" | cut -d' ' -f4)
    log "FAIL: the host's /dev/pts was unmounted; mounting it again ($options)"
    mount -t devpts devpts /dev/pts -o "$options" || mount -t devpts devpts /dev/pts -o gid=5,mode=620,ptmxmode=666
    status=1
  fi
  if ! diff -u "$MOUNTS_BEFORE" <(sort /proc/mounts) > "$OUT_BASE/mounts-diff.txt"; then
    log "FAIL: the host's mounts changed during the check ($OUT_BASE/mounts-diff.txt):"
    sed 's/^/    /' "$OUT_BASE/mounts-diff.txt"
    status=1
  else
    RELEASE="" log "the host's mounts are as they were ($(wc -l < "$MOUNTS_BEFORE") lines of /proc/mounts, compared)"
    rm -f "$OUT_BASE/mounts-diff.txt"
  fi
  rm -f "$MOUNTS_BEFORE"
  RELEASE="" log "$([ "$status" = 0 ] && echo PASSED || echo FAILED): $RELEASES; times in $TIMES"
  exit "$status"
}
trap guard_mounts EXIT
trap 'exit 143' TERM  # a stopped check is not a passed one (the EXIT trap sees this status)
trap 'exit 130' INT

host_tools() {
  local missing=""
  for pair in debootstrap:debootstrap proot:proot qemu-aarch64-static:qemu-user-static rsync:rsync git:git \
    unshare:util-linux; do
    command -v "${pair%%:*}" >/dev/null || missing="$missing ${pair##*:}"
  done
  if [ -n "$missing" ]; then
    log "installing Debian packages:$missing"
    # shellcheck disable=SC2086
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  fi
}

# Debian bookworm's proot (5.1.0) does not know the statx, faccessat2 and openat2 system calls,
# which newer glibc uses for stat(), access() and open(): their paths would reach the host's file
# system unmapped (the root's /opt/companion looked missing, and unwritable, because the host has
# an /opt). This wrapper makes them fail with ENOSYS for proot and everything under it (a seccomp
# filter), so glibc and qemu fall back to the calls proot maps.
NOSTATX=$CACHE/nostatx.py
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

ROOT_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# Run a command in the arm64 root as root, with a clean environment, in a private mount namespace.
in_root() {
  env -i HOME=/root LANG=C.UTF-8 TERM=dumb PATH=$ROOT_PATH \
    unshare --mount --propagation private \
    python3 "$NOSTATX" proot -q qemu-aarch64-static -r "$ROOT" -b /dev -b /proc -b /sys -w / "$@"
}
# The same in the background; $! is then unshare's process id (proot runs as its child).
in_root_bg() {
  (exec env -i HOME=/root LANG=C.UTF-8 TERM=dumb PATH=$ROOT_PATH \
    unshare --mount --propagation private \
    python3 "$NOSTATX" proot -q qemu-aarch64-static -r "$ROOT" -b /dev -b /proc -b /sys -w / "$@") &
  BACKGROUND="$BACKGROUND $!"
}
# A command in the root as USER (real setresuid through setpriv), with the user's groups unless
# GROUPS is given (a comma-separated list, e.g. the groups before the installer added one).
# proot's loader is readable by root alone (0500), so a process that is no longer root can start
# one program (setpriv's own exec) but not a second: the environment is set before setpriv, and
# the command's own subprocesses (systemctl, journalctl) fail there, which it reports.
as_user() {
  local user=$1 groups=$2
  shift 2
  local how="--init-groups"
  [ -n "$groups" ] && how="--groups=$groups"
  in_root /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 HOME="$(home_of "$user")" USER="$user" \
    /usr/bin/setpriv --reuid="$user" --regid="$user" "$how" "$@"
}
# `systemd-analyze verify` with the root's own systemd. Bookworm's (252) runs in the root under proot;
# trixie's (257) aborts there (an assertion in chase(), as systemd-sysusers does), so it runs under
# qemu-user alone with --root, which finds the unit, its ExecStart= programs and its dependencies in
# the root (checked: a bad key and a missing program in a copy are both reported).
verify_unit() {
  if [ "$RELEASE" = bookworm ]; then
    in_root systemd-analyze verify "$1"
  else
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
      qemu-aarch64-static -L "$ROOT" "$ROOT/usr/bin/systemd-analyze" verify --root="$ROOT" "$1"
  fi
}
# The Desktop's user unit. --root is for the system scope only, so on trixie a copy of the user unit
# is checked in the system scope (its keys, values and programs by 257; bookworm checks the scope).
verify_user_unit() {
  if [ "$RELEASE" = bookworm ]; then
    in_root /bin/sh -c "mkdir -p /run/user/1000 && XDG_RUNTIME_DIR=/run/user/1000 systemd-analyze --user verify $1"
  else
    local copy=/etc/systemd/system/companion-user-unit-check.service status=0
    cp "$ROOT$1" "$ROOT$copy"
    verify_unit "$copy" 2>&1 | sed "s|$ROOT$copy|$1|; s|companion-user-unit-check.service|companion.service|" || status=$?
    rm -f "$ROOT$copy"
    return "$status"
  fi
}
home_of() { awk -F: -v u="$1" '$1 == u { print $6 }' "$ROOT/etc/passwd"; }

build_root() {
  local t0 key name
  t0=$(date +%s)
  rm -rf "$ROOT"
  log "debootstrap (first stage) $RELEASE arm64 -> $ROOT"
  debootstrap --arch=arm64 --foreign --variant=minbase \
    --include=debian-archive-keyring,ca-certificates \
    "$RELEASE" "$ROOT" "$MIRROR" > "$OUT/debootstrap.log" 2>&1 || fail "debootstrap: see $OUT/debootstrap.log"
  phase "root: debootstrap, first stage" $(($(date +%s) - t0))
  t0=$(date +%s)
  log "debootstrap (second stage, emulated: slow)"
  DEBOOTSTRAP_DIR=/debootstrap in_root /bin/sh /debootstrap/debootstrap --second-stage \
    >> "$OUT/debootstrap.log" 2>&1 || fail "debootstrap second stage: see $OUT/debootstrap.log"
  phase "root: debootstrap, second stage (emulated)" $(($(date +%s) - t0))
  t0=$(date +%s)
  # The host's own certificate authorities (e.g. a company proxy's) for apt and pip in the root.
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    mkdir -p "$ROOT/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    in_root update-ca-certificates >/dev/null 2>&1 || true
  fi
  cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
  key="[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]"
  printf 'deb %s %s %s main\ndeb %s %s %s-updates main\ndeb %s %s %s-security main\n' \
    "$key" "$MIRROR" "$RELEASE" "$key" "$MIRROR" "$RELEASE" "$key" "$SECURITY" "$RELEASE" \
    > "$ROOT/etc/apt/sources.list"
  # systemd-tmpfiles (run by systemd's postinst) has nothing to do in a root that never boots, and
  # kills proot: a no-op stands in for it. dpkg diverts a file by the name in the package, and
  # bookworm's systemd ships /bin/systemd-tmpfiles while trixie's ships /usr/bin/systemd-tmpfiles;
  # in a merged-/usr root both names are one file, so both are diverted (to two names).
  # trixie's systemd-sysusers aborts under proot (an assertion in chase()): pi-check-sysusers makes
  # the sysusers.d groups and users with groupadd and useradd instead (diverted the same way).
  for name in /bin/systemd-tmpfiles /usr/bin/systemd-tmpfiles /bin/systemd-sysusers /usr/bin/systemd-sysusers; do
    in_root /usr/bin/dpkg-divert --local --rename --divert "$name.pi-check$(dirname "$name" | tr / -)" --add "$name" \
      >> "$OUT/debootstrap.log" 2>&1 || fail "dpkg-divert $name: see $OUT/debootstrap.log"
  done
  printf '#!/bin/sh\n# pi-check: systemd-tmpfiles crashes proot; nothing boots in this root.\nexit 0\n' \
    > "$ROOT/usr/bin/systemd-tmpfiles"
  chmod 0755 "$ROOT/usr/bin/systemd-tmpfiles"
  install -m 0755 "$REPO/deploy/pi-check-sysusers" "$ROOT/usr/bin/systemd-sysusers"
  # apt runs its download and signature methods as the user _apt; under proot (as under the
  # fake root before) they fail there ("Couldn't execute /usr/bin/apt-key", sqv error 123), so in
  # this root they run as root, as every other apt step does.
  printf 'APT::Sandbox::User "root";\n' > "$ROOT/etc/apt/apt.conf.d/99pi-check-sandbox"
  # Nothing boots in the root: packages must not try to start services.
  printf '#!/bin/sh\n# pi-check: nothing boots in this root, so no package starts a service.\nexit 101\n' \
    > "$ROOT/usr/sbin/policy-rc.d"
  chmod 0755 "$ROOT/usr/sbin/policy-rc.d"
  log "Raspberry Pi OS Lite's basics (systemd, udev, sudo, git) and the harness's arm64 Xvfb, in the root"
  in_root /bin/sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      systemd systemd-sysv udev dbus sudo git procps \
      xvfb xauth libx11-6 libxext6 libxcursor1 libxi6 libxrandr2 libxss1 libxinerama1 libxfixes3 >/dev/null' \
    >> "$OUT/debootstrap.log" 2>&1 || fail "apt-get in the root: see $OUT/debootstrap.log"
  grep -q pi-check "$ROOT/usr/bin/systemd-tmpfiles" || fail "the systemd package overwrote the systemd-tmpfiles stand-in"
  grep -q pi-check "$ROOT/usr/bin/systemd-sysusers" || fail "the systemd package overwrote the systemd-sysusers stand-in"
  in_root getent group systemd-journal >/dev/null || fail "the system groups of sysusers.d were not made"
  # The Pi's first user, who clones the repository (Raspberry Pi Imager creates one).
  in_root /bin/sh -c 'id pi >/dev/null 2>&1 || useradd --create-home --uid 1000 --shell /bin/bash pi'
  touch "$ROOT/.companion-base-ok"
  phase "root: systemd, udev, git, arm64 Xvfb (emulated apt)" $(($(date +%s) - t0))
}

install_systemctl() {
  mkdir -p "$ROOT/usr/local/sbin" "$ROOT/var/log/pi-check"
  install -m 0755 "$REPO/deploy/pi-check-systemctl" "$ROOT/usr/local/sbin/systemctl"
  : > "$ROOT/var/log/pi-check/systemctl.log"
  rm -rf "$ROOT/run/pi-check"
  mkdir -p "$ROOT/run/pi-check/active" "$ROOT/run/pi-check/status"
  chmod -R a+rX "$ROOT/run/pi-check"
}

run_installer() {  # run_installer NAME [OPTIONS]: deploy/install-pi.sh from the clone, as root
  local name=$1 t0
  shift
  t0=$(date +%s)
  log "install-pi.sh $* ($name)"
  : > "$ROOT/var/log/pi-check/systemctl.log"
  in_root /bin/bash -c "cd /home/pi/companion && SUDO_USER=pi deploy/install-pi.sh $*" > "$OUT/install-$name.log" 2>&1 \
    || { tail -30 "$OUT/install-$name.log"; fail "the installer failed ($name): $OUT/install-$name.log"; }
  cp "$ROOT/var/log/pi-check/systemctl.log" "$OUT/systemctl-$name.txt"
  phase "install-pi.sh $* ($name)" $(($(date +%s) - t0))
}

expect() {  # expect DESCRIPTION COMMAND: a check inside the root, as root
  local what=$1
  shift
  if in_root /bin/sh -c "$*" > "$OUT/expect.txt" 2>&1; then log "ok: $what"; else cat "$OUT/expect.txt"; fail "$what ($*)"; fi
}

clone_checkout() {
  log "cloning the checkout to /home/pi/companion (as the user would), with the working tree's changes on top"
  rm -rf "$ROOT/home/pi/companion"
  git clone -q "$REPO" "$ROOT/home/pi/companion"
  rsync -a --exclude .git --exclude .venv --exclude artifacts --exclude '__pycache__' --exclude '*.egg-info' \
    --exclude .mypy_cache --exclude .ruff_cache --exclude .pytest_cache --exclude .hypothesis --exclude build \
    "$REPO"/ "$ROOT/home/pi/companion/"
  chown -R 1000:1000 "$ROOT/home/pi/companion"
}

check_release() {
  local t0 py lgpio_apt
  ROOT=$CACHE/$RELEASE-arm64
  OUT=$OUT_BASE/$RELEASE
  mkdir -p "$OUT"
  rm -f "$OUT"/*.log "$OUT"/*.txt "$OUT"/*.png
  if [ "$FRESH" = 1 ] || [ ! -f "$ROOT/.companion-base-ok" ]; then build_root; else log "reusing the arm64 root in $ROOT"; fi
  [ "$BUILD_ONLY" = 1 ] && return 0
  cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
  install_systemctl
  case "$RELEASE" in bookworm) py=3.11 ;; trixie) py=3.13 ;; esac

  if [ "$APP_ONLY" = 1 ]; then
    log "--app-only: the app as it is installed in the root"
    run_app
    desktop_and_uninstall
    return 0
  fi
  # ------------------------------------------------------------------------ 1. install and update
  clone_checkout
  # A module this checkout has now and the next one will not: the update must not leave it behind.
  echo '"""pi-check: deleted before the update."""' > "$ROOT/home/pi/companion/companion/_pi_check_gone.py"
  run_installer first
  grep -qx "systemctl enable companion.service" "$OUT/systemctl-first.txt" || fail "the installer did not enable the unit"
  grep -qx "systemctl restart companion.service" "$OUT/systemctl-first.txt" || fail "the installer did not start the unit"
  expect "unit installed and enabled for multi-user.target" \
    "grep -qx WantedBy=multi-user.target /etc/systemd/system/companion.service && [ -L /etc/systemd/system/multi-user.target.wants/companion.service ]"
  # shellcheck disable=SC2016  # these run in the root's shell
  expect "config 0640 root:companion" '[ "$(stat -c %a:%U:%G /etc/companion/companion.toml)" = 640:root:companion ]'
  expect "data dir written into the config" "grep -qx 'data_dir = \"/var/lib/companion\"' /etc/companion/companion.toml"
  expect "no example pins in the default config" "! grep -q '^pin' /etc/companion/companion.toml"
  expect "companion --version" "/usr/local/bin/companion --version | grep -q '^companion '"
  expect "the venv runs Python $py" "/opt/companion/.venv/bin/python -c 'import sys; assert sys.version.startswith(\"$py.\"), sys.version'"
  expect "the Python packages' requirements are met (pip check)" "/opt/companion/.venv/bin/pip check"
  grep -q "deploy/requirements/py$py-aarch64.txt" "$OUT/install-first.log" || fail "the installer did not use the lock file py$py-aarch64"
  # shellcheck disable=SC2016
  expect "user companion in dialout, video, input, render, gpio" \
    'for g in dialout video input render gpio; do id -nG companion | tr " " "\n" | grep -qx $g || exit 1; done'
  # shellcheck disable=SC2016
  expect "the installing user pi is in the group companion (status and doctor read the config)" \
    'id -nG pi | tr " " "\n" | grep -qx companion'
  expect "QR codes render on the Pi (PNG for the touchscreen)" \
    "/opt/companion/.venv/bin/python -c 'from companion.app.qr import qr_png; assert qr_png(\"http://10.42.0.1:8080/s/x\").startswith(b\"\\x89PNG\")'"
  lgpio_apt=0
  in_root apt-cache show python3-lgpio >/dev/null 2>&1 && lgpio_apt=1
  if [ "$py" = 3.11 ] || [ "$lgpio_apt" = 1 ]; then
    expect "gpiozero's Pi 5 pin factory lgpio imports" "/opt/companion/.venv/bin/python -c 'import lgpio'"
  else
    grep -q "python3-lgpio" "$OUT/install-first.log" || fail "no word about python3-lgpio on $RELEASE without it"
    log "ok: no python3-lgpio in Debian $RELEASE's archive (Raspberry Pi OS has it): the installer said so"
  fi
  in_root /usr/local/bin/companion --version > "$OUT/version.txt"
  in_root /opt/companion/.venv/bin/pip freeze --all > "$OUT/pip-freeze.txt"

  # The update: a deleted module, a stray package in the venv, an edited config.
  rm -f "$ROOT/home/pi/companion/companion/_pi_check_gone.py"
  in_root /opt/companion/.venv/bin/pip install -q --disable-pip-version-check six > "$OUT/stray-package.log" 2>&1 \
    || fail "could not add a stray package: $OUT/stray-package.log"
  echo "# local change" >> "$ROOT/etc/companion/companion.toml"
  run_installer update
  grep -qx "systemctl restart companion.service" "$OUT/systemctl-update.txt" || fail "the update did not restart the unit"
  expect "the update kept the edited config" "tail -n 1 /etc/companion/companion.toml | grep -qx '# local change'"
  expect "nothing stale: the deleted module is gone from /opt/companion and the venv" \
    "[ -z \"\$(find /opt/companion -name '_pi_check_gone*')\" ]"
  expect "nothing stale: the stray package is gone from the venv" "! /opt/companion/.venv/bin/pip show six"

  t0=$(date +%s)
  verify_unit /etc/systemd/system/companion.service > "$OUT/verify.txt" 2>&1 \
    || { cat "$OUT/verify.txt"; fail "systemd-analyze verify"; }
  [ ! -s "$OUT/verify.txt" ] || { cat "$OUT/verify.txt"; fail "systemd-analyze verify printed warnings"; }
  log "ok: systemd-analyze verify companion.service ($RELEASE's arm64 systemd)"
  phase "systemd-analyze verify (in the root)" $(($(date +%s) - t0))

  run_app
  desktop_and_uninstall
}

run_app() {
  local t0 unit=/etc/systemd/system/companion.service USER GROUP WORKDIR UMASK ENV EXEC notify_name notify_log app app_pid
  t0=$(date +%s)
  eval "$(python3 "$TOOLS" unit "$ROOT$unit")"
  # One X display number per release: X's abstract socket is the host's, so two checks at once
  # (two releases) must not meet on one number.
  local XNUM=7
  [ "$RELEASE" = trixie ] && XNUM=8
  [ "$USER" = companion ] && [ "$GROUP" = companion ] || fail "the unit runs as $USER:$GROUP, not companion"
  rm -rf "$ROOT/tmp/fb" "$ROOT/tmp/.X11-unix/X$XNUM" "$ROOT/tmp/.X$XNUM-lock"
  mkdir -p "$ROOT/tmp/fb"
  chmod 1777 "$ROOT/tmp"
  notify_log=$OUT/notify.txt
  notify_name=companion-pi-check-$$-$RELEASE
  python3 "$TOOLS" notify "$notify_name" "$notify_log" "$ROOT/run/pi-check/status/companion.service" &
  BACKGROUND="$BACKGROUND $!"
  # systemd sets HOME, USER, LOGNAME and SHELL from the user's entry, and PATH; then the unit's
  # Environment=. No display exists yet: it comes 30 s later (a boot where the panel is slow).
  log "starting the installed app as the unit does ($USER:$GROUP, umask $UMASK, in $WORKDIR) before any display exists"
  in_root_bg /bin/sh -c "umask $UMASK && cd $WORKDIR && exec /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin \
    HOME=$(home_of "$USER") USER=$USER LOGNAME=$USER SHELL=/usr/sbin/nologin $ENV SDL_VIDEODRIVER=x11 DISPLAY=:$XNUM \
    NOTIFY_SOCKET=@$notify_name WATCHDOG_USEC=30000000 ${COMPANION_PI_CHECK_APP_ENV:-GALLIUM_DRIVER=softpipe} \
    /usr/bin/setpriv --reuid=$USER --regid=$GROUP --init-groups $EXEC" > "$OUT/app.log" 2>&1
  app=$!
  for _ in $(seq 1 600); do
    grep -q "STATUS=waiting for the display" "$notify_log" 2>/dev/null && break
    kill -0 "$app" 2>/dev/null || { tail -40 "$OUT/app.log"; fail "the app exited without a display instead of waiting"; }
    sleep 1
  done
  grep -q "STATUS=waiting for the display" "$notify_log" || fail "the app did not say it waits for the display"
  log "ok: the app waits for its display ($(grep -m1 'STATUS=waiting' "$notify_log" | sed 's/.*STATUS=//; s/ | .*//'))"
  sleep 30
  kill -0 "$app" 2>/dev/null || { tail -40 "$OUT/app.log"; fail "the app gave up waiting for the display"; }
  grep -q "READY=1" "$notify_log" && fail "READY=1 without a display"
  phase "app: waiting for the display (emulated)" $(($(date +%s) - t0))
  t0=$(date +%s)
  log "arm64 Xvfb :$XNUM at 800x480"
  in_root_bg /usr/bin/Xvfb :$XNUM -screen 0 800x480x24 -fbdir /tmp/fb -nolisten tcp > "$OUT/xvfb.log" 2>&1
  for _ in $(seq 1 120); do [ -S "$ROOT/tmp/.X11-unix/X$XNUM" ] && break; sleep 1; done
  [ -S "$ROOT/tmp/.X11-unix/X$XNUM" ] || fail "Xvfb did not start: $OUT/xvfb.log"
  for _ in $(seq 1 900); do
    grep -q "READY=1" "$notify_log" 2>/dev/null && break
    kill -0 "$app" 2>/dev/null || { tail -40 "$OUT/app.log"; fail "the app exited before READY=1"; }
    sleep 1
  done
  grep -q "READY=1" "$notify_log" || { tail -40 "$OUT/app.log"; fail "no READY=1 from the app in 15 minutes"; }
  phase "app: display there until READY=1 (emulated)" $(($(date +%s) - t0))
  app_pid=$(grep -m1 "READY=1" "$notify_log" | sed -n 's/.* pid=\([0-9]*\) .*/\1/p')
  [ -n "$app_pid" ] && [ "$app_pid" != 0 ] || fail "READY=1 came from no known process"
  [ "$(stat -c %u "/proc/$app_pid")" = "$(awk -F: '$1 == "companion" { print $3 }' "$ROOT/etc/passwd")" ] \
    || fail "the app (pid $app_pid) does not run as the user companion"
  log "ok: READY=1 from pid $app_pid, uid $(stat -c %u "/proc/$app_pid") = companion ($(grep -m1 READY=1 "$notify_log" | sed 's/.*STATUS=//'))"
  echo "$app_pid" > "$ROOT/run/pi-check/active/companion.service"
  sleep 20  # the first frames under emulation
  python3 "$TOOLS" png "$ROOT/tmp/fb/Xvfb_screen0" "$OUT/start-screen.png" || fail "no start screen drawn"
  log "ok: screenshot $OUT/start-screen.png"
  sleep 15
  local beats
  beats=$(grep -c "WATCHDOG=1" "$notify_log" || true)
  [ "$beats" -ge 2 ] || fail "the app fed the watchdog $beats times (expected every 15 s)"
  log "ok: WATCHDOG=1 x$beats, last status: $(cat "$ROOT/run/pi-check/status/companion.service")"

  t0=$(date +%s)
  as_user companion "" /usr/local/bin/companion doctor > "$OUT/doctor.txt" 2>&1 || { cat "$OUT/doctor.txt"; fail "companion doctor"; }
  grep -q "OpenGL" "$OUT/doctor.txt" || fail "companion doctor does not show the app's OpenGL facts"
  grep -q "GPIO" "$OUT/doctor.txt" || fail "companion doctor does not show the GPIO facts"
  as_user companion "" /usr/local/bin/companion status > "$OUT/status-companion.txt" 2>&1 \
    || { cat "$OUT/status-companion.txt"; fail "companion status as companion"; }
  grep -q "/var/lib/companion" "$OUT/status-companion.txt" || fail "companion status does not show the data directory"
  # systemctl show is a second program: as root here (see as_user).
  in_root /usr/bin/env -i PATH=$ROOT_PATH LANG=C.UTF-8 /usr/local/bin/companion status \
    > "$OUT/status-root.txt" 2>&1 || { cat "$OUT/status-root.txt"; fail "companion status as root"; }
  grep -q "active (running)" "$OUT/status-root.txt" || fail "companion status does not see the running table"
  grep -q "app: .*phones\? connected" "$OUT/status-root.txt" || fail "companion status does not show the app's STATUS="
  # The installing user, in a new login (the installer put it into the group companion) ...
  as_user pi "" /usr/local/bin/companion status > "$OUT/status-pi.txt" 2>&1 || { cat "$OUT/status-pi.txt"; fail "companion status as pi"; }
  grep -q "/var/lib/companion" "$OUT/status-pi.txt" || fail "companion status as pi does not show the data directory"
  # The saved games stay the user companion's alone (0700: every secret is in them); status says so.
  grep -q "is not readable for this user (sudo -u companion companion status)" "$OUT/status-pi.txt" \
    || fail "companion status as pi does not say that the saved games are the service user's"
  [ "$(stat -c %a "$ROOT/var/lib/companion")" = 700 ] || fail "the data directory is not the service user's alone (0700)"
  # ... and in the shell it ran the installer from (its groups from before: not companion yet).
  as_user pi pi /usr/local/bin/companion status > "$OUT/status-pi-old-groups.txt" 2>&1 \
    || { cat "$OUT/status-pi-old-groups.txt"; fail "companion status as pi without the group companion"; }
  grep -q "cannot read /etc/companion/companion.toml" "$OUT/status-pi-old-groups.txt" \
    || fail "companion status as pi without the group does not say what it cannot read"
  grep -q "^service:" "$OUT/status-pi-old-groups.txt" || fail "companion status without the group does not show the service"
  as_user pi pi /usr/local/bin/companion doctor > "$OUT/doctor-pi-old-groups.txt" 2>&1 \
    || { cat "$OUT/doctor-pi-old-groups.txt"; fail "companion doctor as pi without the group companion"; }
  as_user pi pi /usr/local/bin/companion hotspot status > "$OUT/hotspot-pi-old-groups.txt" 2>&1 || true
  grep -q "NetworkManager\|Hotspot" "$OUT/hotspot-pi-old-groups.txt" || fail "companion hotspot status as pi says nothing useful"
  log "ok: doctor, status and hotspot status as companion and as pi (with and without the group companion)"
  # A hotspot password in the config must not reach the bundle.
  in_root /opt/companion/.venv/bin/python -m companion.appliance.configfile /etc/companion/companion.toml \
    hotspot.ssid=PiCheck "hotspot.password=pi-check-secret-42" > /dev/null
  as_user companion "" /usr/local/bin/companion doctor --bundle /var/lib/companion/bundle.txt > "$OUT/bundle-run.txt" 2>&1 \
    || { cat "$OUT/bundle-run.txt"; fail "companion doctor --bundle"; }
  cp "$ROOT/var/lib/companion/bundle.txt" "$OUT/bundle.txt"
  for part in "companion 0.1.0" "Python $py" "[hotspot]" "vcgencmd" "Display" "GPIO" "Serial" "journal"; do
    grep -qF "$part" "$OUT/bundle.txt" || fail "the bundle lacks '$part'"
  done
  grep -q "pi-check-secret-42" "$OUT/bundle.txt" && fail "the bundle holds the hotspot password"
  log "ok: companion doctor --bundle (versions, config without the password, journal, display, GPIO, serial, power)"
  phase "doctor, status, hotspot status, bundle (emulated)" $(($(date +%s) - t0))

  kill -TERM "$app_pid" 2>/dev/null || true
  for _ in $(seq 1 60); do [ -d "/proc/$app_pid" ] || break; sleep 1; done
  grep -q "STOPPING=1" "$notify_log" || fail "no STOPPING=1 on SIGTERM"
  log "ok: STOPPING=1 on SIGTERM"
  rm -f "$ROOT/run/pi-check/active/companion.service"
  grep -q $'\e\[' "$OUT/app.log" && fail "ANSI colour codes in the app's log"
  [ -z "$(ls -A "$ROOT/var/lib/companion/kivy/logs" 2>/dev/null)" ] || fail "Kivy wrote log files under KIVY_HOME/logs"
  log "ok: plain log lines, no Kivy log files"
  local pid
  for pid in $BACKGROUND; do pkill -TERM -P "$pid" 2>/dev/null || true; kill "$pid" 2>/dev/null || true; done
  BACKGROUND=""
}

desktop_and_uninstall() {
  run_installer desktop --mode desktop
  expect "autostart entry for pi" "grep -qx 'Exec=/opt/companion/deploy/companion-desktop-start' /home/pi/.config/autostart/companion.desktop"
  # shellcheck disable=SC2016
  expect "autostart entry owned by pi" '[ "$(stat -c %U /home/pi/.config/autostart/companion.desktop)" = pi ]'
  expect "user unit installed, system unit gone" "[ -f /etc/systemd/user/companion.service ] && [ ! -e /etc/systemd/system/companion.service ]"
  expect "pi reads the config (group companion), owns the data" \
    "id -nG pi | tr ' ' '\n' | grep -qx companion && [ \"\$(stat -c %U /var/lib/companion)\" = pi ]"
  grep -qx "systemctl disable --now companion.service" "$OUT/systemctl-desktop.txt" || fail "the system unit was not disabled"
  grep -q "restarted the running table" "$OUT/install-desktop.log" && fail "the installer says it restarted a table that does not run"
  verify_user_unit /etc/systemd/user/companion.service > "$OUT/verify-user.txt" 2>&1 \
    || { cat "$OUT/verify-user.txt"; fail "systemd-analyze --user verify"; }
  [ ! -s "$OUT/verify-user.txt" ] || { cat "$OUT/verify-user.txt"; fail "systemd-analyze --user verify printed warnings"; }
  log "ok: desktop set-up; systemd-analyze --user verify companion.service"

  run_installer uninstall --uninstall
  expect "uninstalled: program, command, units, autostart gone" \
    "[ ! -e /opt/companion ] && [ ! -e /usr/local/bin/companion ] && [ ! -e /etc/systemd/user/companion.service ] \
     && [ ! -e /etc/systemd/system/companion.service ] && [ ! -e /home/pi/.config/autostart/companion.desktop ]"
  expect "uninstalled: the saved games and the configuration stay" \
    "[ -f /etc/companion/companion.toml ] && [ -d /var/lib/companion ]"
}

main() {  # one function, so bash has read the whole script before it runs (editing it meanwhile is safe)
  local t_release
  host_tools
  for RELEASE in $RELEASES; do
    t_release=$(date +%s)
    check_release
    phase "total for $RELEASE" $(($(date +%s) - t_release))
    [ "$BUILD_ONLY" = 1 ] || log "PASSED: $RELEASE"
  done
  RELEASE=""
  phase "total" $(($(date +%s) - START))
  cat "$TIMES"
}

main
exit
