#!/usr/bin/env bash
# Run hardware/install.sh for real, twice, in a fresh Debian Bookworm chroot, then the Pi tests
# on the venv it made (so on apt's python3-opencv 4.6 and numpy 1.24, as on the Pi).
#
#   sudo bash hardware/chroot_check.sh [ROOT]     (default ROOT: /tmp/companion-bookworm)
#
# Needs debootstrap (apt-get install debootstrap) and network access to the Debian archive and
# PyPI. Plain Debian lacks Raspberry Pi OS's python3-picamera2, python3-lgpio and raspi-config:
# install.sh warns about those and goes on, which this check also covers. ARCH=arm64 builds an
# arm64 chroot instead (needs qemu-user-static and binfmt support; slow).
set -euo pipefail
ROOT=${1:-/tmp/companion-bookworm}
ARCH=${ARCH:-$(dpkg --print-architecture)}
CHECKOUT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

[ "$(id -u)" -eq 0 ] || { echo "chroot_check: run as root" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "chroot_check: apt-get install debootstrap" >&2; exit 1; }

if [ ! -x "$ROOT/usr/bin/apt-get" ]; then
  echo "chroot_check: making a Bookworm ($ARCH) chroot in $ROOT"
  debootstrap --variant=minbase --arch="$ARCH" bookworm "$ROOT" http://deb.debian.org/debian
fi
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
mounted=()
cleanup() {
  local m
  for (( i=${#mounted[@]}-1; i>=0; i-- )); do
    m=${mounted[$i]}
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
  done
}
trap cleanup EXIT
for fs in proc sys dev; do
  mkdir -p "$ROOT/$fs"
  mount --bind "/$fs" "$ROOT/$fs"
  mounted+=("$ROOT/$fs")
done
rm -rf "$ROOT/src"
mkdir -p "$ROOT/src"
cp -r "$CHECKOUT/pyproject.toml" "$CHECKOUT/README.md" "$CHECKOUT/companion" \
  "$CHECKOUT/config" "$CHECKOUT/hardware" "$CHECKOUT/calibration" "$CHECKOUT/tests" "$ROOT/src/"

# a host whose HTTPS goes through a proxy names the proxy's CA bundle in PIP_CERT: carry it in
chroot_env=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
            LANG=C.UTF-8)
if [ -n "${PIP_CERT:-}" ] && [ -f "$PIP_CERT" ]; then
  cp "$PIP_CERT" "$ROOT/etc/host-ca.crt"
  chroot_env+=(PIP_CERT=/etc/host-ca.crt)
fi
run() { chroot "$ROOT" /usr/bin/env -i "${chroot_env[@]}" "$@"; }

echo "chroot_check: install.sh, first run"
run bash /src/hardware/install.sh
echo "chroot_check: install.sh, second run (must change nothing and succeed)"
run bash /src/hardware/install.sh
echo "chroot_check: the installed command"
run companion config --config /etc/companion/companion.yaml | head -3
run env COMPANION_CONFIG_DIR=/opt/companion/config /opt/companion/venv/bin/python -c '
import cv2, numpy
print("chroot_check: OpenCV", cv2.__version__, "from", cv2.__file__)
print("chroot_check: numpy", numpy.__version__, "from", numpy.__file__)
from companion.doctor import doctor
print(doctor("/etc/companion/companion.yaml", buttons=False, timeout=1).text)
'
echo "chroot_check: the Pi tests on apt's OpenCV and numpy"
run apt-get install -y -qq python3-pytest python3-hypothesis >/dev/null
run sh -c 'cd /src && /opt/companion/venv/bin/python -m pytest -q -p no:cacheprovider tests/pi'
