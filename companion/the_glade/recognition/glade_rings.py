"""Where a counter's face fits, turned any way, found cheaply everywhere in a store view.

A counter of the table's own brightness and hue, its print blurred, differs from the table in
none of the store's place cues (:mod:`store`: how far a disc stands out, its hue, its fine
detail), yet its face still fits where it lies: the whole polar comparison of
:mod:`glade_polar` fitted a dark hedgehog counter on dark wood at 0.06, where that table
fitted no face better than 0.18 (tuning family 56, photo 9: the counter was left out
silently). That comparison costs some 10 ms a place, too much for every pixel; its part
that does not depend on the turn does not: the mean of each of a few rings (BANDS) round a
point, colour by colour, normalised as :func:`glade_polar.normalise` normalises a polar
image (less the disc's mean, over its spread, at least FLOOR). Each ring's mean is one
filter over the view, and a face's ring means are the same filters at its centre, so the
photo and the faces are measured alike; the distance of a point's ring means to a face's,
each ring weighted by its area, is at most about the whole comparison's (the part of a polar
image that a turn moves only adds to it).
"""

from __future__ import annotations

from itertools import pairwise

import cv2
import numpy as np

from companion.the_glade.recognition.glade_polar import FLOOR, RING_TO

#: Ring edges as shares of a counter's diameter (the polar comparison's rings span
#: 0.02-0.46): the inner disc and four rings about 2.5 working px wide.
BANDS = (0.0, 0.10, 0.19, 0.28, 0.37, RING_TO)
#: Each kernel is drawn SUPER times finer and averaged down (a smooth ring edge).
SUPER = 4


def _kernel(diameter: float, inner: float, outer: float) -> np.ndarray:
    """A ring from ``inner`` to ``outer`` diameters round the kernel's centre, summing to 1
    (its edge anti-aliased)."""
    half = int(np.ceil(outer * diameter)) + 1
    n = 2 * half + 1
    fine = (np.arange(n * SUPER) + 0.5) / SUPER - n / 2
    r = np.hypot(*np.meshgrid(fine, fine)) / diameter
    ring = ((r >= inner) & (r < outer)).astype(np.float32)
    k = ring.reshape(n, SUPER, n, SUPER).mean(axis=(1, 3))
    return k / k.sum()


class RingFaces:
    """The enrolled faces' ring means, and every point's fit to them in a view."""

    def __init__(self, faces: np.ndarray, diameter: float, smooth: float) -> None:
        """``faces``: (n, s, s, 3) upright face images (the disc inscribed), blurred by
        ``smooth`` face px as the photo's fine view is; ``diameter``: a counter's diameter
        in the views these faces are compared with (working px)."""
        self.diameter = float(diameter)
        self._kernels = [_kernel(self.diameter, a, b) for a, b in pairwise(BANDS)]
        self._disc = _kernel(self.diameter, BANDS[0], BANDS[-1])
        areas = np.array([b * b - a * a for a, b in pairwise(BANDS)], np.float32)
        self._weights = np.sqrt(areas / areas.sum())
        profiles = []
        for face in faces:
            f = cv2.GaussianBlur(face.astype(np.float32), (0, 0), smooth)
            f = cv2.resize(f, (round(self.diameter), round(self.diameter)),
                           interpolation=cv2.INTER_AREA)
            pad = int(self.diameter)
            f = cv2.copyMakeBorder(f, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
            c = f.shape[0] // 2
            profiles.append(self._profiles(f)[c - 1:c + 1, c - 1:c + 1].mean(axis=(0, 1)))
        self._faces = np.array(profiles, np.float32).reshape(len(profiles), -1)
        self._norms = (self._faces ** 2).sum(axis=1)

    def _profiles(self, view: np.ndarray) -> np.ndarray:
        """(h, w, bands * 3): each point's ring means, less the disc's mean, over its spread
        (at least FLOOR), each ring scaled by the square root of its share of the disc."""
        mean = cv2.filter2D(view, -1, self._disc, borderType=cv2.BORDER_REFLECT)
        square = cv2.filter2D(view * view, -1, self._disc, borderType=cv2.BORDER_REFLECT)
        mu = mean.mean(axis=2, keepdims=True)
        spread = np.sqrt(np.maximum(square.mean(axis=2, keepdims=True) - mu * mu, 0.0))
        scale = 1.0 / np.maximum(spread, FLOOR)
        rings = [(cv2.filter2D(view, -1, k, borderType=cv2.BORDER_REFLECT) - mu) * scale * w
                 for k, w in zip(self._kernels, self._weights, strict=True)]
        return np.concatenate(rings, axis=2)

    def fits(self, view: np.ndarray) -> np.ndarray:
        """(h, w): how closely each point's ring means fit the closest face's (mean squared
        difference over the colours, as the polar comparison's distances are) in ``view``
        (float32 BGR at this object's scale, the light divided out, smoothed as the faces
        are)."""
        p = self._profiles(view.astype(np.float32))
        h, w, k = p.shape
        flat = p.reshape(-1, k)
        d = (flat ** 2).sum(axis=1)[:, None] + self._norms[None] - 2 * flat @ self._faces.T
        return (np.maximum(d.min(axis=1), 0.0) / 3).reshape(h, w)
