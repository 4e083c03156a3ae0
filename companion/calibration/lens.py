"""The lens calibration: stored in the data directory, applied to every capture.

``companion calibrate camera`` fits a lens model (see :mod:`companion.calibration.charuco`) and
saves it as ``<data_dir>/calibration/lens.json`` (an atomic write). :func:`undistort` straightens
a photo with it, and :class:`CalibratedCamera` wraps any camera so that every capture comes out
straightened; :func:`open_calibrated_camera` is ``open_camera`` plus that wrapper when the data
directory holds a calibration.

The undistorted photo keeps the camera matrix and size of the original, so that a board is the
same size in pixels before and after. A calibration made at one resolution is used at another
of the same aspect ratio by scaling the camera matrix (the Pi's binned modes see the same field
of view); a different aspect ratio means a different crop of the sensor and is refused.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.calibration.errors import CalibrationError

if TYPE_CHECKING:
    import numpy as np

    from companion.devices.camera import Camera

LENS_FILE = Path("calibration") / "lens.json"


def lens_file(data_dir: Path) -> Path:
    """Where the lens calibration lives in a data directory."""
    return Path(data_dir).expanduser() / LENS_FILE


@dataclass(frozen=True)
class LensCalibration:
    """A camera matrix (3x3), distortion coefficients and the image size they were fitted at."""

    camera_matrix: tuple[tuple[float, float, float], ...]
    dist_coeffs: tuple[float, ...]
    image_size: tuple[int, int]  # width, height
    rms: float = 0.0
    views: int = 0
    made: str = ""
    opencv: str = ""
    _maps: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_fit(cls, camera_matrix: Any, dist_coeffs: Any, image_size: tuple[int, int],
                 rms: float, views: int) -> LensCalibration:
        import cv2

        k = tuple(tuple(float(v) for v in row) for row in camera_matrix)
        return cls(k, tuple(float(v) for v in dist_coeffs), (int(image_size[0]),
                   int(image_size[1])), float(rms), int(views),
                   datetime.now(UTC).isoformat(timespec="seconds"), cv2.__version__)

    def to_dict(self) -> dict[str, Any]:
        return {"camera_matrix": [list(r) for r in self.camera_matrix],
                "dist_coeffs": list(self.dist_coeffs),
                "image_size": list(self.image_size), "rms_px": self.rms, "views": self.views,
                "made": self.made, "opencv": self.opencv}

    @classmethod
    def from_dict(cls, data: Any, source: str = "lens calibration") -> LensCalibration:
        redo = "; run 'companion calibrate camera' again"
        if not isinstance(data, dict):
            raise CalibrationError(f"{source} is not a calibration (a JSON object expected){redo}")
        try:
            k = tuple(tuple(float(v) for v in row) for row in data["camera_matrix"])
            dist = tuple(float(v) for v in data["dist_coeffs"])
            size = (int(data["image_size"][0]), int(data["image_size"][1]))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise CalibrationError(f"{source} lacks or garbles {exc}{redo}") from None
        if len(k) != 3 or any(len(r) != 3 for r in k) or len(dist) not in (4, 5, 8, 12, 14):
            raise CalibrationError(f"{source} has a camera matrix or distortion of the wrong "
                                   f"shape{redo}")
        if not all(math.isfinite(v) for v in (*sum(k, ()), *dist)) or k[0][0] <= 0 \
                or k[1][1] <= 0 or min(size) <= 0:
            raise CalibrationError(f"{source} holds impossible values{redo}")
        return cls(k, dist, size, float(data.get("rms_px", 0.0)), int(data.get("views", 0)),
                   str(data.get("made", "")), str(data.get("opencv", "")))

    def matrix_for(self, size: tuple[int, int]) -> np.ndarray:
        """The camera matrix for photos of ``size`` (w, h): scaled when only the scale differs."""
        import numpy as np

        k = np.array(self.camera_matrix, np.float64)
        cw, ch = self.image_size
        w, h = size
        if (w, h) == (cw, ch):
            return k
        if abs(w / h - cw / ch) > 0.01:
            raise CalibrationError(
                f"the lens was calibrated on {cw}x{ch} photos but this one is {w}x{h}, a "
                "different crop of the sensor; run 'companion calibrate camera' again at the "
                "camera's current camera.width and camera.height")
        sx, sy = w / cw, h / ch
        # pixel centres: x' + 0.5 = (x + 0.5) * s
        k[0, 0] *= sx
        k[0, 2] = (k[0, 2] + 0.5) * sx - 0.5
        k[1, 1] *= sy
        k[1, 2] = (k[1, 2] + 0.5) * sy - 0.5
        return k


def undistort(image: np.ndarray, calibration: LensCalibration) -> np.ndarray:
    """The photo as a distortion-free pinhole camera with the same camera matrix would see it."""
    import cv2
    import numpy as np

    h, w = image.shape[:2]
    maps = calibration._maps.get((w, h))
    if maps is None:
        k = calibration.matrix_for((w, h))
        dist = np.array(calibration.dist_coeffs, np.float64)
        maps = cv2.initUndistortRectifyMap(k, dist, None, k, (w, h), cv2.CV_16SC2)
        calibration._maps.clear()
        calibration._maps[(w, h)] = maps
    return cv2.remap(image, maps[0], maps[1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT)


def save_lens(data_dir: Path, calibration: LensCalibration) -> Path:
    """Write the calibration atomically; a clear error when the folder is not writable."""
    from companion.storage import atomic_write_json

    path = lens_file(data_dir)
    try:
        atomic_write_json(path, calibration.to_dict())
    except PermissionError:
        raise CalibrationError(
            f"cannot write {path} (permission denied): run the calibration as the service's "
            "user, 'sudo -u companion companion calibrate ...', or set data_dir to a folder "
            "you own") from None
    except OSError as exc:
        raise CalibrationError(f"cannot write {path} ({exc.strerror or exc}); check the disk "
                               "and data_dir") from None
    return path


def load_lens(data_dir: Path) -> LensCalibration | None:
    """The stored calibration, or None when the camera was never calibrated."""
    path = lens_file(data_dir)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CalibrationError(f"cannot read {path} ({exc.strerror or exc}); check its "
                               "permissions") from None
    from companion.storage import parse_data

    try:  # bounded: size, depth, numbers (a torn or hostile file is refused cheaply)
        data = parse_data(text, path, "lens calibration", error=CalibrationError)
    except CalibrationError:
        raise CalibrationError(f"{path} is not valid JSON (a torn or edited file); run "
                               "'companion calibrate camera' again") from None
    return LensCalibration.from_dict(data, str(path))


class CalibratedCamera:
    """Any camera, with every capture undistorted by a lens calibration."""

    def __init__(self, camera: Camera, calibration: LensCalibration) -> None:
        self.camera = camera
        self.calibration = calibration
        self.name = f"{camera.name} (lens-corrected)"

    def capture(self) -> np.ndarray:
        return undistort(self.camera.capture(), self.calibration)

    @property
    def closed(self) -> bool:
        return bool(getattr(self.camera, "closed", False))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.camera.close()

    def __enter__(self) -> CalibratedCamera:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getattr__(self, name: str) -> Any:  # e.g. last_file of a FileCamera
        if name == "camera":
            raise AttributeError(name)
        return getattr(self.camera, name)


def open_calibrated_camera(settings: dict[str, Any], data_dir: Path,
                           simulator: Callable[[int], np.ndarray] | None = None) -> Camera:
    """``open_camera(settings)`` with what the calibrations in ``data_dir`` hold: on a Pi
    camera the exposure and white balance locked by the table set-up, and the lens correction.

    The simulator renders distortion-free photos, so it is never corrected.
    """
    from companion.calibration.capture import apply_locked, load_exposure, picamera2_of
    from companion.devices.camera import open_camera

    camera = open_camera(settings, simulator)
    if settings.get("source") == "simulator":
        return camera
    try:
        picam2 = picamera2_of(camera)
        controls = load_exposure(data_dir) if picam2 is not None else None
        if controls:
            apply_locked(picam2, controls)
        calibration = load_lens(data_dir)
    except CalibrationError:
        camera.close()
        raise
    return CalibratedCamera(camera, calibration) if calibration is not None else camera
