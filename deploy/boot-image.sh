#!/usr/bin/env bash
# The bootable arm64 image for `make pi-boot` (deploy/pi_boot.py calls this; run as root):
#
#   sudo deploy/boot-image.sh --release bookworm|trixie [--cache DIR] [--fresh]
#
# Starts from `make pi-check`'s cached root of the release (deploy/check-arm64.sh --build-only:
# debootstrap + qemu-user-static + proot, nothing mounted on the host), copies it and adds what a
# Raspberry Pi OS Lite image has and that root lacks: Debian's arm64 kernel and initramfs,
# NetworkManager, an SSH server (Raspberry Pi Imager can switch it on; the harness logs in with its
# own key), ALSA's tools, the first user `pi` in the groups Pi OS gives it with password-less sudo,
# and a text console on tty1. pi-check's stand-ins (systemd-tmpfiles, systemd-sysusers, the
# policy that starts no service, apt's sandbox user) are taken out again, so systemd boots the
# image as Debian ships it. The image is an ext4 file system made by mkfs.ext4 -d, with the kernel
# and initramfs beside it (qemu boots them with -kernel; the virt machine has no Pi firmware).
# Output, in DIR/RELEASE (default /var/cache/companion-pi-boot): rootfs.img, vmlinuz, initrd.img,
# id_ed25519 (the harness's SSH key), image.log. Kept between runs; --fresh builds it again.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
CACHE=/var/cache/companion-pi-boot
CHECK_CACHE=${COMPANION_PI_CHECK_CACHE:-/var/cache/companion-pi-check}
RELEASE=""
FRESH=0
while [ $# -gt 0 ]; do
  case "$1" in
    --release) RELEASE=$2; shift ;;
    --cache) CACHE=$2; shift ;;
    --fresh) FRESH=1 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
case "$RELEASE" in bookworm | trixie) ;; *) echo "--release bookworm|trixie" >&2; exit 2 ;; esac
[ "$(id -u)" = 0 ] || { echo "run as root: sudo $0" >&2; exit 1; }

OUT=$CACHE/$RELEASE
BASE=$CHECK_CACHE/$RELEASE-arm64
ROOT=$OUT/root
START=$(date +%s)
log() { printf '[%5ss] %s: %s\n' "$(($(date +%s) - START))" "$RELEASE" "$*"; }
fail() { log "FAIL: $*"; exit 1; }

if [ "$FRESH" = 0 ] && [ -f "$OUT/rootfs.img" ] && [ -f "$OUT/.image-ok" ]; then
  log "image cached: $OUT/rootfs.img (--fresh builds it again)"
  exit 0
fi
mkdir -p "$OUT"
rm -f "$OUT/.image-ok"

if [ ! -f "$BASE/.companion-base-ok" ] || [ "$FRESH" = 1 ]; then
  log "pi-check's root first (deploy/check-arm64.sh --build-only)"
  "$REPO/deploy/check-arm64.sh" --build-only --release "$RELEASE" $([ "$FRESH" = 1 ] && echo --fresh) \
    --out "$OUT/check" || fail "deploy/check-arm64.sh --build-only --release $RELEASE"
fi
NOSTATX=$CHECK_CACHE/nostatx.py
[ -f "$NOSTATX" ] || fail "$NOSTATX is missing (written by deploy/check-arm64.sh)"

log "copying $BASE -> $ROOT"
rm -rf "$ROOT"
cp -a "$BASE" "$ROOT"
rm -f "$ROOT/.companion-base-ok"

ROOT_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
in_root() {  # as in deploy/check-arm64.sh: the root as root under proot, in a private mount namespace
  env -i HOME=/root LANG=C.UTF-8 TERM=dumb PATH=$ROOT_PATH \
    unshare --mount --propagation private \
    python3 "$NOSTATX" proot -q qemu-aarch64-static -r "$ROOT" -b /dev -b /proc -b /sys -w / "$@"
}

# pi-check's policy-rc.d and stand-ins stay while apt runs under proot (systemd-tmpfiles kills proot).
log "kernel, initramfs, NetworkManager, SSH, ALSA (emulated apt: slow)"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
in_root /bin/sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    linux-image-arm64 initramfs-tools kmod network-manager openssh-server alsa-utils iproute2 \
    iputils-ping e2fsprogs less ca-certificates >/dev/null' >> "$OUT/image.log" 2>&1 \
  || fail "apt-get in the root: see $OUT/image.log"
ls "$ROOT"/boot/vmlinuz-* >/dev/null 2>&1 || fail "no kernel in $ROOT/boot"
ls "$ROOT"/boot/initrd.img-* >/dev/null 2>&1 || fail "no initramfs in $ROOT/boot (see $OUT/image.log)"

log "taking pi-check's stand-ins out again: systemd boots this root"
rm -f "$ROOT/usr/sbin/policy-rc.d" "$ROOT/etc/apt/apt.conf.d/99pi-check-sandbox"
rm -f "$ROOT/usr/bin/systemd-tmpfiles" "$ROOT/usr/bin/systemd-sysusers"
for name in /bin/systemd-tmpfiles /usr/bin/systemd-tmpfiles /bin/systemd-sysusers /usr/bin/systemd-sysusers; do
  in_root /usr/bin/dpkg-divert --local --rename --divert "$name.pi-check$(dirname "$name" | tr / -)" --remove "$name" \
    >> "$OUT/image.log" 2>&1 || fail "dpkg-divert --remove $name: see $OUT/image.log"
done
for name in systemd-tmpfiles systemd-sysusers; do
  head -c 4 "$ROOT/usr/bin/$name" | grep -q ELF || fail "/usr/bin/$name is not systemd's program again"
done

# Debian's maintainer scripts enable their services with the root's own systemctl, which trixie's
# (257) cannot do under proot: the host's systemctl enables them offline instead (--root), as
# they are on a Pi OS Lite image (NetworkManager; ssh once switched on in Raspberry Pi Imager).
# SYSTEMCTL_SKIP_SYSV: their SysV scripts stay as they are (update-rc.d is an arm64 program).
log "services enabled as on Pi OS Lite: NetworkManager, ssh"
SYSTEMCTL_SKIP_SYSV=1 systemctl --root="$ROOT" enable NetworkManager.service ssh.service e2scrub_reap.service remote-fs.target \
  >> "$OUT/image.log" 2>&1 || fail "systemctl --root enable: see $OUT/image.log"
for unit in NetworkManager.service ssh.service; do
  [ -L "$ROOT/etc/systemd/system/multi-user.target.wants/$unit" ] || fail "$unit is not enabled in the root"
done

log "the Pi's first user, console, network, SSH key, fstab"
in_root /bin/sh -c 'for g in adm dialout cdrom sudo audio video plugdev games users input render netdev spi i2c gpio; do
    getent group $g >/dev/null && usermod -aG $g pi; done; passwd -d pi >/dev/null' >> "$OUT/image.log" 2>&1
printf 'pi ALL=(ALL) NOPASSWD: ALL\n' > "$ROOT/etc/sudoers.d/010_pi-nopasswd"
chmod 0440 "$ROOT/etc/sudoers.d/010_pi-nopasswd"
echo raspberrypi > "$ROOT/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n::1\tlocalhost ip6-localhost ip6-loopback\n' > "$ROOT/etc/hosts"
printf 'LABEL=rootfs  /  ext4  defaults,noatime  0  1\n' > "$ROOT/etc/fstab"
: > "$ROOT/etc/machine-id"  # a new one at the first boot, as on a freshly flashed card
rm -f "$ROOT/var/lib/dbus/machine-id"
rm -f "$ROOT/etc/resolv.conf"  # NetworkManager writes it once the network is there
[ -f "$OUT/id_ed25519" ] || ssh-keygen -q -t ed25519 -N "" -C pi-boot -f "$OUT/id_ed25519"
install -d -m 0700 "$ROOT/home/pi/.ssh"
install -m 0600 "$OUT/id_ed25519.pub" "$ROOT/home/pi/.ssh/authorized_keys"
in_root chown -R pi:pi /home/pi/.ssh
# The installer's own "no network yet" needs nothing here; the journal persists, as on Pi OS.
mkdir -p "$ROOT/var/log/journal"

cp "$(ls -1 "$ROOT"/boot/vmlinuz-* | tail -n 1)" "$OUT/vmlinuz"
cp "$(ls -1 "$ROOT"/boot/initrd.img-* | tail -n 1)" "$OUT/initrd.img"
log "ext4 image (mkfs.ext4 -d)"
rm -f "$OUT/rootfs.img"
mkfs.ext4 -q -L rootfs -d "$ROOT" "$OUT/rootfs.img" 8G >> "$OUT/image.log" 2>&1 || fail "mkfs.ext4: see $OUT/image.log"
touch "$OUT/.image-ok"
log "image ready: $OUT/rootfs.img ($(du -h "$OUT/rootfs.img" | cut -f1) used), kernel $(basename "$(ls -1 "$ROOT"/boot/vmlinuz-* | tail -n 1)")"
