"""Reading photos with errors a user can act on."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.errors import InputFileError, RecognitionError

#: Photos larger than this many pixels are refused (a camera frame is far smaller).
MAX_PIXELS = 40_000_000


def load_image(path: Path) -> np.ndarray:
    """The image at ``path`` as 8-bit BGR; one clear error if it is missing, empty or corrupt."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such file; check the path") from None
    except IsADirectoryError:
        raise InputFileError(f"{path} is a folder, not an image file") from None
    except OSError as exc:
        raise InputFileError(f"{path} cannot be read ({exc.strerror}); check its "
                             "permissions") from None
    return decode_image(data, str(path))


def decode_image(data: bytes, name: str = "image") -> np.ndarray:
    """Decode PNG/JPEG/... bytes to 8-bit BGR."""
    if not data:
        raise RecognitionError(f"{name} is empty (0 bytes); take the photo again")
    buf = np.frombuffer(data, np.uint8)
    try:
        image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    except cv2.error:
        image = None
    if image is None or image.size == 0:
        raise RecognitionError(f"{name} is not a readable image (corrupt or not PNG/JPEG); "
                               "take or copy the photo again")
    if image.shape[0] * image.shape[1] > MAX_PIXELS:
        raise RecognitionError(f"{name} is {image.shape[1]}x{image.shape[0]} pixels, too large; "
                               "use a camera frame of at most 40 megapixels")
    if image.shape[0] < 32 or image.shape[1] < 32:
        raise RecognitionError(f"{name} is only {image.shape[1]}x{image.shape[0]} pixels; "
                               "use a full camera frame")
    return image
