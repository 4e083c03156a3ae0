"""close_calls.rerank compares every close name's templates in one go: the same ranking,
to the bit, as one comparison per name."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from companion.the_glade.recognition.close_calls import rerank
from companion.the_glade.recognition.model import TILE_PATCH
from companion.the_glade.recognition.templates import Templates


def test_rerank_in_one_comparison_equals_one_per_name():
    rng = np.random.default_rng(2)
    size = TILE_PATCH * TILE_PATCH * 3
    templates = Templates(rng.random((40, size), dtype=np.float32))
    names = [f"n{k}" for k in range(10)]
    cache = SimpleNamespace(names=names,
                            by_name=[np.arange(4 * k, 4 * k + 4) for k in range(10)])
    vecs = rng.random((7, size), dtype=np.float32)
    asked = ["n3", "n0", "n7", "n5"]
    want = []
    for name in asked:
        idx = cache.by_name[names.index(name)]
        d = templates.near(vecs, idx)
        k = int(np.argmin(d.min(axis=0)))
        want.append((float(d[:, k].min()), int(idx[k]), name))
    assert rerank(templates, cache, vecs, asked) == sorted(want)
