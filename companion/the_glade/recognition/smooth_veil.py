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

Where glare clips most of a tile white (its paper, say), the print left is too little to pin
the veil by itself: a dark leaf's print under a thick veil fits as well as the light one's
under a thin one. Yet the clipped pixels still say something: the photo there was at least
white, so the face under its light and veil must reach white there too
(:func:`censored_misfits`: a censored least squares, the clipped colours bounds below, not
values). A dark print needs a veil thick enough to lift it, and that veil clips the paper; a
light print's thin veil may leave it below white, which the photo contradicts.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

#: The veil's polynomial degree in x and y (3: ten terms).
DEGREE = 3
#: A colour this bright (0-255, in the photo as taken) is clipped: glare beyond white.
CLIPPED = 250
#: The censored fit's rounds of active sets at most (it settles in 2-4).
ROUNDS = 6
#: A clipped colour bounds the censored fit only this many px (a square) inside its clipped
#: patch.
INSIDE = 5


def clipped(patch: np.ndarray) -> np.ndarray:
    """Where ``patch`` (h x w x 3, the photo's own 0-255 values) is clipped white, or next
    to a clipped pixel (h x w bool)."""
    hot = (patch.max(axis=2) >= CLIPPED).astype(np.uint8)
    return cv2.dilate(hot, np.ones((3, 3), np.uint8)) > 0


def clipped_colours(patch: np.ndarray) -> np.ndarray:
    """Where each colour of ``patch`` (h x w x 3, the photo's own 0-255 values) is clipped
    white, or next to where it is (h x w x 3 bool)."""
    kernel = np.ones((3, 3), np.uint8)
    return np.stack([cv2.dilate((patch[..., c] >= CLIPPED).astype(np.uint8), kernel) > 0
                     for c in range(3)], axis=2)


def clipped_inside(patch: np.ndarray) -> np.ndarray:
    """Where each colour of ``patch`` (h x w x 3, the photo's own 0-255 values) is clipped
    white with all of its INSIDE neighbourhood (h x w x 3 bool): bounds that smoothing the
    patch leaves sound."""
    kernel = np.ones((INSIDE, INSIDE), np.uint8)
    return np.stack([cv2.erode((patch[..., c] >= CLIPPED).astype(np.uint8), kernel) > 0
                     for c in range(3)], axis=2)


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
    to the veil alone. ``keep`` may also be s x s x 3: each colour of each pixel kept or not
    (a pixel clipped white in one colour still shows the print in the others)."""
    s = photo.shape[0]
    w = (keep if keep.ndim == 3 else np.repeat(keep[..., None], 3, axis=2)
         ).ravel().astype(np.float32)
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


def censored_misfits(photo: np.ndarray, faces: np.ndarray, keep: np.ndarray,
                     hot: np.ndarray, floor: np.ndarray, degree: int = DEGREE,
                     rounds: int = ROUNDS) -> np.ndarray:
    """As :func:`misfits`, but each colour of each pixel ``hot`` (s x s x 3 bool: clipped
    white, not next to a pixel that is not) bounds the fit below at that colour's ``floor``
    (3, in the photo's scale) rather than being left out: a fit below the floor there counts
    as a misfit, one above it does not. Solved by active sets (the bounds the fit breaks
    become values, ``rounds`` times at most) for each face; the misfit is over the pixels
    kept and the bounds alike."""
    s = photo.shape[0]
    basis = _basis(s, degree)  # (s*s) x terms
    kept = np.flatnonzero(keep.ravel())
    observed = photo.reshape(-1, 3)[kept].astype(np.float64)  # k x 3
    vk = basis[kept].astype(np.float64)
    pixel, colour = np.nonzero(hot.reshape(-1, 3))
    vh = basis[pixel].astype(np.float64)
    bound = np.asarray(floor, dtype=np.float64)[colour]
    terms = basis.shape[1]
    n = max(observed.size + bound.size, 1)
    gram_v = 3.0 * (vk.T @ vk)  # the veil is grey: one surface over the three colours
    veil_b = vk.T @ observed.sum(axis=1)
    out = np.empty(len(faces))
    for i, face in enumerate(faces.reshape(len(faces), -1, 3).astype(np.float64)):
        fk, fh = face[kept], face[pixel, colour]
        gram = np.zeros((terms + 1, terms + 1))
        gram[0, 0] = float((fk * fk).sum())
        gram[0, 1:] = gram[1:, 0] = vk.T @ fk.sum(axis=1)
        gram[1:, 1:] = gram_v
        right = np.concatenate([[float((fk * observed).sum())], veil_b])
        rows = np.column_stack([fh, vh])
        active = np.zeros(len(bound), dtype=bool)
        for _ in range(rounds):
            a = rows[active]
            x = np.linalg.lstsq(gram + a.T @ a, right + a.T @ bound[active], rcond=None)[0]
            broken = active | (rows @ x < bound)
            if (broken == active).all():
                break
            active = broken
        if x[0] <= 0:  # the light inverted: the veil alone
            a = rows[active][:, 1:]
            v = np.linalg.lstsq(gram[1:, 1:] + a.T @ a,
                                right[1:] + a.T @ bound[active], rcond=None)[0]
            x = np.concatenate([[0.0], v])
        fitted = fk * x[0] + (vk @ x[1:])[:, None]
        under = np.minimum(rows @ x - bound, 0.0)
        out[i] = (float(((fitted - observed) ** 2).sum()) + float(under @ under)) / n
    return out


@functools.lru_cache(maxsize=8)
def _basis(side: int, degree: int) -> np.ndarray:
    """:func:`veil_basis` in float32, kept for the sizes in use."""
    return veil_basis(side, degree).astype(np.float32)
