"""Another game's state file is named as that game's, by its game field or by its fields."""

from __future__ import annotations

import pytest

from companion.errors import StateError
from companion.games import all_games
from companion.games.state_files import not_ours, other_game, refuse_other_game

GLADE_FIELDS = {"game", "players", "round", "phase"}


def test_the_game_field_decides() -> None:
    assert other_game({"game": "the-glade", "critter": "Fly"}, "the-glade", GLADE_FIELDS) is None
    assert other_game({"game": "chess"}, "the-glade", GLADE_FIELDS) == "chess"


def test_without_a_game_field_the_fields_decide() -> None:
    assert other_game({"critter": "Fly", "garden": []}, "the-glade", GLADE_FIELDS) \
        == "glass-garden"
    # sharing a field with the reader's own game: the reader names the bad fields instead
    assert other_game({"critter": "Fly", "players": []}, "the-glade", GLADE_FIELDS) is None
    assert other_game({"nothing": 1}, "the-glade", GLADE_FIELDS) is None
    assert other_game([1, 2], "the-glade", GLADE_FIELDS) is None


def test_every_registered_games_fields_point_back_to_it() -> None:
    """A file holding all of one game's fields but its game field is named as that game's by
    every other game's reader (games that declare their fields)."""
    games = [g for g in all_games() if g.state_fields]
    assert {"the-glade", "glass-garden"} <= {g.name for g in games}
    for g in games:
        data = {f: None for f in g.state_fields - {"game"}}
        for reader in all_games():
            if reader.name != g.name:
                assert other_game(data, reader.name, set()) == g.name, (g.name, reader.name)


def test_the_refusal_names_the_game_and_its_commands() -> None:
    error = not_ours("the-glade", "glass-garden", "old.json")
    assert str(error).startswith("old.json is a the-glade state file, not glass-garden")
    assert "'companion score the-glade'" in str(error)
    odd = not_ours("x" * 200, "the-glade")
    assert len(str(odd)) < 200 and "\n" not in str(odd)
    with pytest.raises(StateError):
        refuse_other_game({"game": "meadow"}, "the-glade", GLADE_FIELDS)
