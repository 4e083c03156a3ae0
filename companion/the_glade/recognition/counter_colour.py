"""Counter faces compared by their true colours, with the light measured on the board itself.

Counters differ mostly by colour (blue from purple, red from yellow) and by one or two
toadstools. Normalising a counter patch by its own brightest pixels, as tiles are, would
divide part of that colour away. Instead the light falling on the square is measured on the
board round the counter, against the enrolled empty board at the same place: that ratio, per
colour channel, is the photo's light and colour cast there, and dividing it out leaves the
counter's own colours. A last division by the disc's mean brightness makes the comparison
indifferent to the exposure the pack's counter photos were taken at.
"""

from __future__ import annotations

import numpy as np

#: The board ring used to measure the light: this far outside the disc (share of its radius).
RING_CLEAR = 1.15
#: Fewer usable board pixels than this share of the square: fall back to the disc's own light.
MIN_BOARD = 0.12


def colour_vectors(patches: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Flatten (n, s, s, 3) counter patches already freed of the photo's light: keep the disc
    (``mask``, s*s booleans) and divide by its mean brightness."""
    n = len(patches)
    flat = patches.reshape(n, -1, 3).astype(np.float32) * mask[None, :, None]
    level = flat.sum(axis=(1, 2)) / max(float(mask.sum()) * 3, 1.0)
    return (flat / np.maximum(level, 1e-3)[:, None, None]).reshape(n, -1)


def board_light(view: np.ndarray, board: np.ndarray, centre: tuple[float, float],
                counter_centre: tuple[float, float], cell: int, radius: float
                ) -> np.ndarray | None:
    """Per-channel light (photo / enrolled board) on the board round a counter, or None when
    too little board shows (a neighbour's tile, glare). ``view`` and ``board`` are aligned
    working views; ``centre`` is the square's centre, ``counter_centre`` the disc's, both in
    view px; ``radius`` the disc's radius in view px."""
    half = cell // 2 - 2
    cx, cy = round(centre[0]), round(centre[1])
    y0, y1, x0, x1 = cy - half, cy + half, cx - half, cx + half
    if y0 < 0 or x0 < 0 or y1 > min(view.shape[0], board.shape[0]) \
            or x1 > min(view.shape[1], board.shape[1]):
        return None
    v = view[y0:y1, x0:x1].reshape(-1, 3).astype(np.float32)
    b = board[y0:y1, x0:x1].reshape(-1, 3).astype(np.float32)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    far = ((xx - counter_centre[0]) ** 2 + (yy - counter_centre[1]) ** 2
           > (radius * RING_CLEAR) ** 2).ravel()
    usable = far & (v.max(axis=1) < 250) & (b.min(axis=1) > 8)
    if usable.sum() < MIN_BOARD * v.shape[0]:
        return None
    v, b = v[usable], b[usable]
    return (v * b).sum(axis=0) / np.maximum((b * b).sum(axis=0), 1e-3)
