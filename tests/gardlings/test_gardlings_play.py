"""The terminal game: a whole scripted game, stop advice, and quitting."""

from __future__ import annotations

import io

import pytest

from companion.errors import StateError
from companion.gardlings.play import play


def test_a_whole_solo_game_answering_1_every_time() -> None:
    out = io.StringIO()
    assert play(seed=2, seats=1, stdin=io.StringIO("1\n" * 3000), stdout=out) == 0
    text = out.getvalue()
    assert "SAMPLE" in text.splitlines()[0]
    assert "Advice: next draw sets off the gnome alarm: 0% (0 of 8 tiles in the bag)" in text
    assert "Gnome alarm!" in text and "Game over." in text
    assert "Result: " in text  # the rulebook's table


def test_two_players_with_a_bot_and_odd_answers() -> None:
    out = io.StringIO()
    answers = "x\n99\n" + "1\n" * 4000
    assert play(seed=1, seats=2, stdin=io.StringIO(answers), stdout=out) == 0
    text = out.getvalue()
    assert "Please type a number" in text
    assert "Bot 1:" in text and "Hiring - you have" in text


def test_quit_and_a_bad_seed() -> None:
    out = io.StringIO()
    assert play(seed=0, seats=1, stdin=io.StringIO("q\n"), stdout=out) == 0
    assert out.getvalue().endswith("Bye.\n")
    with pytest.raises(StateError):
        play(seed=-1, seats=1, stdin=io.StringIO(""), stdout=io.StringIO())


def test_play_from_the_command_line(monkeypatch, capsys) -> None:
    from companion.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("2\nq\n"))
    assert main(["play", "gardlings", "--solo", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "solo game, shuffle #3" in out and out.endswith("Bye.\n")
    with pytest.raises(SystemExit) as info:
        main(["play", "gardlings", "--seed", "-1"])
    assert info.value.code == 2 and "--seed must be 0 or more" in capsys.readouterr().err
