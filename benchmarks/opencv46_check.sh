#!/usr/bin/env bash
# Run the test suite on Raspberry Pi OS Bookworm's library versions: OpenCV 4.6, numpy 1.24,
# Pillow 9.4, PyYAML 6.0, gpiozero 2.0 (apt's python3-* packages), here, off the Pi.
#
#   bash benchmarks/opencv46_check.sh              the whole suite
#   bash benchmarks/opencv46_check.sh tests/pi     any pytest arguments
#
# It runs apart from the normal tests (it downloads wheels once, about 60 MB). The venv lives
# in $OPENCV46_VENV (default ~/.cache/companion/opencv46-venv) and is reused; the checkout is
# used in place through PYTHONPATH, nothing is installed into it.
#
# Why opencv-contrib-python-headless and not opencv-python-headless: before 4.7, ArUco (and so
# ChArUco calibration) lived in the contrib modules. Debian's python3-opencv 4.6 is built with
# them, so the contrib wheel is the one that matches the Pi; the plain 4.6 wheel has no
# cv2.aruco at all. Both wheels are abi3 builds that install on Python 3.11.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=${OPENCV46_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/companion/opencv46-venv}
PINS=(
  "opencv-contrib-python-headless==4.6.0.66"
  "numpy==1.24.*"
  "pillow==9.4.*"
  "pyyaml==6.0.*"
  "gpiozero==2.0.*"
  "luma.oled"
  "pytest"
  "hypothesis"
)

if ! "$PY" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
  echo "opencv46_check: $("$PY" --version) is not Python 3.11 (Bookworm's); set PYTHON=" >&2
  exit 1
fi
stamp="$VENV/.pins"
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${PINS[*]}" ]; then
  rm -rf "$VENV"
  "$PY" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${PINS[@]}"
  echo "${PINS[*]}" >"$stamp"
fi
"$VENV/bin/python" - <<'PY'
import cv2, numpy, PIL
print(f"opencv46_check: OpenCV {cv2.__version__}, numpy {numpy.__version__}, "
      f"Pillow {PIL.__version__}, ArUco: "
      + ("CharucoDetector" if hasattr(cv2.aruco, "CharucoDetector") else "legacy (4.6) API"))
PY
if [ "$#" -eq 0 ]; then
  set -- tests
fi
PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" exec "$VENV/bin/python" -m pytest \
  -p no:cacheprovider "$@"
