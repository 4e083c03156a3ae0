"""Table set-up: is the board in view, big enough, sharp and well lit?

:func:`assess` finds the game board in a photo, by four printed ArUco corner markers when they
are there (``calibration/corner-markers-a4.pdf``: ids 0-3 laid upright just outside the
board's top-left, top-right, bottom-right and bottom-left corners, each touching its corner
with the marker's inner corner) or else by its outline (the largest four-sided shape), and
measures:

- size: pixels per board square (the recogniser wants 40 or more) and the share of the frame
  the board fills;
- sharpness: the variance of the Laplacian over the board (low = out of focus or shaken);
- exposure: the board's mean brightness and the share of blown-out and black pixels.

:func:`draw_overlay` draws the finding onto the photo for the user to look at.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.calibration.charuco import detect_markers

CORNER_DICTIONARY = "DICT_4X4_50"
CORNER_IDS = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left
CORNER_MARKER_MM = 30.0    # printed marker side
CORNER_MARGIN_MM = 5.0     # white margin of the cut-out, between the marker and the board

MIN_PX_PER_SQUARE = 40.0
MIN_SHARPNESS = 60.0
BRIGHTNESS = (70.0, 200.0)
MAX_BLOWN = 0.01
MAX_BLACK = 0.05
EDGE_MARGIN = 0.01  # a board corner nearer the frame's edge than this share is "cut off"


@dataclass(frozen=True)
class Assessment:
    """What the set-up check found; ``advice`` says what to change, empty when all is well."""

    found: bool
    method: str                       # "markers", "outline" or "none"
    corners: list[list[float]]        # TL, TR, BR, BL in photo pixels (empty when not found)
    frame: tuple[int, int]            # photo width, height
    fill: float = 0.0                 # share of the frame the board covers
    px_per_square: float = 0.0
    sharpness: float = 0.0
    brightness: float = 0.0
    blown: float = 0.0
    black: float = 0.0
    checks: dict[str, bool] = field(default_factory=dict)
    advice: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.found and all(self.checks.values())

    def lines(self) -> list[str]:
        """Four short lines (at most 21 characters) for the OLED."""
        if not self.found:
            return ["Board not found", "Put it in view,", "all four corners", "visible"]
        mark = {True: "OK", False: "FIX"}
        return [f"Board {self.px_per_square:.0f}px/sq {mark[self.checks['size']]}",
                f"In frame {self.fill:.0%} {mark[self.checks['in_frame']]}",
                f"Sharp {self.sharpness:.0f} {mark[self.checks['sharpness']]}",
                f"Light {self.brightness:.0f} {mark[self.checks['exposure']]}"]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["frame"] = list(self.frame)
        data["ok"] = self.ok
        data["lines"] = self.lines()
        return data


def _gray(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


def order_corners(points: np.ndarray) -> np.ndarray:
    """Four points as top-left, top-right, bottom-right, bottom-left (in image terms)."""
    pts = np.asarray(points, np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen, starting near "left"
    start = int(np.argmin(pts.sum(axis=1)))  # the top-left has the smallest x + y
    return np.roll(pts, -start, axis=0)


def find_by_markers(gray: np.ndarray) -> np.ndarray | None:
    """The board's corners from its four ArUco corner markers (None unless all four show)."""
    corners, ids = detect_markers(gray, CORNER_DICTIONARY, refine=True)
    found: dict[int, np.ndarray] = {}
    reach = CORNER_MARGIN_MM / CORNER_MARKER_MM
    for c, i in zip(corners, ids, strict=True):
        if int(i) in CORNER_IDS and int(i) not in found:
            # the marker's corner nearest the board (BR of the top-left marker, ...), carried
            # on along the marker's diagonal across the cut-out's white margin
            c = np.asarray(c, np.float64).reshape(4, 2)
            near, far = c[(int(i) + 2) % 4], c[int(i)]
            found[int(i)] = near + (near - far) * reach
    if len(found) < 4:
        return None
    return np.array([found[i] for i in CORNER_IDS])


def find_by_outline(gray: np.ndarray, min_fill: float = 0.03) -> np.ndarray | None:
    """The corners of the largest convex four-sided outline covering at least ``min_fill``."""
    h, w = gray.shape
    scale = 800 / max(h, w) if max(h, w) > 800 else 1.0
    small = cv2.resize(gray, (round(w * scale), round(h * scale)),
                       interpolation=cv2.INTER_AREA) if scale != 1.0 else gray
    edges = cv2.Canny(cv2.GaussianBlur(small, (5, 5), 0), 40, 120)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best, best_area = None, min_fill * small.shape[0] * small.shape[1]
    for contour in contours:
        hull = cv2.convexHull(contour)
        area = cv2.contourArea(hull)
        if area < best_area:
            continue
        quad = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        if len(quad) == 4:
            best, best_area = quad.reshape(4, 2) / scale, area
    return order_corners(best) if best is not None else None


def assess(image: np.ndarray, squares: int | None = 7) -> Assessment:
    """Find the board (``squares`` across its longer side) and judge the set-up.

    ``squares`` None: the game has no grid of squares, so the size check is left out."""
    gray = _gray(image)
    h, w = gray.shape
    corners, method = find_by_markers(gray), "markers"
    if corners is None:
        corners, method = find_by_outline(gray), "outline"
    if corners is None:
        return Assessment(False, "none", [], (w, h), advice=[
            "no board found: put the whole board in view with all four corners showing, or "
            "print calibration/corner-markers-a4.pdf (or corner-markers-letter.pdf) and lay a "
            "marker at each corner"])
    quad = corners.astype(np.float32)
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, quad.astype(np.int32), 255)
    inside = gray[mask > 0]
    area = float(cv2.contourArea(quad))
    sides = [float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in range(4)]
    px_per_square = min(sides) / max(1, squares or 1)
    lap = cv2.Laplacian(gray, cv2.CV_64F)
    eroded = cv2.erode(mask, np.ones((5, 5), np.uint8))
    sharpness = float(lap[eroded > 0].var()) if np.any(eroded) else 0.0
    brightness = float(inside.mean()) if inside.size else 0.0
    blown = float(np.count_nonzero(inside >= 250)) / max(1, inside.size)
    black = float(np.count_nonzero(inside <= 5)) / max(1, inside.size)
    margin = EDGE_MARGIN * max(w, h)
    in_frame = bool(np.all(quad[:, 0] >= margin) and np.all(quad[:, 0] <= w - 1 - margin)
                    and np.all(quad[:, 1] >= margin) and np.all(quad[:, 1] <= h - 1 - margin))
    checks = {
        "size": squares is None or px_per_square >= MIN_PX_PER_SQUARE,
        "in_frame": in_frame,
        "sharpness": sharpness >= MIN_SHARPNESS,
        "exposure": BRIGHTNESS[0] <= brightness <= BRIGHTNESS[1] and blown <= MAX_BLOWN
        and black <= MAX_BLACK,
    }
    advice = []
    if not checks["size"]:
        advice.append(f"the board is small in the photo ({px_per_square:.0f} px per square, "
                      f"{MIN_PX_PER_SQUARE:.0f} wanted): lower the camera or raise the "
                      "resolution (camera.width, camera.height)")
    if not checks["in_frame"]:
        advice.append("the board runs off the edge of the photo: centre it under the camera")
    if not checks["sharpness"]:
        advice.append(f"the photo is blurred (sharpness {sharpness:.0f}, {MIN_SHARPNESS:.0f} "
                      "wanted): focus the lens, steady the stand, or add light for a shorter "
                      "exposure")
    if not checks["exposure"]:
        if brightness > BRIGHTNESS[1] or blown > MAX_BLOWN:
            advice.append(f"the board is too bright (mean {brightness:.0f}, {blown:.1%} "
                          "blown out): move the lamp aside or dim it; avoid glare on glossy "
                          "tiles")
        else:
            advice.append(f"the board is too dark (mean {brightness:.0f}): add light, e.g. a "
                          "desk lamp shining from the side")
    return Assessment(True, method, quad.astype(float).tolist(), (w, h), area / (w * h),
                      px_per_square, sharpness, brightness, blown, black, checks, advice)


def draw_overlay(image: np.ndarray, result: Assessment, max_side: int = 1280) -> np.ndarray:
    """The photo with the board's outline (green when all is well, red when not) and figures."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    h, w = out.shape[:2]
    scale = min(1.0, max_side / max(w, h))
    if scale < 1.0:
        out = cv2.resize(out, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    colour = (60, 200, 60) if result.ok else (40, 40, 230)
    if result.found:
        pts = (np.array(result.corners) * scale).round().astype(np.int32)
        cv2.polylines(out, [pts], True, colour, max(2, round(3 * scale)), cv2.LINE_AA)
        for name, p in zip(("TL", "TR", "BR", "BL"), pts, strict=True):
            cv2.circle(out, tuple(int(v) for v in p), 6, colour, -1, cv2.LINE_AA)
            cv2.putText(out, name, (int(p[0]) + 8, int(p[1]) - 8), cv2.FONT_HERSHEY_SIMPLEX,
                        0.6, colour, 2, cv2.LINE_AA)
    lines = [*result.lines(), f"found by {result.method}"]
    for k, line in enumerate(lines):
        y = 30 + 28 * k
        cv2.putText(out, line, (12, y), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 5, cv2.LINE_AA)
        cv2.putText(out, line, (12, y), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2,
                    cv2.LINE_AA)
    return out
