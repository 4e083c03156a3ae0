"""The store's decisions on a place's scores (made-up cases from tuning photos, issue #25):
a counter whose drawing the photo's blur leaves loose is named when its face fits very
closely on a patch of another hue than the table's, and the grain of a dark table fitting
a plain dark face is no faint counter."""

from __future__ import annotations

import pytest

from companion.the_glade.recognition.store import StoreThing, _drawn, _Look


@pytest.mark.parametrize(("scores", "named"), [
    # a mouse match counter on a blurred photo (tuning family 44): fit 0.08, hue 32
    ((0.0818, 0.26, 0.571, 3.28, 32.31), True),
    # the same scores on a patch of the table's own hue: no drawing, no outline, no hue
    ((0.0818, 0.26, 0.571, 3.28, 1.0), False),
    # glare on a red table fitting red-single (tuning family 2): fit 0.21
    ((0.21, 0.2, 0.56, 2.3, 6.0), False),
    # the grain of a dark table fitting a plain dark match counter (tuning family 54)
    ((0.1319, 0.228, 0.806, 1.32, 0.13), False),
    # a drawing that fits, or a loose one with an outline, as before
    ((0.3, 0.2, 0.3, 1.0, 0.0), True),
    ((0.3, 0.2, 0.6, 4.5, 0.0), True),
    ((0.05, 0.5, 0.95, 9.0, 30.0), False),
])
def test_a_loose_drawing_names_a_counter_with_an_outline_or_a_close_fit_and_hue(
        scores: tuple, named: bool) -> None:
    assert _drawn(*scores) is named


@pytest.mark.parametrize(("scores", "thing"), [
    # the grain of a dark streaky table (tuning family 54, photos 2 and 4): a plain dark
    # match counter fits it closely, but its drawing hardly at all
    ({"fit": 0.1319, "margin": 0.228, "shape": 0.806, "edge": 1.32, "spread": 1.7}, False),
    ({"fit": 0.1647, "margin": 0.195, "shape": 0.98, "edge": 1.69, "spread": 3.9}, False),
    # a counter faded to 30% of its contrast: still a doubt
    ({"fit": 0.127, "margin": 0.124, "shape": 0.662, "edge": 2.24, "spread": 4.6}, True),
])
def test_a_close_fit_without_a_drawing_is_no_faint_counter(scores: dict, thing: bool) -> None:
    assert _Look._a_thing(StoreThing((0.0, 0.0), None, distances=scores)) is thing


@pytest.mark.parametrize(("tint", "thing"), [
    # places on nothing that hue alone made doubts on tuning photos: a red table's grain
    # (family 5), the store's edge beside the board (family 41)
    (4.77, False), (6.02, False),
    # a counter of another hue than the table's
    (7.5, True), (32.3, True),
])
def test_a_hue_alone_makes_a_thing_only_well_past_the_tables_own(tint: float,
                                                                 thing: bool) -> None:
    from companion.the_glade.recognition.store import _tinted

    assert _tinted(StoreThing((0.0, 0.0), None, distances={"tint": tint})) is thing
