"""Lens calibration on simulated photos: how close are the recovered intrinsics to the truth?

Run: ``.venv/bin/python benchmarks/calibration.py [--trials N] [--views N] [--seed S]``.

Each trial photographs the printed ChArUco board (``companion.calibration.charuco.TARGET``) in
``--views`` random poses through a virtual Pi camera with a known camera matrix and barrel
distortion (``companion.calibration.synthetic``: blur 0.6 px, noise 2 grey levels), runs the
same detection and fit as ``companion calibrate camera``, and compares. Printed per trial and
in the worst case over all trials:

- focal lengths and principal point: relative error (target under 1%);
- RMS reprojection error (target under 0.5 px);
- the lens model error: the mean and largest distance, over a grid across the whole photo,
  between where the true and the recovered lens model put the same ray (px).

The scan-accuracy benchmark on distorted renders (the gain from undistortion) is
``benchmarks/undistortion_gain.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.calibration import charuco, synthetic


def residual_px(camera: synthetic.VirtualCamera, k: np.ndarray, dist: np.ndarray,
                ) -> tuple[float, float]:
    """Mean and largest distance between true and recovered projections of the same rays."""
    w, h = camera.size
    us, vs = np.meshgrid(np.linspace(0, w - 1, 41), np.linspace(0, h - 1, 31))
    pix = np.stack([us.ravel(), vs.ravel()], axis=1)
    rays = synthetic.undistort_pixels(pix, camera.K, camera.dist)
    pts = np.column_stack([rays, np.ones(len(rays))]).reshape(-1, 1, 3)
    proj, _ = cv2.projectPoints(pts, np.zeros(3), np.zeros(3), k, dist)
    err = np.linalg.norm(proj.reshape(-1, 2) - pix, axis=1)
    return float(np.mean(err)), float(np.max(err))


def trial(seed: int, views: int, size: tuple[int, int]) -> dict[str, float]:
    camera = synthetic.pi_camera(size)
    ppm = 4.0
    page = charuco.board_image(charuco.TARGET, ppm)
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(views):
        R, t = synthetic.random_pose(rng, camera, charuco.TARGET.size_mm)
        det = charuco.detect(synthetic.render_view(page, ppm, camera, R, t, rng))
        if det is not None:
            found.append(det)
    fit = charuco.calibrate(found, camera.size)
    k, truth = fit.camera_matrix, camera.K
    return {"views": len(found), "rms": fit.rms,
            "fx": abs(k[0, 0] / truth[0, 0] - 1), "fy": abs(k[1, 1] / truth[1, 1] - 1),
            "cx": abs(k[0, 2] / truth[0, 2] - 1), "cy": abs(k[1, 2] / truth[1, 2] - 1),
            **dict(zip(("residual_mean", "residual"), residual_px(camera, k, fit.dist_coeffs),
                       strict=True))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--views", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default="1640x1232", help="photo size, WxH")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.lower().split("x"))
    print(f"OpenCV {cv2.__version__} (ArUco API: {charuco.api()}), numpy {np.__version__}; "
          f"{args.trials} trials of {args.views} views at {size[0]}x{size[1]}")
    rows = []
    start = time.perf_counter()
    for k in range(args.trials):
        r = trial(args.seed + k, args.views, size)  # type: ignore[arg-type]
        rows.append(r)
        print(f"trial {k + 1}: {r['views']} views found, rms {r['rms']:.3f} px, "
              f"fx {r['fx']:.3%} fy {r['fy']:.3%} cx {r['cx']:.3%} cy {r['cy']:.3%}, "
              f"lens model error mean {r['residual_mean']:.2f} px, max {r['residual']:.2f} px")
    worst = {key: max(r[key] for r in rows) for key in rows[0]}
    intr = max(worst["fx"], worst["fy"], worst["cx"], worst["cy"])
    print(f"worst: intrinsics {intr:.3%} (target < 1%), rms {worst['rms']:.3f} px "
          f"(target < 0.5 px), lens model error mean {worst['residual_mean']:.2f} px, max "
          f"{worst['residual']:.2f} px (at the photo's very corners); "
          f"{time.perf_counter() - start:.1f} s")
    print("PASS" if intr < 0.01 and worst["rms"] < 0.5 else "FAIL")


if __name__ == "__main__":
    main()
