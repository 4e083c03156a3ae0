#!/usr/bin/env bash
# Table Companion: install on Raspberry Pi OS Bookworm (Lite or desktop, Pi 4 or 5), or update.
#
#   sudo bash hardware/install.sh        (from the checkout; safe to run again after a git pull)
#
# What it does, each step skipped when already done:
#   1. apt packages: Raspberry Pi OS's own numpy, OpenCV and picamera2 (python3-*), lgpio,
#      i2c-tools, python3-venv;
#   2. I2C switched on (raspi-config nonint) and the camera auto-detected (config.txt);
#   3. a system user 'companion' in the groups gpio, i2c, spi and video;
#   4. a venv in /opt/companion/venv that sees the system's packages (--system-site-packages),
#      so OpenCV and picamera2 share apt's numpy. The companion is installed into it with
#      'pip install --no-deps' (never the opencv-python or numpy wheels), then only the
#      pure-Python dependencies apt lacks (luma.oled and what it needs), each at the exact
#      version in hardware/requirements-pi.txt, also with --no-deps, under a constraints
#      file that pins numpy to the system's version so that pip can never bring in a second
#      numpy;
#   5. the bundled defaults and game data in /opt/companion/config (COMPANION_CONFIG_DIR);
#   6. /usr/local/bin/companion, the command for users;
#   7. /etc/companion/companion.yaml, only if it is absent (your settings are kept);
#   8. the systemd unit companion.service, enabled at boot (restarted if it was running).
set -euo pipefail

PREFIX=/opt/companion
VENV="$PREFIX/venv"
ETC_DIR=/etc/companion
UNIT=/etc/systemd/system/companion.service
BIN=/usr/local/bin/companion
SERVICE_USER=companion
GROUPS_NEEDED=(gpio i2c spi video)
CHECKOUT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NEED_REBOOT=0

say() { printf 'install: %s\n' "$*"; }
die() { printf 'install: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run me as root: sudo bash $0"
if [ ! -f "$CHECKOUT/pyproject.toml" ] || [ ! -d "$CHECKOUT/companion" ]; then
  die "$CHECKOUT is not a Table Companion checkout (no pyproject.toml and companion/)"
fi
command -v apt-get >/dev/null || die "apt-get is missing: this script is for Raspberry Pi OS"

# -- 1. packages ---------------------------------------------------------------------------
export DEBIAN_FRONTEND=noninteractive
lists_age=$(( $(date +%s) - $(stat -c %Y /var/lib/apt/lists 2>/dev/null || echo 0) ))
if [ "$lists_age" -gt 86400 ]; then
  say "updating the package lists"
  apt-get update -qq
fi
say "installing Raspberry Pi OS packages (numpy, OpenCV, gpiozero, i2c-tools, ...)"
apt-get install -y -qq python3 python3-venv python3-numpy python3-opencv \
  python3-gpiozero python3-pil python3-yaml i2c-tools >/dev/null

# In Raspberry Pi OS's own archive only: without them, no Pi camera / no GPIO on a Pi 5.
optional() {
  if apt-cache show "$1" >/dev/null 2>&1; then
    apt-get install -y -qq --no-install-recommends "$1" >/dev/null
  else
    say "warning: package $1 is not available here (not Raspberry Pi OS?): $2"
  fi
}
optional python3-picamera2 "no Pi camera module; a USB camera works (camera.source: opencv)"
optional python3-lgpio "gpiozero has no pin library for a Pi 5"

# -- 2. I2C and the camera -----------------------------------------------------------------
if command -v raspi-config >/dev/null; then
  if [ "$(raspi-config nonint get_i2c)" != 0 ]; then  # raspi-config: 0 means "on"
    say "switching I2C on"
    raspi-config nonint do_i2c 0
    NEED_REBOOT=1
  fi
else
  say "warning: raspi-config is missing; switch I2C on yourself (dtparam=i2c_arm=on)"
fi
BOOT_CONFIG=/boot/firmware/config.txt
[ -f "$BOOT_CONFIG" ] || BOOT_CONFIG=/boot/config.txt
if [ -f "$BOOT_CONFIG" ]; then
  if grep -Eq '^[[:space:]]*camera_auto_detect=0' "$BOOT_CONFIG"; then
    say "switching camera auto-detection on in $BOOT_CONFIG"
    sed -i -E 's/^([[:space:]]*)camera_auto_detect=0/\1camera_auto_detect=1/' "$BOOT_CONFIG"
    NEED_REBOOT=1
  elif ! grep -Eq '^[[:space:]]*(camera_auto_detect=1|dtoverlay=(imx|ov)[0-9])' "$BOOT_CONFIG"
  then
    say "adding camera_auto_detect=1 to $BOOT_CONFIG"
    printf '\n[all]\n# Table Companion: find the camera module at boot\ncamera_auto_detect=1\n' \
      >>"$BOOT_CONFIG"
    NEED_REBOOT=1
  fi
fi

# -- 3. the service user -------------------------------------------------------------------
for group in "${GROUPS_NEEDED[@]}"; do
  getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
  say "adding the system user $SERVICE_USER"
  useradd --system --user-group --home-dir /var/lib/companion --no-create-home \
    --shell /usr/sbin/nologin "$SERVICE_USER"
fi
usermod -aG "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$SERVICE_USER"
# systemd makes it at the first start too; made now, 'sudo -u companion companion calibrate'
# can write there before the service has ever run
install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 755 /var/lib/companion

# -- 4. the venv and the package -----------------------------------------------------------
mkdir -p "$PREFIX"
if [ ! -x "$VENV/bin/python" ]; then
  say "making the venv $VENV (it sees apt's numpy, OpenCV and picamera2)"
  python3 -m venv --system-site-packages "$VENV"
fi
"$VENV/bin/python" - <<'PY' || die "the system's numpy/OpenCV do not import in $VENV"
import sys
import cv2, numpy
for mod in (numpy, cv2):
    if not mod.__file__.startswith("/usr/lib/python3/"):
        sys.exit(f"{mod.__name__} comes from {mod.__file__}, not from apt")
PY
numpy_version="$("$VENV/bin/python" -c 'import numpy; print(numpy.__version__)')"
cat >"$PREFIX/constraints.txt" <<EOF
# Written by hardware/install.sh. pip may add pure-Python packages to $VENV, but must take
# numpy and OpenCV from apt: picamera2 and python3-opencv are built against numpy $numpy_version.
numpy==$numpy_version
EOF
say "installing the companion from $CHECKOUT"
src="$(mktemp -d)"
trap 'rm -rf "$src"' EXIT
cp -r "$CHECKOUT/pyproject.toml" "$CHECKOUT/README.md" "$CHECKOUT/companion" "$src/"
pip_quiet=(--quiet --disable-pip-version-check --no-input)
# exact versions, and nothing else: the list is complete (apt gives gpiozero, Pillow, PyYAML)
"$VENV/bin/python" -m pip install "${pip_quiet[@]}" --no-deps \
  --constraint "$PREFIX/constraints.txt" --requirement "$CHECKOUT/hardware/requirements-pi.txt"
"$VENV/bin/python" -m pip install "${pip_quiet[@]}" --no-deps --force-reinstall "$src"
"$VENV/bin/python" - <<'PY' || die "after pip, numpy or OpenCV no longer come from apt"
import cv2, numpy
assert numpy.__file__.startswith("/usr/lib/python3/"), numpy.__file__
assert cv2.__file__.startswith("/usr/lib/python3/"), cv2.__file__
PY

# -- 5. bundled defaults and game data -----------------------------------------------------
rm -rf "$PREFIX/config.new"
cp -r "$CHECKOUT/config" "$PREFIX/config.new"
rm -rf "$PREFIX/config"
mv "$PREFIX/config.new" "$PREFIX/config"
cp "$CHECKOUT/README.md" "$PREFIX/README.md"
# the README links into docs/: keep the manual whole on the Pi
rm -rf "$PREFIX/docs"
cp -r "$CHECKOUT/docs" "$PREFIX/docs"

# -- 6. the command ------------------------------------------------------------------------
cat >"$BIN" <<EOF
#!/bin/sh
# Table Companion (written by hardware/install.sh)
COMPANION_CONFIG_DIR="\${COMPANION_CONFIG_DIR:-$PREFIX/config}"
export COMPANION_CONFIG_DIR
exec "$VENV/bin/companion" "\$@"
EOF
chmod 755 "$BIN"

# -- 7. settings ---------------------------------------------------------------------------
mkdir -p "$ETC_DIR"
if [ ! -e "$ETC_DIR/companion.yaml" ]; then
  say "writing $ETC_DIR/companion.yaml (edit it for your panel, pins and camera)"
  install -m 644 "$CHECKOUT/hardware/companion.yaml" "$ETC_DIR/companion.yaml"
else
  say "keeping your $ETC_DIR/companion.yaml"
fi
COMPANION_CONFIG_DIR="$PREFIX/config" "$VENV/bin/companion" config \
  --config "$ETC_DIR/companion.yaml" >/dev/null \
  || say "warning: $ETC_DIR/companion.yaml has a problem (see above); fix it before starting"

# -- 8. the service ------------------------------------------------------------------------
install -m 644 "$CHECKOUT/hardware/companion.service" "$UNIT"
systemctl enable companion.service >/dev/null 2>&1 || say "warning: could not enable the service"
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  if systemctl is-active --quiet companion.service; then
    say "restarting the running service with the new version"
    systemctl restart companion.service
  fi
fi

say "done. Check the wiring: companion doctor"
if [ "$NEED_REBOOT" = 1 ]; then
  say "I2C or the camera were just switched on: reboot (sudo reboot); the service starts then"
else
  say "start the service: sudo systemctl start companion (it starts at every boot)"
fi
