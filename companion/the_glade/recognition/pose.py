"""Where a piece lies in its square: the best match of any pose template (a face's outline
and shading at a few askew angles) near each square's centre, to a fraction of a pixel."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.patches import parabola_peak


def pose_search(gray: np.ndarray, templates: np.ndarray, centres: np.ndarray,
                 radius: int, windowed: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each centre, the best score of any template within ``radius`` px, where it lies
    (the template's centre, sub-pixel) and which template it was."""
    n = len(centres)
    best = np.full(n, -2.0, np.float32)
    pos = centres.astype(np.float32).copy()
    which = np.zeros(n, int)
    th, tw = templates.shape[1:3]
    if len(templates) == 0:
        return best, pos, which
    results = [] if windowed else [cv2.matchTemplate(gray, t, cv2.TM_CCOEFF_NORMED)
                                   for t in templates]
    for i, (cx, cy) in enumerate(centres):
        u0, v0 = round(cx - tw / 2) - radius, round(cy - th / 2) - radius
        u0c, v0c = max(u0, 0), max(v0, 0)
        for a in range(len(templates)):
            if windowed:
                sub = gray[v0c:v0 + th + 2 * radius + 1, u0c:u0 + tw + 2 * radius + 1]
                if sub.shape[0] < th or sub.shape[1] < tw:
                    continue
                win = cv2.matchTemplate(sub, templates[a], cv2.TM_CCOEFF_NORMED)
            else:
                win = results[a][v0c:v0 + 2 * radius + 1, u0c:u0 + 2 * radius + 1]
            if win.size == 0:
                continue
            j = int(np.argmax(win))
            vy, ux = divmod(j, win.shape[1])
            if win[vy, ux] <= best[i]:
                continue
            best[i] = win[vy, ux]
            which[i] = a
            pos[i] = (u0c + ux + parabola_peak(win[vy, :], ux) + tw / 2,
                      v0c + vy + parabola_peak(win[:, ux], vy) + th / 2)
    return best, pos, which
