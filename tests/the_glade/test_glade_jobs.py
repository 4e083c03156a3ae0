"""The jobs the command line calls: score, check and hint, from files."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from glade_helpers import TONI_1, TONI_2, TONI_4, tiles, toni_game

from companion.errors import CompanionError, InputFileError, StateError
from companion.the_glade import jobs
from companion.the_glade.state_file import dump_state

CONFIG = Path(__file__).resolve().parents[2] / "config" / "games" / "the-glade"
BOARD = {"rows": 7, "cols": 7, "centre": "D4"}


def write(tmp_path: Path, name: str, data: object) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def forest_file(tmp_path: Path, name: str, tiles: dict, counters: dict | None = None) -> Path:
    return write(tmp_path, name, {"board": BOARD,
                                  "forest": {"tiles": tiles, "counters": counters or {}}})


def test_score_sample_game() -> None:
    report = jobs.score(CONFIG / "sample-game.json")
    data = report.data
    assert {p["name"] for p in data["players"]} >= {"Toni", "Emma"}
    assert data["winner"] == max(data["players"], key=lambda p: p["total"])["name"]
    for p in data["players"]:
        assert sum(p["breakdown"].values()) == p["total"]
    assert "Winner" in report.text


def test_score_warns_about_missing_counters(tmp_path: Path) -> None:
    state = {"players": [{"name": "A", "colour": "red", "supply": 3}]}
    report = jobs.score(write(tmp_path, "s.json", state))
    assert "only 3 of A's 12 red counters" in report.data["warnings"][0]


def test_check_legal_placement_forest_files(tmp_path: Path) -> None:
    before = forest_file(tmp_path, "b.json", TONI_1)
    after = forest_file(tmp_path, "a.json", {**TONI_1, **TONI_2})
    data = jobs.check(before, after).data
    assert data["legal"] is True and data["placed"] == ["A3", "B3", "C3"]
    assert data["violations"] == []
    assert data["sets_of_3"] == [{"squares": ["A3", "B3", "C3"],
                                  "missing": "hedgehog/mushroom/beech", "side": "single",
                                  "shared": 1}]
    assert data["sets_of_4"] == [] and data["enclosures"] == []


def test_check_illegal_placement_is_a_ruling_not_an_error(tmp_path: Path) -> None:
    before = forest_file(tmp_path, "b.json", {"C2": "hedgehog/acorn/beech",
                                              "C3": "hedgehog/blackberry/oak",
                                              "D4": "hedgehog/hazelnut/oak"})
    after = forest_file(tmp_path, "a.json", {"C2": "hedgehog/acorn/beech",
                                             "C3": "hedgehog/blackberry/oak",
                                             "D4": "hedgehog/hazelnut/oak",
                                             "C4": "hedgehog/acorn/maple"})
    report = jobs.check(before, after)
    assert report.data["legal"] is False
    (v,) = report.data["violations"]
    assert v == {"rule": "set", "squares": ["C2", "C3", "C4"],
                 "message": "C4 makes column C three hedgehogs with two acorns"}
    assert "Illegal" in report.text


def test_check_full_state_files_use_the_first_player_and_list_counters(tmp_path: Path) -> None:
    game = toni_game(3)
    before = write(tmp_path, "b.json", dump_state(game.state))
    toni = game.state.player("Toni")
    after_state = game.state.with_player(replace(toni, forest=toni.forest.with_tiles(
        tiles(TONI_4))))
    after = write(tmp_path, "a.json", dump_state(after_state))
    data = jobs.check(before, after).data
    assert data["legal"] and data["enclosures"] == ["D3"]
    back = [c for c in data["counters"] if c["to"] == "store:Emma"]
    assert back and back[0]["counter"] == "blue-double"


def test_check_on_a_finished_game_rules_the_placement_out(tmp_path: Path) -> None:
    """A placement that fits the board is still illegal once the game is over."""
    game = toni_game(3)
    toni = game.state.player("Toni")
    after_state = game.state.with_player(replace(toni, forest=toni.forest.with_tiles(
        tiles(TONI_4))))
    before = write(tmp_path, "b.json", dump_state(replace(game.state, finished=True)))
    after = write(tmp_path, "a.json", dump_state(replace(after_state, finished=True)))
    data = jobs.check(before, after).data
    assert not data["legal"] and [v["rule"] for v in data["violations"]] == ["game-over"]
    assert data["sets_of_3"] == data["sets_of_4"] == data["enclosures"] == []
    assert "counters" not in data


@pytest.mark.parametrize("after_tiles, error", [
    ({"C4": "hedgehog/acorn/maple"}, "gone"),
    ({**TONI_1, "D4": "toad/acorn/oak"}, "never move"),
])
def test_check_refuses_tiles_moved_or_removed(tmp_path: Path, after_tiles: dict, error: str
                                              ) -> None:
    before = forest_file(tmp_path, "b.json", TONI_1)
    after = forest_file(tmp_path, "a.json", after_tiles)
    with pytest.raises(StateError, match=error):
        jobs.check(before, after)


def test_check_refuses_unusable_files(tmp_path: Path) -> None:
    good = forest_file(tmp_path, "b.json", TONI_1)
    with pytest.raises(InputFileError):
        jobs.check(tmp_path / "missing.json", good)
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(StateError, match="bad.json is not valid JSON"):
        jobs.check(good, bad)
    odd = forest_file(tmp_path, "odd.json", {"Z9": "hedgehog/acorn/oak"})
    with pytest.raises(CompanionError, match="Z9"):
        jobs.check(good, odd)


def test_hint_lists_every_placement_once_best_first_and_counts_past_the_limit(
        tmp_path: Path) -> None:
    game = toni_game(1)
    path = write(tmp_path, "s.json", dump_state(game.state))
    rack = ["toad/hazelnut/beech", "toad/hazelnut/beech", "squirrel/blackberry/beech",
            "mouse/acorn/beech"]
    full = jobs.hint(path, player="Toni", rack=rack, limit=None).data
    short = jobs.hint(path, player="Toni", rack=rack, limit=2).data
    assert full["count"] == short["count"] == len(full["placements"]) > 2
    assert len(short["placements"]) == 2
    keys = [json.dumps(p["tiles"], sort_keys=True) for p in full["placements"]]
    assert len(keys) == len(set(keys))
    points = [p["points"] for p in full["placements"]]
    assert points == sorted(points, reverse=True)
    best = full["placements"][0]
    assert set(best) >= {"tiles", "sets_of_3", "sets_of_4", "enclosures", "points"}


def test_hint_refuses_unknown_player_and_bad_rack(tmp_path: Path) -> None:
    path = write(tmp_path, "s.json", dump_state(toni_game(1).state))
    with pytest.raises(StateError, match="no player called 'Zed'"):
        jobs.hint(path, player="Zed", rack=["Hab"], limit=None)
    with pytest.raises(StateError, match=r"rack\[0\]"):
        jobs.hint(path, player="Toni", rack=["dragon/acorn/oak"], limit=None)
    with pytest.raises(StateError, match="only 2 of each tile"):
        jobs.hint(path, player="Toni", rack=["Hab", "Hab", "Hab"], limit=None)
    with pytest.raises(StateError, match="forest boards"):
        jobs.hint(path, player="Toni", rack=["hedgehog/acorn/maple"] * 2, limit=None)


def test_check_reads_yaml_files_too(tmp_path: Path) -> None:
    import yaml
    before = tmp_path / "before.yaml"
    after = tmp_path / "after.yml"
    before.write_text(yaml.safe_dump({"board": BOARD, "forest": {"tiles": TONI_1}}))
    after.write_text(yaml.safe_dump({"board": BOARD, "forest": {"tiles": {**TONI_1, **TONI_2}}}))
    assert jobs.check(before, after).data["legal"] is True


def test_check_with_nothing_placed_is_a_ruling(tmp_path: Path) -> None:
    same = forest_file(tmp_path, "b.json", TONI_1)
    data = jobs.check(same, same).data
    assert data["legal"] is False and data["violations"][0]["rule"] == "count"


def test_sample_check_files_rule_as_documented() -> None:
    before = CONFIG / "sample-check-before.json"
    legal = jobs.check(before, CONFIG / "sample-check-after.json").data
    assert legal["legal"] and legal["enclosures"] == ["D3"] and len(legal["sets_of_3"]) == 2
    illegal = jobs.check(before, CONFIG / "sample-check-illegal.json").data
    assert [v["message"] for v in illegal["violations"]] == [
        "C5 and D5 make row 5 three tiles with two toads and two dark brown leaves",
        "C5 makes column C three tiles with acorns, but two are hedgehogs"]
