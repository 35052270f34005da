#!/usr/bin/env bash
# Install Companion as a service on Raspberry Pi OS (Bookworm). Run as root from a checkout:
#   sudo deploy/install-pi.sh
# It copies the checkout to /opt/companion, builds its virtual environment, creates the
# 'companion' user (groups dialout, gpio, video, input, render), /etc/companion/companion.toml
# and /var/lib/companion, and enables the systemd unit.
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "run as root (sudo)"; exit 1; }
src="$(cd "$(dirname "$0")/.." && pwd)"

apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-dev libmtdev1 libgl1-mesa-dri libegl1 \
  python3-lgpio rsync

id companion >/dev/null 2>&1 || useradd --system --create-home --home-dir /var/lib/companion --shell /usr/sbin/nologin companion
for g in dialout gpio video input render; do getent group "$g" >/dev/null && usermod -aG "$g" companion; done

mkdir -p /opt/companion /etc/companion /var/lib/companion
rsync -a --delete --exclude .venv --exclude .git "$src"/ /opt/companion/
python3 -m venv --system-site-packages /opt/companion/.venv   # system site: Debian's python3-lgpio
/opt/companion/.venv/bin/pip install -q --upgrade pip
/opt/companion/.venv/bin/pip install -q /opt/companion
[ -f /etc/companion/companion.toml ] || cp /opt/companion/deploy/companion.example.toml /etc/companion/companion.toml
chown -R companion:companion /var/lib/companion

install -m 644 /opt/companion/deploy/companion.service /etc/systemd/system/companion.service
systemctl daemon-reload
systemctl enable --now companion.service
echo "Companion installed. Logs: journalctl -u companion -f"
