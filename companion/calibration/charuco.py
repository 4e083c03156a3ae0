"""The ChArUco calibration target, on every OpenCV the companion meets.

OpenCV moved ArUco from the contrib modules into the main module in 4.7 and changed its API on
the way. Raspberry Pi OS Bookworm ships 4.6 (``cv2.aruco.CharucoBoard_create``,
``detectMarkers`` + ``interpolateCornersCharuco``); the current wheels (4.7 to 5.x) have
``cv2.aruco.CharucoBoard(...)`` and ``CharucoDetector``. This module is the only place that
knows: it makes the board, draws it and finds its inner corners in a photo, and hands back
plain arrays. Calibration itself is ``cv2.calibrateCamera`` on matched object and image points
on every version (``calibrateCameraCharuco`` in 4.6 is a thin wrapper over the same call).

Should an OpenCV have markers but no ChArUco interpolation, the marker corners themselves are
used as calibration points (fewer and a little less precise, but still a calibration).

The board has an odd number of rows, so it looks the same under OpenCV's old (< 4.6) and new
ChArUco layouts: a board printed from any version is found by every other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.calibration.errors import CalibrationError


@dataclass(frozen=True)
class Target:
    """A printed ChArUco board: squares across and down, their size, the markers' dictionary."""

    squares_x: int = 5
    squares_y: int = 7
    square_mm: float = 35.0
    marker_mm: float = 26.0
    dictionary: str = "DICT_5X5_100"

    @property
    def size_mm(self) -> tuple[float, float]:
        return self.squares_x * self.square_mm, self.squares_y * self.square_mm

    @property
    def inner_corners(self) -> int:
        return (self.squares_x - 1) * (self.squares_y - 1)


#: The board the project prints (calibration/charuco-a4.pdf, charuco-letter.pdf).
TARGET = Target()


@dataclass(frozen=True)
class Detection:
    """Calibration points found in one photo: ``image`` (N x 2 pixels) and ``object`` (N x 3 mm)."""

    image: np.ndarray
    object: np.ndarray
    ids: np.ndarray
    kind: str  # "charuco" (inner chessboard corners) or "markers" (marker corners, fallback)

    def __len__(self) -> int:
        return len(self.ids)


def aruco() -> Any:
    """``cv2.aruco``, or an error that says which OpenCV to install."""
    module = getattr(cv2, "aruco", None)
    if module is None or not hasattr(module, "getPredefinedDictionary"):
        raise CalibrationError(
            f"this OpenCV ({cv2.__version__}) has no ArUco module: on Raspberry Pi OS install "
            "'python3-opencv' (sudo apt install python3-opencv); elsewhere use "
            "opencv-python-headless 4.7 or newer")
    return module


def api() -> str:
    """Which ArUco API this OpenCV has: "detector" (4.7+), "legacy" (4.6) or "markers-only"."""
    a = aruco()
    if hasattr(a, "CharucoDetector"):
        return "detector"
    if hasattr(a, "interpolateCornersCharuco"):
        return "legacy"
    return "markers-only"


def _dictionary(target: Target | str) -> Any:
    a = aruco()
    name = target if isinstance(target, str) else target.dictionary
    return a.getPredefinedDictionary(getattr(a, name))


def make_board(target: Target = TARGET) -> Any:
    """OpenCV's board object for ``target`` (sizes in millimetres)."""
    a = aruco()
    if hasattr(a, "CharucoBoard_create"):  # OpenCV <= 4.6
        return a.CharucoBoard_create(target.squares_x, target.squares_y, target.square_mm,
                                     target.marker_mm, _dictionary(target))
    return a.CharucoBoard((target.squares_x, target.squares_y), target.square_mm,
                          target.marker_mm, _dictionary(target))


def board_image(target: Target = TARGET, px_per_mm: float = 4.0) -> np.ndarray:
    """The board as an 8-bit grey image, edge to edge (no margin), ``px_per_mm`` fine."""
    board = make_board(target)
    w_mm, h_mm = target.size_mm
    size = (round(w_mm * px_per_mm), round(h_mm * px_per_mm))
    if hasattr(board, "generateImage"):
        return board.generateImage(size, marginSize=0, borderBits=1)
    return board.draw(size, marginSize=0, borderBits=1)


def chessboard_corners(board: Any) -> np.ndarray:
    """The inner corners' positions on the board (N x 3, millimetres), indexed by corner id."""
    if hasattr(board, "getChessboardCorners"):
        return np.asarray(board.getChessboardCorners(), np.float32).reshape(-1, 3)
    return np.asarray(board.chessboardCorners, np.float32).reshape(-1, 3)


def _marker_object_points(board: Any) -> tuple[np.ndarray, np.ndarray]:
    """Each marker's four corners on the board (M x 4 x 3 mm) and the marker ids (M)."""
    if hasattr(board, "getObjPoints"):
        pts, ids = board.getObjPoints(), board.getIds()
    else:
        pts, ids = board.objPoints, board.ids
    return (np.asarray(pts, np.float32).reshape(-1, 4, 3),
            np.asarray(ids, np.int32).reshape(-1))


def _gray(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


def detect_markers(gray: np.ndarray, target: Target | str, *, refine: bool = False,
                   ) -> tuple[list[np.ndarray], np.ndarray]:
    """ArUco markers of the target's (or the named) dictionary: corners (each 4 x 2) and ids.

    ``refine`` refines the marker corners to sub-pixel precision (OpenCV's
    ``CORNER_REFINE_SUBPIX``), for when the corners themselves are measured.
    """
    a = aruco()
    params = a.DetectorParameters() if hasattr(a, "ArucoDetector") \
        else a.DetectorParameters_create()
    if refine:
        params.cornerRefinementMethod = a.CORNER_REFINE_SUBPIX
        # 4.6 takes this in pixels (4.7+ caps it by the marker's size): a wider window reaches
        # into the marker's bits and drags the corner off by pixels
        params.cornerRefinementWinSize = 3
    if hasattr(a, "ArucoDetector"):
        corners, ids, _ = a.ArucoDetector(_dictionary(target), params).detectMarkers(gray)
    else:
        corners, ids, _ = a.detectMarkers(gray, _dictionary(target), parameters=params)
    if ids is None or len(ids) == 0:
        return [], np.zeros(0, np.int32)
    return list(corners), np.asarray(ids, np.int32).reshape(-1)


def detect(image: np.ndarray, target: Target = TARGET, *, min_points: int = 8,
           method: str | None = None) -> Detection | None:
    """The target's calibration points in a photo, or None when too few are seen.

    ``method`` forces "detector", "legacy" or "markers-only" (tests of the fallback); by default
    the best this OpenCV has is used.
    """
    gray = _gray(image)
    board = make_board(target)
    method = method or api()
    a = aruco()
    if method == "detector":
        corners, ids, _, _ = a.CharucoDetector(board).detectBoard(gray)
    elif method == "legacy":
        m_corners, m_ids = detect_markers(gray, target)
        corners = ids = None
        if len(m_ids):
            _, corners, ids = a.interpolateCornersCharuco(m_corners, m_ids.reshape(-1, 1),
                                                          gray, board)
    else:
        return _detect_marker_corners(gray, board, target, min_points)
    if ids is None or corners is None or len(ids) < min_points:
        return None
    ids = np.asarray(ids, np.int32).reshape(-1)
    img = np.asarray(corners, np.float32).reshape(-1, 2)
    return Detection(img, chessboard_corners(board)[ids], ids, "charuco")


def _detect_marker_corners(gray: np.ndarray, board: Any, target: Target,
                           min_points: int) -> Detection | None:
    corners, ids = detect_markers(gray, target, refine=True)
    obj_all, board_ids = _marker_object_points(board)
    index = {int(i): k for k, i in enumerate(board_ids)}
    img, obj, point_ids = [], [], []
    for c, i in zip(corners, ids, strict=True):
        k = index.get(int(i))
        if k is None:
            continue
        img.append(np.asarray(c, np.float32).reshape(4, 2))
        obj.append(obj_all[k])
        point_ids.extend(int(i) * 4 + j for j in range(4))
    if len(point_ids) < min_points:
        return None
    return Detection(np.concatenate(img), np.concatenate(obj),
                     np.asarray(point_ids, np.int32), "markers")


@dataclass(frozen=True)
class Fit:
    """A lens model fitted to detections: camera matrix, distortion, RMS reprojection error."""

    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    rms: float
    per_view: list[float]


def calibrate(detections: list[Detection], image_size: tuple[int, int]) -> Fit:
    """Fit the pinhole + radial/tangential (k1, k2, p1, p2, k3) model to the detections."""
    if len(detections) < 3:
        raise CalibrationError(f"only {len(detections)} usable views of the board; at least 3 "
                               "are needed (10 to 20 from different angles are best)")
    objs = [d.object.reshape(-1, 1, 3).astype(np.float32) for d in detections]
    imgs = [d.image.reshape(-1, 1, 2).astype(np.float32) for d in detections]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 100, 1e-9)
    try:
        rms, k, dist, rvecs, tvecs = cv2.calibrateCamera(objs, imgs, image_size, None, None,
                                                         criteria=criteria)
    except cv2.error as exc:
        raise CalibrationError(f"OpenCV could not fit a lens model to these views "
                               f"({str(exc).strip().splitlines()[-1]}); take photos with the "
                               "whole board flat and in focus, from different angles") from None
    per_view = []
    for obj, img, r, t in zip(objs, imgs, rvecs, tvecs, strict=True):
        proj, _ = cv2.projectPoints(obj, r, t, k, dist)
        per_view.append(float(np.sqrt(np.mean(np.sum((proj - img) ** 2, axis=2)))))
    return Fit(np.asarray(k, np.float64), np.asarray(dist, np.float64).reshape(-1), float(rms),
               per_view)
