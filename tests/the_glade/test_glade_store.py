"""The store beside a forest board: loose counters (either side up, turned any way, touching
lightly) named with their side, match counters by icon and value; a store out of the photo
gives no store fields (the scan cannot say what lies there)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.the_glade.recognition.families import FamilyArt
from companion.the_glade.recognition.glade_model import build_glade_model
from companion.the_glade.recognition.glade_sim import render_forest_photo, sample_glade_pack
from companion.the_glade.recognition.sim import random_forest, sample_pack
from companion.the_glade.recognition.store import read_store
from companion.vision.sim import Camera, Degradations


@pytest.fixture(scope="module")
def family():
    art = FamilyArt(5)
    pack = sample_pack(art=art, boards=((7, 7, "D4"),))
    glade = sample_glade_pack(art)
    return pack, glade, build_glade_model(pack, glade)


def _read(pack, model, photo, truth):
    board = pack.boards[0]
    return read_store(model, (board.image.shape[1], board.image.shape[0]),
                      pack.counter_size * board.grid.cell, np.array(truth["homography"]),
                      photo, None, None)


def test_counters_either_side_up_and_match_counters_are_named(family) -> None:
    pack, glade, model = family
    forest = random_forest(np.random.default_rng(1), pack.boards[0].geometry, pack)
    store = ["blue-double", "blue-single", "red-single", "yellow-double", "green-single"]
    matches = [{"kind": "leaf", "icon": "oak", "value": 4},
               {"kind": "creature", "icon": "mouse/beech", "value": 1}]
    photo, truth = render_forest_photo(pack, glade, forest, store, matches, 7,
                                       spoil=Degradations(glare=False, clutter=False))
    result = _read(pack, model, photo, truth).result(with_matches=True)
    named = result["store"] + [f"{m['kind']}:{m['icon']}" for m in
                               result["store_match_counters"]]
    truth_named = truth["store"] + [f"{m['kind']}:{m['icon']}" for m in
                                    truth["store_match_counters"]]
    # nothing named wrongly; what is not named is counted as a doubt
    assert all(named.count(n) <= truth_named.count(n) for n in named)
    assert len(named) + result["store_uncertain"] >= len(truth_named)
    assert result["store"] == sorted(store)


def test_a_store_out_of_the_photo_gives_no_store_fields(family) -> None:
    pack, glade, model = family
    forest = random_forest(np.random.default_rng(2), pack.boards[0].geometry, pack)
    camera = Camera(1.1, 0.0, 0.0, 0.0, (1.0, 0.0))
    photo, truth = render_forest_photo(pack, glade, forest, ["red-single"], [], 3,
                                       camera=camera, frame=(1640, 1232))
    # the same scene seen only from the board's edge: cut the store away
    hm = np.array(truth["homography"])
    left = int(hm[0, 2] / hm[2, 2]) + 5
    photo = np.ascontiguousarray(photo[:, left:])
    truth["homography"] = (np.array([[1, 0, -left], [0, 1, 0], [0, 0, 1]]) @ hm).tolist()
    reading = _read(pack, model, photo, truth)
    assert not reading.in_view
    assert reading.result(with_matches=True) == {}
