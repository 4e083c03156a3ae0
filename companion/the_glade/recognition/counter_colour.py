"""Counter faces compared by their true colours, with the light measured on the board itself.

Counters differ mostly by colour (blue from purple, red from yellow) and by one or two
toadstools. Normalising a counter patch by its own brightest pixels, as tiles are, would
divide part of that colour away. Instead the photo's light is measured on the board's own
border, against the enrolled empty board: that ratio, per colour channel, is the light's
colour cast, and dividing it out leaves the counter's own colours. A last division by the
disc's mean brightness makes the comparison indifferent to local shade and to the exposure
the pack's counter photos were taken at.
"""

from __future__ import annotations

import numpy as np

from companion.vision.patches import clipped


def colour_vectors(patches: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Flatten (n, s, s, 3) counter patches already freed of the photo's light: keep the disc
    (``mask``, s*s booleans) and divide by its mean brightness."""
    n = len(patches)
    flat = patches.reshape(n, -1, 3).astype(np.float32) * mask[None, :, None]
    level = flat.sum(axis=(1, 2)) / max(float(mask.sum()) * 3, 1.0)
    return (flat / np.maximum(level, 1e-3)[:, None, None]).reshape(n, -1)


#: Glare veils a counter with even light: the faces are compared under these shares of it.
HAZE = (0.0, 0.2, 0.4)


def colour_templates(faces: np.ndarray, mask: np.ndarray, clip: np.ndarray) -> np.ndarray:
    """Colour vectors of enrolled counter faces (n, s*s*3, as photographed, 0..1) under each
    share of :data:`HAZE` (haze-major: all faces under the first share, then the next), each
    channel clipped where the photo's is (``clip``, 3 values: 255 over the light's gain)."""
    n = len(faces)
    flat = faces.reshape(n, -1, 3)
    out = [colour_vectors(np.minimum((1 - h) * flat + h, clip[None, None, :]), mask)
           for h in HAZE]
    return np.concatenate(out)


def board_light(view: np.ndarray, board: np.ndarray, where: np.ndarray) -> np.ndarray | None:
    """The photo's light per colour channel (photo / enrolled board, least squares) over the
    pixels ``where`` of two aligned views, leaving out clipped and near-black pixels; None
    when too few remain. Measured over the whole border strip: a colour cast is the same
    across the board, and a local estimate on a dark board square is swayed by the
    counter's own blurred edge. Local brightness does not matter: colour vectors are
    divided by their own level."""
    v = view[where].reshape(-1, 3).astype(np.float32)
    b = board[where].reshape(-1, 3).astype(np.float32)
    usable = ((clipped(v) == 0)
              & (np.minimum(np.minimum(b[:, 0], b[:, 1]), b[:, 2]) > 8))
    if usable.sum() < 200:
        return None
    v, b = v[usable], b[usable]
    return (v * b).sum(axis=0) / np.maximum((b * b).sum(axis=0), 1e-3)
