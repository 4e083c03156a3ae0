"""The best of each name among many templates (a name has several: turns, seasons, angles)."""

from __future__ import annotations

import numpy as np


def best_per_name(dist: np.ndarray, names: list[str]) -> tuple[np.ndarray, list[str], np.ndarray]:
    """Best distance of every name (cells x names), the names, and for each (cell, name) the
    template index that gave it."""
    order = sorted(set(names))
    idx = {n: i for i, n in enumerate(order)}
    codes = np.array([idx[n] for n in names])
    perm = np.argsort(codes, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(codes[perm]) != 0])
    d = dist[:, perm]
    best = np.minimum.reduceat(d, starts, axis=1)
    # which template: argmin within each name's block
    which = np.empty(best.shape, int)
    bounds = np.r_[starts, len(perm)]
    for k in range(len(starts)):
        block = d[:, bounds[k]:bounds[k + 1]]
        which[:, k] = perm[bounds[k] + np.argmin(block, axis=1)]
    return best, order, which
