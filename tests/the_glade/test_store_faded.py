"""Counters faded or washed out towards the table's colour, and faint counters whose best
face has a look-alike (issue #25), on SAMPLE art the recogniser never saw before the test:
named right or counted as a doubt, never left out silently (a place found and not named is
a doubt unless it is surely the table: store.USE_SURE_TABLE, USE_FAINT_PAIR) and never
named as their look-alike (a face named against the drawing only when its own colours,
each channel's mean left out, say it clearly: store.USE_COLOUR_CHECK). Before, on this
family, counters faded to 30% of their contrast were left out without a doubt, and ones
faded to half or washed of their colour named as a look-alike: wrong stores printed as
certain: on 5447585 six of the seven photo cases failed (four left out silently, two named
wrong); four of them passed with 858eace, a fifth (the faded squirrel, no hue of its own
left) with its sharp print counted alone (store.USE_PRINT_ALONE), the seventh (the faded
leaf counter, as plain as the table's grain but for some outline and print) as a doubt with
store.USE_FAINT_OUTLINE.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from glade_family import fake_look, glade_family, one_counter_photo, store_reading

from companion.the_glade.recognition.families import HELD_OUT_FROM
from companion.the_glade.recognition.glade_polar import PolarMatch
from companion.the_glade.recognition.store import StoreThing, _Look

#: A family new to this test: the rules were set on tuning families (1-8, 41-90) before it
#: was read; the two cases still failing were looked at afterwards, so it is in
#: families.TUNING_FAMILIES now.
FAMILY = 6 * HELD_OUT_FROM + 407_319


@pytest.fixture(scope="module")
def family():
    return glade_family(FAMILY)


def _circle(photo: np.ndarray, centre: np.ndarray, radius: float) -> np.ndarray:
    inside = np.zeros(photo.shape[:2], np.uint8)
    cv2.circle(inside, (int(centre[0]), int(centre[1])), int(radius * 1.1), 255, -1)
    return inside > 0


def _faded(photo: np.ndarray, centre: np.ndarray, radius: float, keep: float) -> np.ndarray:
    """The counter at ``centre`` mixed with the table's colour round it (a wide median),
    ``keep`` of its own contrast kept."""
    table = cv2.medianBlur(photo, 2 * int(2 * radius) + 1).astype(np.float32)
    keeps = np.where(_circle(photo, centre, radius), keep, 1.0).astype(np.float32)
    out = table + (photo.astype(np.float32) - table) * keeps[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _washed(photo: np.ndarray, centre: np.ndarray, radius: float, keep: float) -> np.ndarray:
    """The counter at ``centre`` with its colour (CIELAB a*, b*) drawn towards the table's,
    ``keep`` of its own kept, its lightness as it was."""
    lab = cv2.cvtColor(photo, cv2.COLOR_BGR2LAB).astype(np.float32)
    table = cv2.cvtColor(cv2.medianBlur(photo, 2 * int(2 * radius) + 1),
                         cv2.COLOR_BGR2LAB).astype(np.float32)
    washed = table[..., 1:] + (lab[..., 1:] - table[..., 1:]) * keep
    lab[..., 1:] = np.where(_circle(photo, centre, radius)[..., None], washed, lab[..., 1:])
    return cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)


def _read(family, item: str | dict, how: str, keep: float) -> dict:
    pack, glade, model = family
    photo, truth, centre, radius = one_counter_photo(pack, glade, item)
    photo = (_faded if how == "faded" else _washed)(photo, centre, radius, keep)
    return store_reading(pack, model, photo, truth).result(with_matches=True)


def _match(icon: str, kind: str = "creature", value: int = 1) -> dict:
    return {"kind": kind, "icon": icon, "value": value}


@pytest.mark.parametrize(("item", "how", "keep"), [
    # left out without a doubt before (faded to 30% of their contrast)
    (_match("mouse/beech"), "faded", 0.3),
    # left out until the print alone counted (store.USE_PRINT_ALONE): sharp detail (3.8)
    # but hardly a hue of its own (1.75, below TABLE_TINT), a yellow counter fitting 0.17
    (_match("squirrel/oak"), "faded", 0.3),
    (_match("acorn/maple", "fruit"), "faded", 0.3),
    # left out until some outline and print with a close fit counted (USE_FAINT_OUTLINE):
    # its place fits a plain yellow counter closely (0.12, margin 0.11) with no drawing
    # (0.85) and no hue (1.1), as a table's grain does, but an outline of 2.3, detail 2.1
    (_match("oak", "leaf", 2), "faded", 0.3),
    # named as their look-alike before
    (_match("mouse/oak"), "faded", 0.5),
    (_match("mushroom/beech", "fruit"), "faded", 0.5),
    ("green-single", "washed", 0.4),
])
def test_a_faded_counter_is_named_right_or_doubted(family, item, how: str,
                                                   keep: float) -> None:
    result = _read(family, item, how, keep)
    if isinstance(item, str):
        named, want = result["store"], [item]
        assert result["store_match_counters"] == []
    else:
        named, want = result["store_match_counters"], [item]
        assert result["store"] == []
    assert (named == want and result["store_uncertain"] == 0) or (
        named == [] and result["store_uncertain"] == 1), result


def test_a_faint_counter_whose_face_has_a_look_alike_is_a_doubt() -> None:
    """Test family 322905's faint hedgehog on maple: its best face's margin over the
    hedgehog on oak 0.01, so the faint-counter rule's margin failed, though the pair
    comparison said 0.6; its drawing fits (a faint counter's); left out silently."""
    faint = {"fit": 0.19, "margin": 0.01, "shape": 0.42, "edge": 1.3, "spread": 4.8,
             "pair": 0.6}
    assert _Look._a_thing(StoreThing((0.0, 0.0), None, distances=faint))
    # no clear pair, or a drawing that is none: as before
    assert not _Look._a_thing(StoreThing((0.0, 0.0), None, distances={**faint,
                                                                       "pair": 0.1}))
    assert not _Look._a_thing(StoreThing((0.0, 0.0), None, distances={**faint,
                                                                       "shape": 0.97}))


@pytest.mark.parametrize(("scores", "table"), [
    # the table's grain on tuning photos: some hue and no sharp detail (families 61, 62),
    # or some detail and no hue (families 41-60)
    ({"tint": 4.76, "detail": 1.34, "spread": 17.8, "stands": 3.79}, True),
    ({"tint": 3.25, "detail": 1.6, "spread": 7.3, "stands": 1.94}, True),
    ({"tint": 0.69, "detail": 2.66, "spread": 5.5, "stands": 3.46}, True),
    ({"tint": 1.58, "detail": 2.43, "spread": 7.4, "stands": 3.0}, True),
    ({"tint": 4.0, "detail": 0.0, "spread": 5.0, "stands": 3.0}, True),  # detail not measured
    # both, but the table's streaks (families 45, 65) or beside the board's edge (87)
    ({"tint": 2.02, "detail": 2.71, "spread": 15.5, "stands": 2.73}, True),
    ({"tint": 2.18, "detail": 1.92, "spread": 13.7, "stands": 2.88}, True),
    ({"tint": 3.83, "detail": 2.15, "spread": 8.3, "stands": 21.62}, True),
    # counters faded to 30% of their contrast on tuning photos, left out before
    ({"tint": 4.11, "detail": 1.92, "spread": 2.7, "stands": 3.06}, False),
    ({"tint": 2.67, "detail": 2.85, "spread": 7.5, "stands": 3.76}, False),
    ({"tint": 6.22, "detail": 3.34, "spread": 10.9, "stands": 2.84}, False),
    # a naming refused for its colours alone is a counter
    ({"tint": 0.5, "detail": 1.0, "spread": 5.0, "stands": 3.0, "colour_pair": -0.4},
     False),
    # counters faded to 30% on tuning families 41-42 with no hue of their own left, left
    # out before USE_PRINT_ALONE: a sharp print with a counter's drawing, a face fitting
    ({"tint": 1.17, "detail": 3.04, "spread": 3.3, "stands": 5.19, "fit": 0.145,
      "shape": 0.45}, False),
    ({"tint": 1.76, "detail": 2.69, "spread": 3.9, "stands": 3.25, "fit": 0.181,
      "shape": 0.449}, False),
    # the table's sharpest places on tuning photos (families 41-46): no face fits, or no
    # drawing and not sharp enough for the print alone
    ({"tint": 0.62, "detail": 3.11, "spread": 10.4, "stands": 3.0, "fit": 0.679,
      "shape": 1.216}, True),
    ({"tint": 0.52, "detail": 2.43, "spread": 3.4, "stands": 7.98, "fit": 0.182,
      "shape": 1.005}, True),
    ({"tint": 2.02, "detail": 2.71, "spread": 15.5, "stands": 2.73, "fit": 0.341,
      "shape": 0.99}, True),
])
def test_a_place_is_nothing_only_when_surely_the_table(scores: dict, table: bool) -> None:
    from companion.the_glade.recognition.store import _surely_table

    assert _surely_table(StoreThing((0.0, 0.0), None, distances=scores)) is table


NAMES = ["match:creature:mouse/maple:1", "match:creature:mouse/oak:1", "red-single"]
MATCHES = [_match("mouse/maple"), _match("mouse/oak"), None]


def _look(colour_pair: float) -> _Look:
    """A look with three faces whose colour-normalised pair comparison says
    ``colour_pair``; the view a plain patch with a counter's outline."""
    return fake_look(NAMES, MATCHES, colour_pair)


@pytest.mark.parametrize(("colour_pair", "named"), [(-0.48, False), (0.05, False),
                                                    (0.35, True)])
def test_a_face_named_against_the_drawing_needs_its_own_colours(colour_pair: float,
                                                                named: bool) -> None:
    """A counter faded to half its contrast on a family never tuned on: mouse on maple
    fitted best (0.21, margin 0.22) but the mouse on oak's drawing fitted four times
    better, and the colours compared with each channel's mean left out said oak (+0.48):
    named maple before."""
    f = PolarMatch(np.array([0.21, 0.33, 0.9]), np.array([0.19, 0.048, 0.8]), (81.0, 81.0))
    thing, ok = _look(colour_pair)._describe(f, 11.0, 3.0, 4.8)
    assert ok is named
    assert thing.distances["colour_pair"] == colour_pair
    if not named:
        assert thing.reason == f"{NAMES[0]} or {NAMES[1]}?"
    # the drawing agreeing, no comparison is made
    f = PolarMatch(np.array([0.21, 0.33, 0.9]), np.array([0.05, 0.048, 0.8]), (81.0, 81.0))
    thing, ok = _look(colour_pair)._describe(f, 11.0, 3.0, 4.8)
    assert ok and "colour_pair" not in thing.distances


@pytest.mark.parametrize(("scores", "doubt"), [
    # counters faded to 30% on tuning families 45, 47 and 53, left out silently before
    ({"fit": 0.1351, "margin": 0.062, "shape": 0.751, "spread": 3.5, "stands": 3.86,
      "edge": 1.96, "tint": 1.28, "detail": 2.25}, True),
    ({"fit": 0.1779, "margin": 0.079, "shape": 0.976, "spread": 3.3, "stands": 4.17,
      "edge": 1.9, "tint": 1.24, "detail": 2.87}, True),
    ({"fit": 0.1142, "margin": 0.076, "shape": 0.682, "spread": 1.5, "stands": 4.28,
      "edge": 2.28, "tint": 0.67, "detail": 1.8}, True),
    # the table's places nearest to the rule on tuning photos (families 41-90): a close fit
    # by no margin, a looser fit, too little outline or detail, or standing out strongly
    ({"fit": 0.174, "margin": 0.007, "shape": 0.973, "spread": 8.8, "stands": 3.19,
      "edge": 1.91, "tint": 0.59, "detail": 1.9}, False),
    ({"fit": 0.1928, "margin": 0.052, "shape": 0.947, "spread": 9.5, "stands": 5.51,
      "edge": 2.52, "tint": 5.16, "detail": 1.68}, False),
    ({"fit": 0.1803, "margin": 0.134, "shape": 0.864, "spread": 3.9, "stands": 3.51,
      "edge": 1.79, "tint": 0.41, "detail": 1.73}, False),
    ({"fit": 0.0926, "margin": 0.056, "shape": 0.749, "spread": 2.6, "stands": 5.99,
      "edge": 0.91, "tint": 0.64, "detail": 1.05}, False),
    ({"fit": 0.1242, "margin": 0.019, "shape": 0.653, "spread": 9.1, "stands": 33.1,
      "edge": 3.89, "tint": 0.56, "detail": 1.78}, False),
])
def test_a_faint_place_with_some_outline_and_print_is_a_doubt(scores: dict,
                                                              doubt: bool) -> None:
    from companion.the_glade.recognition.store import _faint_outline

    assert _faint_outline(StoreThing((0.0, 0.0), None, distances=scores)) is doubt
