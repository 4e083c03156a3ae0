"""``companion score the-glade --photos`` per the spec: the bundled photos of a finished
SAMPLE game score exactly as its state file; --write-state keeps the built state; a photo
that cannot be read, or a doubt, refuses in one line naming the photo (exit 1); wrong
command lines are usage errors (exit 2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.cli import main
from companion.the_glade import jobs

CONFIG = Path(__file__).resolve().parents[2] / "config" / "games" / "the-glade"
PHOTOS = CONFIG / "photos" / "game"


@pytest.fixture(scope="module")
def model(sample_model_dir: Path) -> Path:
    """The SAMPLE pack enrolled (without look-alike pairs: the forests here need none)."""
    return sample_model_dir


def test_the_bundled_photos_score_exactly_as_the_state_file(model: Path, tmp_path: Path,
                                                             capsys) -> None:
    built = tmp_path / "built.json"
    assert main(["score", "the-glade", "--photos", str(PHOTOS / "game.yaml"), "--model",
                 str(model), "--write-state", str(built), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == jobs.score(CONFIG / "sample-game.json").data
    state = json.loads(built.read_text())
    assert "uncertain" not in state
    assert jobs.score(built).data == data


def test_a_game_loads_the_glade_model_once(model: Path, monkeypatch, capsys) -> None:
    """The glade photo and every forest photo's store are read with one loaded glade model:
    its faces' forms for any turn (polar, ring means: about 0.1 s of CPU) are made once a
    game, not once a photo."""
    from companion.the_glade.recognition import glade_model

    loads: list[Path] = []
    made: list[int] = []
    load = glade_model.load_glade_model

    def counted_load(folder: Path):
        loads.append(Path(folder))
        return load(folder)

    class CountedRings(glade_model.RingFaces):
        def __init__(self, *args, **kwargs) -> None:
            made.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(glade_model, "load_glade_model", counted_load)
    monkeypatch.setattr(glade_model, "RingFaces", CountedRings)
    assert main(["score", "the-glade", "--photos", str(PHOTOS / "game.yaml"), "--model",
                 str(model), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == jobs.score(CONFIG / "sample-game.json").data
    assert (len(loads), len(made)) == (1, 1), (loads, made)


def test_photos_named_on_the_command_line(model: Path, capsys) -> None:
    argv = ["score", "the-glade", "--photos", str(PHOTOS / "glade.jpg"),
            str(PHOTOS / "toni.jpg"), str(PHOTOS / "emma.jpg"), str(PHOTOS / "liz.jpg"),
            "--model", str(model), "--players", "Toni:yellow,Emma:blue,Liz:red"]
    assert main(argv) == 0
    assert capsys.readouterr().out.strip() == jobs.score(
        CONFIG / "sample-game.json").text.strip()


def test_a_photo_that_cannot_be_read_refuses_naming_it(model: Path, tmp_path: Path,
                                                       capsys) -> None:
    for name in ("glade.jpg", "toni.jpg", "liz.jpg", "game.yaml"):
        shutil.copy(PHOTOS / name, tmp_path / name)
    (tmp_path / "emma.jpg").write_bytes(b"not a photo")
    built = tmp_path / "built.json"
    assert main(["score", "the-glade", "--photos", str(tmp_path / "game.yaml"), "--model",
                 str(model), "--write-state", str(built)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cannot score:" in err and "emma.jpg" in err
    assert any("emma.jpg" in u for u in json.loads(built.read_text())["uncertain"])


def test_the_wrong_photo_for_the_glade_board_refuses(model: Path, capsys) -> None:
    argv = ["score", "the-glade", "--photos", str(PHOTOS / "toni.jpg"),
            str(PHOTOS / "toni.jpg"), str(PHOTOS / "emma.jpg"), "--model", str(model),
            "--players", "Toni:yellow,Emma:blue"]
    assert main(argv) == 1
    assert "toni.jpg" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["--photos", "a.jpg", "b.jpg", "c.jpg"],                       # no --model
    ["state.json", "--photos", "a.jpg", "--model", "m"],            # both
    ["--model", "m"],                                               # neither
])
def test_wrong_command_lines_are_usage_errors(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["score", "the-glade", *argv])
    assert caught.value.code == 2


def test_players_that_do_not_match_the_photos_are_refused(model: Path, capsys) -> None:
    argv = ["score", "the-glade", "--photos", str(PHOTOS / "glade.jpg"),
            str(PHOTOS / "toni.jpg"), str(PHOTOS / "emma.jpg"), "--model", str(model),
            "--players", "Toni:yellow"]
    assert main(argv) == 1
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
