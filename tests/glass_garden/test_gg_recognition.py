"""Reading a Glass Garden from photos: enrol and scan (the spec's cards.md), on a pack whose
art is drawn inside the test with a seed never used before, through the simulator."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml

from companion.cli import main
from companion.errors import InputFileError, ModelError, RecognitionError
from companion.glass_garden.deck import GLASS_POSITIONS, load_deck
from companion.glass_garden.jobs import assist
from companion.glass_garden.recognition.art import card_faces, draw_face
from companion.glass_garden.recognition.jobs import enrol, scan
from companion.glass_garden.recognition.make_samples import PACK_DIR, PHOTO_DIR
from companion.glass_garden.recognition.sim import photo
from companion.glass_garden.state_file import parse_state
from companion.vision.cards.pack import Face, write_card_pack

#: An art family nobody tuned on (tuning used families 0-3, the benchmark records on 20-23):
#: fixed so that the suite gives the same answer on every run; set COMPANION_TEST_FAMILY to
#: try another (any number from 1000 on is new art).
NEW_FAMILY = int(os.environ.get("COMPANION_TEST_FAMILY") or 731_415)


def _write_jpg(path: Path, image: np.ndarray) -> Path:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    path.write_bytes(buf.tobytes())
    return path


@pytest.fixture(scope="module")
def new_art(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A pack of a never-seen art family, its model, and two photos of it."""
    root = tmp_path_factory.mktemp("gg-new-art")
    deck = load_deck()
    faces = [Face(c, f, draw_face(deck, c, f, NEW_FAMILY, (120, 168))) for c, f in
             card_faces(deck)]
    pack = write_card_pack(root / "pack", "glass-garden", "sample", (63, 88), faces)
    report = enrol(pack, out=root / "model")
    shots = [photo(deck, NEW_FAMILY, np.random.default_rng(NEW_FAMILY + k)) for k in range(2)]
    paths = [_write_jpg(root / f"p{k}.jpg", s.photo) for k, s in enumerate(shots)]
    return {"root": root, "pack": pack, "model": root / "model", "report": report,
            "shots": shots, "photos": paths}


def _agrees(data: dict, truth: dict) -> tuple[int, int]:
    """(wrong, uncertain) slots of a reading against the truth."""
    wrong = unsure = 0
    for c in range(9):
        got = data["garden"][c]
        if got is None:
            unsure += 1
        elif got != truth["garden"][c]:
            wrong += 1
    for pos in GLASS_POSITIONS:
        if pos not in data["glass"]:
            unsure += 1
        elif data["glass"][pos] != truth["glass"][pos]:
            wrong += 1
    if data["critter"] is None:
        unsure += 1
    elif (data["critter"], data["critter_side"], data["turn"]) != (
            truth["critter"], truth["critter_side"], truth["turn"]):
        wrong += 1
    assert data["uncertain"] == sorted(
        [c + 1 for c in range(9) if data["garden"][c] is None]) + [
        p for p in GLASS_POSITIONS if p not in data["glass"]] + (
        ["critter"] if data["critter"] is None else [])
    return wrong, unsure


def test_enrol_reports_the_faces(new_art: dict) -> None:
    data = new_art["report"].data
    assert data["faces"] == 36 and data["cards"] == 18
    manifest = json.loads((new_art["model"] / "manifest.json").read_text())
    assert manifest["game"] == "glass-garden" and manifest["deck"] == "sample"


def test_never_seen_art_reads_right_or_says_unsure(new_art: dict) -> None:
    wrong = unsure = 0
    for path, shot in zip(new_art["photos"], new_art["shots"], strict=True):
        data = scan(path, model=new_art["model"]).data
        w, u = _agrees(data, shot.truth)
        wrong += w
        unsure += u
    assert wrong == 0
    assert unsure <= 3  # of 32 slots


def test_a_sure_scan_is_a_state_file_assist_accepts(new_art: dict, tmp_path: Path) -> None:
    for path in new_art["photos"]:
        data = scan(path, model=new_art["model"]).data
        if data["uncertain"]:
            continue
        state_path = tmp_path / "scan.json"
        state_path.write_text(json.dumps({k: v for k, v in data.items() if k != "uncertain"}))
        advice = assist(state_path, seconds=0.2).data
        assert advice["critter"] == data["critter"]
        return
    # every photo had a doubt: the state with the doubt left out still parses once filled in
    truth = new_art["shots"][0].truth
    parse_state(truth)


def test_cli_enrol_scan_json_and_overlay(new_art: dict, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    overlay = tmp_path / "out.png"
    status = main(["scan", "glass-garden", str(new_art["photos"][0]), "--model",
                   str(new_art["model"]), "--overlay", str(overlay), "--json"])
    assert status in (0, None)
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "glass-garden" and "uncertain" in data and "actions_left" not in data
    assert set(data) >= {"deck", "critter", "turn", "critter_side", "garden", "glass"}
    image = cv2.imread(str(overlay))
    assert image is not None and image.shape[:2] == new_art["shots"][0].photo.shape[:2]
    main(["scan", "glass-garden", str(new_art["photos"][0]), "--model", str(new_art["model"])])
    text = capsys.readouterr().out
    assert yaml.safe_load(text)["garden"] == data["garden"]  # YAML: the same


@pytest.fixture(scope="module")
def sample_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled SAMPLE pack enrolled through the command line."""
    out = tmp_path_factory.mktemp("gg-sample") / "model"
    assert main(["enrol", "glass-garden", str(PACK_DIR), "--out", str(out), "--json"]) in (
        0, None)
    return out


def test_cli_enrol_of_the_bundled_pack_reads_its_photo(sample_model: Path) -> None:
    manifest = json.loads((sample_model / "manifest.json").read_text())
    assert len(manifest["faces"]) == 36 and manifest["game"] == "glass-garden"
    truth = json.loads((PHOTO_DIR / "garden-1.truth.json").read_text())
    data = scan(PHOTO_DIR / "garden-1.jpg", model=sample_model).data
    wrong, _unsure = _agrees(data, truth)
    assert wrong == 0


def test_the_hard_photo_leaves_the_washed_card_in_doubt_or_right(sample_model: Path) -> None:
    truth = json.loads((PHOTO_DIR / "garden-hard.truth.json").read_text())
    data = scan(PHOTO_DIR / "garden-hard.jpg", model=sample_model).data
    wrong, _unsure = _agrees(data, truth)
    assert wrong == 0


# -- refusals: one line, of the right kind -------------------------------------------------
def _pack_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "pack"
    shutil.copytree(PACK_DIR, dest)
    return dest


def _edit(pack: Path, change) -> None:
    data = yaml.safe_load((pack / "pack.yaml").read_text())
    change(data)
    (pack / "pack.yaml").write_text(yaml.safe_dump(data, sort_keys=False))


@pytest.mark.parametrize("change", [
    lambda d: d["faces"][0].update(card="Rose"),            # unknown card
    lambda d: d["faces"][0].update(face="bloom"),           # unknown face
    lambda d: d["faces"].append(dict(d["faces"][0])),       # a face twice
    lambda d: d["faces"].pop(3),                            # a missing face
    lambda d: d["faces"][2].update(image="faces/none.png"),  # a missing image
    lambda d: d.update(game="the-glade"),                   # another game's pack
])
def test_enrol_refuses_a_bad_pack(tmp_path: Path, change) -> None:
    pack = _pack_copy(tmp_path)
    _edit(pack, change)
    with pytest.raises(ModelError) as err:
        enrol(pack, out=tmp_path / "model")
    assert "\n" not in str(err.value)
    assert not (tmp_path / "model").exists()


def test_enrol_refuses_an_unreadable_image(tmp_path: Path) -> None:
    pack = _pack_copy(tmp_path)
    (pack / "faces" / "0001.png").write_bytes(b"not a png at all")
    with pytest.raises(ModelError):
        enrol(pack, out=tmp_path / "model")


def test_scan_refuses_an_unreadable_photo(sample_model: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8 broken")
    with pytest.raises(RecognitionError):
        scan(bad, model=sample_model)
    with pytest.raises(InputFileError):
        scan(tmp_path / "missing.jpg", model=sample_model)


def test_scan_refuses_a_photo_without_a_garden(sample_model: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    table = (np.full((616, 820, 3), (60, 90, 130), np.uint8)
             + rng.integers(0, 8, (616, 820, 3)).astype(np.uint8))
    with pytest.raises(RecognitionError) as err:
        scan(_write_jpg(tmp_path / "table.jpg", table), model=sample_model)
    assert "no garden" in str(err.value)


def test_scan_refuses_another_games_or_an_old_model(sample_model: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(sample_model, other)
    manifest = json.loads((other / "manifest.json").read_text())
    manifest["game"] = "the-glade"
    (other / "manifest.json").write_text(json.dumps(manifest))
    photo_path = PHOTO_DIR / "garden-1.jpg"
    with pytest.raises(ModelError):
        scan(photo_path, model=other)
    manifest.update(game="glass-garden", version=0)
    (other / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ModelError):
        scan(photo_path, model=other)


def test_scan_refuses_a_deck_whose_names_the_model_does_not_know(sample_model: Path,
                                                                tmp_path: Path) -> None:
    from companion.glass_garden.deck import SAMPLE_DECK

    data = yaml.safe_load(SAMPLE_DECK.read_text())
    data["plants"][0]["name"] = "Rose"
    deck = tmp_path / "deck.yaml"
    deck.write_text(yaml.safe_dump(data))
    with pytest.raises(ModelError):
        scan(PHOTO_DIR / "garden-1.jpg", model=sample_model, deck=deck)


def test_cli_refusal_is_one_line(sample_model: Path, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n broken")
    status = main(["scan", "glass-garden", str(bad), "--model", str(sample_model)])
    assert status == 1
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err
