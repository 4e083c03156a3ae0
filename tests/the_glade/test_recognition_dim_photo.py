"""A board in a dim photo is found with its contrast stretched (reader.STRETCH_RETRY, #20).

In a dim, blurred photo the board's corners fall under the feature detector's fixed
contrast threshold, so a board fully in view was not found at all. The photo here is a
simulated one of the bundled SAMPLE pack, darkened to a twelfth of its light: found only
with the retry on its stretched copy, where the undimmed photo puts it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.errors import RecognitionError
from companion.the_glade.recognition import reader
from companion.the_glade.recognition.model import load_model
from companion.the_glade.recognition.sim import random_forest, render_photo, sample_pack
from companion.vision.board import project


def _corners(board, located) -> np.ndarray:
    g = board.grid
    xs = g.left + np.array([0.0, g.cols, g.cols, 0]) * g.cell
    ys = g.top + np.array([0.0, 0, g.rows, g.rows]) * g.cell
    return project(located.homography, np.stack([xs, ys], axis=1))


def test_a_dim_photo_is_found_once_its_contrast_is_stretched(
        sample_model_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = load_model(sample_model_dir)
    pack = sample_pack()
    state = random_forest(np.random.default_rng(1), pack.board_for(7, 7).geometry, pack)
    photo, _truth = render_photo(pack, state, 1)
    board, lit = reader.locate(model, photo)
    dim = (photo.astype(np.float32) / 12).astype(np.uint8)
    monkeypatch.setattr(reader, "STRETCH_RETRY", False)
    with pytest.raises(RecognitionError, match="no forest board found"):
        reader.locate(model, dim)
    monkeypatch.setattr(reader, "STRETCH_RETRY", True)
    found_board, found = reader.locate(model, dim)
    assert found_board is board
    assert np.abs(_corners(board, found) - _corners(board, lit)).max() < 6.0


def test_stretching_maps_the_photos_light_to_the_full_range() -> None:
    photo = np.full((100, 100, 3), 20, np.uint8)
    photo[:50] = 40
    out = reader.stretched(photo)
    assert out.dtype == np.uint8 and out.shape == photo.shape
    assert (out.min(), out.max()) == (0, 255)
    assert np.array_equal(out[:50] > out[50:], np.ones((50, 100, 3), bool))
