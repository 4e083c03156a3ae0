"""Look-alike doubts settled by the pack's own drawings through the photo's blur
(recognition/drawn_parts.py).

The pack is drawn by a new seed of the art-family generator (DRAWN_FAMILY, never tuned on
nor benchmarked before this test; its fruit is 0.063 of the tile, about six photo pixels,
drawn as the generator drew it before its legibility check, whose look-alikes the photo's
doubt needs),
cut to 16 spring tiles as in test_recognition_families.py, and enrolled in the test; the
photo is rendered from it with every spoiler of the simulator (here a smear of the camera).
"""

from __future__ import annotations

import copy

import cv2
import numpy as np
import pytest
from test_recognition_families import (
    assert_doubt_settled_right,
    enrolled_small_pack,
    forest_photo,
)

from companion.the_glade.recognition import (
    close_calls,
    drawn_parts,
    photo_drawing,
    photo_exemplars,
    round_robin,
)
from companion.the_glade.recognition.enrol import tile_side
from companion.the_glade.recognition.evidence import _pair_lookup
from companion.the_glade.recognition.families import HELD_OUT_FROM, TUNING_FAMILIES
from companion.the_glade.recognition.lookalikes import PairVerdict, turned_patch
from companion.the_glade.recognition.model import FINE, TILE_INSET, Model, load_model, save_model
from companion.the_glade.recognition.pack import Pack
from companion.the_glade.recognition.reader import POOR_PHOTO, BoardReading, read_board
from companion.the_glade.recognition.templates import cache_for
from companion.vision import board

#: art no model of the project was built from (enrolled here); its readings were looked at
#: to choose the photo, so it is listed among the tuning families, never benchmarked
DRAWN_FAMILY = 7335
assert DRAWN_FAMILY in TUNING_FAMILIES and DRAWN_FAMILY >= HELD_OUT_FROM
SEED = 94_009        # the photo
SQUARE = "G7"        # a fruit doubt there that neither the looks nor the exemplars settle
SETTLE = drawn_parts.settle


@pytest.fixture(autouse=True)
def drawn_on(monkeypatch) -> None:
    """The step switched on (drawn_parts.DRAWN), whatever its default; the steps made since
    the photo was chosen off (every look-alike in the closer look, the round robin: they
    settle its doubt right before this step is reached), and the board aligned as then (by the
    raw brightness: board.FLATTEN; aligned by its print, the square is read surely before
    the step)."""
    monkeypatch.setattr(board, "FLATTEN", None)
    monkeypatch.setattr(drawn_parts, "DRAWN", True)
    monkeypatch.setattr(close_calls, "ALL_LOOKALIKES", False)
    monkeypatch.setattr(round_robin, "ROUND_ROBIN", False)


@pytest.fixture(scope="module")
def setting(tmp_path_factory) -> tuple[Pack, Model, np.ndarray, dict]:
    # the art this case was found in (before the rulebook's colours: FamilyArt)
    pack, model = enrolled_small_pack(tmp_path_factory.mktemp("drawn"), DRAWN_FAMILY,
                                      legible=False, rulebook_ink=False)
    image, truth = forest_photo(pack, SEED)
    return pack, model, image, truth


def _read(model: Model, photo: np.ndarray, monkeypatch: pytest.MonkeyPatch,
          drawn: bool = True) -> tuple[BoardReading, list]:
    """The photo read with (or without) the drawings' step, and what that step was given
    (model, evidence, readings before it, fine view)."""
    given: list = []

    def spy(model, ev, readings, fine, *rest):  # type: ignore[no-untyped-def]
        given.extend([model, ev, copy.deepcopy(readings), fine])
        return SETTLE(model, ev, readings, fine, *rest) if drawn else {}

    monkeypatch.setattr(drawn_parts, "settle", spy)
    monkeypatch.setattr(photo_drawing, "PHOTO_DRAWING", False)  # this step alone
    return read_board(model, photo), given


def _square(reading: BoardReading, name: str):  # type: ignore[no-untyped-def]
    return next(r for r in reading.squares if r.square == name)


def _settle(given: list) -> tuple[dict, list]:
    """The drawings' step run again on what it was given: its verdicts and the readings."""
    model, ev, readings, fine = given
    readings = copy.deepcopy(readings)
    index, faces = _pair_lookup(model, cache_for(model))
    return SETTLE(model, ev, readings, fine, photo_exemplars._placed, faces, index), readings


def test_a_fruit_doubt_is_settled_by_the_packs_own_drawings(setting, monkeypatch) -> None:
    """Without the step (the code before it) the square is a look-alike doubt between the
    true tile and another; with it the square is named right, surely, by the drawings, and
    nothing is read wrong."""
    _pack, model, photo, truth = setting
    before, _ = _read(model, photo, monkeypatch, drawn=False)
    after, _ = _read(model, photo, monkeypatch)
    assert_doubt_settled_right(before, after, SQUARE, truth, "drawn_sure")


def _fruit_erased(model: Model, given: list) -> np.ndarray:
    """The fine view with SQUARE's tile's fruit (the pair's box, padded) painted over with
    the paper round it: the photo then shows neither candidate (a true tie)."""
    _model, ev, readings, fine = given
    i = next(k for k, r in enumerate(readings) if r.square == SQUARE)
    doubt = readings[i]
    index, faces = _pair_lookup(model, cache_for(model))
    fa, fb = (faces[(n, doubt.season)] for n in doubt.candidates)
    k = index[(fa, fb)]
    side = round(tile_side(model.tile_size) * TILE_INSET * FINE)
    x0, y0, x1, y1 = (model.lookalikes.boxes[k] * side / model.lookalikes.sides[k]).astype(int)
    box = np.zeros((side, side), np.uint8)
    box[max(0, y0 - 2):y1 + 2, max(0, x0 - 2):x1 + 2] = 1
    ring = cv2.dilate(box, np.ones((7, 7), np.uint8)) - box
    # back from the turned patch (lookalikes.turned_patch) to the fine view
    x, y, angle = photo_exemplars._placed(ev, i)
    m = cv2.getRotationMatrix2D((float(x), float(y)), float(angle), 1.0)
    m[:, 2] += (side / 2 - x, side / 2 - y)
    h, w = fine.shape[:2]
    where, around = (cv2.warpAffine(np.ascontiguousarray(np.rot90(a, -int(doubt.turn))), m,
                                    (w, h), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_NEAREST)
                     for a in (box, ring))
    out = fine.copy()
    out[where > 0] = np.median(fine[around > 0], axis=0).astype(out.dtype)
    return out


def test_a_photo_showing_neither_fruit_stays_a_doubt(setting, monkeypatch) -> None:
    """The same doubt with the tile's fruit painted over: no candidate's drawing fits
    better than another's, so the step leaves it a doubt (the photo, not the drawings,
    must tell them apart)."""
    _pack, model, photo, _truth = setting
    _, given = _read(model, photo, monkeypatch, drawn=False)
    verdicts, readings = _settle(given)
    i = next(k for k, r in enumerate(readings) if r.square == SQUARE)
    assert verdicts[i].settled  # the real photo settles it ...
    erased = [*given[:3], _fruit_erased(model, given)]
    side = round(tile_side(model.tile_size) * TILE_INSET * FINE)
    doubt = given[2][i]
    at, turn = photo_exemplars._placed(given[1], i), int(doubt.turn)
    index, faces = _pair_lookup(model, cache_for(model))
    fa, fb = (faces[(n, doubt.season)] for n in doubt.candidates)
    x0, y0, x1, y1 = (model.lookalikes.boxes[index[(fa, fb)]] * side
                      / model.lookalikes.sides[index[(fa, fb)]]).astype(int)
    for view, flat in ((given[3], False), (erased[3], True)):  # the fruit is gone
        part = turned_patch(view, at[:2], at[2], turn, side, side)[y0:y1, x0:x1]
        assert (float(part.reshape(-1, 3).astype(np.float32).std(axis=0).max()) < 6.0) == flat
    verdicts, readings = _settle(erased)
    assert i not in verdicts or not verdicts[i].settled  # ... the fruit painted over, not
    assert readings[i].kind == "uncertain" and readings[i].doubt == "look-alike"


def test_a_photo_blurred_past_the_fruit_stays_a_doubt(setting, monkeypatch) -> None:
    """The same photo blurred much further: the fruit is gone, the doubt stays."""
    _pack, model, photo, _truth = setting
    _, given = _read(model, photo, monkeypatch, drawn=False)
    blurred = [*given[:3], cv2.GaussianBlur(given[3], (0, 0), 4.0)]
    verdicts, readings = _settle(blurred)
    i = next(k for k, r in enumerate(readings) if r.square == SQUARE)
    assert i not in verdicts or not verdicts[i].settled
    assert readings[i].kind == "uncertain"


def test_a_model_enrolled_before_the_drawings_were_kept_skips_the_step(
        setting, monkeypatch, tmp_path) -> None:
    """A model without the pack's drawings (saved before they were kept) loads, and the
    doubt stays a doubt: the step needs the drawings."""
    _pack, model, photo, _truth = setting
    old = copy.copy(model)
    old.tile_faces = np.zeros((0, 1, 1, 3), np.uint8)
    save_model(old, tmp_path / "old")
    loaded = load_model(tmp_path / "old")
    assert len(loaded.tile_faces) == 0 and len(model.tile_faces) == len(model.tile_detail)
    reading, _ = _read(loaded, photo, monkeypatch)
    square = _square(reading, SQUARE)
    assert square.kind == "uncertain" and "drawn_sure" not in square.distances


def test_a_photo_called_poor_is_left_as_it_is(setting, monkeypatch) -> None:
    """With over reader.POOR_PHOTO of the squares in doubt the reader doubts every weak
    close call; settling doubts could lift the photo under that share and let such calls
    stand, so the step leaves a poor photo's doubts alone."""
    _pack, model, photo, _truth = setting
    _, given = _read(model, photo, monkeypatch, drawn=False)
    readings = copy.deepcopy(given[2])
    others = [r for r in readings if r.square != SQUARE and r.kind != "uncertain"]
    poor = int(POOR_PHOTO * len(readings)) + 1 - sum(r.kind == "uncertain" for r in readings)
    for r in others[:max(poor, 0)]:
        r.kind, r.reason = "uncertain", "hidden for the test"
    verdicts, after = _settle([*given[:2], readings, given[3]])
    i = next(k for k, r in enumerate(after) if r.square == SQUARE)
    assert not verdicts and after[i].kind == "uncertain"
    verdicts, after = _settle(given)  # the photo as it is: settled
    assert verdicts[i].settled and after[i].kind == "tile"


def _the_doubt(setting, monkeypatch):  # type: ignore[no-untyped-def]
    """The test photo read with the drawings off: (model, truth, what _read gave, the doubt's
    square index, the face numbers, the doubt, the true face)."""
    _pack, model, photo, truth = setting
    _, given = _read(model, photo, monkeypatch, drawn=False)
    i = next(k for k, r in enumerate(given[2]) if r.square == SQUARE)
    _index, faces = _pair_lookup(model, cache_for(model))
    doubt = given[2][i]
    return (model, truth, given, i, faces, doubt,
            faces[(truth["forest"]["tiles"][SQUARE], doubt.season)])


def test_a_learnt_pair_against_the_drawings_keeps_the_doubt(setting, monkeypatch) -> None:
    """The drawings settle the doubt only when the learnt pair of its two candidates does
    not name the other one by PAIR_AGAINST spreads (drawn_parts.PAIR_GUARD): with the pair
    made to name the other candidate that far, the doubt stays; a pair naming it by less,
    or the guard off, lets the drawings settle it."""
    _model, truth, given, i, faces, doubt, winner = _the_doubt(setting, monkeypatch)
    other = next(faces[(n, doubt.season)] for n in doubt.candidates
                 if faces[(n, doubt.season)] != winner)

    def pair_naming(face: int, by: float):  # type: ignore[no-untyped-def]
        def fake(*_args, **_kw):  # type: ignore[no-untyped-def]
            return PairVerdict(face, winner if face == other else other, 1.0, 1.0 + by)
        return fake

    for face, by, guard, settled in ((other, drawn_parts.PAIR_AGAINST + 0.5, True, False),
                                     (other, drawn_parts.PAIR_AGAINST - 0.5, True, True),
                                     (winner, 9.0, True, True),
                                     (other, drawn_parts.PAIR_AGAINST + 0.5, False, True)):
        monkeypatch.setattr(drawn_parts, "PAIR_GUARD", guard)
        monkeypatch.setattr(drawn_parts, "judge_pair", pair_naming(face, by))
        _verdicts, readings = _settle(given)
        assert (readings[i].kind == "tile") == settled
        if settled:
            assert readings[i].name == truth["forest"]["tiles"][SQUARE]
        else:
            assert readings[i].kind == "uncertain" and set(readings[i].candidates) == set(
                doubt.candidates)


def test_leaf_rivals_are_the_same_creature_and_fruit_on_another_leaf() -> None:
    faces = {("mouse/acorn/oak", "spring"): 0, ("mouse/acorn/beech", "spring"): 1,
             ("mouse/acorn/maple", "summer"): 2, ("mouse/hazelnut/oak", "spring"): 3,
             ("toad/acorn/beech", "spring"): 4, ("mouse/acorn/maple", "spring"): 5}
    assert drawn_parts.leaf_rivals(faces, "mouse/acorn/oak", "spring") == [1, 5]
    assert drawn_parts.leaf_rivals(faces, "mouse/acorn/maple", "summer") == []
    assert drawn_parts.leaf_rivals(faces, "a-tile-named-otherwise", "spring") == []


def test_a_rival_leaf_fitting_as_well_keeps_the_doubt(setting, monkeypatch) -> None:
    """The drawings name the fruit, not the leaf: with a face of the same creature and fruit
    on another leaf whose drawing fits the tile as well (drawn_parts.LEAF_CHECK), the doubt
    stays; fitting clearly worse (under LEAF_RATIO), or the check off, it is settled."""
    model, truth, given, i, faces, doubt, winner = _the_doubt(setting, monkeypatch)
    rival = next(f for f in range(len(model.tile_faces)) if f != winner
                 and f not in {faces[(n, doubt.season)] for n in doubt.candidates})
    real = drawn_parts.judge

    def judging(share: float):  # type: ignore[no-untyped-def]
        def judge(model, photo, fine, at, turn, candidates):  # type: ignore[no-untyped-def]
            if candidates == [winner, rival]:  # the leaf check: the rival fits this well
                return {winner: 1.0, rival: 1.0 / share}, 1.0, "round 1", 0.1
            return real(model, photo, fine, at, turn, candidates)
        return judge

    monkeypatch.setattr(drawn_parts, "leaf_rivals", lambda *_a: [rival])
    for share, check, settled in ((1.0, True, False), (drawn_parts.LEAF_RATIO + 0.1, True, False),
                                  (drawn_parts.LEAF_RATIO - 0.1, True, True), (1.0, False, True)):
        monkeypatch.setattr(drawn_parts, "LEAF_CHECK", check)
        monkeypatch.setattr(drawn_parts, "judge", judging(share))
        _verdicts, readings = _settle(given)
        assert (readings[i].kind == "tile") == settled
        if settled:
            assert readings[i].name == truth["forest"]["tiles"][SQUARE]
