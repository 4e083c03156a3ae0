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
    inside = np.zeros(n, bool) if windowed else _best_inside(results, centres, radius, th, tw,
                                                             best, pos, which)
    for i, (cx, cy) in enumerate(centres):
        if inside[i]:
            continue
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


def _best_inside(results: list[np.ndarray], centres: np.ndarray, radius: int, th: int,
                 tw: int, best: np.ndarray, pos: np.ndarray, which: np.ndarray) -> np.ndarray:
    """:func:`pose_search`'s loop for every centre whose search window lies wholly inside
    the templates' score maps (``results``), all such centres at once: the same first
    maximum of each window, the same template kept (a later one only when strictly better)
    and the same sub-pixel place. Fills ``best``, ``pos`` and ``which`` for them and says
    which they were (the others are left to the loop)."""
    side = 2 * radius + 1
    u0 = np.array([round(cx - tw / 2) - radius for cx, _ in centres], int)
    v0 = np.array([round(cy - th / 2) - radius for _, cy in centres], int)
    rh, rw = results[0].shape
    inside = (u0 >= 0) & (v0 >= 0) & (u0 + side <= rw) & (v0 + side <= rh)
    k = np.flatnonzero(inside)
    if not len(k):
        return inside
    steps = np.arange(side)
    rows = v0[k, None, None] + steps[None, :, None]
    cols = u0[k, None, None] + steps[None, None, :]
    score, j = np.full(len(k), -2.0, np.float32), np.zeros(len(k), int)
    cell = np.zeros(len(k), int)
    wins = []
    for a, result in enumerate(results):
        win = result[rows, cols]                      # (centres, side, side)
        flat = np.argmax(win.reshape(len(k), -1), axis=1)
        top = win.reshape(len(k), -1)[np.arange(len(k)), flat]
        better = ~(top <= score)  # (as the loop: a NaN score is taken too)
        score[better], j[better], cell[better] = top[better], a, flat[better]
        wins.append(win)
    for m, i in enumerate(k):
        win = wins[j[m]][m]
        vy, ux = divmod(int(cell[m]), side)
        best[i], which[i] = score[m], j[m]
        pos[i] = (u0[i] + ux + parabola_peak(win[vy, :], ux) + tw / 2,
                  v0[i] + vy + parabola_peak(win[:, ux], vy) + th / 2)
    return inside
