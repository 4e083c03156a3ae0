"""An unplugged camera: one clear failure, then a new try after the retry time."""

from __future__ import annotations

import numpy as np
import pytest

from companion.devices.camera import FunctionCamera, RetryingCamera
from companion.errors import DeviceError


class Plug:
    """A camera that can be unplugged and plugged back in."""

    def __init__(self) -> None:
        self.plugged = True
        self.opened = 0

    def open(self) -> FunctionCamera:
        if not self.plugged:
            raise DeviceError("no camera answers at 0")
        self.opened += 1

        def frame(n: int) -> np.ndarray:
            if not self.plugged:
                raise DeviceError("USB camera 0 gave no picture")
            return np.zeros((2, 2, 3), np.uint8)

        return FunctionCamera(frame, "USB camera 0")


def test_unplug_and_replug() -> None:
    now = [0.0]
    plug = Plug()
    cam = RetryingCamera(plug.open, retry_seconds=5, clock=lambda: now[0])
    assert cam.capture().shape == (2, 2, 3) and cam.name == "USB camera 0"
    plug.plugged = False
    with pytest.raises(DeviceError, match="gave no picture"):
        cam.capture()
    now[0] = 2.0
    with pytest.raises(DeviceError, match=r"gave no picture \(trying again in 3 s\)"):
        cam.capture()
    plug.plugged = True
    now[0] = 6.0
    assert cam.capture().shape == (2, 2, 3)
    assert plug.opened == 2


def test_camera_missing_at_start_is_retried() -> None:
    now = [0.0]
    plug = Plug()
    plug.plugged = False
    cam = RetryingCamera(plug.open, retry_seconds=1, clock=lambda: now[0])
    with pytest.raises(DeviceError, match="no camera answers"):
        cam.capture()
    plug.plugged = True
    now[0] = 1.5
    cam.capture()
    cam.close()
