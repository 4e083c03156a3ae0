"""patches.cut_many works out its warp matrices together: the same patches, to the bit, as
:func:`patches.cut` one at a time."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.patches import cut, cut_many


def _one_by_one(image, centres, angles, side, out):
    return np.stack([cut(image, (float(c[0]), float(c[1])), float(a), side, out)
                     for c, a in zip(centres, angles, strict=True)])


@pytest.mark.parametrize("kind", ["float", "uint8", "map"])
def test_cut_many_equals_cut_one_at_a_time(kind):
    rng = np.random.default_rng({"float": 1, "uint8": 2, "map": 3}[kind])
    image = {"float": rng.random((300, 360, 3), dtype=np.float32),
             "uint8": rng.integers(0, 256, (300, 360, 3), dtype=np.uint8),
             "map": (rng.random((300, 360)) > 0.5).astype(np.float32)}[kind]
    for _ in range(20):
        n = int(rng.integers(1, 12))
        centres = rng.uniform(-20, 380, (n, 2))
        angles = rng.uniform(-40, 40, n)
        side, out = float(rng.uniform(20, 120)), int(rng.choice([16, 32, 48]))
        want = _one_by_one(image, centres, angles, side, out)
        for c, a in ((centres, angles), (list(centres), list(angles)),
                     ([tuple(c) for c in centres], np.zeros(n))):
            got = cut_many(image, c, a, side, out)
            if a is not angles:
                want = _one_by_one(image, c, a, side, out)
            assert got.dtype == want.dtype and np.array_equal(got, want)


def test_cut_many_of_nothing_refuses_as_before():
    with pytest.raises(ValueError):
        cut_many(np.zeros((10, 10, 3), np.float32), [], [], 5.0, 8)
