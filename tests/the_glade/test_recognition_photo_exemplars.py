"""Look-alike doubts settled by the photo's own sure squares (recognition/photo_exemplars.py).

The pack is drawn by a new seed of the art-family generator (PHOTO_FAMILY, never tuned on nor
benchmarked; its fruit is 0.07 of the tile, a few photo pixels, drawn as the generator drew
it before its legibility check, whose look-alikes the photo's doubt needs), cut to 16 spring
tiles as in test_recognition_families.py, and enrolled in the test; the photo is rendered from
it with every spoiler of the simulator.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from test_recognition_families import (
    assert_doubt_settled_right,
    enrolled_small_pack,
    forest_photo,
)

from companion.the_glade.names import Tile
from companion.the_glade.recognition import photo_exemplars
from companion.the_glade.recognition.families import HELD_OUT_FROM, TUNING_FAMILIES
from companion.the_glade.recognition.model import Model
from companion.the_glade.recognition.pack import Pack
from companion.the_glade.recognition.reader import BoardReading, read_board

#: art no model of the project was built from (enrolled here, in the test); its readings were
#: looked at to choose the photo, so it is listed among the tuning families, never benchmarked
PHOTO_FAMILY = 7321
assert PHOTO_FAMILY in TUNING_FAMILIES and PHOTO_FAMILY >= HELD_OUT_FROM
SEED = 93_013        # the photo
SQUARE = "B1"        # a fruit doubt there that the photo's sure squares settle
SETTLE = photo_exemplars.settle


@pytest.fixture(scope="module")
def setting(tmp_path_factory) -> tuple[Pack, Model, np.ndarray, dict]:
    # the art this case was found in (before the rulebook's colours: FamilyArt)
    pack, model = enrolled_small_pack(tmp_path_factory.mktemp("exemplars"), PHOTO_FAMILY,
                                      legible=False, rulebook_ink=False)
    image, truth = forest_photo(pack, SEED)
    return pack, model, image, truth


def _read(model: Model, photo: np.ndarray, monkeypatch: pytest.MonkeyPatch,
          settle: bool = True) -> tuple[BoardReading, list]:
    """The photo read with (or without) the photo's exemplars, and what the settling step
    was given (model, evidence, readings before settling, fine view)."""
    given: list = []
    real = SETTLE

    def spy(model, ev, readings, fine):  # type: ignore[no-untyped-def]
        given.extend([model, ev, copy.deepcopy(readings), fine])
        return real(model, ev, readings, fine) if settle else {}

    monkeypatch.setattr(photo_exemplars, "settle", spy)
    return read_board(model, photo), given


def test_a_fruit_doubt_is_settled_by_the_photos_own_sure_squares(setting, monkeypatch) -> None:
    """Without the exemplars (the code before them) the square is a look-alike doubt; with
    them it is named right, surely, and nothing else is read wrong."""
    _pack, model, photo, truth = setting
    before, _ = _read(model, photo, monkeypatch, settle=False)
    after, _ = _read(model, photo, monkeypatch)
    assert_doubt_settled_right(before, after, SQUARE, truth, "exemplar_sure")


def _candidate_faces(model: Model, given: list) -> tuple[list[int], list[int], object]:
    """The squares read surely showing each candidate's part of SQUARE's doubt (as the
    settling step finds them), and the doubt's reading before settling."""
    _model, ev, readings, fine = given
    i = next(k for k, r in enumerate(readings) if r.square == SQUARE)
    who = SETTLE(model, ev, copy.deepcopy(readings), fine)[i].exemplars
    return list(who[0]), list(who[1]), readings[i]


def test_a_doubt_without_exemplars_stays_a_doubt(setting, monkeypatch) -> None:
    """The same doubt, with the squares that show either candidate's fruit no longer sure:
    nothing in the photo shows how either fruit looks there, so it stays a doubt."""
    _pack, model, photo, _truth = setting
    _, given = _read(model, photo, monkeypatch, settle=False)
    shows_a, shows_b = _candidate_faces(model, given)[:2]
    assert shows_a or shows_b
    _model, ev, readings, fine = given
    readings = copy.deepcopy(readings)
    for k in shows_a + shows_b:
        readings[k].kind, readings[k].reason = "uncertain", "hidden for the test"
    verdicts = SETTLE(model, ev, readings, fine)
    doubt = next(r for r in readings if r.square == SQUARE)
    assert doubt.kind == "uncertain" and doubt.doubt == "look-alike"
    i = next(k for k, r in enumerate(readings) if r.square == SQUARE)
    assert i not in verdicts or not verdicts[i].settled


def test_a_wrong_exemplar_leaves_an_unclear_margin_a_doubt(setting, monkeypatch) -> None:
    """A sure square that shows the true fruit, misread as the other candidate's tile: the
    other candidate then has an exemplar as like the doubt as the true one's, the margin is
    unclear, and the square stays a doubt (never the wrong fruit as sure)."""
    _pack, model, photo, truth = setting
    _, given = _read(model, photo, monkeypatch, settle=False)
    shows_a, shows_b, doubt = _candidate_faces(model, given)
    a, b = doubt.candidates
    right = truth["forest"]["tiles"][SQUARE]
    shows_right, wrong_name = (shows_a, b) if right == a else (shows_b, a)
    assert shows_right
    _model, ev, readings, fine = given
    readings = copy.deepcopy(readings)
    wrong_fruit = Tile.parse(wrong_name).fruit
    for k in shows_right:  # every exemplar of the true fruit also read as the wrong one
        t = Tile.parse(readings[k].name)
        twin = copy.deepcopy(readings[k])
        readings[k].name = str(Tile(t.creature, wrong_fruit, t.leaf))
        # ... while the true exemplars stay (one square each: a copy of the misread square
        # is appended as another sure square at the same place)
        readings.append(twin)
    # the appended squares lie where their twins lie
    n = len(given[2])
    idx = np.concatenate([np.arange(n), np.array(shows_right, int)])
    ev = copy.copy(ev)
    ev.looks = {**ev.looks, **{n + m: ev.looks.get(k) for m, k in enumerate(shows_right)}}
    ev.tile_at, ev.tile_angle, ev.sat = ev.tile_at[idx], ev.tile_angle[idx], ev.sat[idx]
    i = next(k for k, r in enumerate(readings) if r.square == SQUARE)
    verdict = SETTLE(model, ev, readings, fine)[i]
    assert not verdict.settled and verdict.near > photo_exemplars.RATIO * verdict.far
    assert readings[i].kind == "uncertain" and readings[i].doubt == "look-alike"
