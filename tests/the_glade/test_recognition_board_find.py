"""A small, dim, blurred board fully in view is found (#20, tuning family 8002).

Hard photo 6 of art family 8002's 7x7 board (a tuning family since issue #20's look at it:
the benchmark's seed, spoilers 1.6 times as strong, tilt to 18 degrees, 0.55-0.8 of the
light) shows the whole board, lit, small and blurred. The ratio test over the whole photo
kept 30 matches, 13 of them on the right fit, and the scan said "no forest board found".
When no board is found otherwise, the finder now looks again for matches where such a fit
puts each board feature (``board.GUIDE_MIN``, ``locate(guided=True)``) and fits the board
from them (still at least ``MIN_INLIERS`` agreeing), and the scan says the board is in view
but too faint to be read safely, rather than that no board was found.
A photo without the board stays without it.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from glade_family import benchmark_board_photo

from companion.errors import RecognitionError
from companion.the_glade.recognition import reader
from companion.the_glade.recognition.enrol import build_model
from companion.the_glade.recognition.families import family_pack
from companion.vision.board import MIN_INLIERS, RETRY_FEATURES, BoardFinder, PhotoFeatures, project

FAMILY = 8002  # the benchmark's hard photo 6 of its 7x7 board


@pytest.fixture(scope="module")
def case():
    pack = family_pack(FAMILY)
    board = pack.board_for(7, 7)
    g = board.grid
    finder = BoardFinder.learn(board.image, (g.left, g.top, g.left + g.cols * g.cell,
                                             g.top + g.rows * g.cell))
    photo, truth = benchmark_board_photo(pack, FAMILY, 7, 6, hard=True)
    return finder, board, photo, np.array(truth["homography"])


def _corners(board, hm):
    w, h = board.image.shape[1], board.image.shape[0]
    return project(hm, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))


def test_a_small_dim_blurred_board_in_view_is_found_where_it_lies(case):
    finder, board, photo, truth = case
    # as reader.locate searches: 3,000 then 6,000 features, then the guided last resort
    for count in (3000, RETRY_FEATURES):
        assert finder.locate(PhotoFeatures(photo, count)) is None  # (so it was lost)
    found = finder.locate(PhotoFeatures(photo, RETRY_FEATURES), guided=True)
    assert found is not None, finder.miss
    assert found.inliers >= MIN_INLIERS
    off = np.linalg.norm(_corners(board, found.homography) - _corners(board, truth), axis=1)
    assert off.max() < 8.0, off


def test_a_photo_without_the_board_still_finds_none(case):
    finder, board, photo, truth = case
    # the same photo with the board's whole quadrilateral painted over in the table's grey
    blank = photo.copy()
    quad = _corners(board, truth).astype(np.int32)
    cv2.fillConvexPoly(blank, cv2.convexHull(quad), tuple(int(v) for v in
                                                          np.median(photo, axis=(0, 1))))
    for count in (3000, RETRY_FEATURES):
        assert finder.locate(PhotoFeatures(blank, count), guided=True) is None


def test_the_scan_says_the_board_is_in_view_but_too_faint(case):
    """The reader does not read a board placed only by the guided fit: on fresh family
    8010 the one such hard photo read 2 squares wrong as sure (benchmarks/RESULTS.md, in its
    history); it says why the board is not read instead of "no forest board found"."""
    photo = case[2]
    model = build_model(family_pack(FAMILY), lookalikes=False)
    with pytest.raises(RecognitionError, match="in view but too faint"):
        reader.locate(model, photo)
