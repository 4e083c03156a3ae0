"""The closer look compares every look-alike its best two faces share (issue #20).

A tile has four fruits; the first look hands the closer look its best three names, so one
fruit is always left out. On tuning families 8035/8036 the true fruit lay outside the three
in at least 5 of the 10 fruits read wrong as sure. The closer look now adds the look-alikes
(learnt pairs) that both best faces share.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from test_recognition_families import enrolled_small_pack

from companion.the_glade.recognition import close_calls
from companion.the_glade.recognition.close_calls import closer_looks, with_lookalikes
from companion.the_glade.recognition.detail import DETAIL_SMOOTH
from companion.the_glade.recognition.enrol import tile_side
from companion.the_glade.recognition.lookalikes import LookAlikes
from companion.the_glade.recognition.model import FINE, TILE_INSET, Model
from companion.the_glade.recognition.templates import cache_for
from companion.vision.blur import Blur

FAMILY = 8043  # a tuning family (families.TUNING_FAMILIES): its fruit is plain to see
FRUITS = ("acorn", "blackberry", "hazelnut", "mushroom")


@pytest.fixture(scope="module")
def enrolled(tmp_path_factory) -> Model:
    _pack, model = enrolled_small_pack(tmp_path_factory.mktemp("all-lookalikes"), FAMILY)
    return model


def _face(model: Model, name: str) -> int:
    return next(f for f in range(len(model.tile_names) // 4) if model.tile_names[4 * f] == name)


def _view(model: Model, face: int) -> tuple[np.ndarray, tuple[float, float], float]:
    """A fine view of face ``face`` (turn 0) lying on plain board, smoothed as the closer
    look sees it; the tile's centre and the side the scanner cuts."""
    n = round(tile_side(model.tile_size) * FINE)
    canvas = np.full((2 * n, 2 * n, 3), (90, 140, 110), np.float32)
    canvas[n // 2:n // 2 + n, n // 2:n // 2 + n] = model.tile_faces[face]
    view = cv2.GaussianBlur(canvas, (0, 0), DETAIL_SMOOTH)
    return view, (n, n), tile_side(model.tile_size) * TILE_INSET * FINE


def test_the_shared_look_alikes_are_added_at_the_best_turn(enrolled) -> None:
    model = enrolled
    a, b, c, d = (_face(model, f"hedgehog/{f}/beech") for f in FRUITS)
    ranked = [(0.1, 4 * a + 2, model.tile_names[4 * a]), (0.2, 4 * b + 2, model.tile_names[4 * b])]
    out = with_lookalikes(model, cache_for(model), ranked)
    assert out[:2] == ranked
    added = {j for _, j, _ in out[2:]}
    # the two other fruits of the same creature and leaf, at the best face's turn
    assert {4 * c + 2, 4 * d + 2} <= added
    assert all(j % 4 == 2 for j in added)
    # no face twice
    assert len({j // 4 for _, j, _ in out}) == len(out)


def test_the_true_fruit_left_out_of_the_best_three_is_named(enrolled, monkeypatch) -> None:
    model = enrolled
    truth, *others = (_face(model, f"hedgehog/{f}/beech") for f in FRUITS)
    view, centre, side = _view(model, truth)
    ranked = [(0.1 * k, 4 * f, model.tile_names[4 * f]) for k, f in enumerate(others)]
    square = (np.array(centre, np.float64), 0.0, ranked)
    monkeypatch.setattr(close_calls, "ALL_LOOKALIKES", False)
    before = closer_looks(model, cache_for(model), view, [square], side, Blur())[0]
    monkeypatch.setattr(close_calls, "ALL_LOOKALIKES", True)
    after = closer_looks(model, cache_for(model), view, [square], side, Blur())[0]
    assert before is not None and after is not None
    assert before.names[0] != model.tile_names[4 * truth]  # it was never compared
    assert after.names[0] == model.tile_names[4 * truth]
    assert after.names[2] in {model.tile_names[4 * f] for f in others}


def test_a_model_without_pairs_looks_at_the_names_given(enrolled) -> None:
    bare = replace(enrolled, lookalikes=LookAlikes.empty())
    ranked = [(0.1, 0, bare.tile_names[0]), (0.2, 4, bare.tile_names[4])]
    assert with_lookalikes(bare, cache_for(bare), ranked) == ranked
