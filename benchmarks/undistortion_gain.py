"""What lens correction buys the board scan: The Glade's recogniser on strongly distorted photos,
with and without ``companion.calibration.lens.undistort``.

Photos of random forests in SAMPLE art style 2 (not the bundled pack's style) are rendered by
the table simulator, then bent through a strong barrel lens (k1 = -0.35: far more than the Pi
Camera Module's), as an uncalibrated wide lens would see the table. Each is scanned as it is and
after undistortion with that lens's calibration (as ``companion calibrate camera`` recovers it
within 0.1%, see ``benchmarks/calibration.py``). Printed: per-square errors, uncertain squares,
boards exactly right and boards not found, for both.

Run: ``.venv/bin/python benchmarks/undistortion_gain.py [--photos N]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.calibration.lens import LensCalibration, undistort
from companion.calibration.synthetic import undistort_pixels
from companion.errors import CompanionError
from companion.the_glade.names import BoardGeometry
from companion.the_glade.recognition.enrol import build_model
from companion.the_glade.recognition.reader import read_board
from companion.the_glade.recognition.sim import (
    random_forest,
    render_photo,
    sample_pack,
)

SIZE = (1640, 1232)


def strong_lens() -> tuple[np.ndarray, np.ndarray]:
    w, h = SIZE
    f = w / 2 / np.tan(np.radians(36))
    K = np.array([[f, 0, w / 2 + 9], [0, f, h / 2 - 6], [0, 0, 1]], np.float64)
    return K, np.array([-0.35, 0.15, 0.0005, -0.0004, -0.03], np.float64)


def distortion_maps(K: np.ndarray, dist: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each pixel of the distorted photo, where to look in the ideal (pinhole) photo."""
    w, h = SIZE
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    ideal = undistort_pixels(np.stack([xs.ravel(), ys.ravel()], axis=1), K, dist)
    mx = (ideal[:, 0] * K[0, 0] + K[0, 2]).reshape(h, w).astype(np.float32)
    my = (ideal[:, 1] * K[1, 1] + K[1, 2]).reshape(h, w).astype(np.float32)
    return mx, my


def compare(result: dict, truth: dict) -> tuple[int, int]:
    wrong = uncertain = 0
    seen_t, seen_c = result["forest"]["tiles"], result["forest"]["counters"]
    true_t, true_c = truth["forest"]["tiles"], truth["forest"]["counters"]
    geometry = BoardGeometry.from_dict(truth["board"])
    for square in geometry.squares():
        name = square.name
        if name in result["uncertain"]:
            uncertain += 1
        elif (seen_t.get(name), seen_c.get(name)) != (true_t.get(name), true_c.get(name)):
            wrong += 1
    return wrong, uncertain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--photos", type=int, default=40)
    args = parser.parse_args()
    pack = sample_pack(style=2)
    model = build_model(pack)
    K, dist = strong_lens()
    mx, my = distortion_maps(K, dist)
    calibration = LensCalibration.from_fit(K, dist, SIZE, 0.0, 0)
    geometry = BoardGeometry.from_dict({"rows": 7, "cols": 7, "centre": "D4"})
    stats = {"as taken": [0, 0, 0, 0], "undistorted": [0, 0, 0, 0]}  # wrong, unsure, exact, lost
    squares = 0
    for i in range(args.photos):
        state = random_forest(np.random.default_rng(7000 + i), geometry, pack)
        photo, truth = render_photo(pack, state, seed=7000 + i)
        bent = cv2.remap(photo, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        squares += geometry.rows * geometry.cols
        for label, image in (("as taken", bent), ("undistorted", undistort(bent, calibration))):
            s = stats[label]
            try:
                wrong, unsure = compare(read_board(model, image).result(), truth)
            except CompanionError:
                s[3] += 1
                continue
            s[0] += wrong
            s[1] += unsure
            s[2] += wrong == 0 and unsure == 0
    print(f"{args.photos} photos (7x7, SAMPLE art style 2) through a strong barrel lens "
          f"(k1 {dist[0]}):")
    for label, (wrong, unsure, exact, lost) in stats.items():
        print(f"  {label:12} wrong squares {100 * wrong / squares:6.2f}%, uncertain "
              f"{100 * unsure / squares:6.2f}%, boards exactly right {exact}/{args.photos}, "
              f"board not found {lost}")


if __name__ == "__main__":
    main()
