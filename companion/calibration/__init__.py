"""Calibration: the camera's lens, the table set-up, and steady captures.

- :func:`calibrate_camera` fits the lens from photos of the printed ChArUco board
  (``calibration/charuco-a4.pdf`` or ``-letter.pdf``) and stores it in the data folder;
  :func:`~companion.calibration.lens.undistort` and
  :func:`~companion.calibration.lens.open_calibrated_camera` apply it to every capture.
- :func:`calibrate_table` judges where the board lies, its size in the photo, sharpness and
  exposure, writes an overlay PNG, and locks a Pi camera's exposure and white balance.

Importing this package does not import OpenCV (``companion --help`` stays fast).
"""

from companion.calibration.errors import CalibrationError
from companion.calibration.jobs import calibrate_camera, calibrate_table

__all__ = ["CalibrationError", "calibrate_camera", "calibrate_table"]
