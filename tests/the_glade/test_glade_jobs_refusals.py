"""What The Glade's jobs refuse, in one line: a finished game for ``hint``, another game's
state file, and state files that are too deep or use YAML anchors."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml
from glade_helpers import toni_game

from companion.errors import StateError
from companion.glass_garden.deck import SAMPLE_START
from companion.the_glade import jobs
from companion.the_glade.state_file import dump_state, load_state, other_game

CONFIG = Path(__file__).resolve().parents[2] / "config" / "games" / "the-glade"
SAMPLE_GAME = CONFIG / "sample-game.json"
RACK = ["toad/hazelnut/beech", "mouse/acorn/beech"]


def one_line(error: pytest.ExceptionInfo[StateError]) -> str:
    message = str(error.value)
    assert "\n" not in message
    return message


def test_hint_refuses_a_finished_game() -> None:
    assert json.loads(SAMPLE_GAME.read_text())["finished"] is True
    with pytest.raises(StateError) as refused:
        jobs.hint(SAMPLE_GAME, player="Toni", rack=RACK, limit=3)
    message = one_line(refused)
    assert str(SAMPLE_GAME) in message and "finished" in message
    assert "companion score the-glade" in message


def test_hint_answers_until_the_game_is_marked_finished(tmp_path: Path) -> None:
    data = dump_state(toni_game(1).state)
    assert data["finished"] is False
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    hints = jobs.hint(path, player="Toni", rack=RACK, limit=3).data
    assert hints["player"] == "Toni" and hints["count"] >= len(hints["placements"]) > 0
    path.write_text(json.dumps({**data, "finished": True}))
    with pytest.raises(StateError, match="finished"):
        jobs.hint(path, player="Toni", rack=RACK, limit=3)


def glass_garden_file(tmp_path: Path, *, with_game: bool) -> Path:
    data = yaml.safe_load(SAMPLE_START.read_text())
    if not with_game:
        del data["game"]
    path = tmp_path / ("gg.yaml" if with_game else "gg-nameless.yaml")
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize("with_game", [True, False])
def test_a_glass_garden_file_is_named_as_one(tmp_path: Path, with_game: bool) -> None:
    path = glass_garden_file(tmp_path, with_game=with_game)
    for job in (lambda: jobs.score(path),
                lambda: jobs.hint(path, player="Toni", rack=RACK, limit=None),
                lambda: jobs.check(path, path)):
        with pytest.raises(StateError) as refused:
            job()
        message = one_line(refused)
        assert str(path) in message
        assert "is a glass-garden state file, not the-glade" in message
        assert "companion assist glass-garden" in message
        assert "unknown field" not in message


def test_other_game_sees_the_game_field_or_the_fields() -> None:
    assert other_game({"game": "the-glade", "players": []}) is None
    assert other_game({"players": [], "round": 2}) is None
    assert other_game({"critter": "Fly", "garden": []}) == "glass-garden"
    assert other_game({"critter": "Fly", "players": []}) is None  # mixed: field errors
    assert other_game({"game": "chess"}) == "chess"
    with pytest.raises(StateError, match="for the game chess .*not the-glade"):
        load_state({"game": "chess", "players": []})


def test_a_deep_state_file_is_bad_input_not_an_internal_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    for job in (lambda: jobs.score(path), lambda: jobs.check(path, path),
                lambda: jobs.hint(path, player="Toni", rack=RACK, limit=None)):
        with pytest.raises(StateError, match="nested more than 64 deep"):
            job()


def test_an_anchors_bomb_state_file_is_refused_quickly(tmp_path: Path) -> None:
    lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
    path = tmp_path / "laughs.yaml"
    path.write_text("\n".join(lines) + "\n")
    started = time.monotonic()
    with pytest.raises(StateError) as refused:
        jobs.score(path)
    assert time.monotonic() - started < 1
    assert "anchor or alias" in one_line(refused) and "lol" not in str(refused.value)
