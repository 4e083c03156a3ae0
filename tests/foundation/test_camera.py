"""Camera port: each source with its test double; every failure is a DeviceError or a clear
InputFileError, never a traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.devices.camera import FileCamera, FunctionCamera, open_camera, read_image
from companion.errors import DeviceError, InputFileError

SETTINGS = {"source": "files", "device": 0, "path": None, "width": 640, "height": 480,
            "retry_seconds": 1}


def photo(path: Path, value: int) -> Path:
    cv2.imwrite(str(path), np.full((20, 30, 3), value, np.uint8))
    return path


def test_file_camera_cycles_a_folder_in_name_order(tmp_path: Path) -> None:
    photo(tmp_path / "b.png", 200)
    photo(tmp_path / "a.png", 100)
    (tmp_path / "notes.txt").write_text("not a photo")
    with FileCamera(tmp_path) as cam:
        values = [int(cam.capture()[0, 0, 0]) for _ in range(3)]
    assert values == [100, 200, 100]
    assert cam.closed


def test_file_camera_single_file(tmp_path: Path) -> None:
    cam = FileCamera(photo(tmp_path / "one.jpg", 50))
    assert cam.capture().shape == (20, 30, 3)


def test_closed_camera_refuses(tmp_path: Path) -> None:
    cam = FileCamera(photo(tmp_path / "one.png", 50))
    cam.close()
    cam.close()  # idempotent
    with pytest.raises(DeviceError, match="closed"):
        cam.capture()


def test_empty_folder_and_missing_path(tmp_path: Path) -> None:
    with pytest.raises(DeviceError, match="holds no photos"):
        FileCamera(tmp_path)
    with pytest.raises(DeviceError, match="does not exist"):
        FileCamera(tmp_path / "nowhere")


@pytest.mark.parametrize(("content", "message"), [
    (b"", "is empty"),
    (b"\xff\xd8\xff\xe0 not really a jpeg", "not an image"),
])
def test_corrupt_photos_are_named(tmp_path: Path, content: bytes, message: str) -> None:
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(content)
    with pytest.raises(InputFileError, match=message):
        read_image(bad)


def test_missing_photo() -> None:
    with pytest.raises(InputFileError, match="does not exist"):
        read_image(Path("/nonexistent.jpg"))


def test_function_camera_counts_captures() -> None:
    cam = FunctionCamera(lambda n: np.full((2, 2, 3), n, np.uint8))
    assert [int(cam.capture()[0, 0, 0]) for _ in range(3)] == [0, 1, 2]


def test_open_camera_files(tmp_path: Path) -> None:
    photo(tmp_path / "a.png", 1)
    cam = open_camera({**SETTINGS, "path": str(tmp_path)})
    assert isinstance(cam, FileCamera)


def test_open_camera_files_without_path() -> None:
    with pytest.raises(DeviceError, match="camera.path is not set"):
        open_camera(SETTINGS)


def test_open_camera_simulator_needs_a_renderer() -> None:
    with pytest.raises(DeviceError, match="no table simulator"):
        open_camera({**SETTINGS, "source": "simulator"})
    cam = open_camera({**SETTINGS, "source": "simulator"},
                      simulator=lambda n: np.zeros((4, 4, 3), np.uint8))
    assert cam.capture().shape == (4, 4, 3)


def test_unplugged_usb_camera_is_a_device_error() -> None:
    with pytest.raises(DeviceError, match="no camera answers"):
        open_camera({**SETTINGS, "source": "opencv", "device": "/dev/video-not-here"})


def test_missing_picamera2_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as off the Pi
    with pytest.raises(DeviceError, match="apt install python3-picamera2"):
        open_camera({**SETTINGS, "source": "picamera2"})


class FakePicamera2:
    """Stands in for picamera2.Picamera2 with the calls the adapter makes."""

    fail_start: Exception | None = None

    def __init__(self) -> None:
        if self.fail_start:
            raise self.fail_start
        self.closed = False

    def create_still_configuration(self, main: dict) -> dict:
        return {"main": main}

    def configure(self, config: dict) -> None:
        self.size = config["main"]["size"]

    def start(self) -> None:
        pass

    def capture_array(self, name: str) -> np.ndarray:
        w, h = self.size
        return np.zeros((h, w, 3), np.uint8)

    def close(self) -> None:
        self.closed = True


def test_picamera2_adapter_with_fake(monkeypatch: pytest.MonkeyPatch) -> None:
    module = type(sys)("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    with open_camera({**SETTINGS, "source": "picamera2"}) as cam:
        assert cam.capture().shape == (480, 640, 3)


@pytest.mark.parametrize(("error", "message"), [
    (IndexError("list index out of range"), "no Pi camera found"),
    (RuntimeError("Failed to acquire camera: Device or resource busy, Pipeline handler in use"),
     "held by another program"),
])
def test_picamera2_failures(monkeypatch: pytest.MonkeyPatch, error: Exception,
                            message: str) -> None:
    fake = type("Failing", (FakePicamera2,), {"fail_start": error})
    module = type(sys)("picamera2")
    module.Picamera2 = fake  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    with pytest.raises(DeviceError, match=message):
        open_camera({**SETTINGS, "source": "picamera2"})
