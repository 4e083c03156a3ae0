"""Generic vision helpers: image loading, board finding, light flattening, the simulator."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from companion.errors import InputFileError, RecognitionError
from companion.vision.board import BoardFinder, PhotoFeatures, project, rectify
from companion.vision.image import decode_image, load_image
from companion.vision.patches import clipped, describe, distances, hazy_distances
from companion.vision.sim import Camera, Degradations, degrade, place, scene_to_photo, table


def textured(seed: int, size=(600, 500)) -> np.ndarray:
    import cv2

    rng = np.random.default_rng(seed)
    img = np.full((size[1], size[0], 3), 90, np.uint8)
    for _ in range(400):
        c = tuple(int(v) for v in rng.integers(0, 255, 3))
        p = (int(rng.integers(0, size[0])), int(rng.integers(0, size[1])))
        cv2.circle(img, p, int(rng.integers(3, 14)), c, -1)
    return img


def test_load_image_errors(tmp_path):
    with pytest.raises(InputFileError, match="no such file"):
        load_image(tmp_path / "nope.png")
    with pytest.raises(InputFileError, match="folder"):
        load_image(tmp_path)
    with pytest.raises(RecognitionError, match="empty"):
        decode_image(b"")
    with pytest.raises(RecognitionError, match="not a readable image"):
        decode_image(b"\x89PNG\r\n\x1a\nbroken")


def test_board_finder_recovers_homography():
    board = textured(1)
    finder = BoardFinder.learn(board, (100, 100, 500, 400))
    camera = Camera(coverage=0.7, turn=15.0, tilt_x=8.0, tilt_y=-5.0)
    truth = scene_to_photo((600, 500), camera)
    photo = table(np.random.default_rng(2))
    place(photo, board, truth)
    found = finder.locate(PhotoFeatures(photo))
    assert found is not None
    corners = np.array([[0, 0], [600, 0], [600, 500], [0, 500]], float)
    assert np.abs(project(found.homography, corners) - project(truth, corners)).max() < 3.0
    view, fine = rectify(photo, found.homography, 0.5, (0, 0, 600, 500))
    assert view.shape[:2] == (250, 300) and fine.shape[:2] == (500, 600)


def test_a_peeked_share_then_the_rest_match_as_one_whole_match():
    # BoardFinder.peek matches every PEEK-th board feature first; locate then matches the
    # rest only: the same pairs in the same order as one match of every feature, and the
    # board whose share matches more is the one in the photo
    boards = [textured(1), textured(5)]
    finders = [BoardFinder.learn(b, (100, 100, 500, 400)) for b in boards]
    truth = scene_to_photo((600, 500), Camera(0.7, 15.0, 8.0, -5.0))
    photo = table(np.random.default_rng(2))
    place(photo, boards[0], truth)
    features = PhotoFeatures(photo)
    whole = [f._match(features.descriptors, 0.8) for f in finders]
    peeked = [f.peek(features) for f in finders]
    assert peeked[0] > 3 * peeked[1]
    assert [f._photo_match(features) for f in finders] == whole
    located = finders[0].locate(features, refine=False)
    assert located is not None and located.matches == len(whole[0])


def test_no_board_in_plain_table():
    finder = BoardFinder.learn(textured(1), (100, 100, 500, 400))
    assert finder.locate(PhotoFeatures(table(np.random.default_rng(3)))) is None


def test_light_flattening_ignores_gain_and_cast():
    rng = np.random.default_rng(4)
    patch = np.full((1, 16, 16, 3), 220, np.float32)          # paper
    patch[0, 4:11, 3:12] = rng.uniform(40, 120, (7, 9, 3))     # a print on it
    dim = patch * np.array([0.6, 0.7, 0.9], np.float32)        # darker and bluer light
    a, b = describe(patch), describe(dim)
    assert distances(a, b)[0, 0] < 1e-4


def test_haze_model_explains_added_light():
    rng = np.random.default_rng(5)
    t = rng.uniform(0.1, 1.0, (1, 300)).astype(np.float32)
    hazy = 0.7 * t + 0.3
    assert hazy_distances(hazy, t)[0, 0] < 1e-6
    assert distances(hazy, t)[0, 0] > 1e-3


def test_degradations_are_seeded():
    img = table(np.random.default_rng(6))
    a = degrade(img, np.random.default_rng(7), Degradations())
    b = degrade(img, np.random.default_rng(7), Degradations())
    assert np.array_equal(a, b)
    assert not np.array_equal(a, img)
    assert np.array_equal(degrade(img, np.random.default_rng(7), Degradations.none()), img)


@settings(max_examples=400, deadline=None)
@given(rows=st.integers(1, 6), cols=st.integers(1, 400), q=st.floats(0.0, 1.0),
       seed=st.integers(0, 2**32 - 1))
@example(rows=6, cols=202, q=0.6463446865219508, seed=2**32 - 2)  # numpy 2: the weight's type
@example(rows=1, cols=300, q=0.5, seed=0)  # numpy 1.24: a float64 result
def test_row_quantiles_and_luminance_are_numpys_to_the_bit(rows, cols, q, seed):
    """The quick row quantile and channel mean give exactly numpy's values (light flattening
    depends on them, and recognition results must not move with a speed-up)."""
    from companion.vision.patches import _luminance, _quantile_rows

    rng = np.random.default_rng(seed)
    values = (rng.random((rows, cols)) * 255).astype(np.float32)
    assert np.array_equal(_quantile_rows(values, q), np.quantile(values, q, axis=1))
    pixels = (rng.random((rows, cols, 3)) * 255).astype(np.float32)
    assert np.array_equal(_luminance(pixels), pixels.mean(axis=-1))


def test_clipped_marks_any_or_every_colour_at_the_top():
    """The same masks as numpy's reductions over the colours, for photos (uint8) and patches
    (float) alike."""
    rng = np.random.default_rng(3)
    photo = rng.integers(200, 256, (40, 30, 3), dtype=np.uint8)
    for image in (photo, photo.astype(np.float32)[None]):
        assert np.array_equal(clipped(image), (image.max(axis=-1) >= 250).astype(np.float32))
        assert np.array_equal(clipped(image, every=True),
                              (image.min(axis=-1) >= 250).astype(np.float32))
