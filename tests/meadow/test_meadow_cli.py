"""``companion score|check|hint meadow``: the spec's JSON exactly, exit statuses, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main

SAMPLE = str(Path(__file__).resolve().parents[2] / "config/games/meadow/sample-game.json")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    status = main([*argv, "--json"])
    out = capsys.readouterr().out
    return status, json.loads(out)


def test_score_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, data = run(capsys, "score", "meadow", SAMPLE)
    assert status == 0
    assert data == {
        "players": [
            {"name": "Ada", "total": 5, "discoveries": 0,
             "breakdown": {"meadow": 1, "surroundings": 2, "bonus": 2},
             "cards": {"start-1a": 0, "S34": 0, "N01": 1, "N37": 2}},
            {"name": "Ben", "total": 9, "discoveries": 1,
             "breakdown": {"meadow": 2, "surroundings": 7, "bonus": 0},
             "cards": {"start-2b": 0, "N09": 2, "N38": 3, "N44": 4}}],
        "winner": "Ben", "winners": ["Ben"]}


def test_check_missing_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, data = run(capsys, "check", "meadow", SAMPLE, "--player", "Ada", "--play", "N11")
    assert status == 0
    assert set(data) == {"player", "card", "type", "legal", "place", "covers", "violations",
                         "visible", "places", "fewest_discards"}
    assert data["legal"] is False and data["type"] == "observation"
    assert [v["rule"] for v in data["violations"]] == ["missing"]
    assert data["visible"] == {"fish": 1, "grass": 1, "leaf": 1, "rocks": 1}
    assert data["places"] == [] and data["fewest_discards"] == 2
    assert data["place"] is None and data["covers"] is None


def test_check_with_discards_and_place(capsys: pytest.CaptureFixture[str]) -> None:
    status, data = run(capsys, "check", "meadow", SAMPLE, "--player", "Ada", "--play", "N11",
                       "--on", "1", "--discard", "W26,S12")
    assert status == 0 and data["legal"] is True
    assert data["place"] == {"column": 1} and data["covers"] == ["fish"]
    assert data["places"] == [{"column": 1, "covers": ["fish"]}]
    status, data = run(capsys, "check", "meadow", SAMPLE, "--player", "Ada", "--play", "N11",
                       "--on", "2", "--discard", "W26,S12")
    assert data["legal"] is False and [v["rule"] for v in data["violations"]] == ["place"]


def test_check_discovery_and_landscape(capsys: pytest.CaptureFixture[str]) -> None:
    _s, data = run(capsys, "check", "meadow", SAMPLE, "--player", "Ada", "--play", "N45",
                   "--on", "N37", "--discard", "W26,S12")
    assert data["legal"] is True and data["covers"] == ["road"]
    assert data["places"] == [{"landscape": "N37", "covers": ["road"]}]
    _s, data = run(capsys, "check", "meadow", SAMPLE, "--player", "Ada", "--play", "N39")
    assert data["fewest_discards"] == 2
    _s, data = run(capsys, "check", "meadow", SAMPLE, "--player", "Ada", "--play", "N39",
                   "--discard", "W26,S12")
    assert data["places"] == [{"surroundings": True, "covers": []}]
    _s, data = run(capsys, "check", "meadow", SAMPLE, "--player", "Ada", "--play", "N39",
                   "--new-ground", "left")
    assert [v["rule"] for v in data["violations"]] == ["area"]


def test_hint_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, data = run(capsys, "hint", "meadow", SAMPLE, "--player", "Ada")
    assert status == 0
    assert data["player"] == "Ada" and data["count"] == len(data["plays"]) == 5
    by_card = {p["card"]: p for p in data["plays"]}
    assert by_card["W26"] == {"card": "W26", "discards": 0,
                              "places": [{"column": 1, "covers": ["fish"]}]}
    assert by_card["N45"]["discards"] == 2


@pytest.mark.parametrize("argv", [
    ["--player", "Zed", "--play", "N11"],
    ["--player", "Ada", "--play", "S31"],
    ["--player", "Ada", "--play", "N11", "--on", "7"],
    ["--player", "Ada", "--play", "N45", "--on", "W99"],
    ["--player", "Ada", "--play", "N11", "--discard", "N11,W26"],
    ["--player", "Ada", "--play", "N11", "--discard", "S31,W26"],
    ["--player", "Ada", "--play", "N11", "--discard", "W26"],
])
def test_check_refusals_exit_1(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    status, data = run(capsys, "check", "meadow", SAMPLE, *argv)
    assert status == 1 and set(data) == {"error"} and "\n" not in data["error"]


def test_bad_state_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "s.json"
    bad.write_text('{"game": "meadow", "players": [{"name": "A", "hand": ["nope"]}]}')
    status, data = run(capsys, "score", "meadow", str(bad))
    assert status == 1 and "unknown card" in data["error"]


def test_wrong_command_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["check", "meadow", SAMPLE, "--player", "Ada"])
    assert info.value.code == 2
