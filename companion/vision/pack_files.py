"""The image files of an enrolment pack: each read as the user's own photo of a component,
each written as the simulator's lossless PNG.

Every game's pack names its images in ``pack.yaml`` (``../shared/spec/``); a missing or
unreadable one is refused naming the pack entry that names it, so the user knows which line of
``pack.yaml`` to fix.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import CompanionError, ModelError
from companion.vision.image import load_image


def read_pack_image(folder: Path, name: Any, where: str,
                    bad: Callable[[str, str], ModelError]) -> np.ndarray:
    """The image ``name`` (relative to the pack ``folder``) of the entry ``where``;
    ``bad(where, problem)`` makes the refusal in the game's own words."""
    if not isinstance(name, str) or not name:
        raise bad(where, "has no 'image'")
    path = folder / name
    if not path.is_file():
        raise bad(where, f"image {name!r} is missing from {folder}")
    try:
        return load_image(path)
    except CompanionError as exc:
        raise bad(where, f"image {name!r} cannot be read ({exc})") from None


def write_png(path: Path, image: np.ndarray) -> None:
    """Write a pack image as a compressed, lossless PNG."""
    ok, buf = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    if not ok:
        raise ModelError(f"could not encode {path.name} as PNG")
    path.write_bytes(buf.tobytes())
