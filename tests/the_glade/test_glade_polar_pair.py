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
