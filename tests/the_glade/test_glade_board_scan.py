"""The glade board read from photos of SAMPLE art the recogniser never saw before the test
(a new art family seed drawn inside it): every space read right or named uncertain, never a
wrong counter; a hand over a space is a doubt; the CLI per the spec; refusals in one line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from glade_family import glade_family

from companion.cli import main
from companion.errors import ModelError, RecognitionError
from companion.the_glade.recognition.families import HELD_OUT_FROM
from companion.the_glade.recognition.glade_board import read_glade
from companion.the_glade.recognition.glade_model import (
    load_glade_model,
    save_glade_model,
)
from companion.the_glade.recognition.glade_sim import (
    random_glade,
    render_glade_photo,
)
from companion.vision.sim import Camera, Degradations

#: A family nobody tuned on (tuning used families 1-7, the benchmark records from 1000 on):
#: fixed so that the suite gives the same answer on every run; set COMPANION_TEST_FAMILY to
#: try another (any number from 2 * HELD_OUT_FROM on is new art).
FAMILY = int(os.environ.get("COMPANION_TEST_FAMILY") or 2 * HELD_OUT_FROM + 731_415)


@pytest.fixture(scope="module")
def new_art():
    return glade_family(FAMILY, matches=False)


def _wrong(result: dict, truth: dict) -> list[str]:
    """Spaces read as certain but wrong (a doubt is never wrong)."""
    wrong = [t for t, c in result["glade"].items() if truth["glade"].get(t) != c]
    wrong += [t for t in truth["glade"] if t not in result["glade"]
              and t not in result["uncertain"]]
    for seat, count in truth["supply"].items():
        unsure = sum(u.startswith(f"seat-{seat}:") for u in result["uncertain"])
        if not count - unsure <= result["supply"][seat] <= count:
            wrong.append(f"seat {seat}")
    return wrong


@pytest.mark.parametrize("seed", [1, 2])
def test_photos_of_new_art_read_right_or_named_uncertain(new_art, seed: int) -> None:
    pack, glade, model = new_art
    rng = np.random.default_rng(seed)
    counters, supply = random_glade(rng, ["yellow", "blue", "red"])
    photo, truth = render_glade_photo(pack, glade, counters, supply, seed)
    result = read_glade(model, photo).result()
    assert _wrong(result, truth) == [], f"family {FAMILY}, seed {seed}"
    assert len(result["uncertain"]) <= 4, (FAMILY, seed, result["reasons"])
    assert set(result["supply"]) == {"1", "2", "3", "4"}


def test_the_board_upside_down_and_tilted_reads_the_same(new_art) -> None:
    pack, glade, model = new_art
    counters = {"hedgehog/acorn/oak": "blue-double", "toad/mushroom/beech": "red-single",
                "mouse/hazelnut/maple": "yellow-single"}
    supply = {1: ("blue", 5), 2: ("red", 0), 3: ("yellow", 12)}
    camera = Camera(0.8, 178.0, 7.0, -6.0)
    photo, _ = render_glade_photo(pack, glade, counters, supply, 3, camera=camera,
                                      spoil=Degradations(glare=False))
    result = read_glade(model, photo).result()
    assert result["glade"] == counters, (FAMILY, result["reasons"])
    assert result["supply"] == {"1": 5, "2": 0, "3": 12, "4": 0}
    assert result["uncertain"] == []
    # which spaces hold them: the rightmost, leftmost first (the rules reason from them)
    assert result["supply_spaces"] == {"1": [8, 9, 10, 11, 12], "2": [],
                                       "3": list(range(1, 13)), "4": []}


def test_a_hand_over_spaces_is_a_doubt_never_a_guess(new_art) -> None:
    pack, glade, model = new_art
    counters = {"squirrel/acorn/beech": "blue-single", "hedgehog/mushroom/oak": "red-double"}
    supply = {1: ("blue", 4), 2: ("red", 6)}
    hidden = ("squirrel/acorn/beech", "seat-1:12", "mouse/acorn/beech")
    photo, truth = render_glade_photo(pack, glade, counters, supply, 4, hide=hidden,
                                      spoil=Degradations(glare=False))
    result = read_glade(model, photo).result()
    assert set(hidden) <= set(result["uncertain"]), (FAMILY, result["reasons"])
    assert "squirrel/acorn/beech" not in result["glade"]
    assert _wrong(result, truth) == [], FAMILY
    assert result["supply"]["1"] <= 3


def test_a_photo_without_the_glade_board_is_refused(new_art) -> None:
    _, _, model = new_art
    table = np.random.default_rng(0).integers(0, 255, (600, 800, 3)).astype(np.uint8)
    with pytest.raises(RecognitionError):
        read_glade(model, table)


def test_the_cli_scan_gives_the_spec_json(new_art, tmp_path: Path, capsys) -> None:
    pack, glade, model = new_art
    save_glade_model(model, tmp_path)
    assert load_glade_model(tmp_path) is not None
    counters = {"toad/blackberry/oak": "yellow-double"}
    photo, _ = render_glade_photo(pack, glade, counters, {1: ("yellow", 2), 2: ("red", 9)},
                                  5, spoil=Degradations(glare=False))
    import cv2

    cv2.imwrite(str(tmp_path / "glade.jpg"), photo)
    overlay = tmp_path / "seen.png"
    assert main(["scan", "the-glade", str(tmp_path / "glade.jpg"), "--model", str(tmp_path),
                 "--glade", "--overlay", str(overlay), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["glade"] == counters and data["supply"] == {"1": 2, "2": 9, "3": 0, "4": 0}
    assert data["uncertain"] == []
    assert overlay.stat().st_size > 0
    # --previous is a forest board's; a model without a glade board is refused in one line
    with pytest.raises(SystemExit) as usage:
        main(["scan", "the-glade", str(tmp_path / "glade.jpg"), "--model", str(tmp_path),
              "--glade", "--previous", str(tmp_path / "glade.jpg")])
    assert usage.value.code == 2
    (tmp_path / "glade.json").unlink()
    assert main(["scan", "the-glade", str(tmp_path / "glade.jpg"), "--model", str(tmp_path),
                 "--glade"]) == 1
    assert "enrol again" in capsys.readouterr().err


def test_a_damaged_glade_model_is_refused(tmp_path: Path, new_art) -> None:
    save_glade_model(new_art[2], tmp_path)
    (tmp_path / "glade.npz").write_bytes(b"nonsense")
    with pytest.raises(ModelError):
        load_glade_model(tmp_path)


def test_a_glade_board_its_alike_spaces_hide_from_the_first_match_is_found(monkeypatch) -> None:
    """Tuning family 61, a finished game's glade photo (the benchmark's game 2 of that
    family), fully in view and lit: the ratio test throws out most of the board's matches
    as ambiguous (64 alike spaces) and only 22 agree on one fit; the guided fit from it
    finds hundreds, and the board is read with no space wrong."""
    from companion.the_glade.recognition import glade_board

    # the art this case was found in (before the rulebook's colours: FamilyArt)
    pack, glade, model = glade_family(61, matches=False, rulebook_ink=False)
    counters = {"hedgehog/blackberry/maple": "red-single", "hedgehog/mushroom/oak": "green-single",
                "toad/hazelnut/horse-chestnut": "blue-single"}
    supply = {1: ("yellow", 9), 2: ("blue", 8), 3: ("red", 9), 4: ("green", 6)}
    photo, truth = render_glade_photo(pack, glade, counters, supply, 6102)
    monkeypatch.setattr(glade_board, "GUIDED_SURE", 10**6)  # the guided fit never taken
    with pytest.raises(RecognitionError, match="no glade board found"):
        read_glade(model, photo)
    monkeypatch.undo()
    reading = read_glade(model, photo)
    assert _wrong(reading.result(), truth) == []
    corners = np.array([[0, 0], [1000, 0], [1000, 1000], [0, 1000]], np.float64)
    from companion.vision.board import project

    assert np.abs(project(reading.homography, corners)
                  - project(np.asarray(truth["homography"]), corners)).max() < 3.0


@pytest.mark.parametrize("seed", [2, 16, 33])
def test_the_board_is_aligned_whatever_light_falls_across_it(new_art, monkeypatch,
                                                             seed: int) -> None:
    """The dense alignment compares the board's print, not its light (board.FLATTEN): on
    these photos (the hard spoilers, 1.6 times as strong: shadow, uneven light, glare across
    the board) aligning the raw brightness left spaces 5-14 photo px off; flattened, every
    space lies within 2 px of the truth."""
    from companion.vision import board

    pack, glade, model = new_art
    rng = np.random.default_rng(seed)
    counters, supply = random_glade(rng, ["yellow", "blue", "red"])
    photo, truth = render_glade_photo(pack, glade, counters, supply, seed,
                                      spoil=Degradations(strength=1.6))
    true = board.project(np.asarray(truth["homography"]), model.points)

    def error() -> float:
        found = board.project(read_glade(model, photo).homography, model.points)
        return float(np.linalg.norm(found - true, axis=1).max())

    assert error() < 2.0, (FAMILY, seed)
    monkeypatch.setattr(board, "FLATTEN", None)  # the raw brightness aligned
    assert error() > 4.5, "the case no longer tells the raw alignment from the flattened"


def test_a_soft_glare_spot_on_a_bare_space_leaves_it_empty(new_art, monkeypatch) -> None:
    """A glare spot smaller than a space is no even veil, so the disc vectors find a bare
    space under it like neither the bare space nor a counter; the bare space under one
    light and a smooth veil (glade_board.veiled_bare) settles it as empty, while counters
    under the same spots keep their names."""
    from companion.the_glade.recognition import glade_board
    from companion.vision.board import project

    pack, glade, model = new_art
    rng = np.random.default_rng(3)
    counters, supply = random_glade(rng, ["yellow", "blue", "red"])
    photo, truth = render_glade_photo(pack, glade, counters, supply, 3,
                                      spoil=Degradations(glare=False, shadow=False))
    homography = np.asarray(truth["homography"])
    where = dict(zip(model.labels, model.points, strict=True))
    bare = [t for t in model.labels if not t.startswith("seat-") and t not in truth["glade"]]
    held = list(truth["glade"])
    lit = photo.astype(np.float32)
    yy, xx = np.mgrid[0:photo.shape[0], 0:photo.shape[1]].astype(np.float32)
    radius = model.counter * 0.35 * np.sqrt(abs(np.linalg.det(homography[:2, :2])))
    spots = bare[:6] + held[:3]
    for label in spots:
        x, y = project(homography, where[label][None])[0]
        lit += 110.0 * np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / radius ** 2)[..., None]
    lit = np.clip(lit, 0, 255).astype(np.uint8)
    result = read_glade(model, lit).result()
    assert not set(spots) & set(result["uncertain"]), (FAMILY, result["reasons"])
    assert _wrong(result, truth) == []
    assert all(result["glade"][t] == truth["glade"][t] for t in held[:3])
    monkeypatch.setattr(glade_board, "VEILED_BARE", 0.0)  # the veil fit never settles
    doubted = set(read_glade(model, lit).result()["uncertain"])
    assert doubted & set(bare[:6]), "the case no longer needs the veil fit"


def test_a_supply_space_washed_near_white_is_compared_in_the_photos_own_colours(
        monkeypatch) -> None:
    """Tuning family 44's glade photo 11 (as the benchmark draws it): glare clips 39% of an
    empty supply space near white under a tinted light. Divided by that light the washed
    space is no longer grey and sat just past BARE_SURE (0.31), so the glare made it a doubt;
    in the photo's own colours, where the glare is grey, it is plainly the bare space."""
    from companion.the_glade.recognition import glade_board

    pack, glade, model = glade_family(44, matches=False)
    rng = np.random.default_rng(44)
    for k in range(12):
        counters, supply = random_glade(rng, ["yellow", "blue", "red", "green"][
            :int(rng.integers(2, 5))])
        if k == 11:
            photo, truth = render_glade_photo(pack, glade, counters, supply, 44 * 1000 + k)
    result = read_glade(model, photo).result()
    assert result["uncertain"] == [] and _wrong(result, truth) == []
    assert result["supply"] == truth["supply"]
    monkeypatch.setattr(glade_board, "NEAR_CLIPPING", 1e9)  # never in the photo's colours
    assert "seat-4:9" in read_glade(model, photo).result()["uncertain"]
