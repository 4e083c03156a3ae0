"""How faces fit a patch of photo under one light and a smooth veil of glare (issue #20).

Glare is light added to the photo: a soft spot, brightest in its middle, that may be smaller
than a tile. A veil that is one plane over the tile (bare_colours.lit_fit) cannot follow
such a spot, and the fit makes up for it by dimming the print: a dark leaf's face then
fits a glare-lit light one nearly as well as the light face does. Here the veil is a
polynomial surface of DEGREE over the patch, grey (shared by the three colours), and the
light one number, so the print's contrast and colour must match, while the glare may be
any smooth shape. Pixels clipped white (any colour at CLIPPED or more, and their
neighbours) say nothing of the print beneath and are left out.

The fit is least squares, solved for every face at once: the veil's surfaces are projected
out of the patch and of each face, and what is left of the face is scaled onto what is left
of the patch (about 2 ms for the 64 faces of a season and turn).
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

#: The veil's polynomial degree in x and y (3: ten terms).
DEGREE = 3
#: A colour this bright (0-255, in the photo as taken) is clipped: glare beyond white.
CLIPPED = 250


def clipped(patch: np.ndarray) -> np.ndarray:
    """Where ``patch`` (h x w x 3, the photo's own 0-255 values) is clipped white, or next
    to a clipped pixel (h x w bool)."""
    hot = (patch.max(axis=2) >= CLIPPED).astype(np.uint8)
    return cv2.dilate(hot, np.ones((3, 3), np.uint8)) > 0


def veil_basis(side: int, degree: int = DEGREE) -> np.ndarray:
    """The veil's surfaces over a ``side``-px square: (side * side) x terms, x and y in
    -0.5..0.5."""
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float64) / side - 0.5
    return np.stack([(xx ** i * yy ** j).ravel() for i in range(degree + 1)
                     for j in range(degree + 1 - i)], axis=1)


def misfits(photo: np.ndarray, faces: np.ndarray, keep: np.ndarray,
            degree: int = DEGREE) -> np.ndarray:
    """The mean squared misfit of each of ``faces`` (n x s x s x 3) to ``photo`` (s x s x 3,
    the same colour scale) under its best light and smooth veil, over the pixels ``keep``
    (s x s bool); a face that fits only with its light inverted is given the patch's misfit
    to the veil alone."""
    s = photo.shape[0]
    w = np.repeat(keep.ravel()[:, None], 3, axis=1).ravel().astype(np.float32)
    n = max(float(w.sum()), 1.0)
    veil = np.repeat(_basis(s, degree), 3, axis=0) * w[:, None]  # one surface, 3 colours
    inverse = np.linalg.pinv(veil.T @ veil)
    p = photo.reshape(-1).astype(np.float32) * w
    p -= veil @ (inverse @ (veil.T @ p))
    f = faces.reshape(len(faces), -1).astype(np.float32) * w[None, :]
    f -= ((f @ veil) @ inverse) @ veil.T
    along = f @ p
    power = np.maximum(np.einsum("ij,ij->i", f, f), 1e-12)
    gained = np.where(along > 0, along * along / power, 0.0)
    return np.maximum(float(p @ p) - gained, 0.0) / n


@functools.lru_cache(maxsize=8)
def _basis(side: int, degree: int) -> np.ndarray:
    """:func:`veil_basis` in float32, kept for the sizes in use."""
    return veil_basis(side, degree).astype(np.float32)
