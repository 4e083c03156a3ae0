"""Two counter faces that fit a photo almost alike (look-alike match counters: one leaf,
other pips or a similar creature) are told apart where they differ
(:meth:`glade_polar.PolarFaces.pair`), on the faces of an art family the recogniser never
saw before the test."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from glade_family import glade_family

from companion.the_glade.recognition.families import HELD_OUT_FROM
from companion.the_glade.recognition.glade_polar import prepare

FAMILY = 2 * HELD_OUT_FROM + 731_417


@pytest.fixture(scope="module")
def model():
    return glade_family(FAMILY)[2]


def _photo(face: np.ndarray, angle: float, blur: float) -> tuple[np.ndarray, tuple]:
    """The face turned by ``angle`` degrees on a plain table, blurred by ``blur`` px."""
    side = face.shape[0]
    image = np.full((3 * side, 3 * side, 3), (96, 120, 140), np.uint8)
    turn = cv2.getRotationMatrix2D((side / 2 - 0.5, side / 2 - 0.5), angle, 1.0)
    turned = cv2.warpAffine(face, turn, (side, side), borderMode=cv2.BORDER_REPLICATE)
    mask = np.zeros((side, side), np.uint8)
    cv2.circle(mask, (side // 2, side // 2), side // 2 - 1, 255, -1)
    patch = image[side:2 * side, side:2 * side]
    patch[mask > 0] = turned[mask > 0]
    image = cv2.GaussianBlur(image, (0, 0), blur)
    return prepare(image, np.ones(3, np.float32)), (1.5 * side - 0.5, 1.5 * side - 0.5)


def _closest_pair(model) -> tuple[int, int]:
    """The two match counter faces nearest alike (at their best angle)."""
    polar = model.polar
    best, pair = np.inf, (0, 1)
    matches = [i for i, m in enumerate(model.face_matches) if m is not None]
    for a in matches:
        image, at = _photo(model.faces[a], 0.0, 0.1)
        d = polar.match(image, at).distances
        for b in matches:
            if b != a and d[b] < best:
                best, pair = float(d[b]), (a, b)
    return pair


@pytest.mark.parametrize(("angle", "blur"), [(0.0, 0.6), (37.0, 1.0), (200.0, 2.2)])
def test_look_alike_faces_are_told_apart_where_they_differ(model, angle: float,
                                                           blur: float) -> None:
    a, b = _closest_pair(model)
    for this, other in ((a, b), (b, a)):
        image, at = _photo(model.faces[this], angle, blur)
        found = model.polar.match(image, at)
        assert model.polar.pair(image, found.at, this, other) > 0.25
        assert model.polar.pair(image, found.at, other, this) < -0.25


@pytest.fixture(scope="module")
def learnt(model):
    """The model with its look-alike pairs learnt (enrolment learns none while
    store_pairs.LEARN is off)."""
    from dataclasses import replace

    from companion.the_glade.recognition import store_pairs

    return replace(model, pairs=store_pairs.learn(model.polar, model.faces))


def test_look_alike_pairs_are_learnt_from_the_pack_and_tell_the_faces_apart(learnt) -> None:
    """Enrolment learns each look-alike pair's discriminant from views of the pack's own
    faces (:mod:`store_pairs`); a photo of either face, turned and blurred, lies within its
    own face's spread and far from the other's."""
    from companion.the_glade.recognition import store, store_pairs

    model = learnt
    a, b = _closest_pair(model)
    row = model.pairs.find(a, b)
    assert row is not None
    first = int(model.pairs.faces[row, 0])
    for this, other in ((a, b), (b, a)):
        for angle, blur in ((0.0, 0.6), (37.0, 1.0), (200.0, 1.6)):
            image, at = _photo(model.faces[this], angle, blur)
            found = model.polar.match(image, at)
            x = store_pairs.features(model.polar, image, found.at, first)
            z_in, z_out = store_pairs.verdict(model.pairs, row, x, this)
            assert z_in <= store.LEARNT_IN and z_out >= store.LEARNT_OUT, (angle, blur)
            # and the other face is not the one it lies near
            z_other, _ = store_pairs.verdict(model.pairs, row, x, other)
            assert z_other >= store.LEARNT_OUT


def test_the_pairs_are_kept_in_the_model_and_an_older_model_loads_without(learnt,
                                                                           tmp_path) -> None:
    import json

    from companion.the_glade.recognition.glade_model import (
        load_glade_model,
        save_glade_model,
    )

    model = learnt
    save_glade_model(model, tmp_path)
    again = load_glade_model(tmp_path)
    assert len(again.pairs) == len(model.pairs) > 0
    assert np.array_equal(again.pairs.weights, model.pairs.weights)
    # a model enrolled before the pairs were learnt (version 2) is read as before
    meta = json.loads((tmp_path / "glade.json").read_text(encoding="utf-8"))
    assert meta["version"] == 3
    meta["version"] = 2
    (tmp_path / "glade.json").write_text(json.dumps(meta), encoding="utf-8")
    with np.load(tmp_path / "glade.npz") as z:
        arrays = {k: z[k] for k in z.files if not k.startswith("pair_")}
    np.savez(tmp_path / "glade.npz", **arrays)
    older = load_glade_model(tmp_path)
    assert len(older.pairs) == 0 and older.face_names == model.face_names
