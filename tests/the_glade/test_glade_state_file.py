"""State files: JSON and YAML, round trips, and refusals that name the field."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from glade_helpers import toni_game

from companion.errors import InputFileError, StateError
from companion.the_glade.state_file import dump_state, load_state, load_state_file

CONFIG = Path(__file__).resolve().parents[2] / "config" / "games" / "the-glade"

SPEC_EXAMPLE = {
    "game": "the-glade", "variant": "matching",
    "board": {"rows": 7, "cols": 7, "centre": "D4"},
    "players": [{
        "name": "Toni", "colour": "yellow", "supply": 4,
        "forest": {"tiles": {"D4": "hedgehog/acorn/oak", "D5": "hedgehog/mushroom/maple",
                             "C3": "toad/blackberry/beech", "E3": "toad/hazelnut/horse-chestnut",
                             "D2": "toad/hazelnut/oak", "C4": "hedgehog/blackberry/beech",
                             "E4": "hedgehog/hazelnut/horse-chestnut"},
                   "counters": {"D3": "blue-double"}},
        "store": ["yellow-single", "blue-double"],
        "match_counters": [{"kind": "leaf", "value": 4},
                           {"kind": "creature", "value": 1}]},
        {"name": "Emma", "colour": "blue", "supply": 10}],
    "glade": {"hedgehog/hazelnut/horse-chestnut": "yellow-single"},
}


def test_spec_like_example_loads() -> None:
    state = load_state(SPEC_EXAMPLE)
    toni = state.player("Toni")
    assert toni.supply == 4 and len(toni.forest.tiles) == 7
    assert len(toni.match_counters) == 2


def test_round_trip_of_a_tracked_game() -> None:
    game = toni_game(5)
    game.extra_action("yellow-double", "D3")
    data = json.loads(json.dumps(dump_state(game.state)))
    assert load_state(data) == game.state


def test_yaml_is_read_too(tmp_path: Path) -> None:
    import yaml
    path = tmp_path / "state.yaml"
    path.write_text(yaml.safe_dump(SPEC_EXAMPLE))
    assert load_state_file(path) == load_state(SPEC_EXAMPLE)


def test_sample_games_load_and_are_finished() -> None:
    for name in ("sample-game.json", "sample-matching-game.json"):
        state = load_state_file(CONFIG / name)
        assert state.finished
        for p in state.players:
            assert state.colour_total(p.colour) == 12


def bad(path: str, value: object) -> dict:
    data = copy.deepcopy(SPEC_EXAMPLE)
    cur = data
    keys = path.split(".")
    for k in keys[:-1]:
        cur = cur[int(k)] if isinstance(cur, list) else cur[k]
    last = keys[-1]
    if value is KeyError:
        del cur[last]
    elif isinstance(cur, list):
        cur[int(last)] = value
    else:
        cur[last] = value
    return data


@pytest.mark.parametrize("path, value, words", [
    ("players.0.forest.tiles.D4", "hedgehog/acorn/pine",
     "players[0].forest.tiles.D4: unknown leaf"),
    ("players.0.forest.tiles.D4", "unicorn/acorn/oak", "unknown creature"),
    ("players.0.forest.tiles.H9", "toad/acorn/beech", "H9 is off the 7x7 board"),
    ("players.0.forest.counters.D4", "red-single", "two things on one square"),
    ("players.0.forest.counters.A1", "blue-single", "which is no enclosure"),
    ("players.0.forest.counters.F5", "blue-single", "no tile on"),
    ("players.0.supply", 13, "players[0].supply is 13, but must be 0-12"),
    ("players.0.supply", "four", "players[0].supply must be a whole number"),
    ("players.0.colour", 7, "players[0].colour must be a non-empty text"),
    ("players.0.store", "yellow-single", "players[0].store must be a list"),
    ("players.0.store.0", "yellow-triple", "players[0].store[0]"),
    ("players.0.match_counters.0", {"kind": "leaf", "value": 5}, "value is 5, but must be 1-4"),
    ("players.0.match_counters.0", {"kind": "tree", "value": 1}, "kind must be one of"),
    ("players.0.match_counters.1", {"kind": "creature", "value": 2}, "is worth 1"),
    ("players.0.match_counters.1", {"kind": "creature", "value": 1, "square": "A1"},
     "no enclosure"),
    ("players.0.nickname", "T", "unknown field"),
    ("glade.dragon/acorn/oak", "blue-single", "glade.dragon/acorn/oak: unknown creature"),
    ("glade.toad/acorn/oak", "green-single", "no player has that colour"),
    ("variant", "winter", "variant must be one of"),
    ("board", {"rows": 7, "cols": "seven"}, "board.cols must be a whole number"),
    ("players", [], "players: the list is empty"),
    ("players.1.name", "Toni", "2 players have the name 'Toni'"),
    ("players.1.colour", "yellow", "2 players have the colour 'yellow'"),
    ("players.0.forest", {"tiles": {"A1": "toad/acorn/oak"}}, "none on the centre square D4"),
    ("players.0.forest.tiles.D6", "toad/mushroom/beech", "is no set"),
    ("start_player", "Zed", "start_player 'Zed' is not one of the players"),
    ("players.0.rack", ["toad/acorn/oak"] * 9, "a rack holds at most 8"),
])
def test_bad_state_files_are_refused_naming_the_field(path: str, value: object, words: str
                                                     ) -> None:
    with pytest.raises(StateError, match=words.replace("[", r"\[").replace("]", r"\]")):
        load_state(bad(path, value))


def test_more_than_12_counters_of_one_colour() -> None:
    data = bad("players.1.supply", 12)
    data["glade"]["toad/acorn/oak"] = "blue-single"
    with pytest.raises(StateError, match="15 blue counters are in play"):
        load_state(data)


def test_more_than_two_copies_of_a_tile() -> None:
    data = bad("players.1.forest", {"tiles": {"D4": "toad/blackberry/beech",
                                              "D5": "toad/blackberry/beech"}})
    with pytest.raises(StateError, match="3 copies of toad/blackberry/beech"):
        load_state(data)


def test_match_counters_outside_the_matching_game() -> None:
    with pytest.raises(StateError, match="only in the matching game"):
        load_state(bad("variant", "basic"))


def test_duplicate_keys_are_two_things_on_one_square(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text('{"players": [{"name": "A", "colour": "red", "forest": {"tiles": '
                    '{"D4": "toad/acorn/oak", "D4": "toad/acorn/beech"}}}]}')
    with pytest.raises(StateError, match="appears twice"):
        load_state_file(path)
    ypath = tmp_path / "s.yaml"
    ypath.write_text("players:\n- name: A\n  colour: red\n  forest:\n    tiles:\n"
                     "      D4: toad/acorn/oak\n      D4: toad/acorn/beech\n")
    with pytest.raises(StateError, match="appears twice"):
        load_state_file(ypath)


def test_missing_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="does not exist"):
        load_state_file(tmp_path / "nope.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(StateError, match="not valid JSON"):
        load_state_file(broken)
    not_object = tmp_path / "list.yaml"
    not_object.write_text("- 1\n- 2\n")
    with pytest.raises(StateError, match="must be an object"):
        load_state_file(not_object)


def test_solo_state_allows_one_neutral_colour() -> None:
    data = {"variant": "solo", "neutral": "grey",
            "players": [{"name": "Sol", "colour": "yellow", "supply": 12, "turns": 3}],
            "glade": {"toad/acorn/oak": "grey-single", "toad/acorn/beech": "grey-single"},
            "boxed": 10}
    state = load_state(data)
    assert state.neutral == "grey" and state.players[0].turns == 3
    data["boxed"] = 11
    with pytest.raises(StateError, match="13 grey counters"):
        load_state(data)
    data["boxed"] = 0
    data["glade"]["toad/acorn/maple"] = "pink-single"
    with pytest.raises(StateError, match="one neutral colour"):
        load_state(data)


def test_bag_and_tiles_in_play_cannot_exceed_128() -> None:
    data = copy.deepcopy(SPEC_EXAMPLE)
    data["bag"] = 120
    with pytest.raises(StateError, match="more than the game's 128"):
        load_state(data)
    data["bag"] = 100
    assert load_state(data).bag == 100
