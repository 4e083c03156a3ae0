"""The command line: help for each subcommand, exit statuses, and one clear line per error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.cli.hooks import Command, existing, state_argument
from companion.cli.parser import build_parser
from companion.games import GameInfo, registry
from companion.paths import PROJECT_ROOT
from companion.report import Report

SUBCOMMANDS = [a for a in build_parser()._subparsers._group_actions[0].choices]  # type: ignore[union-attr]


def test_every_subcommand_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert {"run", "demo", "score", "check", "hint", "scan", "enrol", "assist", "play",
            "games", "config"} <= set(SUBCOMMANDS)
    for name in SUBCOMMANDS:
        with pytest.raises(SystemExit) as info:
            main([name, "--help"])
        assert info.value.code == 0
        assert "usage: companion " + name in capsys.readouterr().out


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2


def test_unknown_game_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["score", "chess", "x.json"])
    assert info.value.code == 2
    assert "unknown game 'chess'; known games: the-glade" in capsys.readouterr().err


def fake_score(state: Path) -> Report:
    data = json.loads(state.read_text())
    return Report({"players": data["players"], "winner": None}, "scored")


FAKE_COMMANDS = {"score": Command("score a fake game", state_argument,
                                   lambda args: fake_score(existing(args.state, "state file")))}


@pytest.fixture
def fake_games(monkeypatch: pytest.MonkeyPatch) -> None:
    able = GameInfo("able", "Able", "able.txt", 1, 2, commands=f"{__name__}:FAKE_COMMANDS")
    unable = GameInfo("unable", "Unable", "unable.txt", 1, 2)
    monkeypatch.setattr(registry, "_REGISTRY", {"able": able, "unable": unable})


def test_job_a_game_cannot_do_yet_is_named(fake_games, capsys) -> None:
    assert main(["score", "unable", "x.json"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == ("companion: Unable cannot score a finished game yet. "
                           "Games that can: Able.")


def test_job_runs_and_prints_text_or_json(fake_games, tmp_path: Path, capsys) -> None:
    state = tmp_path / "s.json"
    state.write_text('{"players": [{"name": "A", "total": 3}]}')
    assert main(["score", "able", str(state)]) == 0
    assert capsys.readouterr().out.strip() == "scored"
    assert main(["score", "able", str(state), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"][0]["total"] == 3


def test_missing_file_is_exit_1_with_json_error(fake_games, capsys) -> None:
    assert main(["score", "able", "/nonexistent/state.json", "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"error": "state file /nonexistent/state.json does not "
                                                 "exist"}
    assert captured.err.startswith("companion: state file /nonexistent/state.json")


def test_a_folder_is_not_a_state_file(fake_games, tmp_path: Path, capsys) -> None:
    assert main(["score", "able", str(tmp_path)]) == 1
    assert "is a folder, not a file" in capsys.readouterr().err


def test_bug_in_a_job_is_one_line_not_a_traceback(fake_games, tmp_path: Path, capsys) -> None:
    state = tmp_path / "s.json"
    state.write_text("{not json")  # fake_score has no error handling: a bug, as seen by users
    assert main(["score", "able", str(state)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion: internal error (JSONDecodeError")
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bad_config_is_exit_1(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "c.yaml"
    bad.write_text("display:\n  driver: crt\n")
    assert main(["config", "--config", str(bad)]) == 1
    assert "display.driver is 'crt'" in capsys.readouterr().err


def test_config_prints_settings(capsys) -> None:
    assert main(["config"]) == 0
    assert "driver: ssd1306" in capsys.readouterr().out


def test_games_lists_every_game(capsys) -> None:
    assert main(["games", "--json"]) == 0
    names = [g["name"] for g in json.loads(capsys.readouterr().out)["games"]]
    assert names == ["the-glade", "glass-garden", "gardlings", "meadow"]


def test_help_does_not_import_heavy_modules() -> None:
    code = ("import sys\nfrom companion.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in ('cv2', 'numpy', 'gpiozero', 'luma', 'PIL') if m in sys.modules]\n"
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_console_script_runs() -> None:
    result = subprocess.run([sys.executable, "-m", "companion", "--version"],
                            capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("companion ")


def test_output_piped_into_head_is_not_a_traceback() -> None:
    result = subprocess.run(f"{sys.executable} -m companion games --json | head -c 1",
                            shell=True, capture_output=True, text=True)
    assert result.stdout == "{" and "Traceback" not in result.stderr


def test_a_real_game_refuses_bad_json_in_one_line(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "state.json"
    bad.write_text('{"game": "the-glade", "players": [}')
    assert main(["score", "the-glade", str(bad), "--json"]) == 1
    captured = capsys.readouterr()
    assert "is not valid JSON" in captured.err and "line 1" in captured.err
    assert "is not valid JSON" in json.loads(captured.out)["error"]


def test_game_help_shows_only_that_games_flags(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["hint", "the-glade", "--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0 and "usage: companion hint the-glade" in out
    assert "--rack" in out and "--seconds" not in out
    with pytest.raises(SystemExit):
        main(["assist", "glass-garden", "--help"])
    out = capsys.readouterr().out
    assert "--seconds" in out and "--rack" not in out and "--player" not in out


def test_verb_help_lists_the_games_that_can(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["assist", "--help"])
    assert "the game: glass-garden" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["play", "glass-garden", "--seed", "-1"],
                                  ["hint", "the-glade", "s.json", "--player", "A", "--rack",
                                   "x", "--limit", "0"],
                                  ["assist", "glass-garden", "s.yaml", "--seconds", "0"],
                                  ["calibrate", "camera", "--frames", "2"]])
def test_flags_out_of_range_are_usage_errors(argv: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "must be" in capsys.readouterr().err


@pytest.mark.parametrize("what", ["camera", "table"])
def test_calibrate_parts_have_their_own_help(what: str, capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["calibrate", what, "--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0 and f"usage: companion calibrate {what}" in out
    assert ("--frames" in out) == (what == "camera") and ("--overlay" in out) == (what == "table")


def test_config_as_json(capsys) -> None:
    assert main(["config", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["config"]["display"]["driver"] == "ssd1306"


def test_json_flag_before_the_game_name(capsys) -> None:
    state = PROJECT_ROOT / "config" / "games" / "glass-garden" / "sample-start.yaml"
    assert main(["score", "--json", "glass-garden", str(state)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"][0]["name"] == "Solo" and data["winner"] == "Solo"


def test_glass_garden_scores_a_state_file(tmp_path: Path, capsys) -> None:
    state = tmp_path / "end.yaml"
    state.write_text("game: glass-garden\ncritter: Fly\nturn: sunlight\ngarden:\n"
                     "  - {plant: Aloe, row: top, side: succulent}\n"
                     "  - {plant: Agave, row: bottom, side: succulent}\n"
                     "  - Lithops\n  - Echeveria\n  - Haworthia\n  - Jade\n  - Kalanchoe\n"
                     "  - Sedum\n  - critter\n")
    assert main(["score", "glass-garden", str(state), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"][0]["total"] == 3
    assert data["players"][0]["breakdown"]["plant:Aloe"] == 2


def test_history_skips_a_damaged_entry(tmp_path: Path, capsys) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(f"data_dir: {tmp_path}\n")
    good = {"game": "the-glade", "finished_at": "2026-11-29T20:00:00+00:00", "winner": "Toni",
            "players": [{"name": "Toni", "total": 24}]}
    (tmp_path / "history.json").write_text(json.dumps(
        {"games": [good, {**good, "finished_at": 12}]}))
    assert main(["history", "--config", str(config), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [g["winner"] for g in data["games"]] == ["Toni"] and data["damaged"] == [2]
