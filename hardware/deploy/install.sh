#!/bin/bash
# Install tablesight on a Raspberry Pi (Raspberry Pi OS Bookworm, 64-bit) from this checkout.
# Run as the desktop user with sudo rights:  ./hardware/deploy/install.sh
# It is safe to run again (to update): it reinstalls the package and keeps settings and saves.
set -euo pipefail

SRC="$(cd "$(dirname "$0")/../.." && pwd)"
PREFIX=/opt/tablesight
DEPLOY="$SRC/hardware/deploy"
DESKTOP_USER="${SUDO_USER:-$USER}"

step() { printf '\n==> %s\n' "$*"; }

step "system packages"
sudo apt-get update
sudo apt-get install -y python3-venv python3-dev chromium curl fonts-noto-cjk \
    python3-picamera2 python3-lgpio espeak-ng

step "service user and folders"
id tablesight >/dev/null 2>&1 || sudo useradd --system --home /var/lib/tablesight tablesight
# serial (the LED controller), GPIO (buttons), the camera, and audio (spoken announcements);
# added again on a reinstall, so an older install gains the groups it lacked
sudo usermod --append --groups dialout,gpio,video,audio tablesight
sudo mkdir -p "$PREFIX" /etc/tablesight /var/lib/tablesight
sudo chown tablesight:tablesight /var/lib/tablesight

step "tablesight into $PREFIX/venv"
sudo rsync -a --delete --exclude .venv --exclude .git --exclude out "$SRC/" "$PREFIX/src/"
# --system-site-packages: picamera2 and lgpio come from Raspberry Pi OS's own packages.
[ -x "$PREFIX/venv/bin/python" ] || sudo python3 -m venv --system-site-packages "$PREFIX/venv"
sudo "$PREFIX/venv/bin/pip" install --quiet --upgrade pip
sudo "$PREFIX/venv/bin/pip" install --quiet "$PREFIX/src[pi]"

step "settings (kept if present)"
[ -f /etc/tablesight/tablesight.toml ] || sudo install -m 0644 "$DEPLOY/tablesight.toml" /etc/tablesight/

step "udev rule for the LED controller"
sudo install -m 0644 "$DEPLOY/99-tablesight-pico.rules" /etc/udev/rules.d/
sudo udevadm control --reload-rules
sudo udevadm trigger --subsystem-match=tty

step "the service"
sudo install -m 0644 "$DEPLOY/tablesight.service" /etc/systemd/system/
sudo systemctl daemon-reload
sudo systemctl enable --now tablesight.service

step "the kiosk screen for $DESKTOP_USER"
sudo -u "$DESKTOP_USER" mkdir -p "/home/$DESKTOP_USER/.config/systemd/user"
sudo install -m 0644 -o "$DESKTOP_USER" "$DEPLOY/tablesight-kiosk.service" \
    "/home/$DESKTOP_USER/.config/systemd/user/"
sudo raspi-config nonint do_blanking 1 || true   # 1 = blanking off
sudo loginctl enable-linger "$DESKTOP_USER"
sudo -u "$DESKTOP_USER" XDG_RUNTIME_DIR="/run/user/$(id -u "$DESKTOP_USER")" \
    systemctl --user daemon-reload
sudo -u "$DESKTOP_USER" XDG_RUNTIME_DIR="/run/user/$(id -u "$DESKTOP_USER")" \
    systemctl --user enable tablesight-kiosk.service

step "done"
echo "The service: systemctl status tablesight   (log: journalctl -u tablesight -f)"
echo "The screen starts at the next login (or: systemctl --user start tablesight-kiosk)."
