"""An unplugged camera: one clear failure, then a new try after the retry time."""

from __future__ import annotations

from pathlib import Path

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


# -- the files camera follows its folder (issue #21, point 7) -------------------------------

def photo(path: Path, value: int) -> Path:
    import cv2

    cv2.imwrite(str(path), np.full((4, 6, 3), value, np.uint8))
    return path


def files_camera(folder: Path, now: list[float]) -> RetryingCamera:
    from companion.devices.camera import open_camera

    settings = {"source": "files", "path": str(folder), "max_megapixels": 40}
    return RetryingCamera(lambda: open_camera(settings), retry_seconds=5, clock=lambda: now[0])


def test_the_files_camera_follows_photos_renamed_under_it(tmp_path: Path) -> None:
    now = [0.0]
    a, b = photo(tmp_path / "a.png", 10), photo(tmp_path / "b.png", 20)
    cam = files_camera(tmp_path, now)
    assert cam.capture()[0, 0, 0] == 10
    a.rename(tmp_path / "c.png")
    b.rename(tmp_path / "d.png")
    assert cam.capture()[0, 0, 0] == 10  # b.png is gone: the folder is listed again, c.png
    assert cam.capture()[0, 0, 0] == 20  # d.png
    photo(tmp_path / "e.png", 30)
    assert cam.capture()[0, 0, 0] == 10  # a round is over: listed again, e.png comes in turn
    assert [cam.capture()[0, 0, 0] for _ in range(2)] == [20, 30]


def test_the_files_camera_emptied_then_refilled_is_opened_again(tmp_path: Path) -> None:
    from companion.errors import InputFileError

    now = [0.0]
    folder = tmp_path / "photos"
    folder.mkdir()
    photo(folder / "a.png", 10)
    cam = files_camera(folder, now)
    cam.capture()
    (folder / "a.png").unlink()
    with pytest.raises(DeviceError, match="holds no photos"):
        cam.capture()
    folder.rmdir()
    now[0] = 6.0
    with pytest.raises(DeviceError, match="does not exist"):
        cam.capture()
    folder.mkdir()
    photo(folder / "new.png", 40)
    (folder / "bad.png").write_bytes(b"not a photo")
    now[0] = 12.0
    with pytest.raises(InputFileError, match="bad.png"):
        cam.capture()  # a damaged photo: refused, and the camera stays open
    assert cam.capture()[0, 0, 0] == 40


def test_the_files_camera_takes_its_size_limit_from_the_configuration(tmp_path: Path) -> None:
    from companion.devices.camera import FileCamera
    from companion.errors import InputFileError

    photo(tmp_path / "a.png", 10)
    assert FileCamera(tmp_path, max_pixels=24).capture().shape == (4, 6, 3)
    with pytest.raises(InputFileError, match="camera.max_megapixels"):
        FileCamera(tmp_path, max_pixels=23).capture()


def test_a_camera_driver_error_is_a_device_error_and_retried() -> None:
    now = [0.0]
    calls = []

    def frame(n: int) -> np.ndarray:
        calls.append(n)
        if len(calls) == 1:
            raise RuntimeError("driver\nexploded")
        return np.zeros((2, 2, 3), np.uint8)

    cam = RetryingCamera(lambda: FunctionCamera(frame), retry_seconds=1, clock=lambda: now[0])
    with pytest.raises(DeviceError, match="RuntimeError: driver exploded"):
        cam.capture()
    now[0] = 2.0
    assert cam.capture().shape == (2, 2, 3)


def test_a_camera_that_cannot_be_opened_for_any_reason_is_a_device_error() -> None:
    now = [0.0]
    opened = []

    def opener() -> FunctionCamera:
        opened.append(1)
        if len(opened) == 1:
            raise RecursionError("maximum recursion depth exceeded while decoding a JSON array")
        return FunctionCamera(lambda n: np.zeros((2, 2, 3), np.uint8))

    cam = RetryingCamera(opener, retry_seconds=1, clock=lambda: now[0])
    with pytest.raises(DeviceError, match="RecursionError"):
        cam.capture()
    with pytest.raises(DeviceError, match="trying again"):
        cam.capture()
    now[0] = 2.0
    assert cam.capture().shape == (2, 2, 3)
