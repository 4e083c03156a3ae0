"""The state file: the sample start loads, round-trips, and errors name the field."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from companion.errors import InputFileError, StateError
from companion.glass_garden.deck import SAMPLE_START
from companion.glass_garden.state_file import dump_state, load_state, parse_state


def start() -> dict[str, Any]:
    return yaml.safe_load(SAMPLE_START.read_text())


def test_sample_start_is_a_dealt_position() -> None:
    s = load_state(SAMPLE_START)
    assert s.turn == 1 and s.phase == "actions" and s.garden.critter_col == 0
    assert set(s.garden.rows) == {1} and s.garden.grown == 0 and s.deck.sample


def test_round_trip() -> None:
    s = load_state(SAMPLE_START)
    assert parse_state(dump_state(s)) == s


def test_plain_names_and_sunlight_turn() -> None:
    data = start()
    data["garden"] = [p["plant"] for p in data["garden"][1:]] + ["critter"]
    data["turn"] = "sunlight"
    data["glass"] = {"left-top": "sunlight"}
    s = parse_state(data)
    assert s.phase == "sunlight" and s.garden.glass == 1


def edit(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(start())
    data.update(changes)
    return data


@pytest.mark.parametrize(("data", "message"), [
    (edit(turn=12), r"^turn:"),
    (edit(turn=3), r"^garden: on turn 3 the critter is in column 3"),
    (edit(critter="Dragon"), r"^critter: 'Dragon'"),
    (edit(game="the-glade"), r"^game:"),
    (edit(colour="red"), r"^colour: unknown field"),
    (edit(garden=["critter"]), r"^garden: must list the 9 columns"),
    (edit(glass={"middle": "dark"}), r"^glass\.middle"),
    (edit(glass={"left-top": "bright"}), r"^glass\.left-top"),
    (edit(critter_side="up"), r"^critter_side"),
    (edit(actions_left=3), r"^actions_left"),
    (edit(deck="nowhere.yaml"), r"^deck: no deck file"),
    ([1, 2], r"^state:"),
])
def test_errors_name_the_field(data: Any, message: str) -> None:
    with pytest.raises(StateError, match=message):
        parse_state(data)


def test_column_errors() -> None:
    data = start()
    data["garden"][2] = {"plant": "Rose"}
    with pytest.raises(StateError, match=r"^garden\[2\]\.plant: 'Rose'"):
        parse_state(data)
    data = start()
    data["garden"][2] = {"plant": "Aloe", "row": "attic"}
    with pytest.raises(StateError, match=r"^garden\[2\]\.row"):
        parse_state(data)
    data = start()
    data["garden"][2] = dict(data["garden"][3])
    with pytest.raises(StateError, match=r"^garden\[3\]\.plant: .* already in column 2"):
        parse_state(data)
    data = start()
    data["garden"][2] = {"plant": "Aloe", "side": "wet"}
    with pytest.raises(StateError, match=r"^garden\[2\]\.side"):
        parse_state(data)


def test_files(tmp_path: Path) -> None:
    with pytest.raises(InputFileError):
        load_state(tmp_path / "none.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("{")
    with pytest.raises(StateError, match="not valid"):
        load_state(bad)
    deck_err = tmp_path / "s.yaml"
    (tmp_path / "d.yaml").write_text("plants: []\n")
    deck_err.write_text(yaml.safe_dump(edit(deck="d.yaml")))
    with pytest.raises(StateError, match="^deck: d.yaml: plants: the game has exactly 8"):
        load_state(deck_err)


# -- another game's file, and a deck file read within bounds -------------------------------

GLADE_GAME = (Path(__file__).resolve().parents[2] / "config" / "games" / "the-glade"
              / "sample-game.json")


def test_a_glade_state_file_is_named_as_one() -> None:
    with pytest.raises(StateError) as refused:
        load_state(GLADE_GAME)
    message = str(refused.value)
    assert f"{GLADE_GAME} is a the-glade state file, not glass-garden" in message
    assert "unknown field" not in message and "\n" not in message


def test_a_glade_state_without_a_game_field_is_named_too() -> None:
    import json

    data = json.loads(GLADE_GAME.read_text())
    del data["game"]
    with pytest.raises(StateError, match="the-glade state file, not glass-garden"):
        parse_state(data)
    with pytest.raises(StateError, match="^bag: unknown field"):  # both games' fields: field
        parse_state({**start(), "bag": 3})


def test_an_unknown_game_is_named() -> None:
    with pytest.raises(StateError, match="for the game chess .*not glass-garden"):
        parse_state({**start(), "game": "chess"})


def test_a_deep_deck_file_is_refused_as_bad_input(tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text("[" * 100_000 + "]" * 100_000)
    state = tmp_path / "s.yaml"
    state.write_text(yaml.safe_dump({**start(), "deck": "deck.yaml"}))
    with pytest.raises(StateError, match="deck file .*nested more than 64 deep"):
        load_state(state)


def test_a_sunlight_position_read_from_a_file_equals_the_one_reached_in_play() -> None:
    """The state file's reader builds the sunlight phase exactly as the engine reaches it (it
    once had actions_left 0 there, where play has 2), so a saved game compares equal."""
    import random

    state = load_state(SAMPLE_START)
    rng = random.Random(5)
    while state.phase != "sunlight":
        state = state.apply(rng.choice(state.legal_actions()))
    read = parse_state(dump_state(state))
    assert read.phase == "sunlight" and read.actions_left == state.actions_left
    assert read == state
