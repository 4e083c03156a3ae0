"""Whether a square shows anything but the bare board, judged by its fine structure.

Under a hard shadow or a soft patch of glare, the bare board can match its enrolled self
poorly: the light across one square is no longer the even slope the comparison allows for.
But light varies slowly, and a tile or a counter brings sharp structure (edges, art) that the
bare board does not have. So both the photo and the enrolled board are reduced to their fine
structure (the grey level over its own local mean, minus a blur of it) and compared square by
square; the result is weighed against the least fine structure any enrolled tile face would
show at the photo's blur. A square far below that shows no tile, whatever its light.
"""

from __future__ import annotations

import cv2
import numpy as np

#: The scales of light (divided out) and of structure (finer is kept), in squares.
LIGHT = 1 / 6
#: A square's fine structure, over the faintest tile's, below which no tile lies there.
BARE_STRUCTURE = 0.2
DETAIL = 1 / 16


def fine_structure(grey: np.ndarray, cell: float) -> np.ndarray:
    """The fine structure of a grey image (float32) with ``cell`` pixels a square: grey over
    its own local light, minus a blur of that, so slow shading and glare drop out."""
    grey = np.asarray(grey, np.float32)
    level = cv2.GaussianBlur(grey, (0, 0), LIGHT * cell, borderType=cv2.BORDER_REPLICATE)
    ratio = grey / np.maximum(level, 1.0)
    return ratio - cv2.GaussianBlur(ratio, (0, 0), DETAIL * cell,
                                    borderType=cv2.BORDER_REPLICATE)


def board_structure(board: np.ndarray, cell: float, blur: float) -> np.ndarray:
    """The fine structure of the enrolled board's grey view, first blurred by ``blur``
    pixels as the photo is."""
    if blur > 0:
        board = cv2.GaussianBlur(np.asarray(board, np.float32), (0, 0), blur)
    return fine_structure(board, cell)


def structure_residual(photo: np.ndarray, board: np.ndarray, centres: np.ndarray,
                       side: float) -> np.ndarray:
    """Per square, the mean squared difference between two aligned fine-structure maps (the
    photo's, the board's) in a ``side``-pixel window round each of ``centres``."""
    diff = (photo - board) ** 2
    half = side / 2
    out = np.empty(len(centres))
    for k, (cx, cy) in enumerate(centres):
        x0, y0 = max(round(cx - half), 0), max(round(cy - half), 0)
        out[k] = diff[y0:round(cy + half), x0:round(cx + half)].mean()
    return out


def tile_structure(templates: np.ndarray, patch: int, cell: float) -> np.ndarray:
    """The fine structure (mean square) of each tile template (flattened (n, patch * patch
    * 3) colour patches with ``cell`` pixels a square, blurred as the photo is): what each
    tile would bring to a square."""
    faces = templates.reshape(-1, patch, patch, 3)
    out = np.empty(len(faces))
    for k, face in enumerate(faces):
        grey = cv2.cvtColor(np.ascontiguousarray(face, np.float32), cv2.COLOR_BGR2GRAY)
        out[k] = float((fine_structure(grey * 255, cell) ** 2).mean())
    return out


FAINTEST = 16  # tile faces kept as the candidates for the faintest at any blur


def faintest_tiles(templates: np.ndarray, patch: int, cell: float) -> np.ndarray:
    """The indexes of the FAINTEST sharp tile templates (least fine structure). Blur lowers
    every face's structure but hardly reorders the faintest, so only these need measuring
    again at each photo's blur; worked out once, at enrolment."""
    return np.argsort(tile_structure(templates, patch, cell))[:FAINTEST].astype(np.int32)
