"""Auto-capture: is the scene still, with no hand over the board, and has it changed?

The service watches low-resolution frames. A capture is worth taking when the last few frames
agree with each other (nobody is moving: a hand reaching over the board makes consecutive frames
differ) and the scene differs from the last capture taken (somebody placed something). The
comparison is on a small, blurred grey copy so that sensor noise and JPEG grain do not count.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


def thumbnail(frame: np.ndarray, width: int = 160) -> np.ndarray:
    """A small blurred grey copy of a BGR (or grey) frame, for cheap comparisons."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    h, w = grey.shape
    small = cv2.resize(grey, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (5, 5), 0)


def changed_fraction(a: np.ndarray, b: np.ndarray, level: int = 25) -> float:
    """The share of thumbnail pixels whose brightness differs by more than ``level``."""
    if a.shape != b.shape:
        return 1.0
    return float(np.count_nonzero(cv2.absdiff(a, b) > level)) / a.size


@dataclass
class StillnessDetector:
    """Feed frames in order; ``update`` says when a new still scene is ready to capture."""

    still_frames: int = 3          # consecutive calm frames needed
    motion_level: float = 0.002    # share of changed pixels that counts as movement
    change_level: float = 0.004    # share that counts as "something new since the last capture"

    def __post_init__(self) -> None:
        self._previous: np.ndarray | None = None
        self._calm = 0
        self._captured: np.ndarray | None = None

    def reset(self, captured: np.ndarray | None = None) -> None:
        """Start over, optionally with the frame of a capture just taken as the reference."""
        self._previous = None
        self._calm = 0
        self._captured = thumbnail(captured) if captured is not None else None

    def update(self, frame: np.ndarray) -> bool:
        """True once the scene has been still for ``still_frames`` and differs from the last
        capture; then the frame becomes the new reference (so it fires once per change)."""
        thumb = thumbnail(frame)
        if self._previous is not None and \
                changed_fraction(thumb, self._previous) <= self.motion_level:
            self._calm += 1
        else:
            self._calm = 0
        self._previous = thumb
        if self._calm < self.still_frames:
            return False
        if self._captured is not None and \
                changed_fraction(thumb, self._captured) <= self.change_level:
            return False
        self._captured = thumb
        self._calm = 0
        return True
