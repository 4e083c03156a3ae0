"""Atomic files and the history: a failed write leaves the old file whole; bad files are named."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import InputFileError, StateError
from companion.history import KEEP, Finished, History
from companion.storage import atomic_write_json, read_data_file


def test_atomic_write_replaces_whole(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "state.json"
    atomic_write_json(target, {"a": 1})
    atomic_write_json(target, {"a": 2})
    assert json.loads(target.read_text()) == {"a": 2}
    assert [p.name for p in target.parent.iterdir()] == ["state.json"]


def test_a_write_cut_short_leaves_the_old_file(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "state.json"
    atomic_write_json(target, {"turn": 1})

    def power_cut(src: str, dst: str) -> None:
        raise OSError("power cut")

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(OSError, match="power cut"):
        atomic_write_json(target, {"turn": 2})
    assert json.loads(target.read_text()) == {"turn": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]  # no temporary left


@pytest.mark.parametrize(("name", "content", "error", "message"), [
    ("s.json", "{bad", StateError, r"not valid JSON: .* at line 1, column 2"),
    ("s.yaml", "a: [1\n", StateError, "not valid YAML at line 2"),
    ("s.json", "  \n", StateError, "is empty"),
])
def test_bad_data_files(tmp_path: Path, name: str, content: str, error: type,
                        message: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(error, match=message):
        read_data_file(path)


def test_binary_and_missing_files(tmp_path: Path) -> None:
    binary = tmp_path / "s.json"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(StateError, match="not a text file"):
        read_data_file(binary)
    with pytest.raises(InputFileError, match="does not exist"):
        read_data_file(tmp_path / "none.yaml")
    with pytest.raises(InputFileError, match="is a folder"):
        read_data_file(tmp_path)


def score(a: int, b: int) -> dict:
    winner = "Toni" if a > b else "Emma" if b > a else None
    return {"players": [{"name": "Toni", "total": a}, {"name": "Emma", "total": b}],
            "winner": winner}


def test_history_newest_first_and_capped(tmp_path: Path) -> None:
    history = History(tmp_path)
    assert history.games() == []
    when = dt.datetime(2026, 11, 29, 20, 0, tzinfo=dt.UTC)
    for i in range(KEEP + 3):
        history.add(Finished.from_score("the-glade", score(i, 5), when))
    games = history.games()
    assert len(games) == KEEP
    assert games[0].totals == (("Toni", KEEP + 2), ("Emma", 5))
    assert games[0].line() == f"2026-11-29 the-glade: Toni {KEEP + 2}, Emma 5"
    assert games[0].line(with_game=False) == f"2026-11-29: Toni {KEEP + 2}, Emma 5"


def test_damaged_history_is_named_not_emptied(tmp_path: Path) -> None:
    (tmp_path / "history.json").write_text('{"games": [{"nope": 1}]}')
    with pytest.raises(StateError, match="damaged; move it aside"):
        History(tmp_path).games()
    # a new game is added in front; the entry that cannot be read is kept as it was
    assert History(tmp_path).add(Finished.from_score("the-glade", score(1, 2))) is None
    assert "nope" in (tmp_path / "history.json").read_text()
    entries = History(tmp_path).entries()
    assert [g.totals for g in entries.games] == [(("Toni", 1), ("Emma", 2))]
    assert entries.damaged == [1]


@pytest.mark.parametrize("content", ["[1, 2", '{"games": 3}', "folder"])
def test_a_history_that_cannot_be_read_is_set_aside_when_a_game_is_added(
        tmp_path: Path, content: str) -> None:
    path = tmp_path / "history.json"
    if content == "folder":
        path.mkdir()
    else:
        path.write_text(content)
    aside = History(tmp_path).add(Finished.from_score("the-glade", score(1, 2)))
    assert aside is not None and aside.name.startswith("history.damaged-")
    if content != "folder":
        assert aside.read_text() == content
    assert [g.totals for g in History(tmp_path).games()] == [(("Toni", 1), ("Emma", 2))]


def test_history_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(f"data_dir: {tmp_path}\n")
    assert main(["history", "--config", str(config)]) == 0
    assert "no finished games" in capsys.readouterr().out
    History(tmp_path).add(Finished.from_score("the-glade", score(23, 19)))
    assert main(["history", "--config", str(config), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"][0]["winner"] == "Toni"


@pytest.mark.parametrize(("name", "content"), [
    ("s.json", '{"D4": "hedgehog/acorn/oak", "D4": "mouse/acorn/oak"}'),
    ("s.yaml", "tiles:\n  D4: hedgehog/acorn/oak\n  D4: mouse/acorn/oak\n"),
])
def test_a_key_written_twice_is_refused_naming_file_and_key(tmp_path: Path, name: str,
                                                           content: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(StateError) as info:
        read_data_file(path)
    assert str(info.value) == (f"state file {path}: the key 'D4' appears twice in one object; "
                               "keep one")
