"""The scan's quicker paths read what the plain ones read, to the bit: the work of a scan on
a thread of its own (evidence.THREADS) and the names' faces compared for every square at
once (Templates.near_names)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from companion.the_glade.recognition.model import TILE_PATCH
from companion.the_glade.recognition.templates import Templates

ROOT = Path(__file__).resolve().parents[2] / "config" / "games" / "the-glade"


def test_names_compared_at_once_equal_one_square_at_a_time():
    rng = np.random.default_rng(3)
    size = TILE_PATCH * TILE_PATCH * 3
    templates = Templates(rng.random((48, size), dtype=np.float32))
    # names of 4 faces each, in two runs of 2 (as enrolled: seasons apart), one of 6
    by_name = [np.r_[2 * k:2 * k + 2, 24 + 2 * k:24 + 2 * k + 2] for k in range(10)]
    by_name.append(np.r_[20:24, 44:46])
    cache = SimpleNamespace(names=[f"n{k}" for k in range(11)], by_name=by_name)
    vecs = rng.random((5, 3, size), dtype=np.float32)
    names = np.array([[3, 0, 7], [10, 3, 1], [2, 4, 6], [0, 10, 9], [5, 8, 3]])
    near, idx = templates.near_names(cache, vecs, names)
    for s in range(len(vecs)):
        want_idx = np.concatenate([by_name[k] for k in names[s]])
        want = templates.near(vecs[s], want_idx)
        assert np.array_equal(idx[s, :len(want_idx)], want_idx)
        assert np.array_equal(near[s, :, :len(want_idx)], want)


@pytest.fixture(scope="module")
def model(sample_model_dir: Path) -> Path:
    return sample_model_dir


def test_a_scan_with_a_thread_beside_reads_as_one_without(model, monkeypatch):
    from companion.the_glade.recognition import evidence
    from companion.the_glade.recognition.model import load_model
    from companion.the_glade.recognition.reader import read_board
    from companion.vision.image import load_image

    loaded = load_model(model)
    for photo in sorted((ROOT / "photos").glob("*.jpg")):
        image = load_image(photo)
        readings = []
        for threads in (0, 1):
            monkeypatch.setattr(evidence, "THREADS", threads)
            reading = read_board(loaded, image)
            readings.append((reading.squares, reading.located.homography))
        (plain, h0), (beside, h1) = readings
        assert np.array_equal(h0, h1)
        assert plain == beside
