"""The command line: score, check and hint print the spec's JSON; refusals are one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gardlings_helpers import MARIA, garden, player, state_data, write_state

from companion.cli import main
from companion.games import find_game

SPEC_MARIA = {"players": [{
    "name": "Maria", "gems": {"plain": 7, "triple": 0, "bonus": 0, "mission": 0, "total": 7},
    "gnomes": 5, "dragons": 0, "gnome_ignored": False, "alarm": True, "stolen": 3, "total": 4,
    "lucky_piglets": 1, "ponds": 0, "coins": {"held": 3, "piglets": 0, "ponds": 0, "total": 3},
    "money": 7, "buy": [{"stack": "blue-2", "cost": 7, "coins_spent": 3, "reward": True},
                        {"stack": "green-1", "cost": 4, "coins_spent": 0, "reward": False}],
    "piglet": True, "mutate": [], "victory": False}], "winner": None}
MARIA_ROW = "P1@0,0 N1@1,0 N2@2,0 N3@3,0 N4@4,0 N5@5,0 G1@6,0 G2@7,0"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    status = main([*argv, "--json"])
    out = capsys.readouterr().out
    return status, json.loads(out)


def test_registered_jobs() -> None:
    game = find_game("gardlings")
    assert game.jobs == ("score", "check", "hint", "play")
    assert not game.command("play").json


def test_score_is_the_specs_maria(capsys) -> None:
    status, data = run(capsys, "score", "gardlings", str(MARIA))
    assert status == 0 and data == SPEC_MARIA


def test_score_text(capsys) -> None:
    assert main(["score", "gardlings", str(MARIA)]) == 0
    text = capsys.readouterr().out
    assert "Maria: 7 gems, gnome alarm: -3 = 4" in text and "blue-2 (7, 3 coins" in text


def test_score_of_the_bundled_sample_says_sample(capsys) -> None:
    path = Path("config/games/gardlings/sample-round.json")
    status, data = run(capsys, "score", "gardlings", str(path))
    assert status == 0 and data["sample_catalogue"] is True
    assert [p["name"] for p in data["players"]] == ["Maria", "Tom"]


def _pair(tmp_path: Path, before: str, after: str, **extra) -> tuple[str, str]:
    b = write_state(tmp_path / "before.json", state_data(player("Maria", garden(before),
                                                                **extra)))
    a = write_state(tmp_path / "after.json", state_data(player("Maria", garden(after),
                                                               **extra)))
    return str(b), str(a)


def test_check_marias_gnome_alarm(tmp_path: Path, capsys) -> None:
    status, data = run(capsys, "check", "gardlings",
                       *_pair(tmp_path, MARIA_ROW, MARIA_ROW + " N7@8,0"))
    assert status == 0  # an illegal action is a successful ruling
    assert data["legal"] is False and data["alarm"] is True and data["redraw"] is False
    assert [v["rule"] for v in data["violations"]] == ["alarm"]
    assert data["action"] == "place" and data["tile"] == "N7" and data["cells"] == [[8, 0]]


def test_check_a_legal_placement_and_the_gems_it_completes(tmp_path: Path, capsys) -> None:
    _status, data = run(capsys, "check", "gardlings",
                       *_pair(tmp_path, "M@0,0 A@0,1", "M@0,0 A@0,1 B@2,0"))
    assert data["legal"] is True and data["violations"] == []
    assert data["gems"] == 2  # the pink and the blue gem on B's left side
    assert sorted(c["cells"] for c in data["completed"]) == [[[1, 0], [2, 0]],
                                                             [[1, 1], [2, 1]]]
    assert all(c["value"] == 1 for c in data["completed"])


def test_check_reports_each_mismatched_edge(tmp_path: Path, capsys) -> None:
    _s, data = run(capsys, "check", "gardlings",
                   *_pair(tmp_path, "N1@0,0 N2@1,0", "N1@0,0 N2@1,0 A@0,1"))
    assert data["legal"] is False and data["gems"] == 0 and data["completed"] == []
    assert [v["rule"] for v in data["violations"]] == ["edge", "edge"]
    first = data["violations"][0]
    assert first["edges"] == ["blue", "empty"] and len(first["cells"]) == 2


@pytest.mark.parametrize(("before", "after", "code"), [
    ("N1@0,0", "N1@0,0 N2@0,0", "overlap"),
    ("N1@0,0", "N1@0,0 N2@2,2", "not-touching"),
    ("P2@0,0 P3@1,0", "P2@0,0 P3@0,1", "not-unicorn"),
])
def test_check_codes(tmp_path: Path, capsys, before: str, after: str, code: str) -> None:
    _s, data = run(capsys, "check", "gardlings", *_pair(tmp_path, before, after))
    assert [v["rule"] for v in data["violations"]] == [code]


def test_check_a_unicorn_move_that_splits(tmp_path: Path, capsys) -> None:
    _s, data = run(capsys, "check", "gardlings",
                   *_pair(tmp_path, "P2@0,0 G6@1,0 P3@2,0", "P2@0,0 G6@0,1 P3@2,0"))
    assert data["action"] == "move" and [v["rule"] for v in data["violations"]] == ["split"]
    assert data["violations"][0]["cells"] == [[2, 0]]


def test_check_after_an_alarm_is_stopped_but_a_unicorn_may_move(tmp_path: Path,
                                                                capsys) -> None:
    _s, data = run(capsys, "check", "gardlings",
                   *_pair(tmp_path, "P2@0,0", "P2@0,0 P3@1,0", alarm="N7"))
    assert [v["rule"] for v in data["violations"]] == ["stopped"]
    _s, data = run(capsys, "check", "gardlings",
                   *_pair(tmp_path, "P2@0,0 P3@1,0 G6@2,0", "P2@0,0 P3@1,0 G6@0,1",
                          alarm="N7"))
    assert data["legal"] is True and data["action"] == "move"


def test_check_redraw_with_the_unused_second_draw_mission(tmp_path: Path, capsys) -> None:
    row = "X7@0,0 N1@2,0 N2@3,0 N3@4,0 N4@5,0 N5@6,0"
    _s, data = run(capsys, "check", "gardlings",
                   *_pair(tmp_path, row, row + " N6@7,0", mission="X7"))
    assert data["alarm"] is True and data["redraw"] is True


def test_check_refuses_anything_but_one_tile(tmp_path: Path, capsys) -> None:
    before, after = _pair(tmp_path, "N1@0,0", "N1@0,0 N2@1,0 N3@2,0")
    assert main(["check", "gardlings", before, after]) == 1
    err = capsys.readouterr().err
    assert "add one tile" in err and len(err.strip().splitlines()) == 1


def test_hint_lists_every_legal_placement_most_gems_first(tmp_path: Path, capsys) -> None:
    path = write_state(tmp_path / "s.json", state_data(player("Maria", garden("M@0,0 A@0,1"))))
    status, data = run(capsys, "hint", "gardlings", str(path), "--player", "Maria",
                       "--tile", "B")
    assert status == 0 and data["player"] == "Maria" and data["tile"] == "B"
    assert data["alarm"] is False and data["redraw"] is False
    assert data["count"] == len(data["placements"]) > 0
    gems = [p["gems"] for p in data["placements"]]
    assert gems == sorted(gems, reverse=True)
    assert data["placements"][0] == {"cell": [2, 0], "rotation": 0, "gems": 2}
    _s, limited = run(capsys, "hint", "gardlings", str(path), "--player", "Maria",
                      "--tile", "B", "--limit", "1")
    assert limited["count"] == data["count"] and len(limited["placements"]) == 1


def test_hint_counts_a_bonus_gem_completed_on_a_neighbour(tmp_path: Path, capsys) -> None:
    path = write_state(tmp_path / "s.json", state_data(player("Maria", garden("M@0,0 B@2,0"))))
    _s, data = run(capsys, "hint", "gardlings", str(path), "--player", "Maria", "--tile", "A")
    # A under M and beside B: 3 edge gems and M's lower bonus gem (the example's 5 in all)
    assert data["placements"][0] == {"cell": [0, 1], "rotation": 0, "gems": 4}


def test_hint_on_an_empty_garden_and_with_an_alarm(tmp_path: Path, capsys) -> None:
    path = write_state(tmp_path / "s.json", state_data(
        player("Maria", garden("")), player("Tom", garden(MARIA_ROW))))
    _s, data = run(capsys, "hint", "gardlings", str(path), "--player", "Maria", "--tile", "P2")
    assert {tuple(p["cell"]) for p in data["placements"]} == {(0, 0)}
    _s, data = run(capsys, "hint", "gardlings", str(path), "--player", "Tom", "--tile", "N7")
    assert data["alarm"] is True and data["count"] == 0 and data["placements"] == []


@pytest.mark.parametrize(("change", "words"), [
    ({"players": [{"name": "A", "garden": [{"tile": "Q9", "cell": [0, 0]}]}]},
     "players[0].garden[0].tile"),
    ({"players": [{"name": "A", "garden": [{"tile": "N1", "cell": [0, 0], "rotation": 45}]}]},
     "players[0].garden[0].rotation"),
    ({"players": [{"name": "A", "garden": [{"tile": "N1", "cell": [0, 0]},
                                           {"tile": "N2", "cell": [0, 0]}]}]},
     "players[0].garden[1]"),
    ({"players": [{"name": "A", "garden": [{"tile": "N1", "cell": [0, 0]},
                                           {"tile": "N1", "cell": [1, 0]}]}]}, "twice"),
    ({"players": [{"name": "A", "mission": "X1", "garden": []}]}, "players[0].mission"),
    ({"players": [{"name": "A", "garden": [{"tile": "N1", "cell": ["a", 0]}]}]},
     "players[0].garden[0].cell"),
    ({"players": [{"name": "A", "garden": []}], "game": "the-glade"}, "the-glade"),
    ({"players": [{"name": "A", "garden": []}], "market": {"stacks": {"red-1": {}}}},
     "market.stacks.red-1"),
])
def test_bad_state_files_are_one_line_naming_the_field(tmp_path: Path, capsys, change: dict,
                                                       words: str) -> None:
    data = {**state_data(), **change}
    path = write_state(tmp_path / "s.json", data)
    assert main(["score", "gardlings", str(path)]) == 1
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_hint_refuses_an_unknown_player_or_a_laid_tile(tmp_path: Path, capsys) -> None:
    path = write_state(tmp_path / "s.json", state_data(player("Maria", garden("N1@0,0"))))
    assert main(["hint", "gardlings", str(path), "--player", "Bob", "--tile", "N2"]) == 1
    assert "--player" in capsys.readouterr().err
    assert main(["hint", "gardlings", str(path), "--player", "Maria", "--tile", "N1"]) == 1
    assert "already lies" in capsys.readouterr().err


def test_another_games_file_is_named(tmp_path: Path, capsys) -> None:
    path = write_state(tmp_path / "s.json", {"critter": "Fly", "turn": 1, "garden": []})
    assert main(["score", "gardlings", str(path)]) == 1
    err = capsys.readouterr().err
    assert "glass-garden state file, not gardlings" in err
