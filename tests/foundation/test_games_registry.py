"""Every registered game keeps the registry's promises: a unique name, a rulebook that exists,
and every job it declares importable and callable."""

from __future__ import annotations

import pytest

from companion.errors import UnknownGameError, UnsupportedJobError
from companion.games import JOBS, all_games, find_game
from companion.paths import PROJECT_ROOT

GAMES = all_games()


def test_the_four_games_in_menu_order() -> None:
    assert [g.name for g in GAMES] == ["the-glade", "glass-garden", "gardlings", "meadow"]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_game_record(game) -> None:
    assert find_game(game.name) is game
    assert 1 <= game.min_players <= game.max_players <= 4
    assert game.rulebook.endswith(".txt")
    rulebooks = PROJECT_ROOT.parent / "shared" / "rulebooks"
    if rulebooks.is_dir():
        assert (rulebooks / game.rulebook).is_file()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_declared_jobs_import(game) -> None:
    for job, command in game.command_table().items():
        assert job in JOBS, f"{game.name} declares unknown job {job}"
        assert command.help and callable(command.run) and callable(command.arguments)
    for job in set(JOBS) - set(game.jobs):
        with pytest.raises(UnsupportedJobError, match=f"{game.title} cannot"):
            game.command(job)


def test_unknown_game() -> None:
    with pytest.raises(UnknownGameError, match="known games: the-glade, glass-garden"):
        find_game("chess")
