"""A scan's memory: the fine view's large float arrays are made only when needed and let go
once used (issue #20's peak memory target), and the forms that save memory give the same
values to the bit as the plain ones."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.the_glade.recognition import evidence
from companion.vision.patches import describe, flatten_light

ROOT = Path(__file__).resolve().parents[2] / "config" / "games" / "the-glade"


@pytest.fixture(scope="module")
def model(sample_model_dir: Path) -> Path:
    return sample_model_dir


def test_gathering_holds_few_fine_view_sized_arrays_at_once(model, monkeypatch):
    # the fine view in float32 (7-9 MB on the bundled photos) was converted once and kept
    # with both its smoothings to the end of the scan, and the brightness was summed from
    # two float64 integral images: 4.7 such arrays at the peak; now under 3
    from companion.the_glade.recognition import reader
    from companion.the_glade.recognition.model import load_model
    from companion.vision.image import load_image

    monkeypatch.setattr(evidence, "THREADS", 0)  # every array on this thread: traced
    loaded = load_model(model)
    photos = sorted((ROOT / "photos").glob("*.jpg"))
    peaks: list[float] = []
    gather = reader.gather

    def traced(model_, board, view, fine, frame_share):
        if tracing is None:
            return gather(model_, board, view, fine, frame_share)
        tracemalloc.start()
        try:
            start = tracemalloc.get_traced_memory()[0]
            out = gather(model_, board, view, fine, frame_share)
            peaks.append((tracemalloc.get_traced_memory()[1] - start) / (fine.size * 4))
        finally:
            tracemalloc.stop()
        return out

    monkeypatch.setattr(reader, "gather", traced)
    for photo in photos:  # each photo's second scan: the caches for its blur made
        image = load_image(photo)
        tracing = None
        reader.read_board(loaded, image)
        tracing = photo
        reader.read_board(loaded, image)
    assert len(peaks) == len(photos)
    assert max(peaks) < 3.2, peaks


def test_the_detail_view_is_made_only_for_a_closer_look(model, monkeypatch):
    from companion.the_glade.recognition.detail import DETAIL_SMOOTH
    from companion.the_glade.recognition.model import SMOOTH, load_model
    from companion.the_glade.recognition.reader import read_board
    from companion.vision.image import load_image

    made, asked = [], []
    smoothed, rerank = evidence._smoothed, evidence._rerank
    monkeypatch.setattr(evidence, "_smoothed",
                        lambda fine, sigma: made.append(sigma) or smoothed(fine, sigma))
    monkeypatch.setattr(evidence, "_rerank",
                        lambda *args: asked.append(rerank(*args)) or asked[-1])
    loaded = load_model(model)
    image = load_image(ROOT / "photos" / "forest-7x7-a.jpg")
    read_board(loaded, image)
    assert asked[0]  # this photo has close calls to look at closer
    assert made == [SMOOTH, DETAIL_SMOOTH]
    # none to look at: the detail view is not made
    made.clear()
    monkeypatch.setattr(evidence, "_rerank", lambda *args: [])
    read_board(loaded, image)
    assert made == [SMOOTH]


def test_smoothing_in_place_gives_the_blur_of_a_new_array():
    fine = cv2.imread(str(ROOT / "photos" / "forest-7x7-a.jpg"))[200:700, 300:900]
    for sigma in (0.6, 1.0):
        want = cv2.GaussianBlur(fine.astype(np.float32), (0, 0), sigma)
        assert np.array_equal(evidence._smoothed(fine, sigma), want)


def _plain_flatten(patches: np.ndarray, plane: bool, where: np.ndarray | None) -> np.ndarray:
    """flatten_light as written before its arrays were divided and clipped in place."""
    from companion.vision.patches import _blocks, _design, _luminance, _quantile_rows

    n, s = patches.shape[0], patches.shape[1]
    flat = patches.reshape(n, s * s, 3).astype(np.float32)
    if where is not None:
        lum = _luminance(flat)
        cut_at = _quantile_rows(lum[:, where], 0.6)[:, None]
        w = ((lum >= cut_at) & where[None]).astype(np.float32)
        gain = np.einsum("np,npc->nc", w, flat) / np.maximum(w.sum(axis=1), 1)[:, None]
        return np.clip(flat / np.maximum(gain[:, None, :], 8.0), 0, 1.6).reshape(patches.shape)
    blocks, k = _blocks(patches)
    lum = _luminance(blocks)
    cut_at = _quantile_rows(lum, 0.6)[:, None]
    w = (lum >= cut_at).astype(np.float32)
    if not plane:
        gain = np.einsum("nb,nbc->nc", w, blocks) / np.maximum(w.sum(axis=1), 1)[:, None]
        return np.clip(flat / np.maximum(gain[:, None, :], 8.0), 0, 1.6).reshape(patches.shape)
    coarse = _design(s // k)
    wd = w[:, :, None] * coarse[None]
    gram = np.einsum("nbi,bj->nij", wd, coarse, optimize=False)
    gram += np.eye(3, dtype=np.float32) * 1e-3
    rhs = np.einsum("nbi,nbc->nic", wd, blocks, optimize=False)
    coef = np.linalg.solve(gram, rhs)
    light = np.maximum(np.matmul(_design(s)[None], coef), 8.0)
    return np.clip(flat / light, 0, 1.6).reshape(patches.shape)


@pytest.mark.parametrize("plane, masked", [(True, False), (False, False), (False, True)])
def test_light_flattened_in_place_as_before_and_the_patches_left_alone(plane, masked):
    rng = np.random.default_rng(5)
    patches = (rng.random((40, 32, 32, 3), dtype=np.float32) * 300).astype(np.float32)
    patches[3] = 250.0  # a flat, bright patch
    before = patches.copy()
    where = (rng.random(32 * 32) < 0.8) if masked else None
    got = flatten_light(patches, plane=plane, where=where)
    assert np.array_equal(got, _plain_flatten(before, plane, where))
    assert np.array_equal(patches, before)  # the caller's patches are not written over
    vecs = describe(patches, plane=plane, where=where)
    want = _plain_flatten(before, plane, where)
    if where is not None:
        want = want * where.reshape(1, 32, 32, 1)
    assert np.array_equal(vecs, want.reshape(40, -1))


def test_brightness_window_sums_equal_the_integral_images():
    rng = np.random.default_rng(7)
    view = rng.integers(0, 256, (432, 432, 3), dtype=np.uint8)
    ref = rng.integers(0, 256, (432, 432, 3), dtype=np.uint8)
    centres = np.concatenate([rng.uniform(-20, 452, (60, 2)), [[0, 0], [431.9, 431.9]]])
    gain = np.array([0.9, 1.1, 1.3])
    seen, bare = (cv2.integral(view, sdepth=cv2.CV_64F),
                  cv2.integral(ref, sdepth=cv2.CV_64F))
    half = round(evidence.BRIGHT_SIDE / 2)
    x = np.clip(centres[:, 0].astype(int) + np.array([[-half], [half]]), 0, 432)
    y = np.clip(centres[:, 1].astype(int) + np.array([[-half], [half]]), 0, 432)

    def window(total):
        return total[y[1], x[1]] - total[y[0], x[1]] - total[y[1], x[0]] + total[y[0], x[0]]

    want = window(seen).sum(axis=1) / np.maximum(window(bare) @ gain, 1.0)
    assert np.array_equal(evidence._brightness(view, ref, gain, centres), want)
    assert evidence._brightness(view, ref, None, centres) is None
