"""Reading photos with errors a user can act on.

A photo's size is read from its header before anything is decoded, and a photo of more than
:func:`max_pixels` (``camera.max_megapixels`` in the configuration, :data:`MAX_PIXELS` by
default) is refused there: a 15000 x 15000 PNG is a few hundred KB on the disk but would take
0.7 GB once decoded, more than a 1 GB Pi can spare. What the decoders print about a damaged
file is held back, so a refusal is one line.
"""

from __future__ import annotations

import contextlib
import io
import os
import struct
import tempfile
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError, InputFileError, RecognitionError

#: Photos larger than this many pixels are refused (a camera frame is far smaller): the
#: default of the one limit for every photo the companion reads (see :func:`max_pixels`).
MAX_PIXELS = 40_000_000
#: No photo of at most MAX_PIXELS takes more than this many bytes (8 per pixel is 16-bit
#: RGBA without compression), so a larger file is refused before it is read.
MAX_FILE_BYTES = 8 * MAX_PIXELS + 1024 * 1024

_limit = MAX_PIXELS


def max_pixels() -> int:
    """The most pixels a photo may have: ``camera.max_megapixels`` once the command line or
    the service has read the configuration (:func:`set_max_pixels`), else :data:`MAX_PIXELS`."""
    return _limit


def set_max_pixels(pixels: int) -> None:
    """Take the configuration's limit for every photo read from now on."""
    global _limit
    _limit = int(pixels)


def _max_file_bytes() -> int:
    return 8 * max_pixels() + 1024 * 1024


#: A photo file is read this many bytes at a time.
_CHUNK = 1 << 20

_PNG = b"\x89PNG\r\n\x1a\n"
_JPEG = b"\xff\xd8"
#: JPEG start-of-frame markers, which carry the size (C4, C8 and CC are other segments).
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def header_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` from an image's header, without decoding it; None when the
    header cannot be read (damaged, or not an image). PNG and JPEG are read here; other
    formats through Pillow, which also reads only the header.

    >>> header_size(b"\\x89PNG\\r\\n\\x1a\\n" + bytes(4) + b"IHDR" + bytes.fromhex("00003a98" * 2))
    (15000, 15000)
    """
    if data.startswith(_PNG):
        if data[12:16] != b"IHDR" or len(data) < 24:
            return None
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if data.startswith(_JPEG):
        return _jpeg_size(data)
    return _pillow_size(data)


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The size in a JPEG's start-of-frame segment; segments before it are skipped by their
    lengths, and stray bytes between segments skipped as libjpeg does."""
    i = 2
    while i < len(data):
        if data[i] != 0xFF:  # stray bytes: libjpeg skips on to the next marker too
            i = data.find(b"\xff", i)
            if i < 0:
                return None
            continue
        while i < len(data) and data[i] == 0xFF:  # fill bytes
            i += 1
        if i >= len(data):
            return None
        marker = data[i]
        i += 1
        if marker in (0x00, 0x01) or 0xD0 <= marker <= 0xD8:  # no length follows
            continue
        if marker in (0xD9, 0xDA):  # end of image, or the pixels start: no frame header
            return None
        if i + 2 > len(data):
            return None
        (length,) = struct.unpack(">H", data[i:i + 2])
        if marker in _SOF:
            if i + 7 > len(data):
                return None
            height, width = struct.unpack(">HH", data[i + 3:i + 7])
            return width, height
        if length < 2:
            return None
        i += length
    return None


def _pillow_size(data: bytes) -> tuple[int, int] | None:
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # DecompressionBombWarning: ours is refused below
            with Image.open(io.BytesIO(data)) as image:
                return image.size
    except Image.DecompressionBombError:
        side = int((2 * (Image.MAX_IMAGE_PIXELS or MAX_PIXELS)) ** 0.5) + 1
        return side, side  # more pixels than Pillow's own bound, which is above ours
    except Exception:  # Pillow raises many kinds for a file it cannot identify
        return None


def check_size(data: bytes, name: str,
               error: type[CompanionError] = RecognitionError) -> tuple[int, int]:
    """The photo's ``(width, height)`` from its header; ``error`` when the header cannot be
    read or the photo has more than :data:`MAX_PIXELS`: nothing has been decoded yet."""
    size = header_size(data)
    if size is None:
        raise error(f"{name} is not a readable image (corrupt or not PNG/JPEG); take or copy "
                    "the photo again")
    if size[0] * size[1] > max_pixels():
        raise error(too_large(name, size))
    return size


def too_large(name: str, size: tuple[int, int], limit: int | None = None) -> str:
    """The refusal of a photo of ``size`` (width, height) over ``limit`` pixels (default
    :func:`max_pixels`)."""
    most = max_pixels() if limit is None else limit
    return (f"{name} is {size[0]}x{size[1]} pixels, too large; use a camera frame of at most "
            f"{most / 1e6:g} megapixels (or raise camera.max_megapixels)")


_STDERR = threading.Lock()
#: What the decoders print straight to the stderr file about a damaged photo (OpenCV gives no
#: way to silence them): libjpeg's warnings, libpng's errors, OpenCV's own warnings.
_DECODER_NOISE = (b"Corrupt JPEG data", b"Premature end of JPEG file",
                  b"Invalid SOS parameters", b"Warning:", b"libpng error", b"libpng warning",
                  b"[ WARN:")


@contextlib.contextmanager
def _without_decoder_noise() -> Iterator[None]:
    """Hold back the decoders' lines about a damaged photo, so a user sees only the
    companion's own one-line message; any other line written meanwhile (another thread's) is
    passed on afterwards."""
    with _STDERR:
        try:
            saved = os.dup(2)
        except OSError:  # no stderr at all: nothing to keep clean
            yield
            return
        with tempfile.TemporaryFile() as caught:
            try:
                os.dup2(caught.fileno(), 2)
                yield
            finally:
                os.dup2(saved, 2)
                os.close(saved)
                caught.seek(0)
                kept = [line for line in caught.read().splitlines(keepends=True)
                        if not line.startswith(_DECODER_NOISE)]
                if kept:
                    with contextlib.suppress(OSError):
                        os.write(2, b"".join(kept))


def decode_bgr(data: bytes) -> np.ndarray | None:
    """Image bytes decoded to 8-bit BGR by OpenCV (None when it cannot), without the
    decoders' lines on stderr. Check the size first (:func:`check_size`)."""
    buf = np.frombuffer(data, np.uint8)
    try:
        with _without_decoder_noise():
            return cv2.imdecode(buf, cv2.IMREAD_COLOR)
    except cv2.error:
        return None


def read_photo_bytes(path: Path, name: str, error: type[CompanionError] = InputFileError,
                     ) -> bytes:
    """A photo file's bytes; ``error`` names ``name`` when it is larger than any photo of at
    most :func:`max_pixels` can be (it is not read then). A missing or unreadable file raises
    :class:`OSError` for the caller to word."""
    most = _max_file_bytes()
    chunks: list[bytes] = []
    got = 0
    with Path(path).open("rb") as handle:
        if os.fstat(handle.fileno()).st_size > most:
            raise error(_too_big(name, most))
        # in pieces, as a file may grow while read: ``read(most + 1)`` would reserve the
        # whole limit (hundreds of MB) for every photo before reading a byte of it
        while got <= most and (chunk := handle.read(min(_CHUNK, most + 1 - got))):
            chunks.append(chunk)
            got += len(chunk)
    data = b"".join(chunks)
    if len(data) > most:
        raise error(_too_big(name, most))
    return data


def _too_big(name: str, most: int) -> str:
    return (f"{name} is larger than {most // (1024 * 1024)} MB, more than any photo of at "
            f"most {max_pixels() / 1e6:g} megapixels; use a camera frame")


def load_image(path: Path) -> np.ndarray:
    """The image at ``path`` as 8-bit BGR; one clear error if it is missing, empty, corrupt
    or too large (refused from its header, before it is decoded)."""
    path = Path(path)
    try:
        data = read_photo_bytes(path, str(path), RecognitionError)
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such file; check the path") from None
    except IsADirectoryError:
        raise InputFileError(f"{path} is a folder, not an image file") from None
    except OSError as exc:
        raise InputFileError(f"{path} cannot be read ({exc.strerror}); check its "
                             "permissions") from None
    return decode_image(data, str(path))


def decode_image(data: bytes, name: str = "image") -> np.ndarray:
    """Decode PNG/JPEG/... bytes to 8-bit BGR; the size is checked from the header first."""
    if not data:
        raise RecognitionError(f"{name} is empty (0 bytes); take the photo again")
    check_size(data, name)
    image = decode_bgr(data)
    if image is None or image.size == 0:
        raise RecognitionError(f"{name} is not a readable image (corrupt or not PNG/JPEG); "
                               "take or copy the photo again")
    if image.shape[0] * image.shape[1] > max_pixels():  # a header that understated the size
        raise RecognitionError(too_large(name, (image.shape[1], image.shape[0])))
    if image.shape[0] < 32 or image.shape[1] < 32:
        raise RecognitionError(f"{name} is only {image.shape[1]}x{image.shape[0]} pixels; "
                               "use a full camera frame")
    return image
