"""The generic card recogniser (companion/vision/cards): faces told apart or "not sure",
whatever the game; cards found on a table; packs and model folders."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import ModelError
from companion.vision.cards.faces import CUT_SIZE, FaceModel, render, upright
from companion.vision.cards.find import (
    align,
    card_height,
    cut_card,
    foreground,
    order_corners,
    search,
    settle,
    stacks,
)
from companion.vision.cards.model import CardModel, load_card_model, save_card_model
from companion.vision.cards.pack import Face, read_card_pack, write_card_pack


def _faces(n: int, seed: int) -> list[np.ndarray]:
    """``n`` made-up card faces (not Glass Garden's: the recogniser knows no game)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        img = np.full((140, 100, 3), rng.integers(120, 240, 3), np.uint8)
        for _ in range(6):
            colour = tuple(int(v) for v in rng.integers(0, 255, 3))
            if rng.random() < 0.5:
                cv2.circle(img, tuple(int(v) for v in rng.integers(10, 90, 2)),
                           int(rng.integers(6, 25)), colour, -1)
            else:
                p = rng.integers(5, 95, 4)
                cv2.rectangle(img, (int(p[0]), int(p[1])), (int(p[2]), int(p[3]) + 40),
                              colour, -1)
        cv2.rectangle(img, (0, 0), (99, 139), (235, 235, 235), 4)
        out.append(img)
    return out


@pytest.fixture(scope="module")
def learnt() -> tuple[FaceModel, list[np.ndarray]]:
    faces = _faces(8, 5)
    return FaceModel.learn(faces, renders=24, calibrate=6), faces


def test_faces_are_told_apart_on_fresh_renderings(learnt) -> None:
    model, faces = learnt
    rng = np.random.default_rng(99)
    wrong = sure = 0
    for i, face in enumerate(faces):
        for _ in range(4):
            v = model.identify(render(face, rng))
            if v.face is not None:
                sure += 1
                wrong += v.face != i
    assert wrong == 0 and sure >= 28


def test_a_washed_out_card_is_not_sure(learnt) -> None:
    model, faces = learnt
    crop = upright(faces[0]).copy()
    crop[20:110, :] = 255  # glare over most of it
    verdict = model.identify(crop)
    assert verdict.face is None and verdict.why == "washed"


def test_allowed_and_answers_limit_the_rivals(learnt) -> None:
    model, faces = learnt
    crop = upright(faces[3])
    assert model.identify(crop, allowed=[3, 4]).best == 3
    answers = np.array([0, 0, 0, 0, 1, 1, 1, 1])  # faces 0-3 give one answer
    verdict = model.identify(crop, answers=answers)
    assert verdict.face in (0, 1, 2, 3)


def test_model_folder_round_trip_and_refusals(learnt, tmp_path: Path) -> None:
    model = learnt[0]
    card = CardModel("meadow", "sample", (63, 88), [(f"c{i}", "front") for i in range(8)],
                     model)
    save_card_model(card, tmp_path / "m")
    back = load_card_model(tmp_path / "m", "meadow")
    assert back.faces == card.faces and back.model.least == pytest.approx(model.least)
    assert np.array_equal(back.model.templates, model.templates)
    with pytest.raises(ModelError):
        load_card_model(tmp_path / "m", "glass-garden")
    manifest = json.loads((tmp_path / "m" / "manifest.json").read_text())
    manifest["version"] = 99
    (tmp_path / "m" / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ModelError):
        load_card_model(tmp_path / "m", "meadow")
    (tmp_path / "file").write_text("x")
    with pytest.raises(ModelError):
        save_card_model(card, tmp_path / "file")


def test_pack_reader_is_generic(tmp_path: Path) -> None:
    faces = [Face(f"Card {i}", "front", img) for i, img in enumerate(_faces(3, 2))]
    write_card_pack(tmp_path, "meadow", "sample", (63, 88), faces)
    cards = {f"Card {i}": ("front",) for i in range(3)}
    pack = read_card_pack(tmp_path, "meadow", lambda ref: cards)
    assert [f.card for f in pack.faces] == ["Card 0", "Card 1", "Card 2"]
    with pytest.raises(ModelError):
        read_card_pack(tmp_path, "meadow", lambda ref: {**cards, "Card 3": ("front",)})
    with pytest.raises(ModelError):
        read_card_pack(tmp_path, "glass-garden", lambda ref: cards)


def test_cards_are_found_on_a_table_and_cut_upright() -> None:
    table = np.full((400, 600, 3), (60, 90, 130), np.uint8)
    faces = _faces(3, 7)
    for k, x in enumerate((100, 250, 400)):
        for r in range(3):
            y = 40 + r * 110
            table[y:y + 100, x:x + 72] = cv2.resize(faces[(k + r) % 3], (72, 100))
    mask = foreground(table)
    assert card_height(mask, 0.72) == pytest.approx(100, abs=4)
    columns = stacks(mask, 100)
    assert len(columns) == 3
    integral = cv2.integral((mask > 0).astype(np.uint8))
    (dx, dy), cover = settle(integral, (104, 44, 72, 100), 8)
    assert abs(dx + 4) <= 1 and abs(dy + 4) <= 1 and cover > 0.9
    crop = cut_card(table, np.eye(3), (100, 40, 72, 100))
    assert crop.shape[:2] == (CUT_SIZE[1], CUT_SIZE[0])


def test_corners_are_ordered_the_photos_way_up() -> None:
    quad = np.array([[10, 90], [100, 95], [95, 5], [5, 0]])
    assert order_corners(quad).tolist() == [[5, 0], [95, 5], [100, 95], [10, 90]]


def test_a_card_the_tables_colour_is_found_by_its_own_face(learnt) -> None:
    model, faces = learnt
    assert model.templates is not None and model.templates.shape[0] == len(faces)
    # the table is the colour of the cards' border: no outline stands out, only the drawing
    table = np.full((300, 400, 3), (235, 235, 235), np.uint8)
    x, y = 151, 97
    table[y:y + 98, x:x + 70] = cv2.resize(faces[2], (70, 98), interpolation=cv2.INTER_AREA)
    view = cv2.cvtColor(table, cv2.COLOR_BGR2GRAY)
    templates = {i: model.templates[i] for i in range(len(faces))}
    (ax, ay, aw, ah), corr, key = align(view, (x + 9, y - 7, 70, 98), templates, 20)
    assert key == 2 and corr > 0.9
    assert abs(ax - x) < 1.0 and abs(ay - y) < 1.0 and abs(aw - 70) <= 1 and abs(ah - 98) <= 1
    # far from where it was looked for, it is not found there
    _box, corr, _key = align(view, (20, 20, 70, 98), templates, 10)
    assert corr < 0.5
    # looked for all over the view: found once, where it lies
    peaks = search(view, {2: model.templates[2]}, (70, 98), 0.6)
    assert len(peaks) == 1 and abs(peaks[0][0] - x) <= 1 and abs(peaks[0][1] - y) <= 1
