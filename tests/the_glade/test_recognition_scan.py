"""Recognition of The Glade's forest boards, end to end on the table simulator.

The model is enrolled once per module from the bundled SAMPLE pack (style 1); the round trip on
unseen art (style 3) enrols its own pack. Every photo is rendered from a seed, so a failure
here replays exactly.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import CompanionError, ModelError, RecognitionError
from companion.the_glade.names import ALL_TILES, SEASONS, BoardGeometry
from companion.the_glade.recognition.jobs import enrol, scan
from companion.the_glade.recognition.pack import read_pack, write_pack
from companion.the_glade.recognition.sim import random_forest, render_photo, sample_pack
from companion.vision.sim import Camera, Degradations

SAMPLE_PACK = Path(__file__).resolve().parents[2] / "config/games/the-glade/sample-pack"
G7 = BoardGeometry.from_dict({"rows": 7, "cols": 7, "centre": "D4"})
G8 = BoardGeometry.from_dict({"rows": 8, "cols": 8, "centre": "D4"})
STRAIGHT = Camera(coverage=0.85, turn=3.0, tilt_x=2.0, tilt_y=-2.0)


@pytest.fixture(scope="module")
def pack():
    return read_pack(SAMPLE_PACK)


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("glade-model") / "model"
    enrol(SAMPLE_PACK, out=out)
    return out


@pytest.fixture(scope="module")
def photos(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("glade-photos")


def shoot(folder: Path, pack, state, seed: int, name: str | None = None, **kw):
    image, truth = render_photo(pack, state, seed, **kw)
    path = folder / f"{name or seed}.jpg"
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path, truth


def wrong_squares(data: dict, truth: dict) -> list[str]:
    """Squares read as something they are not (uncertain squares are not wrong)."""
    geometry = BoardGeometry.from_dict(truth["board"])
    unsure = set(data["uncertain"])
    wrong = []
    for sq in geometry.squares():
        name = sq.name
        if name in unsure:
            continue
        want = (truth["forest"]["tiles"].get(name), truth["forest"]["counters"].get(name))
        got = (data["forest"]["tiles"].get(name), data["forest"]["counters"].get(name))
        if want != got:
            wrong.append(f"{name}: {want} read as {got}")
    return wrong


def test_sample_pack_is_labelled_sample(pack):
    text = (SAMPLE_PACK / "pack.yaml").read_text()
    assert "SAMPLE" in text
    assert "SAMPLE" in (SAMPLE_PACK / "README.md").read_text()
    assert len(pack.tiles) == 128
    assert {b.grid.rows for b in pack.boards} == {7, 8}


def test_enrol_report_and_manifest(model):
    manifest = json.loads((model / "manifest.json").read_text())
    assert manifest["game"] == "the-glade"
    assert manifest["version"] == 2
    assert len(set(manifest["tile_names"])) == 64


@pytest.mark.parametrize(("size", "seed"), [(7, 11), (7, 12), (7, 13), (8, 14), (8, 15)])
def test_round_trip(model, pack, photos, size, seed):
    geometry = G7 if size == 7 else G8
    state = random_forest(np.random.default_rng(seed), geometry, pack)
    path, truth = shoot(photos, pack, state, seed)
    data = scan(path, model=model).data
    assert data["board"] == truth["board"]
    assert wrong_squares(data, truth) == []
    assert len(data["uncertain"]) <= 3
    assert set(data) >= {"board", "forest", "uncertain"}


@pytest.mark.parametrize("spoiler", ["light", "shadow", "glare", "blur", "noise", "jpeg",
                                     "clutter"])
def test_each_degradation_alone(model, pack, photos, spoiler):
    seed = 40 + len(spoiler)
    state = random_forest(np.random.default_rng(seed), G7, pack, fill=0.6)
    spoil = Degradations.only(spoiler)
    spoil = Degradations(**{**spoil.__dict__, "strength": 1.3})
    path, truth = shoot(photos, pack, state, seed, f"only-{spoiler}", spoil=spoil)
    data = scan(path, model=model).data
    assert wrong_squares(data, truth) == []
    # strength 1.3 is harsher than the benchmark: a few "not sure" squares are fair
    assert len(data["uncertain"]) <= 5


def test_four_turns_of_every_tile(model, pack, photos):
    """All 128 faces at all 4 turns: 512 tiles on eleven straight, clean 7x7 photos."""
    faces = [(str(t), s) for s in SEASONS for t in ALL_TILES]
    items = [(name, season, turn) for name, season in faces for turn in range(4)]
    squares = [sq.name for sq in G7.squares()]
    for start in range(0, len(items), len(squares)):
        chunk = items[start:start + len(squares)]
        state = {"board": G7.to_dict(),
                 "forest": {"tiles": {sq: n for sq, (n, _, _) in zip(squares, chunk, strict=False)},
                            "counters": {}},
                 "seasons": {sq: s for sq, (_, s, _) in zip(squares, chunk, strict=False)},
                 "turns": {sq: t for sq, (_, _, t) in zip(squares, chunk, strict=False)}}
        path, truth = shoot(photos, pack, state, 500 + start, spoil=Degradations.none(),
                            camera=STRAIGHT)
        data = scan(path, model=model).data
        assert wrong_squares(data, truth) == []
        assert len(data["uncertain"]) <= 1
        for sq, turn in data["turns"].items():
            assert turn == truth["turns"][sq], sq
            assert data["seasons"][sq] == truth["seasons"][sq], sq


def test_counters_in_enclosures(model, pack, photos):
    tiles = {sq: "hedgehog/acorn/oak" for sq in ("C2", "B3", "D3", "C4", "E2", "F3", "E4",
                                                 "C6", "B5", "D5")}
    counters = {"C3": "yellow-single", "E3": "blue-double", "C5": "red-double"}
    state = {"board": G7.to_dict(), "forest": {"tiles": tiles, "counters": counters}}
    path, truth = shoot(photos, pack, state, 61, "enclosures")
    data = scan(path, model=model).data
    assert data["forest"]["counters"] == counters
    assert wrong_squares(data, truth) == []


def test_empty_board(model, pack, photos, monkeypatch):
    """An empty board reads empty, and its bare squares (too bare of structure to hold a
    tile) are never given the closer look at close tile calls: every tile fits them about
    as badly, and the look would cost time for nothing."""
    from companion.the_glade.recognition import evidence

    looked: list = []
    real = evidence.closer_looks

    def closer_looks(model, cache, view, squares, side, blur, veils=None):
        looked.extend(squares)
        return real(model, cache, view, squares, side, blur, veils)

    monkeypatch.setattr(evidence, "closer_looks", closer_looks)
    state = {"board": G8.to_dict(), "forest": {"tiles": {}, "counters": {}}}
    path, _ = shoot(photos, pack, state, 62, "empty", spoil=Degradations(glare=False))
    data = scan(path, model=model).data
    assert data["board"]["rows"] == 8
    assert data["forest"] == {"tiles": {}, "counters": {}}
    assert data["uncertain"] == []
    assert looked == []


def test_strong_glare_is_uncertain_not_wrong(model, pack, photos):
    state = random_forest(np.random.default_rng(63), G7, pack, fill=0.7)
    glare = ("B2", "D4", "F6")
    path, truth = shoot(photos, pack, state, 63, "glare", glare_squares=glare,
                        spoil=Degradations(glare=False))
    data = scan(path, model=model).data
    assert set(glare) <= set(data["uncertain"])
    assert wrong_squares(data, truth) == []
    assert "glare" in scan(path, model=model).text


def test_overlay_is_written(model, pack, photos, tmp_path):
    state = random_forest(np.random.default_rng(64), G7, pack)
    path, _ = shoot(photos, pack, state, 64)
    out = tmp_path / "seen.png"
    report = scan(path, model=model, overlay=out)
    image = cv2.imread(str(out))
    assert image is not None and image.shape[:2] == (1232, 1640)
    assert "Forest board 7x7" in report.text


def test_previous_state_contradictions(model, pack, photos, tmp_path):
    state = random_forest(np.random.default_rng(65), G7, pack, fill=0.5, counters=0.0)
    path, truth = shoot(photos, pack, state, 65)
    same = tmp_path / "same.json"
    same.write_text(json.dumps({"board": truth["board"], "forest": truth["forest"]}))
    assert scan(path, model=model, previous=same).data["contradictions"] == []
    # a tile the photo does not show, and six new tiles since then
    before = {"board": truth["board"],
              "forest": {"tiles": dict(truth["forest"]["tiles"]), "counters": {}}}
    empty = [sq.name for sq in G7.squares() if sq.name not in truth["forest"]["tiles"]]
    before["forest"]["tiles"][empty[0]] = "toad/mushroom/oak"
    for sq in list(truth["forest"]["tiles"])[:6]:
        del before["forest"]["tiles"][sq]
    game = tmp_path / "game.json"
    game.write_text(json.dumps({"game": "the-glade", "board": truth["board"],
                                "players": [{"name": "Toni", "forest": before["forest"]}]}))
    data = scan(path, model=model, previous=game).data
    rules = {c["rule"] for c in data["contradictions"]}
    assert {"tile-vanished", "placement"} <= rules


def test_unseen_art_style(tmp_path_factory):
    """Art the recogniser never saw: style 3, enrolled from its own pack."""
    folder = tmp_path_factory.mktemp("style3")
    other = sample_pack(3)
    write_pack(other, folder / "pack")
    # without the look-alike pairs (their seconds are paid by the module's own model and by
    # test_recognition_families, on art never seen): the looks alone must read style 3
    enrol(folder / "pack", out=folder / "model", lookalikes=False)
    for seed, geometry in ((71, G7), (72, G8)):
        state = random_forest(np.random.default_rng(seed), geometry, other)
        path, truth = shoot(folder, other, state, seed)
        data = scan(path, model=folder / "model").data
        assert wrong_squares(data, truth) == []
        assert len(data["uncertain"]) <= 3


# -- errors ------------------------------------------------------------------------------

def test_corrupt_and_empty_images(model, tmp_path):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg" * 10)
    with pytest.raises(RecognitionError, match="not a readable image"):
        scan(bad, model=model)
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    with pytest.raises(RecognitionError, match="empty"):
        scan(empty, model=model)
    with pytest.raises(CompanionError, match="no such file"):
        scan(tmp_path / "missing.jpg", model=model)


def test_photo_without_board(model, tmp_path):
    from companion.vision.sim import clutter, degrade, table

    rng = np.random.default_rng(80)
    image = table(rng)
    clutter(image, rng, [], count=12)
    image = degrade(image, rng, Degradations())
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), image)
    with pytest.raises(RecognitionError, match="no forest board"):
        scan(path, model=model)


def test_a_board_crowded_out_of_the_first_search_is_found_by_the_second(model, pack,
                                                                       monkeypatch):
    """When the photo's strongest features are all table and clutter (heavy blur on a busy
    table; here forced by keeping very few), the board is searched again with more."""
    from companion.the_glade.recognition import reader
    from companion.the_glade.recognition.model import load_model

    loaded = load_model(model)
    state = random_forest(np.random.default_rng(82), G7, pack)
    image, _ = render_photo(pack, state, 82, camera=STRAIGHT)
    monkeypatch.setattr(reader, "PHOTO_FEATURES", 20)
    searches = []
    real = reader.PhotoFeatures
    monkeypatch.setattr(reader, "PhotoFeatures",
                        lambda photo, count: searches.append(count) or real(photo, count))
    board, _ = reader.locate(loaded, image)
    assert board.grid.rows == 7
    assert searches == [20, reader.RETRY_FEATURES]


@pytest.mark.parametrize(("style", "seed", "size"), [(8, 20141, 7), (6, 17033, 8)])
def test_the_board_is_placed_where_most_of_its_features_agree(style, seed, size):
    """Found on SAMPLE styles 8 and 6. In the first, the board's matched features crowded
    into its top border and plain RANSAC stopped at a fit that only they agreed on (152 of
    187 matches), 88 px off at the far corner of the grid: the tiles there were cut askew
    and two fruits were read wrong as sure. In the second, with only 79 matches, MAGSAC
    settled on a fit 49 agreed on, 231 px off, where 58 agree on the true one. The board's
    grid must be found within a few pixels at every corner in both."""
    from companion.the_glade.recognition import reader
    from companion.the_glade.recognition.enrol import build_model

    art = sample_pack(style)
    geometry = art.board_for(size, size)
    state = random_forest(np.random.default_rng(seed), geometry.geometry, art)
    image, truth = render_photo(art, state, seed)
    _, image = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    _, located = reader.locate(build_model(art, lookalikes=False),
                               cv2.imdecode(image, cv2.IMREAD_COLOR))
    g = geometry.grid
    x1, y1 = g.left + g.cols * g.cell, g.top + g.rows * g.cell
    corners = np.array([[[g.left, g.top], [x1, g.top], [x1, y1], [g.left, y1]]], np.float32)
    found = cv2.perspectiveTransform(corners, np.asarray(located.homography, np.float64))
    want = cv2.perspectiveTransform(corners, np.array(truth["homography"]))
    assert np.linalg.norm(found - want, axis=2).max() < 5.0


def test_board_mostly_out_of_frame(model, pack, tmp_path):
    state = random_forest(np.random.default_rng(81), G7, pack)
    image, _ = render_photo(pack, state, 81, camera=Camera(0.85, 0.0, 0.0, 0.0))
    shifted = cv2.warpAffine(image, np.float32([[1, 0, 860], [0, 1, 300]]),
                             (image.shape[1], image.shape[0]))
    path = tmp_path / "off.jpg"
    cv2.imwrite(str(path), shifted)
    with pytest.raises(RecognitionError, match="out of the frame|no forest board"):
        scan(path, model=model)


def test_a_model_made_before_it_kept_the_faintest_tiles_still_reads(model, pack, photos,
                                                                   tmp_path):
    """Format 2 models written before ``tile_faintest`` was kept load, and scan alike: the
    scanner works the faintest tiles out itself."""
    import shutil

    from companion.the_glade.recognition.model import load_model
    from companion.the_glade.recognition.structure import FAINTEST

    older = tmp_path / "older-model"
    shutil.copytree(model, older)
    with np.load(older / "model.npz") as z:
        arrays = {k: z[k] for k in z.files if k != "tile_faintest"}
    np.savez(older / "model.npz", **arrays)
    kept, worked_out = load_model(model), load_model(older)
    assert len(kept.tile_faintest) == FAINTEST and len(worked_out.tile_faintest) == 0
    state = random_forest(np.random.default_rng(83), G7, pack)
    path, _ = shoot(photos, pack, state, 83, "older-model")
    assert scan(path, model=older).data == scan(path, model=model).data
    # a damaged list (an index past the templates) is refused at load, with the way out
    arrays["tile_faintest"] = np.array([0, 10_000], np.int32)
    np.savez(older / "model.npz", **arrays)
    with pytest.raises(ModelError, match="damaged.*enrol the-glade"):
        scan(path, model=older)


def test_model_of_another_game_or_version(model, tmp_path):
    import shutil

    for change, message in (({"game": "glass-garden"}, "not The Glade"),
                            ({"version": 99}, "version")):
        other = tmp_path / f"model-{len(message)}"
        shutil.copytree(model, other)
        manifest = json.loads((other / "manifest.json").read_text())
        manifest.update(change)
        (other / "manifest.json").write_text(json.dumps(manifest))
        with pytest.raises(ModelError, match=message):
            scan(SAMPLE_PACK / "board-7x7.png", model=other)
    with pytest.raises(ModelError, match="enrol"):
        scan(SAMPLE_PACK / "board-7x7.png", model=tmp_path / "nowhere")


def test_boards_apart_stop_the_search_at_the_first_board_found(model, pack,
                                                               monkeypatch):
    """The bundled pack's 7x7 and 8x8 boards are apart (neither is found in the other's
    image), so a scan stops at the first board it finds; a model without the mark (enrolled
    before it was kept) searches for every board, and both read the photo alike."""
    from companion.the_glade.recognition import reader
    from companion.the_glade.recognition.model import load_model
    from companion.vision.board import BoardFinder

    loaded = load_model(model)
    assert loaded.boards_apart
    first = loaded.boards[0]
    size = first.geometry
    state = random_forest(np.random.default_rng(84), size, pack)
    image, _ = render_photo(pack, state, 84, camera=STRAIGHT)
    calls = []
    real = BoardFinder.locate
    monkeypatch.setattr(BoardFinder, "locate",
                        lambda self, *a, **k: calls.append(self) or real(self, *a, **k))
    board, apart = reader.locate(loaded, image)
    assert board is first and len(calls) == 1
    calls.clear()
    loaded.boards_apart = False
    board, every = reader.locate(loaded, image)
    assert board is first and len(calls) == len(loaded.boards) == 2
    assert np.allclose(apart.homography, every.homography)


def test_boards_sharing_their_art_are_not_apart(pack):
    from companion.vision.board import BoardFinder, boards_apart

    board = pack.boards[0]
    g = board.grid
    box = (g.left, g.top, g.left + g.cols * g.cell, g.top + g.rows * g.cell)
    finder = BoardFinder.learn(board.image, box)
    assert not boards_apart([finder, finder], [board.image, board.image])
    assert boards_apart([finder], [board.image])  # one board is apart from no other


def test_boards_apart_mark_is_checked_and_optional(model, tmp_path):
    import shutil

    from companion.the_glade.recognition.model import load_model

    older = tmp_path / "older"
    shutil.copytree(model, older)
    manifest = json.loads((older / "manifest.json").read_text())
    del manifest["boards_apart"]
    (older / "manifest.json").write_text(json.dumps(manifest))
    assert load_model(older).boards_apart is False
    manifest["boards_apart"] = "yes"
    (older / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ModelError, match="boards_apart.*enrol the-glade"):
        load_model(older)


# -- the text's key ---------------------------------------------------------------------------

def _scan_data(tiles: dict, counters: dict, uncertain: tuple = ()) -> dict:
    return {"board": {"rows": 7, "cols": 7, "centre": "D4"},
            "forest": {"tiles": tiles, "counters": counters}, "uncertain": list(uncertain)}


def _explained(code: str, key: str) -> bool:
    if code[0].isupper():  # a tile: creature, fruit, leaf letters
        creatures, rest = key.split("\n  creature ", 1)[1].split("fruit ", 1)
        fruits, leaves = rest.split("leaf ", 1)
        return (f"{code[0]}(" in creatures and f" {code[1]}(" in f" {fruits}"
                and f" {code[2]}(" in f" {leaves}")
    return f"{code} = " in key


def test_the_scan_key_explains_every_code_in_the_grid() -> None:
    from companion.the_glade.recognition.show import describe_scan, forest_map, legend

    data = _scan_data(
        {"D4": "squirrel/blackberry/beech", "D5": "toad/hazelnut/maple",
         "C4": "hedgehog/acorn/oak", "E4": "mouse/mushroom/horse-chestnut"},
        {"A1": "white-single", "B2": "green-double", "C3": "red-single"}, uncertain=("G7",))
    grid = forest_map(data)
    codes = {cell for line in grid.splitlines()[1:] for cell in line.split()[1:]}
    assert {"w1", "g2", "r1", "??", ".", "Sbb", "Thm", "Hao", "Mmh"} <= codes
    key = "\n".join(legend(data))
    assert {code for code in codes if not _explained(code, key)} == set()
    assert "w1 = white-single" in key and "g2 = green-double" in key
    assert "y1" not in key and "b2" not in key  # only the colours in this scan
    assert key in describe_scan(data)


def test_the_scan_key_names_a_shared_code_and_leaves_out_what_is_absent() -> None:
    from companion.the_glade.recognition.show import legend

    key = "\n".join(legend(_scan_data({}, {"A1": "blue-single", "B1": "black-single"})))
    assert "b1 = black-single or blue-single" in key
    assert "Tiles:" not in key and "??" not in key and ". = empty" in key
    assert legend(_scan_data({}, {})) == [". = empty."]


def test_the_blurs_met_again_are_kept_longest():
    """The blurred templates of a blur met again are kept before those of an older one met
    once (a camera above the table gives a few blurs, in turn)."""
    from companion.the_glade.recognition.templates import BLURS_KEPT, _kept

    store: dict = {}
    made: list = []
    keys = list(range(BLURS_KEPT))
    for k in keys:
        _kept(store, k, lambda k=k: made.append(k) or k)
    assert _kept(store, 0, lambda: made.append("again")) == 0  # met again: not remade
    _kept(store, "new", lambda: "new")
    assert 0 in store and 1 not in store  # the least recently used went
    assert made == keys
