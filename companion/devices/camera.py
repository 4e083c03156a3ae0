"""Camera port: one ``capture()`` that returns a BGR photo, whatever takes it.

Sources: the Pi camera module through picamera2 (imported only when chosen), a USB camera
through OpenCV, a photo or folder of photos, or any frame-making function (the table simulator).
A camera that is missing or fails raises :class:`DeviceError` with what to check; the service
shows it and tries again. A photo file that cannot be used (gone, corrupt, too large) is an
:class:`InputFileError`: the ``files`` camera then lists its folder again, so photos removed
or renamed under it never leave it asking for files that are gone.
"""

from __future__ import annotations

import bisect
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from companion.errors import CompanionError, DeviceError, InputFileError

if TYPE_CHECKING:
    import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")


class Camera(Protocol):
    """What the service needs of a camera."""

    name: str

    def capture(self) -> np.ndarray: ...

    def close(self) -> None: ...


class _Closing:
    """Context-manager support and an idempotent close, as gpiozero devices have."""

    closed = False

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check_open(self) -> None:
        if self.closed:
            raise DeviceError(f"{self.name} is closed")  # type: ignore[attr-defined]


def read_image(path: Path, max_pixels: int | None = None) -> np.ndarray:
    """A photo file as a BGR array; a missing, empty, corrupt or too large file gets a clear
    error. The size is read from the file's header and a photo of more than ``max_pixels``
    (by default :func:`~companion.vision.image.max_pixels`; the service passes
    ``camera.max_megapixels``) is refused before it is decoded."""
    from companion.vision.image import (
        decode_bgr,
        header_size,
        read_photo_bytes,
        too_large,
    )
    from companion.vision.image import max_pixels as default_limit

    limit = default_limit() if max_pixels is None else max_pixels

    name = f"photo {path}"
    try:
        data = read_photo_bytes(Path(path), name, InputFileError)
    except InputFileError:  # larger than any photo (it is an OSError too)
        raise
    except FileNotFoundError:
        raise InputFileError(f"photo {path} does not exist") from None
    except OSError as exc:
        raise InputFileError(f"photo {path} cannot be read: {exc.strerror or exc}") from None
    if not data:
        raise InputFileError(f"photo {path} is empty (0 bytes); take the photo again")
    size = header_size(data)
    if size is not None and size[0] * size[1] > limit:
        raise InputFileError(too_large(name, size, limit))
    image = None if size is None else decode_bgr(data)  # the decoders' lines held back
    if image is None:
        raise InputFileError(f"photo {path} is not an image OpenCV can read (corrupt, or not "
                             "a JPEG/PNG); take the photo again")
    if image.shape[0] * image.shape[1] > limit:  # a header that understated the size
        raise InputFileError(f"{name} is larger than its header says; it is damaged")
    return image


class FileCamera(_Closing):
    """Photos from a file or a folder (sorted by name), one per capture, round and round.

    The folder is listed again at the end of each round and after every capture that fails,
    so photos added, removed or renamed are followed without a restart; a folder emptied or
    removed is a :class:`DeviceError` (the retrying camera opens it again later).
    """

    def __init__(self, path: Path | str, max_pixels: int | None = None) -> None:
        self.path = Path(path).expanduser()
        self.max_pixels = max_pixels
        self.name = f"photos in {self.path}"
        self.files = self._list()
        self._next = 0
        self.last_file: Path | None = None

    def _list(self) -> list[Path]:
        try:
            if self.path.is_dir():
                files = sorted(p for p in self.path.iterdir()
                               if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
                if not files:
                    raise DeviceError(f"camera folder {self.path} holds no photos "
                                      f"({', '.join(IMAGE_SUFFIXES)}); add some or set "
                                      "camera.path")
                return files
        except OSError as exc:
            raise DeviceError(f"camera folder {self.path} cannot be listed "
                              f"({exc.strerror or exc}); check it or set camera.path") from None
        if self.path.is_file():
            return [self.path]
        raise DeviceError(f"camera.path {self.path} does not exist; set camera.path to a "
                          "photo or a folder of photos")

    def relist(self, after: Path | None = None) -> None:
        """List the folder again (its photos may have changed) and go on with the first photo
        sorted after ``after`` (from the first when None)."""
        self.files = self._list()
        self._next = 0 if after is None else bisect.bisect_right(
            [p.name for p in self.files], after.name)

    def capture(self) -> np.ndarray:
        self._check_open()
        if self._next >= len(self.files):  # a round is over: follow what changed
            self.relist()
        failed = self.files[self._next]
        self._next += 1
        self.last_file = failed
        try:
            return read_image(failed, self.max_pixels)
        except InputFileError:
            gone = not failed.exists()
            self.relist(after=failed)  # may raise DeviceError: emptied or removed
            if not gone or self._next >= len(self.files):
                raise
        # the photo was removed or renamed: the next one of the new listing instead
        self.last_file = self.files[self._next]
        self._next += 1
        return read_image(self.last_file, self.max_pixels)


class FunctionCamera(_Closing):
    """Frames from a function of the capture count: the table simulator, or a test script."""

    def __init__(self, make_frame: Callable[[int], np.ndarray], name: str = "simulator") -> None:
        self._make_frame = make_frame
        self._count = 0
        self.name = name

    def capture(self) -> np.ndarray:
        self._check_open()
        frame = self._make_frame(self._count)
        self._count += 1
        return frame


class OpenCVCamera(_Closing):
    """A USB (UVC) camera through OpenCV's ``VideoCapture``."""

    def __init__(self, device: int | str = 0, width: int = 1640, height: int = 1232,
                 warmup_frames: int = 3) -> None:
        import cv2

        self.name = f"USB camera {device}"
        self._cap = cv2.VideoCapture(device)
        if not self._cap.isOpened():
            self._cap.release()
            raise DeviceError(f"no camera answers at {device!r}: check the USB cable, that no "
                              "other program holds it, or set camera.device / camera.source")
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self._warmup = warmup_frames

    def capture(self) -> np.ndarray:
        self._check_open()
        for _ in range(self._warmup):  # let exposure settle after opening
            self._cap.grab()
        self._warmup = 0
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise DeviceError(f"{self.name} gave no picture: it may be unplugged; check the "
                              "cable (the service tries again)")
        return frame

    def close(self) -> None:
        if not self.closed:
            self._cap.release()
        super().close()


class PiCamera(_Closing):
    """The Raspberry Pi camera module through picamera2 (from Raspberry Pi OS's packages)."""

    def __init__(self, width: int = 1640, height: int = 1232) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            raise DeviceError("picamera2 is not installed: on Raspberry Pi OS run "
                              "'sudo apt install python3-picamera2' (the install script does), "
                              "or set camera.source to opencv, files or simulator") from None
        self.name = "Pi camera"
        try:
            self._cam = Picamera2()
            config = self._cam.create_still_configuration(
                main={"size": (width, height), "format": "BGR888"})
            self._cam.configure(config)
            self._cam.start()
        except IndexError:
            raise DeviceError("no Pi camera found: check the ribbon cable (contacts facing the "
                              "right way) and run 'rpicam-hello --list-cameras'") from None
        except RuntimeError as exc:
            if "in use" in str(exc).lower():
                raise DeviceError("the Pi camera is held by another program (Pipeline handler "
                                  "in use): stop it, e.g. 'sudo systemctl stop companion'",
                                  ) from None
            raise DeviceError(f"the Pi camera failed to start: {exc}") from None

    def capture(self) -> np.ndarray:
        self._check_open()
        try:
            # picamera2's "BGR888" is B,G,R in memory order per libcamera naming: OpenCV's order.
            return self._cam.capture_array("main")
        except Exception as exc:
            raise DeviceError(f"the Pi camera gave no picture ({exc}); check the cable") from None

    def close(self) -> None:
        if not self.closed:
            with contextlib.suppress(Exception):
                self._cam.close()
        super().close()


def open_camera(settings: dict[str, Any],
                simulator: Callable[[int], np.ndarray] | None = None) -> Camera:
    """The camera the ``camera`` section of the configuration asks for."""
    source = settings["source"]
    if source == "picamera2":
        return PiCamera(settings["width"], settings["height"])
    if source == "opencv":
        return OpenCVCamera(settings["device"], settings["width"], settings["height"])
    if source == "files":
        if not settings.get("path"):
            raise DeviceError("camera.source is files but camera.path is not set; set it to a "
                              "photo or a folder of photos")
        megapixels = settings.get("max_megapixels")
        return FileCamera(settings["path"],
                          None if megapixels is None else int(megapixels * 1_000_000))
    if source == "simulator":
        if simulator is None:
            raise DeviceError("camera.source is simulator, but the chosen game has no table "
                              "simulator; choose files or a real camera")
        return FunctionCamera(simulator)
    raise DeviceError(f"unknown camera.source {source!r}")


class RetryingCamera:
    """A camera that is opened when first needed and opened again after it fails.

    The service keeps one of these: an unplugged camera makes one capture fail with a clear
    message; the next capture after ``retry_seconds`` tries to open it again, so plugging it
    back in is all a user has to do.
    """

    def __init__(self, opener: Callable[[], Camera], retry_seconds: float = 5.0,
                 clock: Callable[[], float] | None = None) -> None:
        import time

        self._opener = opener
        self.retry_seconds = retry_seconds
        self._clock = clock or time.monotonic
        self._camera: Camera | None = None
        self._failed_at: float | None = None
        self.last_error: str | None = None
        self.name = "camera"

    def capture(self) -> np.ndarray:
        """One photo. A :class:`DeviceError` (or any failure that is not a user's error)
        closes the camera, to be opened again after ``retry_seconds``; a photo file that
        cannot be used (:class:`InputFileError`, from the ``files`` camera, which has listed
        its folder again) leaves it open: the next capture takes the next photo."""
        if self._camera is None:
            if self._failed_at is not None:
                wait = self.retry_seconds - (self._clock() - self._failed_at)
                if wait > 0:
                    raise DeviceError(f"{self.last_error} (trying again in {wait:.0f} s)")
            try:
                self._camera = self._opener()
                self.name = self._camera.name
            except CompanionError as exc:  # no camera, or its calibration cannot be used
                self._fail(str(exc))
                raise
            except Exception as exc:  # a driver's, or a damaged file's: named, tried again
                message = (f"the camera could not be opened ({type(exc).__name__}: "
                           f"{' '.join(str(exc).split())})"[:200])
                self._fail(message)
                raise DeviceError(f"{message}; the service tries again") from None
        try:
            return self._camera.capture()
        except DeviceError as exc:
            self._fail(str(exc))
            raise
        except CompanionError:
            raise
        except Exception as exc:  # a driver's own error: the camera is opened again
            message = f"{self.name} failed ({type(exc).__name__}: {' '.join(str(exc).split())})"
            self._fail(message[:200])
            raise DeviceError(f"{message[:200]}; the service tries again") from None

    def _fail(self, message: str) -> None:
        self.last_error = message
        self._failed_at = self._clock()
        if self._camera is not None:
            with contextlib.suppress(Exception):
                self._camera.close()
        self._camera = None

    def close(self) -> None:
        if self._camera is not None:
            self._camera.close()
            self._camera = None
