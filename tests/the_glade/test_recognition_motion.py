"""A shaken camera, and a tile veiled by glare.

A motion-smeared photo is read with the closer look's faces smeared alike (the smear measured
on the board's border); a tile whose print glare has faded below a tile's structure is
doubted, never read as the bare board.
"""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.the_glade.names import BoardGeometry
from companion.the_glade.recognition import evidence
from companion.the_glade.recognition.close_calls import Look
from companion.the_glade.recognition.enrol import build_model
from companion.the_glade.recognition.evidence import Evidence
from companion.the_glade.recognition.reader import (
    TILE_OUTLINE,
    _judge,
    _veiled_tile,
    read_board,
)
from companion.the_glade.recognition.sim import random_forest, render_photo, sample_pack
from companion.vision.blur import Blur, MeasuredBlur, line_kernel, measure_blur
from companion.vision.sim import Camera, Degradations

G7 = BoardGeometry.from_dict({"rows": 7, "cols": 7, "centre": "D4"})


@pytest.fixture(scope="module")
def model4():
    """Unseen SAMPLE art (style 4), enrolled from its own pack."""
    return build_model(sample_pack(4), lookalikes=False), sample_pack(4)


def _shaken(photo: np.ndarray, length: float, angle: float, seed: int) -> np.ndarray:
    """``photo`` smeared along a line (a bumped table), with sensor noise and JPEG."""
    out = cv2.filter2D(photo.astype(np.float32), -1, line_kernel(length, angle))
    out += np.random.default_rng(seed).normal(0, 3, out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 60])[1],
                        cv2.IMREAD_COLOR)


def _score(reading, truth) -> tuple[int, int]:
    """(uncertain, wrong) squares of a reading."""
    forest = truth["forest"]
    unsure = wrong = 0
    for r in reading.squares:
        want = forest["tiles"].get(r.square) or forest["counters"].get(r.square)
        if r.kind == "uncertain":
            unsure += 1
        elif (r.name if r.kind != "empty" else None) != want:
            wrong += 1
    return unsure, wrong


def test_motion_smear_is_modelled_in_the_closer_look(model4, monkeypatch):
    """A board of look-alike tiles, small in the frame and smeared 11 px: with the faces
    smeared alike, nearly every square is named; with focus blur only (as before), dozens
    are doubted. Neither reading is wrong anywhere."""
    model, pack = model4
    modelled, focus_only = [], []
    for seed, angle in ((90, 120.0), (91, 30.0), (92, 0.0)):
        state = random_forest(np.random.default_rng(seed), G7, pack, fill=0.9, counters=0.0)
        photo, truth = render_photo(pack, state, seed, spoil=Degradations.none(),
                                    camera=Camera(0.55, 10.0, 5.0, -5.0))
        shaken = _shaken(photo, 11.0, angle, seed)
        modelled.append(_score(read_board(model, shaken), truth))
        with monkeypatch.context() as m:
            def focus(*args):
                found = measure_blur(*args)
                return MeasuredBlur(found.focus, Blur(sigma=found.focus))
            m.setattr(evidence, "measure_blur", focus)
            focus_only.append(_score(read_board(model, shaken), truth))
    assert all(wrong == 0 for _, wrong in modelled), modelled
    assert sum(u for u, _ in modelled) <= 6, modelled
    assert sum(u for u, _ in focus_only) >= 5 * max(1, sum(u for u, _ in modelled)), (
        modelled, focus_only)


def test_a_veiled_tile_needs_its_outline_and_a_better_tile_fit():
    assert _veiled_tile(TILE_OUTLINE + 0.1, tile=0.006, empty=0.010)
    assert not _veiled_tile(TILE_OUTLINE - 0.1, tile=0.006, empty=0.010)  # no clear outline
    assert not _veiled_tile(TILE_OUTLINE + 0.1, tile=0.012, empty=0.010)  # the board fits
    # bare squares where a tile happened to fit better showed outlines up to 0.55
    assert TILE_OUTLINE > 0.55


def test_tile_faded_by_glare_is_doubted_not_read_empty():
    """Found on a tuning photo (SAMPLE style 1): glare, a 3 px smear, strong noise and JPEG
    faded a tile's print below the bare-board structure test, and it was read as empty.
    Its outline and fit say a tile lies there."""
    pack = sample_pack(1)
    model = build_model(pack, lookalikes=False)
    state = random_forest(np.random.default_rng(20127), G7, pack)
    photo, truth = render_photo(pack, state, 20127)
    assert "E7" in truth["forest"]["tiles"]
    got = {r.square: r for r in read_board(model, photo).squares}
    assert got["E7"].kind in ("uncertain", "tile"), got["E7"]
    if got["E7"].kind == "tile":
        assert got["E7"].name == truth["forest"]["tiles"]["E7"]


def _one_square(d1: float, d2: float, look: Look | None, sat: float = 0.0,
                clipped: float = 0.0) -> Evidence:
    """Evidence for a single tile square whose best two faces are templates 0 and 1;
    ``sat`` of its pixels have a clipped colour, ``clipped`` where the two faces differ."""
    templates = np.array([[0.0, 0.0], [1.0, 1.0]], np.float32)  # template gap 1
    return Evidence(
        centres=np.zeros((1, 2)), frame_share=np.ones(1), sat=np.array([sat]),
        tile_clipped=np.array([clipped]), white=np.zeros(1),
        empty=np.array([1.0]), structure=np.array([5.0]), outline=np.array([0.9]),
        tile_at=np.zeros((1, 2)), tile_angle=np.zeros(1), fine_angle=None,
        tiles=[((d1, 0, "mouse/acorn/oak"), (d2, 1, "mouse/hazelnut/oak"))],
        looks={0: look} if look else {}, counters={}, tint={}, disc=np.zeros(1),
        templates=templates)


def test_confidence_of_a_close_call_is_the_clearer_of_two_looks_that_agree():
    model = SimpleNamespace(tile_turns=np.array([0, 0]), tile_seasons=["spring", "spring"])
    first = _judge(model, _one_square(0.001, 0.201, None), 0, "B2")
    assert first.kind == "tile", first.reason
    assert first.confidence == pytest.approx(0.2, abs=1e-6)
    agreed = Look(("mouse/acorn/oak", 0, "mouse/hazelnut/oak"), margin=0.8, noise=0.05)
    both = _judge(model, _one_square(0.001, 0.201, agreed), 0, "B2")
    assert both.kind == "tile" and both.confidence == pytest.approx(0.8, abs=1e-6)
    overruled = Look(("mouse/hazelnut/oak", 1, "mouse/acorn/oak"), margin=0.9, noise=0.05)
    other = _judge(model, _one_square(0.001, 0.201, overruled), 0, "B2")
    assert other.name == "mouse/hazelnut/oak"
    assert other.confidence == pytest.approx(0.2, abs=1e-6)  # no more than the first look


def test_over_exposed_paper_asks_no_more_margin_but_a_clipped_print_does():
    """Clipped colours raise the margin a name needs only where its faces differ: a tile
    whose paper is over-exposed is named as surely as in a well-exposed photo."""
    model = SimpleNamespace(tile_turns=np.array([0, 0]), tile_seasons=["spring", "spring"])
    paper = _judge(model, _one_square(0.001, 0.201, None, sat=0.7, clipped=0.0), 0, "B2")
    assert paper.kind == "tile" and paper.name == "mouse/acorn/oak", paper.reason
    fruit = _judge(model, _one_square(0.001, 0.201, None, sat=0.7, clipped=0.7), 0, "B2")
    assert fruit.kind == "uncertain" and fruit.doubt == "look-alike"
    look = Look(("mouse/acorn/oak", 0, "mouse/hazelnut/oak"), margin=0.3, noise=0.3)
    close = _one_square(0.001, 0.02, look, sat=0.7)      # the first look is not sure
    assert _judge(model, close, 0, "B2").kind == "tile"
    clipped_look = Look(look.names, margin=0.3, noise=0.3, clipped=0.7)
    close = _one_square(0.001, 0.02, clipped_look, sat=0.7)
    assert _judge(model, close, 0, "B2").kind == "uncertain"


def test_a_patch_of_glare_with_no_print_is_no_counter():
    """Found on tuning photos: a soft patch of glare on a bare green square passed for a
    round counter's outline, and the square was doubted ("empty or counter?"). A counter's
    toadstools always bring some sharp structure; a square with none at all holds none."""
    from companion.the_glade.recognition.reader import NO_COUNTER_STRUCTURE

    model = SimpleNamespace(tile_turns=np.array([0, 0]), tile_seasons=["spring", "spring"])

    def square(structure: float) -> Evidence:
        ev = _one_square(0.03, 0.05, None)
        ev.empty[0], ev.structure[0], ev.outline[0] = 0.0144, structure, 0.3
        ev.disc = np.array([0.6])  # a round outline was found
        ev.counters = {0: (0.0144, 0.5, "green-single", "green-double", np.zeros(2))}
        # its colours: a counter's barely nearer than the bare board's (had the board's
        # been nearer, the board would fit better than any counter: see
        # test_a_bare_square_whose_board_fits_better_than_any_counter_holds_none)
        ev.tint = {0: (0.0085, 0.009)}
        return ev

    assert _judge(model, square(0.01), 0, "E5").kind == "empty"
    doubted = _judge(model, square(NO_COUNTER_STRUCTURE * 3), 0, "E5")
    assert doubted.kind == "uncertain" and doubted.reason == "counter or empty?"
    # unmeasured structure (no enrolled board round the view) rules nothing out
    assert _judge(model, square(float("nan")), 0, "E5").kind == "uncertain"
