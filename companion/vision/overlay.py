"""Drawing what the scanner saw on top of the photo."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.errors import InputFileError
from companion.vision.board import project

GRID = (255, 255, 0)      # cyan-ish (BGR)
SURE = (60, 220, 60)
UNSURE = (0, 0, 255)      # red


@dataclass(frozen=True)
class Mark:
    """One square to draw: its corners in board-image pixels, a short label, sure or not."""

    corners: np.ndarray   # (4, 2)
    label: str
    sure: bool


def draw(photo: np.ndarray, homography: np.ndarray, marks: list[Mark],
         outline: np.ndarray | None = None) -> np.ndarray:
    """A copy of ``photo`` with every square outlined and labelled; unsure squares in red."""
    out = photo.copy()
    h = out.shape[0]
    thick = max(1, round(h / 600))
    font_scale = max(0.35, h / 2400)
    if outline is not None:
        quad = project(homography, outline).astype(np.int32)
        cv2.polylines(out, [quad], True, GRID, thick + 1, cv2.LINE_AA)
    for mark in marks:
        quad = project(homography, mark.corners).astype(np.int32)
        colour = SURE if mark.sure else UNSURE
        cv2.polylines(out, [quad], True, GRID if mark.sure else UNSURE,
                      thick if mark.sure else thick + 2, cv2.LINE_AA)
        if not mark.label:
            continue
        centre = quad.mean(axis=0)
        lines = mark.label.split("\n")
        for k, line in enumerate(lines):
            (tw, th), _ = cv2.getTextSize(line, cv2.FONT_HERSHEY_SIMPLEX, font_scale, 1)
            org = (int(centre[0] - tw / 2),
                   int(centre[1] + (k - (len(lines) - 1) / 2) * (th + 4) + th / 2))
            cv2.putText(out, line, org, cv2.FONT_HERSHEY_SIMPLEX, font_scale, (0, 0, 0),
                        thick + 2, cv2.LINE_AA)
            cv2.putText(out, line, org, cv2.FONT_HERSHEY_SIMPLEX, font_scale, colour, thick,
                        cv2.LINE_AA)
    return out


def write_png(path: Path, image: np.ndarray) -> None:
    path = Path(path)
    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise InputFileError(f"could not encode the overlay for {path}")
    try:
        path.write_bytes(buf.tobytes())
    except OSError as exc:
        raise InputFileError(f"cannot write the overlay to {path} ({exc.strerror}); check the "
                             "folder exists and is writable") from None
