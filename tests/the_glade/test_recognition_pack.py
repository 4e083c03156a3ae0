"""Enrolment packs: malformed packs are refused with one clear message."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from companion.errors import ModelError
from companion.the_glade.recognition.jobs import enrol
from companion.the_glade.recognition.pack import read_pack

SAMPLE_PACK = Path(__file__).resolve().parents[2] / "config/games/the-glade/sample-pack"


@pytest.fixture
def copy(tmp_path) -> Path:
    out = tmp_path / "pack"
    shutil.copytree(SAMPLE_PACK, out)
    return out


def edit(folder: Path, change) -> None:
    data = yaml.safe_load((folder / "pack.yaml").read_text())
    change(data)
    (folder / "pack.yaml").write_text(yaml.safe_dump(data))


def test_enrol_without_the_look_alike_pairs_reports_every_face(tmp_path):
    """The look-alike pairs are learnt in test_recognition_scan's and
    test_recognition_families' enrolments; enrolment's time is a benchmark's figure
    (benchmarks/the_glade_families.py), not a test's."""
    report = enrol(SAMPLE_PACK, out=tmp_path / "model", lookalikes=False)
    assert report.data["tiles"] == 64
    assert report.data["tile_faces"] == 128
    assert "128 tile faces" in report.text


def test_missing_image(copy):
    (copy / "tiles" / "0007.png").unlink()
    with pytest.raises(ModelError, match=r"tiles\[6\].*missing"):
        read_pack(copy)


def test_corrupt_image(copy):
    (copy / "tiles" / "0007.png").write_bytes(b"garbage")
    with pytest.raises(ModelError, match="cannot be read"):
        read_pack(copy)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["boards"][0]["grid"].update(rows=0), "rows"),
    (lambda d: d["boards"][0]["grid"].pop("cell"), "missing 'cell'"),
    (lambda d: d["boards"][0]["grid"].update(cell=400), "runs off"),
    (lambda d: d["tiles"][0].update(tile="dragon/acorn/oak"), "unknown creature"),
    (lambda d: d["tiles"][0].update(season="winter"), "season"),
    (lambda d: d["counters"][0].update(counter="yellow"), "colour-side"),
    (lambda d: d.update(game="meadow"), "The Glade"),
    (lambda d: d.update(tiles=[]), "non-empty"),
])
def test_malformed_pack(copy, change, message):
    edit(copy, change)
    with pytest.raises(ModelError, match=message):
        read_pack(copy)


def test_not_a_pack(tmp_path):
    with pytest.raises(ModelError, match="no pack.yaml"):
        enrol(tmp_path, out=tmp_path / "model")
    (tmp_path / "pack.yaml").write_text("game: [unclosed")
    with pytest.raises(ModelError, match="not valid YAML"):
        read_pack(tmp_path)


def test_out_folder_holding_other_files(tmp_path):
    out = tmp_path / "busy"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(ModelError, match="other files"):
        enrol(SAMPLE_PACK, out=out)
