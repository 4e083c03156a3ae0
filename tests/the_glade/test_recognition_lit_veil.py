"""A leaf question's veil bounded by the square's light (close_calls.LIT_VEIL, issue #20).

The rulebook prints a tile's creature and fruit in its leaf's colour, light or dark; a veil
of glare makes a dark print look light, so the closer look's own veil (detail.as_seen) must
not be free to make a light tile pass for a dark one on a square no glare brightens.
"""

from __future__ import annotations

import numpy as np
import pytest
from glade_family import benchmark_board_photo, misread
from hypothesis import given
from hypothesis import strategies as st

from companion.the_glade.recognition import close_calls, reader
from companion.the_glade.recognition.detail import DETAIL, VEIL_MAX, compare_on
from companion.the_glade.recognition.enrol import build_model
from companion.the_glade.recognition.families import family_pack


def _face(ink: float) -> np.ndarray:
    """A detail descriptor: paper (1.0) with a disc of ``ink`` (light-free, as described)."""
    yy, xx = np.mgrid[0:DETAIL, 0:DETAIL]
    face = np.ones((DETAIL, DETAIL, 3), np.float32)
    face[np.hypot(xx - DETAIL / 2, yy - DETAIL / 2) < DETAIL * 0.3] = ink
    return face


@given(st.lists(st.floats(0.0, 5.0), min_size=1, max_size=20))
def test_the_bound_grows_with_the_light_and_stays_within_the_closer_looks_own(lights) -> None:
    bounds = close_calls.veil_bounds(np.array(lights))
    assert bounds is not None
    assert np.all(bounds >= close_calls.VEIL_SLACK) and np.all(bounds <= VEIL_MAX)
    order = np.argsort(lights, kind="stable")
    assert np.all(np.diff(bounds[order]) >= 0)
    # no brighter than the usual tile: no glare to speak of
    dim = np.array(lights) <= 1.0
    assert np.allclose(bounds[dim], close_calls.VEIL_SLACK)


def test_unmeasured_light_or_the_switch_off_leaves_the_veil_unbounded(monkeypatch) -> None:
    assert close_calls.veil_bounds(None) is None
    monkeypatch.setattr(close_calls, "LIT_VEIL", False)
    assert close_calls.veil_bounds(np.ones(3)) is None


def test_a_light_print_is_a_dark_one_veiled_unless_the_veil_is_bounded() -> None:
    """The same disc in a light and a dark ink: a photo of the light one is fitted by the
    dark one under a veil nearly as well as by itself; with the veil bounded as on an
    unglared square, the dark one misfits plainly."""
    light, dark = _face(0.75), _face(0.35)
    patch = light.reshape(-1)
    place = (0.0, 0.0, 0.0)
    faces = [("hedgehog/acorn/maple", 0, light), ("hedgehog/acorn/oak", 1, dark)]
    free = {c.name: c.fit for c in compare_on(faces, patch, place)}
    bounded = {c.name: c.fit for c in compare_on(faces, patch, place, max_veil=0.15)}
    assert free["hedgehog/acorn/maple"] == pytest.approx(0, abs=1e-6)
    assert free["hedgehog/acorn/oak"] < 1e-3  # veiled by about 0.6: all but the same
    assert bounded["hedgehog/acorn/oak"] > 20 * free["hedgehog/acorn/oak"]
    assert bounded["hedgehog/acorn/maple"] == pytest.approx(0, abs=1e-6)


def test_only_a_leaf_question_is_bounded() -> None:
    faces = [(name, 0, np.zeros(1)) for name in ("toad/acorn/maple", "toad/hazelnut/maple")]
    assert not close_calls._leaf_question(faces)
    assert close_calls._leaf_question([*faces, ("toad/acorn/oak", 1, np.zeros(1))])


def test_light_maple_tiles_no_glare_brightens_are_not_doubted_as_dark_oak(monkeypatch) -> None:
    """Tuning family 3's normal 8x8 photo 2 (the benchmark's), as the rulebook colours its
    tiles: three light-brown (maple) hedgehogs the first look named right were read as dark
    oak by the closer look, each fitted its own veil, and left in doubt; their squares are
    no brighter than the photo's usual tile (1.00-1.06), so no glare veils them. Bounded,
    each is named maple, and no square is named wrong."""
    pack = family_pack(3)
    model = build_model(pack)
    image, truth = benchmark_board_photo(pack, 3, 8, 2)
    monkeypatch.setattr(close_calls, "LIT_VEIL", False)
    before = reader.read_board(model, image).squares
    monkeypatch.setattr(close_calls, "LIT_VEIL", True)
    after = reader.read_board(model, image).squares
    maples = [sq for sq in ("B5", "C7", "G8") if truth["forest"]["tiles"][sq].endswith("maple")]
    assert len(maples) == 3
    assert set(maples) <= set(misread(before, truth))
    assert not set(maples) & set(misread(after, truth))
    named_wrong = {r.square for r in after if r.kind != "uncertain"} & set(misread(after, truth))
    assert not named_wrong


def test_a_glare_spot_on_a_tiles_corner_raises_its_peak_light() -> None:
    """The peak light (the brightest PEAK_SHARE of the square) sees a glare spot in a
    corner that the middle's brightness misses; the neighbours keep theirs."""
    from companion.the_glade.recognition import evidence
    from companion.the_glade.recognition.model import CELL_PX

    gray = np.full((3 * CELL_PX, 3 * CELL_PX), 150, np.float32)
    centres = np.array([[(c + 0.5) * CELL_PX, (r + 0.5) * CELL_PX]
                        for r in range(3) for c in range(3)])
    spot = slice(CELL_PX + 1, CELL_PX + 14)  # the middle square's top left corner
    gray[spot, spot] = 250
    peak = evidence._peak_light(gray, centres)
    assert peak[4] == 250
    assert np.all(np.delete(peak, 4) == 150)
    # a square cut by the view's edge is measured on what of it lies inside
    corner = evidence._peak_light(gray, np.array([[CELL_PX + 2.0, CELL_PX + 2.0], [0.0, 0.0]]))
    assert corner.tolist() == [250.0, 150.0]
