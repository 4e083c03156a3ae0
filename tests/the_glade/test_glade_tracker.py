"""The tracker: turn order, phases, refills, and the end of the game."""

from __future__ import annotations

from dataclasses import replace

import pytest
from glade_helpers import TONI_1, T

from companion.the_glade.table import IllegalAction
from companion.the_glade.tracker import Game

SET3 = TONI_1  # a set of 3 covering the centre
LONE = {"D4": "toad/acorn/beech"}


def three(start: str | None = None, supply: dict[str, int] | None = None) -> Game:
    game = Game.new([("Ann", "red"), ("Bob", "blue"), ("Cy", "green")], start_player=start)
    for name, n in (supply or {}).items():
        game.state = game.state.with_player(replace(game.state.player(name), supply=n))
    return game


def turn(game: Game, tiles: dict[str, str] | None = None) -> None:
    game.place(tiles or LONE) if not game.state.player(game.current).forest.tiles else \
        game.place(tiles or {"D5": "toad/blackberry/beech"})
    game.end_turn()


def test_turns_go_clockwise_from_the_start_player() -> None:
    game = three(start="Bob")
    assert game.current == "Bob" and game.state.last_in_round == "Ann"
    turn(game)
    assert game.current == "Cy"
    turn(game)
    assert game.current == "Ann" and game.state.round == 1
    turn(game)
    assert game.current == "Bob" and game.state.round == 2


def test_actions_out_of_turn_or_order_are_refused_with_the_reason() -> None:
    game = three()
    with pytest.raises(IllegalAction, match="it is Ann's turn, not Bob's") as info:
        game.place(LONE, player="Bob")
    assert info.value.code == "not-your-turn"
    with pytest.raises(IllegalAction, match="must take an action") as info:
        game.end_turn()
    assert info.value.code == "action-first"
    game.place(LONE)
    with pytest.raises(IllegalAction, match="action is done") as info:
        game.place({"D5": "toad/blackberry/beech"})
    assert info.value.code == "action-done"
    with pytest.raises(IllegalAction, match="centre square") as info:
        Game.new([("A", "red")]).place({"A1": "toad/acorn/beech"})
    assert info.value.code == "centre"


def test_a_refused_action_leaves_the_game_as_it_was() -> None:
    game = three()
    before, log = game.state, list(game.log_actions)
    with pytest.raises(IllegalAction):
        game.place({"A1": "toad/acorn/beech"})
    assert game.state == before and game.log_actions == log


def test_end_triggered_by_the_middle_player_ends_after_the_last_player() -> None:
    game = three(supply={"Bob": 1})
    turn(game)                     # Ann
    turn(game, SET3)               # Bob places his last counter
    assert game.state.end_triggered and not game.finished
    assert game.current == "Cy"
    turn(game)                     # Cy, to the right of the start player
    assert game.finished
    with pytest.raises(IllegalAction, match="over") as info:
        game.place(LONE)
    assert info.value.code == "game-over"


def test_if_the_player_to_the_right_of_the_start_player_triggers_it_ends_at_once() -> None:
    game = three(supply={"Cy": 1})
    turn(game)
    turn(game)
    turn(game, SET3)               # Cy triggers
    assert game.finished and game.state.round == 2


def test_the_start_player_triggering_gives_everyone_else_a_turn() -> None:
    game = three(supply={"Ann": 1})
    turn(game, SET3)
    assert game.state.end_triggered and not game.finished
    turn(game)
    assert not game.finished
    turn(game)
    assert game.finished
    turns = [p.turns for p in game.state.players]
    assert turns == [1, 1, 1]


def test_bag_that_cannot_refill_a_rack_triggers_the_end() -> None:
    game = three()
    game.state = replace(game.state, bag=2)
    game.place(SET3)               # Ann needs 3 tiles, the bag holds 2
    game.end_turn()
    assert game.state.end_triggered and game.state.bag == 0
    assert game.state.player("Ann").rack_size == 7
    turn(game)
    turn(game)
    assert game.finished


def test_unknown_bag_end_can_be_told() -> None:
    game = three()
    game.state = replace(game.state, bag=None)
    game.place(SET3)
    game.end_turn(cannot_refill=True)
    assert game.state.end_triggered


def test_known_rack_refills_with_the_drawn_tiles() -> None:
    rack = ["hedgehog/acorn/maple", "hedgehog/blackberry/beech", "hedgehog/mushroom/oak",
            "Tab", "Tbb", "Thb", "Tmb", "Mab"]
    game = Game.new([("Toni", "yellow"), ("Emma", "blue")], racks={"Toni": rack})
    with pytest.raises(IllegalAction, match="rack holds no") as info:
        game.place({"D4": "squirrel/acorn/oak"})
    assert info.value.code == "rack"
    game.place(SET3)
    with pytest.raises(IllegalAction, match="must draw 3 tiles") as info:
        game.end_turn(["Sab"])
    assert info.value.code == "draw-count"
    game.end_turn(["Sab", "Sbb", "Shb"])
    toni = game.state.player("Toni")
    assert toni.rack is not None and len(toni.rack) == 8 and T("Sab") in toni.rack
    assert game.state.bag == 128 - 16 - 3


def test_a_player_who_can_do_nothing_passes() -> None:
    game = Game.new([("Toni", "yellow"), ("Emma", "blue")], racks={"Toni": []})
    assert not game.can_act()
    game.end_turn(["Tab", "Tbb", "Thb", "Tmb", "Mab", "Mbb", "Mhb", "Mmb"])
    assert game.current == "Emma" and len(game.state.player("Toni").rack or ()) == 8


def test_the_tracker_lists_placements_and_claims_for_a_known_rack() -> None:
    rack = ["hedgehog/acorn/maple", "hedgehog/blackberry/beech", "hedgehog/mushroom/oak",
            "Tab", "Tbb", "Thb", "Tmb", "Mab"]
    game = Game.new([("Toni", "yellow"), ("Emma", "blue")], racks={"Toni": rack})
    advice = game.placements()
    assert advice and all(a.ruling.legal for a in advice)
    assert game.claims() == []
    game.place(advice[0].ruling.placed)
    assert game.placements() == [] and game.claims() == []


def test_states_can_be_pickled_copied_and_hashed() -> None:
    import copy
    import pickle

    from glade_helpers import toni_game
    state = toni_game(5).state
    assert pickle.loads(pickle.dumps(state)) == state
    assert copy.deepcopy(state) == state
    assert hash(state) == hash(copy.deepcopy(state))
    with pytest.raises(TypeError, match="read-only"):
        state.glade.clear()  # type: ignore[attr-defined]
