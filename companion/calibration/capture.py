"""Steady photos: exposure and white balance locked after set-up, still frames averaged.

Auto-exposure and auto-white-balance chase every hand and sleeve that crosses the table, so two
photos of the same board differ in brightness and colour. After the table set-up the camera's
settled values are read once and fixed (picamera2 controls ``AeEnable``/``AwbEnable`` off, with
``ExposureTime``, ``AnalogueGain`` and ``ColourGains`` from the last frame's metadata) and kept
in ``<data_dir>/calibration/exposure.json`` so the service applies them on every start.

Sensor noise falls with the square root of the number of frames averaged; :func:`average_still`
averages a burst only when nothing moved between its frames, else it keeps the newest frame.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.calibration.errors import CalibrationError

if TYPE_CHECKING:
    import numpy as np

EXPOSURE_FILE = Path("calibration") / "exposure.json"


def locked_controls(metadata: dict[str, Any]) -> dict[str, Any]:
    """The picamera2 controls that freeze exposure and white balance at ``metadata``'s values.

    >>> locked_controls({"ExposureTime": 16000, "AnalogueGain": 2.5,
    ...                  "ColourGains": (1.9, 1.6), "Lux": 300})
    {'AeEnable': False, 'AwbEnable': False, 'ExposureTime': 16000, 'AnalogueGain': 2.5, \
'ColourGains': [1.9, 1.6]}
    """
    missing = [k for k in ("ExposureTime", "AnalogueGain", "ColourGains") if k not in metadata]
    if missing:
        raise CalibrationError(f"the camera reports no {', '.join(missing)}, so exposure cannot "
                               "be locked; is it a Pi camera module (camera.source: picamera2)?")
    return {"AeEnable": False, "AwbEnable": False,
            "ExposureTime": int(metadata["ExposureTime"]),
            "AnalogueGain": float(metadata["AnalogueGain"]),
            "ColourGains": [float(g) for g in metadata["ColourGains"]]}


def picamera2_of(camera: Any) -> Any | None:
    """The ``Picamera2`` object behind a companion camera (or a wrapper of one), else None."""
    seen = 0
    while camera is not None and seen < 5:
        inner = getattr(camera, "_cam", None)
        if inner is not None and hasattr(inner, "set_controls"):
            return inner
        camera = camera.__dict__.get("camera") if hasattr(camera, "__dict__") else None
        seen += 1
    return None


def settle_and_lock(picam2: Any, *, settle_frames: int = 15,
                    sleep: Callable[[float], None] = time.sleep) -> dict[str, Any]:
    """Let auto-exposure settle for a few frames, then fix its values; returns the controls."""
    picam2.set_controls({"AeEnable": True, "AwbEnable": True})
    metadata: dict[str, Any] = {}
    for _ in range(settle_frames):
        metadata = picam2.capture_metadata()
    controls = locked_controls(metadata)
    picam2.set_controls(controls)
    sleep(0.2)  # the new controls take effect a few frames later
    return controls


def apply_locked(picam2: Any, controls: dict[str, Any]) -> None:
    """Put stored controls back (at service start)."""
    picam2.set_controls({k: tuple(v) if isinstance(v, list) else v
                         for k, v in controls.items()})


def save_exposure(data_dir: Path, controls: dict[str, Any]) -> Path:
    from companion.storage import atomic_write_json

    path = Path(data_dir).expanduser() / EXPOSURE_FILE
    atomic_write_json(path, controls)
    return path


def load_exposure(data_dir: Path) -> dict[str, Any] | None:
    """The locked controls of the last table set-up, or None."""
    path = Path(data_dir).expanduser() / EXPOSURE_FILE
    from companion.errors import InputFileError
    from companion.storage import read_data_file

    if not path.exists():
        return None
    try:  # bounded: size, depth, numbers
        data = read_data_file(path, "exposure file", error=CalibrationError)
    except (CalibrationError, InputFileError):
        raise CalibrationError(f"{path} cannot be read as JSON; run 'companion calibrate "
                               "table' again") from None
    return locked_controls(data) if isinstance(data, dict) else None


def average_still(frames: Sequence[np.ndarray], motion_level: float = 0.002,
                  ) -> tuple[np.ndarray, bool]:
    """The mean of ``frames`` when the scene held still across them, else the newest frame.

    Returns (image, averaged). Stillness is judged on small blurred grey copies (see
    :mod:`companion.vision.stillness`), so sensor noise does not count as movement.
    """
    import numpy as np

    from companion.vision.stillness import changed_fraction, thumbnail

    if not frames:
        raise ValueError("no frames to average")
    last = frames[-1]
    if len(frames) == 1 or any(f.shape != last.shape for f in frames):
        return last, False
    thumbs = [thumbnail(f) for f in frames]
    if any(changed_fraction(a, thumbs[-1]) > motion_level for a in thumbs[:-1]):
        return last, False
    mean = np.mean(np.stack(frames).astype(np.float32), axis=0)
    return np.clip(mean + 0.5, 0, 255).astype(last.dtype), True


def capture_still(camera: Any, count: int = 4) -> tuple[np.ndarray, bool]:
    """``count`` captures averaged when still (see :func:`average_still`)."""
    return average_still([camera.capture() for _ in range(max(1, count))])
