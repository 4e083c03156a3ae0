"""A virtual camera with a known lens, for testing and measuring the calibration.

:func:`render_view` photographs a flat printed page (any image, e.g. the ChArUco board) through
a pinhole camera with camera matrix ``K`` and OpenCV's distortion (k1, k2, p1, p2, k3): for
every output pixel it undoes the distortion (a fixed-point iteration, exact to 1e-6 px here),
casts the ray onto the page's plane and samples the page there. :func:`random_pose` places the
page at a random distance, tilt and turn. Everything is seeded by a ``numpy.random.Generator``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class VirtualCamera:
    """A camera model: ``K`` (3x3), ``dist`` (k1, k2, p1, p2, k3) and the image size (w, h)."""

    K: np.ndarray
    dist: np.ndarray
    size: tuple[int, int]


def pi_camera(size: tuple[int, int] = (1640, 1232)) -> VirtualCamera:
    """A camera like the Pi's: a 66-degree-wide view, some barrel distortion, an off-centre
    principal point (as every real module has)."""
    w, h = size
    f = w / 2 / math.tan(math.radians(33)) * 1.0
    K = np.array([[f, 0, w / 2 + 0.013 * w], [0, f * 1.002, h / 2 - 0.009 * h], [0, 0, 1]],
                 np.float64)
    dist = np.array([-0.18, 0.06, 0.0007, -0.0005, -0.01], np.float64)
    return VirtualCamera(K, dist, size)


def undistort_pixels(pixels: np.ndarray, K: np.ndarray, dist: np.ndarray,
                     iterations: int = 30) -> np.ndarray:
    """Normalised (x, y) of distorted pixels (N x 2), by fixed-point iteration."""
    k1, k2, p1, p2, k3 = (list(np.asarray(dist, np.float64).reshape(-1)) + [0.0] * 5)[:5]
    xd = (pixels[:, 0] - K[0, 2]) / K[0, 0]
    yd = (pixels[:, 1] - K[1, 2]) / K[1, 1]
    x, y = xd.copy(), yd.copy()
    for _ in range(iterations):
        r2 = x * x + y * y
        radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 ** 3
        dx = 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        dy = p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        x = (xd - dx) / radial
        y = (yd - dy) / radial
    return np.stack([x, y], axis=1)


def rotation(rx: float, ry: float, rz: float) -> np.ndarray:
    """Rotation matrix from angles in degrees about x, then y, then z (applied z first)."""
    a, b, c = (math.radians(v) for v in (rx, ry, rz))
    Rx = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    Ry = np.array([[math.cos(b), 0, math.sin(b)], [0, 1, 0], [-math.sin(b), 0, math.cos(b)]])
    Rz = np.array([[math.cos(c), -math.sin(c), 0], [math.sin(c), math.cos(c), 0], [0, 0, 1]])
    return Rx @ Ry @ Rz


def random_pose(rng: np.random.Generator, camera: VirtualCamera, page_mm: tuple[float, float],
                fill: tuple[float, float] = (0.35, 0.7), max_tilt: float = 35.0,
                centre_range: tuple[float, float] = (0.2, 0.8),
                ) -> tuple[np.ndarray, np.ndarray]:
    """A rotation (3x3) and translation (3, mm) that put the page well inside the view."""
    w, h = camera.size
    width_frac = rng.uniform(*fill)
    z = camera.K[0, 0] * max(page_mm) / (width_frac * w)
    R = rotation(rng.uniform(-max_tilt, max_tilt), rng.uniform(-max_tilt, max_tilt),
                 rng.uniform(-180, 180))
    # the page's centre on the ray through a random pixel (so that views reach the corners)
    u = rng.uniform(*centre_range) * w
    v = rng.uniform(*centre_range) * h
    ray = undistort_pixels(np.array([[u, v]]), camera.K, camera.dist)[0]
    centre = np.array([page_mm[0] / 2, page_mm[1] / 2, 0.0])
    t = np.array([ray[0] * z, ray[1] * z, z]) - R @ centre
    return R, t


_RAYS: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}


def _rays(camera: VirtualCamera) -> tuple[np.ndarray, np.ndarray]:
    """Normalised ray (x, y) of every pixel (h x w each), computed once per camera."""
    key = camera.K.tobytes() + np.asarray(camera.dist).tobytes() + bytes(str(camera.size), "ascii")
    if key not in _RAYS:
        w, h = camera.size
        us, vs = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
        norm = undistort_pixels(np.stack([us.ravel(), vs.ravel()], axis=1), camera.K,
                                camera.dist)
        _RAYS.clear()
        _RAYS[key] = (norm[:, 0].reshape(h, w), norm[:, 1].reshape(h, w))
    return _RAYS[key]


def render_view(page: np.ndarray, px_per_mm: float, camera: VirtualCamera, R: np.ndarray,
                t: np.ndarray, rng: np.random.Generator | None = None, *, margin_mm: float = 15,
                background: int = 70, blur: float = 0.6, noise: float = 2.0) -> np.ndarray:
    """The page (grey, ``px_per_mm`` fine, lying at z=0 in its own frame, mm) photographed by
    ``camera`` at pose (R, t); a BGR image with the paper's white margin and a dark table."""
    nx, ny = _rays(camera)
    # page (X, Y, 1) -> normalised camera coordinates is the homography [r1 r2 t]
    Hi = np.linalg.inv(np.column_stack([R[:, 0], R[:, 1], t]))
    pz = Hi[2, 0] * nx + Hi[2, 1] * ny + Hi[2, 2]
    X = (Hi[0, 0] * nx + Hi[0, 1] * ny + Hi[0, 2]) / pz
    Y = (Hi[1, 0] * nx + Hi[1, 1] * ny + Hi[1, 2]) / pz
    behind = pz <= 0
    map_x = (X * px_per_mm - 0.5).astype(np.float32)
    map_y = (Y * px_per_mm - 0.5).astype(np.float32)
    sheet = cv2.copyMakeBorder(page, *(round(margin_mm * px_per_mm),) * 4,
                               cv2.BORDER_CONSTANT, value=255)
    pad = round(margin_mm * px_per_mm)
    out = cv2.remap(sheet, map_x + pad, map_y + pad, cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_CONSTANT, borderValue=background)
    out[behind] = background
    out = out.astype(np.float32)
    if blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    if noise > 0:
        rng = rng or np.random.default_rng(0)
        out += rng.normal(0, noise, out.shape).astype(np.float32)
    grey = np.clip(out, 0, 255).astype(np.uint8)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
