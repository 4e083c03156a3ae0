"""The assist and play jobs, called as the command line calls them."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
import yaml

from companion.errors import CompanionError, InputFileError, StateError
from companion.games import find_game
from companion.glass_garden.deck import SAMPLE_START
from companion.glass_garden.jobs import assist, play
from companion.report import Report


def test_registered_jobs() -> None:
    game = find_game("glass-garden")
    assert game.jobs == ("score", "enrol", "scan", "assist", "play")
    assert game.command("assist").json and not game.command("play").json


def test_assist_on_the_sample_start() -> None:
    report = assist(SAMPLE_START, seconds=0.5)
    assert isinstance(report, Report)
    data = report.data
    json.dumps(data)  # JSON-ready
    assert data["sample_deck"] is True and "SAMPLE" in data["warning"] and "SAMPLE" in report.text
    assert data["turn"] == 1 and len(data["plan"]) == 10  # 9 dark turns + sunlight
    assert data["plan"][-1]["turn"] == "sunlight"
    assert data["score"] == data["plan"][-1]["score_after"]
    assert data["bound"] >= data["score"] >= data["greedy_score"]
    assert data["optimal"] == (data["score"] == data["bound"])
    assert data["best_turn"] == {k: data["plan"][0][k] for k in data["best_turn"]}
    assert len(data["best_turn"]["actions"]) <= 2
    assert "Best turn:" in report.text and "Plan:" in report.text
    assert ("optimal" in report.text) == data["optimal"] or not data["optimal"]


def test_assist_from_the_sunlight_phase(tmp_path: Path) -> None:
    data = yaml.safe_load(SAMPLE_START.read_text())
    garden = data["garden"][1:]
    for col in garden:
        col["side"] = "succulent"
    garden[0]["row"] = "bottom"
    data["garden"] = [*garden, "critter"]
    data["turn"] = "sunlight"
    data["glass"] = {"left-top": "sunlight"}
    path = tmp_path / "sun.yaml"
    path.write_text(yaml.safe_dump(data))
    report = assist(path, seconds=1)
    assert report.data["score"] == 10 and report.data["optimal"]
    assert report.data["plan"][0]["turn"] == "sunlight"


def test_assist_errors_are_companion_errors(tmp_path: Path) -> None:
    with pytest.raises(InputFileError):
        assist(tmp_path / "missing.yaml", seconds=1)
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: glass-garden\ncritter: Fly\nturn: 0\n")
    with pytest.raises(StateError, match="^turn"):
        assist(bad, seconds=1)
    with pytest.raises(CompanionError):
        assist(SAMPLE_START, seconds=0)


def run_play(lines: list[str], seed: int = 3) -> tuple[int, str]:
    out = io.StringIO()
    status = play(seed=seed, stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out,
                  advice_seconds=0.2)
    return status, out.getvalue()


def test_play_quits_on_q() -> None:
    status, text = run_play(["1", "q"])
    assert status == 0 and "SAMPLE" in text and "Quit with score 0" in text


def test_play_a_whole_game_by_always_choosing_the_last_option() -> None:
    # the last option is "done" (or skip) wherever there is one: nine quiet turns
    answers = ["2"] + ["99", "x"] + ["last"] * 200
    out = io.StringIO()

    class LastChooser(io.StringIO):
        def readline(self, *args: object) -> str:  # type: ignore[override]
            line = super().readline()
            if line.strip() != "last":
                return line
            # the options are in columns, numbered down each: the highest number is the last
            menu = out.getvalue().rsplit("Options:", 1)[-1].split("Choose", 1)[0]
            numbers = [int(n) for n in re.findall(r"(\d+)\. ", menu)]
            return (str(max(numbers)) if numbers else "1") + "\n"

    status = play(seed=5, stdin=LastChooser("\n".join(answers) + "\n"), stdout=out)
    text = out.getvalue()
    assert status == 0
    assert "Please type a number" in text
    assert "Game over: 0 points - Dirt Farmer!" in text


def test_play_gives_advice_and_survives_end_of_input() -> None:
    status, text = run_play(["", "a"])
    assert status == 0
    assert "Best turn:" in text and "Quit with score 0" in text
