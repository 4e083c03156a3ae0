"""Cutting tile photos out of one photo of a sheet of tiles (``companion cut-sheet``).

Sheet photos come from the table simulator (:mod:`~companion.the_glade.recognition.sheet_sim`),
drawn from a seed: tiles of SAMPLE art laid in rows on a plain sheet, each a little off its
place and askew, the camera tilted and turned, the light uneven. The round trip cuts them,
checks each cut against the face it came from, builds a pack from the cuts, enrols it and
scans a board photo with it.
"""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml

from companion.cli import main
from companion.errors import InputFileError, ModelError, RecognitionError
from companion.the_glade.names import BoardGeometry
from companion.the_glade.recognition.cut_sheet import PLACEHOLDER, cut_sheet, read_names
from companion.the_glade.recognition.jobs import enrol, scan
from companion.the_glade.recognition.pack import Pack, read_pack, write_pack
from companion.the_glade.recognition.sheet import find_tiles
from companion.the_glade.recognition.sheet_sim import render_sheet
from companion.the_glade.recognition.sim import random_forest, render_photo, sample_pack
from companion.vision.sim import Camera, Degradations, degrade

COLS = 6
#: Uneven light, blur, noise and JPEG but no shadow band: a shadow's edge across a tile changes
#: its look more than the difference between two tiles of one style that differ by a leaf's
#: shade, which the likeness checks below must tell apart. Shadows: test_shadowed_sheet.
EVEN = Degradations(shadow=False, glare=False, clutter=False)
G7 = BoardGeometry.from_dict({"rows": 7, "cols": 7, "centre": "D4"})


@pytest.fixture(scope="module")
def art() -> Pack:
    """SAMPLE art of style 2 with one board and the counters; 24 different tiles of both
    seasons (every fifth face), in the order they are laid on the sheet."""
    full = sample_pack(2, boards=((7, 7, "D4"),), tile_px=128)
    full.tiles = full.tiles[::5][:24]
    return full


@pytest.fixture(scope="module")
def sheet(art, tmp_path_factory) -> tuple[Path, dict, Path]:
    """A sheet photo of the 24 faces (as a JPEG), its truth, and a names file for it."""
    folder = tmp_path_factory.mktemp("sheet")
    photo, truth = render_sheet([f.image for f in art.tiles], seed=3, cols=COLS, spoil=EVEN)
    path = folder / "sheet.jpg"
    cv2.imwrite(str(path), photo, [cv2.IMWRITE_JPEG_QUALITY, 92])
    names = folder / "names.txt"
    names.write_text("# the sheet, row by row\n" + "".join(
        f"{f.tile} {f.season}\n" + ("\n" if i % COLS == COLS - 1 else "")
        for i, f in enumerate(art.tiles)))
    return path, truth, names


def likeness(a: np.ndarray, b: np.ndarray) -> float:
    """Normalised correlation of two tile images inside their rims, in Lab with the colour
    channels weighed double (tiles of one style differ often by colour alone)."""
    def lab(image: np.ndarray) -> np.ndarray:
        small = cv2.resize(image, (64, 64), interpolation=cv2.INTER_AREA)
        x = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)[6:-6, 6:-6].astype(float)
        x -= x.mean(axis=(0, 1))
        x[..., 1:] *= 2
        return x
    x, y = lab(a), lab(b)
    return float((x * y).sum() / np.sqrt((x * x).sum() * (y * y).sum()))


def check_cuts(cut, faces: list[np.ndarray], truth: dict) -> None:
    """Every face cut once, in reading order, at its place, looking like its own face most."""
    assert len(cut.tiles) == len(faces)
    side = truth["tile_px"]
    for i, tile in enumerate(cut.tiles):
        assert (tile.row, tile.col) == divmod(i, truth["cols"])
        assert np.hypot(*np.subtract(tile.centre, truth["centres"][i])) < 0.15 * side, i
        scores = [likeness(tile.image, face) for face in faces]
        assert int(np.argmax(scores)) == i, (i, int(np.argmax(scores)))
        assert scores[i] > 0.8, (i, scores[i])
        upside_down = likeness(np.ascontiguousarray(np.rot90(tile.image, 2)), faces[i])
        assert upside_down < scores[i] - 0.3


# -- the round trip ----------------------------------------------------------------------

def test_cuts_every_tile_upright_in_reading_order(art, sheet):
    path, truth, _names = sheet
    image = cv2.imread(str(path))
    cut = find_tiles(image, size=128)
    assert cut.rows == 4
    assert {t.image.shape for t in cut.tiles} == {(128, 128, 3)}
    check_cuts(cut, [f.image for f in art.tiles], truth)


@pytest.mark.parametrize(("seed", "turn"), [(21, 24.0), (22, -30.0)])
def test_turned_photo_of_32_tiles(seed, turn):
    """Another style, 8 to a row, the photo turned a lot: still read row by row, each tile
    cut upright."""
    other = sample_pack(3, boards=(), tile_px=100, counter_colours=())
    faces = [f.image for f in other.tiles[3::4][:32]]
    photo, truth = render_sheet(faces, seed, cols=8, spoil=EVEN,
                                camera=Camera(1.2, turn, 6.0, -5.0, (0.1, -0.1)))
    cut = find_tiles(photo, size=96)
    assert abs(cut.turn - turn) < 3
    assert cut.tiles[0].image.shape == (96, 96, 3)
    # some faces of this style differ only by a small fruit: check place and turn here (the
    # likeness among faces is checked above)
    assert len(cut.tiles) == 32
    for i, tile in enumerate(cut.tiles):
        assert (tile.row, tile.col) == divmod(i, 8)
        assert np.hypot(*np.subtract(tile.centre, truth["centres"][i])) < 0.15 * truth["tile_px"]
        turns = [likeness(np.ascontiguousarray(np.rot90(tile.image, k)), faces[i])
                 for k in range(4)]
        assert turns[0] > 0.8 and max(turns[1:]) < 0.6, (i, turns)


@pytest.mark.parametrize("seed", [5, 8, 13])
def test_shadowed_sheet(art, seed):
    """A soft shadow across part of the sheet (and uneven light): every tile still found, in
    its place and order, and like its face."""
    faces = [f.image for f in art.tiles]
    photo, truth = render_sheet(faces, seed, cols=COLS)
    cut = find_tiles(photo)
    assert len(cut.tiles) == len(faces)
    for i, tile in enumerate(cut.tiles):
        assert (tile.row, tile.col) == divmod(i, COLS)
        assert np.hypot(*np.subtract(tile.centre, truth["centres"][i])) < 0.15 * truth["tile_px"]
        assert likeness(tile.image, faces[i]) > 0.7


def test_pack_from_a_sheet_enrols_and_scans(art, sheet, tmp_path):
    """Board and counters from the sample pack, tiles cut from the sheet: the model made
    from it reads a board photo of those tiles without a mistake."""
    path, _truth, names = sheet
    folder = tmp_path / "pack"
    write_pack(Pack(art.boards, [], art.counters, note="cut from a sheet"), folder)
    report = cut_sheet(path, pack=folder, names=names)
    assert report.data["count"] == 24 and report.data["named"]
    assert report.data["warnings"] == []
    pack = read_pack(folder)
    assert [(f.tile, f.season) for f in pack.tiles] == [(f.tile, f.season) for f in art.tiles]
    assert pack.note == "cut from a sheet" and len(pack.counters) == len(art.counters)
    assert (folder / "contact-0001-0024.png").is_file()
    assert (folder / "found-0001-0024.png").is_file()
    enrol(folder, out=tmp_path / "model")
    state = random_forest(np.random.default_rng(5), G7, art, fill=0.6)
    photo, truth = render_photo(art, state, 5, spoil=Degradations(clutter=False, glare=False))
    shot = tmp_path / "board.jpg"
    cv2.imwrite(str(shot), photo, [cv2.IMWRITE_JPEG_QUALITY, 92])
    data = scan(shot, model=tmp_path / "model").data
    tiles = truth["forest"]["tiles"]
    unsure = set(data["uncertain"])
    wrong = {sq: (t, data["forest"]["tiles"].get(sq)) for sq, t in tiles.items()
             if sq not in unsure and data["forest"]["tiles"].get(sq) != t}
    assert wrong == {}
    assert len(unsure) <= 2


def test_placeholders_and_appending_keep_what_is_there(art, sheet, tmp_path):
    path, _truth, _names = sheet
    folder = tmp_path / "pack"
    (folder / "tiles").mkdir(parents=True)
    (folder / "counters").mkdir()
    cv2.imwrite(str(folder / "board.png"), art.boards[0].image)
    cv2.imwrite(str(folder / "tiles" / "0007.png"), art.tiles[0].image)  # an older cut
    cv2.imwrite(str(folder / "counters" / "yellow-single.png"),
                art.counter_image("yellow-single"))
    mine = ("game: the-glade   # my copy\n"
            "boards:\n"
            "  - image: board.png\n"
            "    grid: {rows: 7, cols: 7, left: 110, top: 110, cell: 100}\n"
            "    centre: D4\n"
            "tiles:\n"
            "  # the first sheet\n"
            "  - {image: tiles/0007.png, tile: hedgehog/acorn/beech, season: spring}\n"
            "counters:\n"
            "  - {image: counters/yellow-single.png, counter: yellow-single}\n")
    (folder / "pack.yaml").write_text(mine)
    before = yaml.safe_load(mine)
    report = cut_sheet(path, pack=folder, season="summer", size=64)
    text = (folder / "pack.yaml").read_text()
    assert text.startswith(mine.split("counters:")[0])  # comments and layout kept
    assert "# my copy" in text and "# the first sheet" in text
    data = yaml.safe_load(text)
    assert data["tiles"][0] == before["tiles"][0]
    assert data["counters"] == before["counters"] and data["boards"] == before["boards"]
    new = data["tiles"][1:]
    assert [e["image"] for e in new] == [f"tiles/{n:04d}.png" for n in range(8, 32)]
    assert {e["tile"] for e in new} == {PLACEHOLDER} and {e["season"] for e in new} == {"summer"}
    assert cv2.imread(str(folder / "tiles" / "0008.png")).shape == (64, 64, 3)
    assert not report.data["named"]
    assert PLACEHOLDER in report.text and "contact-0008-0031.png" in report.text
    # a pack with placeholders is refused by enrol until they are filled in
    with pytest.raises(ModelError, match=r"tiles\[1\].*FILL-IN"):
        read_pack(folder)
    # a second sheet numbers on
    again = cut_sheet(path, pack=folder)
    assert again.data["tiles"][0]["image"] == "tiles/0032.png"
    assert yaml.safe_load((folder / "pack.yaml").read_text())["tiles"][-1]["season"] == \
        PLACEHOLDER
    with pytest.raises(InputFileError, match="0010.png already exists.*--start"):
        cut_sheet(path, pack=folder, start=10)


def test_a_new_pack_and_a_flow_style_list(sheet, tmp_path):
    path, _truth, names = sheet
    cut_sheet(path, pack=tmp_path / "new", names=names)
    data = yaml.safe_load((tmp_path / "new" / "pack.yaml").read_text())
    assert data["game"] == "the-glade" and len(data["tiles"]) == 24
    flow = tmp_path / "flow"
    flow.mkdir()
    (flow / "pack.yaml").write_text(
        "game: the-glade\ntiles: [{image: x.png, tile: toad/acorn/oak}]\n")
    cut_sheet(path, pack=flow, names=names, start=100)
    tiles = yaml.safe_load((flow / "pack.yaml").read_text())["tiles"]
    assert tiles[0] == {"image": "x.png", "tile": "toad/acorn/oak"}
    assert tiles[1]["image"] == "tiles/0100.png" and len(tiles) == 25


@pytest.mark.parametrize("module", ["sheet", "cut_sheet"])
def test_docstring_examples(module):
    import importlib

    result = doctest.testmod(importlib.import_module(f"companion.the_glade.recognition.{module}"))
    assert result.failed == 0 and result.attempted > 0


def test_a_face_named_twice_is_a_warning(sheet, tmp_path):
    path, _truth, names = sheet
    lines = [line for line in names.read_text().splitlines() if line and line[0] != "#"]
    twice = tmp_path / "twice.txt"
    twice.write_text("\n".join([*lines[:-1], lines[0]]))
    report = cut_sheet(path, pack=tmp_path / "pack", names=twice)
    first = lines[0].split()
    assert report.data["warnings"] == [f"{first[0]} ({first[1]}) is named twice in the pack; "
                                       "check the names"]
    assert "Note: " in report.text


# -- errors --------------------------------------------------------------------------------

def test_names_file_count_disagrees(sheet, tmp_path):
    path, _truth, names = sheet
    short = tmp_path / "short.txt"
    short.write_text("\n".join(names.read_text().splitlines()[:-2]))
    folder = tmp_path / "pack"
    with pytest.raises(RecognitionError, match="found 24 tiles .* names 23; see .*found-0001"):
        cut_sheet(path, pack=folder, names=short)
    assert (folder / "found-0001-0024.png").is_file()  # to see which tiles were found
    assert not (folder / "tiles").exists() and not (folder / "pack.yaml").exists()


@pytest.mark.parametrize(("text", "message"), [
    ("hedgehog/acorn/oak spring\ndragon/acorn/oak spring\n", "line 2: unknown creature"),
    ("hedgehog/acorn/oak winter\n", "season 'winter' must be spring or summer"),
    ("hedgehog/acorn/oak\n", "line 1: .* has no season"),
    ("hedgehog/acorn/oak spring extra\n", "more than a tile and a season"),
    ("# nothing yet\n\n", "names no tiles"),
])
def test_bad_names_file(tmp_path, text, message):
    path = tmp_path / "names.txt"
    path.write_text(text)
    with pytest.raises(InputFileError, match=message):
        read_names(path)


def test_names_file_season_default_and_missing(tmp_path):
    path = tmp_path / "names.txt"
    path.write_text("Hedgehog/Acorn/Oak   # first\nmouse/acorn/beech summer\n")
    assert read_names(path, "spring") == [("hedgehog/acorn/oak", "spring"),
                                          ("mouse/acorn/beech", "summer")]
    with pytest.raises(InputFileError, match="does not exist"):
        read_names(tmp_path / "nope.txt")


def test_no_tiles_on_the_photo(tmp_path):
    rng = np.random.default_rng(1)
    plain = np.empty((900, 1200, 3), np.uint8)
    plain[:] = (70, 42, 28)
    plain = degrade(plain, rng, Degradations(glare=False, clutter=False))
    with pytest.raises(RecognitionError, match="no tiles found"):
        find_tiles(plain)


def test_tile_touching_the_photos_edge(sheet):
    path, truth, _names = sheet
    image = cv2.imread(str(path))
    x = int(truth["centres"][0][0])  # cut through the first column
    with pytest.raises(RecognitionError, match="a tile touches the photo's edge near the .*left"):
        find_tiles(image[:, x:])


def test_tiles_touching_each_other(art):
    faces = [f.image for f in art.tiles[:12]]
    photo, _truth = render_sheet(faces, 4, cols=4, jitter=0.0, nudge={5: (-0.32, 0.0)})
    with pytest.raises(RecognitionError, match="about 2 tiles touch each other"):
        find_tiles(photo)


def test_sheet_not_filling_the_photo(sheet):
    path, _truth, _names = sheet
    image = cv2.imread(str(path))
    image[:, :120] = (60, 90, 130)  # the table, beside the sheet
    with pytest.raises(RecognitionError, match="not the sheet fills part of the photo's edge"):
        find_tiles(image)


def test_unreadable_photo_and_bad_pack(sheet, tmp_path):
    _path, _truth, names = sheet
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg" * 10)
    with pytest.raises(RecognitionError, match="not a readable image"):
        cut_sheet(bad, pack=tmp_path / "pack")
    with pytest.raises(InputFileError, match="no such file"):
        cut_sheet(tmp_path / "nope.jpg", pack=tmp_path / "pack")
    other = tmp_path / "other"
    other.mkdir()
    (other / "pack.yaml").write_text("game: meadow\n")
    with pytest.raises(ModelError, match="pack for 'meadow'"):
        cut_sheet(bad, pack=other)
    (other / "pack.yaml").write_text("game: [unclosed\n")
    with pytest.raises(ModelError, match="not valid YAML"):
        cut_sheet(bad, pack=other)
    with pytest.raises(InputFileError, match="is a file"):
        cut_sheet(bad, pack=names)


# -- the command line -------------------------------------------------------------------------

def test_command_line(sheet, tmp_path, capsys):
    path, _truth, names = sheet
    folder = tmp_path / "pack"
    argv = ["cut-sheet", "the-glade", str(path), "--pack", str(folder)]
    assert main([*argv, "--names", str(names), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 24 and data["tiles"][0]["image"] == "tiles/0001.png"
    assert data["tiles"][23]["row"] == 4 and data["tiles"][23]["place"] == 6
    assert main([*argv, "--season", "spring", "--start", "50"]) == 0
    out = capsys.readouterr().out
    assert "Cut 24 tiles (4 rows)" in out and "tiles/0050.png to tiles/0073.png" in out
    assert "FILL-IN" in out
    short = tmp_path / "short.txt"
    short.write_text("hedgehog/acorn/oak spring\n")
    assert main([*argv, "--names", str(short)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion: found 24 tiles") and len(err.strip().splitlines()) == 1
    assert main([*argv, "--names", str(tmp_path / "nope.txt")]) == 1
    assert "names file" in capsys.readouterr().err
    assert main(["cut-sheet", "glass-garden", str(path), "--pack", str(folder)]) == 1
    assert "cannot cut tile photos" in capsys.readouterr().err
    for bad in (["--size", "8"], ["--start", "0"], ["--season", "winter"]):
        with pytest.raises(SystemExit) as info:
            main([*argv, *bad])
        assert info.value.code == 2
