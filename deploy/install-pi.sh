#!/usr/bin/env bash
# Install, update or remove Companion on Raspberry Pi OS, 64-bit, Lite or Desktop: the current
# release (Debian 13 "trixie", Python 3.13) or Bookworm (Debian 12, Python 3.11).
#
#   sudo deploy/install-pi.sh [--mode auto|lite|desktop] [--user NAME] [--no-start]
#   deploy/install-pi.sh --check          only the checks below (no root needed), then exit
#   sudo deploy/install-pi.sh --uninstall [--purge]
#                                         remove the program, command, units and autostart; keep the
#                                         configuration and the saved games (--purge: those too, and
#                                         the user companion)
#
# Run it from a checkout; run it again after `git pull` to update (it restarts the table).
# Safe to re-run: it never overwrites /etc/companion/companion.toml. The Python packages are the
# ones pinned with their hashes in deploy/requirements/py<version>-<machine>.txt (`make lock`), so
# one commit installs the same everywhere; an update leaves nothing behind (files the checkout no
# longer has, an earlier build, packages the lock no longer names).
#
# Checks first, with a clear message: a 64-bit system (32-bit Raspberry Pi OS has no Kivy
# wheels), Debian/Raspberry Pi OS 12 "bookworm" or newer, and a reachable PyPI (the Python
# packages come from there). Then:
#   lite     a system service (/etc/systemd/system/companion.service) wanted by multi-user.target
#            that draws to the display with KMS/DRM, as the user `companion`;
#   desktop  a user service (/etc/systemd/user/companion.service) started at login by an XDG
#            autostart entry in the desktop user's ~/.config/autostart (labwc runs those), as that
#            user, full screen through XWayland.
#   auto     (default) desktop when the system boots to a graphical login (lightdm), else lite,
#            the same test raspi-config uses.
# Both: Debian packages, the program in /opt/companion (its own venv, `companion` on the PATH),
# /etc/companion/companion.toml (0640 root:companion, a minimal default on the first install)
# with the data directory /var/lib/companion written into it, device groups that exist.
#
# For tests (deploy/README.md, tests/deploy/): COMPANION_TEST_ARCH (instead of
# `dpkg --print-architecture`), COMPANION_TEST_OS_RELEASE (a file instead of /etc/os-release),
# COMPANION_TEST_PYPI (host:port instead of the index's host:443), COMPANION_TEST_DEFAULT_TARGET
# and COMPANION_TEST_DISPLAY_MANAGER (enabled|disabled) for the auto mode's test.
set -euo pipefail

PREFIX=/opt/companion
VENV=$PREFIX/.venv
CONFIG=/etc/companion/companion.toml
DATA=/var/lib/companion
UNIT=companion.service
SERVICE_USER=companion
DEVICE_GROUPS="dialout gpio video input render i2c spi audio"  # audio: the sound cards, for the table's voice

say() { printf '%s\n' "$*"; }
step() { printf '==> %s\n' "$*"; }
die() { printf 'install-pi.sh: %s\n' "$*" >&2; exit 1; }

# ----------------------------------------------------------------------------- checks

check_arch() {
  local arch
  arch="${COMPANION_TEST_ARCH:-$(dpkg --print-architecture 2>/dev/null || uname -m)}"
  case "$arch" in
    arm64 | aarch64 | amd64 | x86_64) say "architecture: $arch (64-bit)" ;;
    armhf | armel | armv6l | armv7l | i386 | i686)
      die "this is a 32-bit system ($arch). Companion needs the 64-bit Raspberry Pi OS: Kivy has no
wheels for 32-bit ARM. Flash \"Raspberry Pi OS (64-bit)\" (Lite or Desktop) with Raspberry Pi Imager
on a Pi 4 or Pi 5 and run this installer there." ;;
    *) die "unsupported architecture $arch: Companion installs on 64-bit ARM (arm64) or x86-64" ;;
  esac
}

os_value() {  # one KEY=value of an os-release file, quotes removed
  sed -n "s/^$2=//p" "$1" | head -n 1 | tr -d "\"'"
}

check_os() {
  local file="${COMPANION_TEST_OS_RELEASE:-/etc/os-release}" id="" like="" version="" codename=""
  [ -r "$file" ] || die "cannot read $file: is this Raspberry Pi OS or Debian?"
  id=$(os_value "$file" ID)
  like=$(os_value "$file" ID_LIKE)
  version=$(os_value "$file" VERSION_ID)
  codename=$(os_value "$file" VERSION_CODENAME)
  case " $id $like " in
    *" debian "* | *" raspbian "*) ;;
    *) die "this is $id, not Raspberry Pi OS or Debian: the installer uses apt and Debian's package names" ;;
  esac
  case "$version" in
    "" ) die "$file has no VERSION_ID: Raspberry Pi OS 12 (bookworm) or newer is needed" ;;
    *[!0-9]*) die "unexpected VERSION_ID '$version' in $file" ;;
  esac
  [ "$version" -ge 12 ] || die "this is Debian/Raspberry Pi OS $version ($codename): version 12 (bookworm) or newer is needed (Python 3.11)"
  say "system: $id $version ($codename)"
}

pypi_target() {
  # The package index pip will use (PIP_INDEX_URL or pip.conf's index-url), else PyPI.
  local url="${PIP_INDEX_URL:-}" host port
  if [ -z "$url" ]; then
    url=$(sed -n 's/^[[:space:]]*index-url[[:space:]]*=[[:space:]]*//p' /etc/pip.conf 2>/dev/null | head -n 1)
  fi
  url="${url:-https://pypi.org/simple}"
  host=${url#*://}; host=${host%%/*}; host=${host##*@}
  port=443; case "$url" in http://*) port=80 ;; esac
  case "$host" in *:*) port=${host##*:}; host=${host%:*} ;; esac
  printf '%s:%s' "$host" "$port"
}

check_network() {
  local target host port
  target="${COMPANION_TEST_PYPI:-$(pypi_target)}"
  host=${target%:*}; port=${target##*:}
  if ! timeout 10 bash -c "exec 3<>/dev/tcp/$host/$port" 2>/dev/null; then
    die "cannot reach $host:$port, where Kivy and the other Python packages come from.
Connect the Pi to the internet first (Ethernet, or Wi-Fi with sudo raspi-config / sudo nmtui),
check with: ping -c 1 $host, then run this installer again."
  fi
  say "network: $host:$port reachable"
}

detect_mode() {
  # raspi-config's own test for "boots to desktop": default.target is graphical.target and the
  # display manager (lightdm) is enabled.
  local target dm
  target="${COMPANION_TEST_DEFAULT_TARGET:-$(systemctl get-default 2>/dev/null || true)}"
  if [ -n "${COMPANION_TEST_DISPLAY_MANAGER:-}" ]; then
    dm=$COMPANION_TEST_DISPLAY_MANAGER
  elif systemctl is-enabled --quiet display-manager.service 2>/dev/null || systemctl is-enabled --quiet lightdm.service 2>/dev/null; then
    dm=enabled
  else
    dm=disabled
  fi
  if [ "$target" = graphical.target ] && [ "$dm" = enabled ]; then echo desktop; else echo lite; fi
}

desktop_user() {
  # --user, else lightdm's autologin user, else the user who ran sudo, else the first normal user.
  local user=""
  user=$(sed -n 's/^[[:space:]]*autologin-user[[:space:]]*=[[:space:]]*//p' /etc/lightdm/lightdm.conf 2>/dev/null | tail -n 1)
  [ -n "$user" ] || user="${SUDO_USER:-}"
  [ -n "$user" ] && [ "$user" != root ] || user=$(getent passwd 1000 | cut -d: -f1)
  printf '%s' "$user"
}

# ----------------------------------------------------------------------------- install steps

apt_packages() {
  local mode=$1
  # venv + pip, the program copy, TLS; Kivy's libraries: OpenGL (libGL.so.1 is loaded even on
  # GLES), GLES/EGL and Mesa's drivers, GBM/DRM for SDL's KMS/DRM output, mtdev for touch panels.
  local pkgs="python3 python3-venv ca-certificates rsync libgl1 libgles2 libegl1 libgl1-mesa-dri libgbm1 libdrm2 libmtdev1"
  # SDL's X11 output (XWayland on the desktop): the client libraries it loads.
  [ "$mode" = desktop ] && pkgs="$pkgs libx11-6 libxext6 libxcursor1 libxi6 libxrandr2 libxss1 libxinerama1 libxfixes3"
  # gpiozero's pin factory for a Pi 5: Debian's package where the archive has it (Raspberry Pi
  # OS has it for both releases), else, on Python 3.11, the lgpio wheel from PyPI (the lock file
  # has it). PyPI has no lgpio wheel for Python 3.13 (trixie): there only python3-lgpio gives it.
  if apt-cache show python3-lgpio >/dev/null 2>&1; then pkgs="$pkgs python3-lgpio"; fi
  # The table's voice (issue 29): espeak-ng speaks offline, ALSA's aplay plays it (HDMI, 3.5 mm, USB).
  pkgs="$pkgs espeak-ng alsa-utils"
  printf '%s' "$pkgs"
}

join_groups() {
  local user=$1 g joined=""
  # Plain Debian has no gpio group and no udev rule for the GPIO chips (Raspberry Pi OS has both):
  # make what is missing.
  if ! getent group gpio >/dev/null; then
    groupadd --system gpio
    say "created the group gpio"
  fi
  if ! grep -qs 'GROUP="gpio"' /etc/udev/rules.d/*.rules /usr/lib/udev/rules.d/*.rules /lib/udev/rules.d/*.rules; then
    mkdir -p /etc/udev/rules.d
    install -m 0644 "$SRC/deploy/60-companion-gpio.rules" /etc/udev/rules.d/60-companion-gpio.rules
    if command -v udevadm >/dev/null && [ -d /run/udev ]; then
      udevadm control --reload || true
      udevadm trigger --subsystem-match=gpio || true
    fi
    say "installed /etc/udev/rules.d/60-companion-gpio.rules (the group gpio may use the GPIO chips)"
  fi
  for g in $DEVICE_GROUPS; do
    if getent group "$g" >/dev/null; then
      usermod -aG "$g" "$user"
      joined="$joined $g"
    fi
  done
  say "$user is in the groups:$joined"
}

write_build_stamp() {
  local src=$1 commit=""
  if command -v git >/dev/null && [ -e "$src/.git" ]; then
    commit=$(git -c safe.directory="$src" -C "$src" describe --always --dirty 2>/dev/null || true)
  fi
  printf '{"commit": "%s", "installed": "%s"}\n' "$commit" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
    > "$PREFIX/companion/appliance/build.json"
}

remove_desktop_autostart() {
  local f
  for f in /home/*/.config/autostart/companion.desktop /root/.config/autostart/companion.desktop; do
    [ -f "$f" ] && grep -q '^X-Companion-Installer=1' "$f" && rm -f "$f" && say "removed $f"
  done
  rm -f /etc/systemd/user/companion.service
}

install_lite() {
  remove_desktop_autostart
  install -m 0644 "$PREFIX/deploy/companion.service" /etc/systemd/system/$UNIT
  local dropin=/etc/systemd/system/$UNIT.d/data-dir.conf
  if [ "$DATA_DIR" != "$DATA" ]; then
    mkdir -p "$(dirname "$dropin")"
    printf '# Written by install-pi.sh: the data directory of %s\n[Service]\nReadWritePaths=%s\n' "$CONFIG" "$DATA_DIR" > "$dropin"
  else
    rm -f "$dropin"
  fi
  systemctl daemon-reload
  systemctl enable $UNIT
  if [ "$START" = 1 ]; then
    systemctl restart $UNIT
    say "started $UNIT (a running one was restarted: the update is live)"
  fi
}

install_desktop() {
  local user=$1 home
  home=$(getent passwd "$user" | cut -d: -f6)
  [ -n "$home" ] || die "no home directory for $user"
  if [ -f /etc/systemd/system/$UNIT ]; then
    systemctl disable --now $UNIT || true
    rm -f /etc/systemd/system/$UNIT
    systemctl daemon-reload
  fi
  mkdir -p /etc/systemd/user
  install -m 0644 "$PREFIX/deploy/companion-desktop.service" /etc/systemd/user/$UNIT
  install -d -o "$user" -g "$(id -gn "$user")" "$home/.config" "$home/.config/autostart"
  install -m 0644 -o "$user" -g "$(id -gn "$user")" "$PREFIX/deploy/companion.desktop" "$home/.config/autostart/companion.desktop"
  say "autostart: $home/.config/autostart/companion.desktop (the desktop session starts the table at login)"
  if [ "$START" = 1 ] && systemctl --user -M "$user@" is-active --quiet $UNIT 2>/dev/null; then
    systemctl --user -M "$user@" daemon-reload || true
    systemctl --user -M "$user@" restart $UNIT && say "restarted the running table: the update is live"
  fi
}

python_version() { python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])'; }

lock_file() {
  # The Python packages, pinned with their hashes, for this Python and machine (deploy/requirements,
  # made by `make lock`): every install of one commit gets the same packages.
  local py arch
  py=$(python_version)
  arch=$(uname -m)
  printf '%s' "$PREFIX/deploy/requirements/py$py-$arch.txt"
}

install_program() {
  local lock py site extra keep
  mkdir -p "$PREFIX"
  # --delete: a file the checkout no longer has leaves /opt/companion too. Nothing of an earlier
  # build may survive either: setuptools builds in the tree (build/, *.egg-info), and a module
  # deleted from the checkout would stay in build/lib and so in the next wheel.
  rsync -a --delete --exclude .venv --exclude .git --exclude artifacts --exclude '__pycache__' \
    --exclude '*.egg-info' --exclude build "$SRC"/ "$PREFIX"/
  rm -rf "$PREFIX/build" "$PREFIX"/*.egg-info
  write_build_stamp "$SRC"
  py=$(python_version)
  lock=$(lock_file)
  [ -f "$lock" ] || die "no pinned packages for Python $py on $(uname -m) ($lock): Companion installs on
Debian/Raspberry Pi OS 12 (Python 3.11) or 13 (Python 3.13), 64-bit"
  # A venv of another Python (an upgrade from bookworm to trixie) or a broken one is made anew.
  if [ -x "$VENV/bin/python" ] && [ "$("$VENV/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" != "$py" ]; then
    say "the Python of $VENV is not $py: making it anew"
    rm -rf "$VENV"
  fi
  [ -x "$VENV/bin/python" ] || python3 -m venv --system-site-packages "$VENV"
  # System packages are seen (python3-lgpio on trixie); pip's own version is the one Debian ships.
  "$VENV/bin/pip" install -q --disable-pip-version-check --require-hashes --prefer-binary -r "$lock" \
    || die "installing the Python packages failed (see the message above)"
  say "Python packages: pinned: ${lock#"$PREFIX"/} (hashes checked)"
  # This checkout, built with the lock file's setuptools (no other download), in place of any
  # earlier one of the same version.
  "$VENV/bin/pip" install -q --disable-pip-version-check --no-deps --no-build-isolation --force-reinstall "$PREFIX" \
    || die "installing Companion itself failed (see the message above)"
  rm -rf "$PREFIX/build" "$PREFIX"/*.egg-info
  # Nothing else stays in the venv: a package an earlier install had and this lock has not goes.
  site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  keep=" pip companion $(sed -n 's/^\([A-Za-z0-9._-]*\)==.*/\1/p' "$lock" | tr 'A-Z_.' 'a-z--' | tr '\n' ' ') "
  extra=""
  for name in $("$VENV/bin/pip" list --disable-pip-version-check --format=freeze --path "$site" 2>/dev/null \
      | sed -n 's/^\([A-Za-z0-9._-]*\)==.*/\1/p' | tr 'A-Z_.' 'a-z--'); do
    case "$keep" in *" $name "*) ;; *) extra="$extra $name" ;; esac
  done
  if [ -n "$extra" ]; then
    # shellcheck disable=SC2086
    "$VENV/bin/pip" uninstall -q -y --disable-pip-version-check $extra
    say "removed from the venv (not in the lock file):$extra"
  fi
}

check_gpio_backend() {
  # gpiozero on a Pi 5 works only through lgpio.
  [ "$(uname -m)" = aarch64 ] || return 0
  if "$VENV/bin/python" -c 'import lgpio' 2>/dev/null; then
    say "GPIO: lgpio $("$VENV/bin/python" -c 'import lgpio, os; print(os.path.dirname(lgpio.__file__))')"
  else
    say "warning: no lgpio for Python $(python_version): buttons and lights on a Raspberry Pi 5 will not work."
    say "         Raspberry Pi OS has it: sudo apt install python3-lgpio (this archive has no python3-lgpio),"
    say "         then run this installer again. (PyPI has no lgpio wheel for Python 3.13.)"
  fi
}

uninstall() {
  local purge=$1 f
  step "uninstalling Companion"
  if [ -f /etc/systemd/system/$UNIT ]; then
    systemctl disable --now $UNIT || true
  fi
  rm -rf "/etc/systemd/system/$UNIT" "/etc/systemd/system/$UNIT.d" /etc/systemd/user/$UNIT
  remove_desktop_autostart
  systemctl daemon-reload || true
  if [ -f /etc/udev/rules.d/60-companion-gpio.rules ]; then
    rm -f /etc/udev/rules.d/60-companion-gpio.rules
    say "removed /etc/udev/rules.d/60-companion-gpio.rules"
  fi
  rm -f /usr/local/bin/companion
  rm -rf "$PREFIX"
  say "removed $PREFIX, /usr/local/bin/companion and the units"
  if [ "$purge" = 1 ]; then
    local data=""
    [ -r "$CONFIG" ] && data=$(sed -n 's/^[[:space:]]*data_dir[[:space:]]*=[[:space:]]*"\(.*\)".*/\1/p' "$CONFIG" | head -n 1)
    rm -rf "$(dirname "$CONFIG")" "$DATA" ${data:+"$data"}
    if id $SERVICE_USER >/dev/null 2>&1; then userdel $SERVICE_USER || true; fi
    if getent group $SERVICE_USER >/dev/null; then groupdel $SERVICE_USER || true; fi
    say "--purge: removed $(dirname "$CONFIG"), the saved games in ${data:-$DATA} and the user $SERVICE_USER"
  else
    say "kept: $CONFIG and the saved games in $DATA (--uninstall --purge removes them too)"
  fi
  step "done"
}

main() {
  local mode=auto user="" check_only=0 action=install purge=0
  START=1
  while [ $# -gt 0 ]; do
    case "$1" in
      --check) check_only=1 ;;
      --mode) mode=${2:?--mode needs auto, lite or desktop}; shift ;;
      --user) user=${2:?--user needs a name}; shift ;;
      --no-start) START=0 ;;
      --uninstall) action=uninstall ;;
      --purge) purge=1 ;;
      -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
      *) die "unknown option $1 (see --help)" ;;
    esac
    shift
  done
  case "$mode" in auto | lite | desktop) ;; *) die "--mode must be auto, lite or desktop" ;; esac
  if [ "$action" = uninstall ]; then
    [ "$(id -u)" = 0 ] || die "run as root: sudo $0 $*"
    uninstall "$purge"
    exit 0
  fi
  [ "$purge" = 0 ] || die "--purge goes with --uninstall"
  local detected
  detected=$(detect_mode)
  [ "$mode" = auto ] && mode=$detected
  if [ "$mode" = lite ] && [ "$detected" = desktop ]; then
    say "warning: this system boots to the desktop, which holds the display: the Lite service cannot draw"
    say "         while it runs. Switch to console boot (sudo raspi-config nonint do_boot_behaviour B1)."
  fi

  check_arch
  check_os
  check_network
  if [ "$check_only" = 1 ]; then
    say "image: $mode$([ "$mode" = desktop ] && printf ' (desktop user %s)' "${user:-$(desktop_user)}")"
    say "checks passed"
    exit 0
  fi
  [ "$(id -u)" = 0 ] || die "run as root: sudo $0 $*"
  SRC="$(cd "$(dirname "$0")/.." && pwd)"
  [ -f "$SRC/pyproject.toml" ] || die "run it from a Companion checkout (no pyproject.toml in $SRC)"
  local run_user=$SERVICE_USER
  if [ "$mode" = desktop ]; then
    run_user=${user:-$(desktop_user)}
    if [ -z "$run_user" ] || ! getent passwd "$run_user" >/dev/null; then
      die "no desktop user found: give --user NAME"
    fi
  fi
  step "installing for Raspberry Pi OS ${mode^} (the table runs as $run_user)"

  step "Debian packages"
  export DEBIAN_FRONTEND=noninteractive
  "$SRC/deploy/apt-get-waiting" update -qq || die "apt-get update failed: check the network and /etc/apt/sources.list*"
  # shellcheck disable=SC2046
  "$SRC/deploy/apt-get-waiting" install -y -qq --no-install-recommends $(apt_packages "$mode") >/dev/null \
    || die "apt-get install failed (see the message above)"
  say "installed: $(apt_packages "$mode")"

  step "users and groups"
  getent group $SERVICE_USER >/dev/null || groupadd --system $SERVICE_USER
  if ! id $SERVICE_USER >/dev/null 2>&1; then
    useradd --system --gid $SERVICE_USER --home-dir $DATA --no-create-home --shell /usr/sbin/nologin $SERVICE_USER
    say "created the system user $SERVICE_USER"
  fi
  join_groups "$run_user"
  [ "$run_user" = $SERVICE_USER ] || usermod -aG $SERVICE_USER "$run_user"
  # The user who ran sudo reads the configuration too: companion status, doctor and hotspot
  # status work for them (from their next login; until then they say what they cannot read).
  # The saved games hold every secret and stay the service user's alone (0700, companion/files.py):
  # `sudo companion status` counts them.
  local admin="${SUDO_USER:-}"
  if [ -n "$admin" ] && [ "$admin" != root ] && [ "$admin" != "$run_user" ] && id "$admin" >/dev/null 2>&1; then
    usermod -aG $SERVICE_USER "$admin"
    say "$admin is in the group $SERVICE_USER (companion status and doctor read the configuration from the next login)"
  fi

  step "program: $SRC -> $PREFIX"
  install_program
  ln -sf "$VENV/bin/companion" /usr/local/bin/companion
  say "installed $("$VENV/bin/companion" --version); /usr/local/bin/companion"
  check_gpio_backend

  step "configuration and data"
  mkdir -p "$(dirname "$CONFIG")"
  if [ ! -f "$CONFIG" ]; then
    install -m 0640 -o root -g $SERVICE_USER "$PREFIX/deploy/companion.default.toml" "$CONFIG"
    say "wrote $CONFIG (a minimal default; every key: $PREFIX/deploy/companion.example.toml)"
  fi
  chown root:$SERVICE_USER "$CONFIG"
  chmod 0640 "$CONFIG"
  "$VENV/bin/python" -m companion.appliance.configfile "$CONFIG" "table.data_dir=$DATA" --if-empty
  DATA_DIR=$("$VENV/bin/python" -c 'import sys; from companion.app.config import load_config; print(load_config(sys.argv[1]).data_dir)' "$CONFIG") \
    || die "$CONFIG has a problem (see above): fix it and run the installer again"
  mkdir -p "$DATA_DIR"
  chown -R "$run_user:$SERVICE_USER" "$DATA_DIR"
  chmod 0700 "$DATA_DIR"  # as the app keeps it (companion/files.py): every secret is in there
  say "data directory: $DATA_DIR (owner $run_user), in $CONFIG"

  step "start at boot"
  if [ "$mode" = lite ]; then install_lite; else install_desktop "$run_user"; fi

  step "done: $("$VENV/bin/companion" --version)"
  if [ "$mode" = lite ]; then
    say "The table starts at every boot on the display (KMS/DRM, no desktop needed)."
    say "  status:  companion status   (from your next login; the saved games, or now: sudo companion status)"
    say "  logs:    journalctl -u companion -f"
    say "  doctor:  companion doctor   (the same)"
  else
    say "The table starts full screen when $run_user's desktop session starts (log in again or reboot;"
    say "for a table at every boot: sudo raspi-config nonint do_boot_behaviour B4, desktop autologin)."
    say "  status:  companion status"
    say "  logs:    journalctl --user -u companion -f   (as $run_user)"
    say "  doctor:  companion doctor   (as $run_user)"
  fi
  say "  update:  git pull && sudo deploy/install-pi.sh"
  say "  remove:  sudo deploy/install-pi.sh --uninstall   (keeps the saved games; --purge removes them)"
  say "  help:    companion doctor --bundle companion-debug.txt   (one file to share)"
  say "  config:  sudo nano $CONFIG, then restart (see the first lines of the file)"
}

main "$@"
