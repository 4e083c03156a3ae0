"""Enclosures and extra actions: a store counter into an empty enclosure, then act again."""

from __future__ import annotations

import pytest
from glade_helpers import S, T, toni_game, with_forest

from companion.the_glade.names import Counter, MatchCounter
from companion.the_glade.scoring import player_breakdown
from companion.the_glade.table import IllegalAction


def test_toni_plays_her_double_into_the_enclosure_and_acts_again() -> None:
    game = toni_game(5)
    assert game.extra_options() == [(Counter("yellow", "double"), S("D3"))]
    game.extra_action("yellow-double", "D3")
    toni = game.state.player("Toni")
    assert toni.forest.counters[S("D3")] == Counter("yellow", "double")  # same side
    assert toni.store == ()
    assert game.phase == "extra"
    with pytest.raises(IllegalAction, match="must now take another action"):
        game.end_turn()
    game.place({"A4": "toad/hazelnut/maple"})  # under A3 (shares toad, hazelnut)
    game.end_turn()
    assert game.current == "Emma"


def test_an_enclosure_created_on_a_previous_turn_can_be_used() -> None:
    game = toni_game(4)  # D3 became an enclosure on turn 4, store empty
    assert game.extra_options() == []
    game.end_turn()
    game.place({"B7": "toad/acorn/beech"})
    game.end_turn()
    game.place({"E6": "mouse/mushroom/oak", "F6": "toad/mushroom/maple"})
    assert game.extra_options() == [(Counter("yellow", "double"), S("D3"))]


def test_another_players_colour_may_go_in_and_scores_three() -> None:
    game = toni_game(5)
    game.state = game.state.add_to_store("Toni", Counter("blue", "single"))
    game.extra_action("blue-single", "D3")
    toni = game.state.player("Toni")
    assert player_breakdown(game.state, toni)["toadstools_in_enclosures"] == 3
    emma = game.state.player("Emma")
    assert player_breakdown(game.state, emma)["toadstools_claimed_by_others"] >= 1


def test_only_one_counter_per_enclosure_and_only_enclosures() -> None:
    game = toni_game(5)
    game.state = game.state.add_to_store("Toni", Counter("yellow", "single"))
    game.extra_action("yellow-double", "D3")
    game.place({"A4": "toad/hazelnut/maple"})
    with pytest.raises(IllegalAction, match="not empty"):
        game.extra_action("yellow-single", "D3")
    with pytest.raises(IllegalAction, match="no enclosure"):
        game.extra_action("yellow-single", "A1")
    with pytest.raises(IllegalAction, match="holds no"):
        game.extra_action("red-single", "D3")


def test_no_extra_action_before_the_first_action() -> None:
    game = toni_game(5)
    game.end_turn()
    game.state = game.state.add_to_store("Emma", Counter("blue", "single"))
    with pytest.raises(IllegalAction, match="action comes first"):
        game.extra_action("blue-single", "D3")


def test_chained_extra_actions_no_refill_between_actions() -> None:
    """The action after an extra action creates a new enclosure (F5), used at once."""
    game = toni_game(5)
    f = game.state.player("Toni").forest
    with_forest(game, "Toni", f.with_tiles({S("G5"): T("toad/acorn/beech")}))
    rack_size = game.state.player("Toni").rack_size
    game.extra_action("yellow-double", "D3")
    out = game.place({"F4": "hedgehog/hazelnut/horse-chestnut"})  # completes row 4
    assert out.ruling.enclosures == (S("F5"),)
    assert game.state.player("Toni").store == (Counter("yellow", "single"),)  # turn 1's
    game.extra_action("yellow-single", "F5")
    game.place({"A4": "toad/hazelnut/maple"})
    toni = game.state.player("Toni")
    assert toni.rack_size == rack_size - 2  # no refill between actions
    assert set(toni.forest.counters) == {S("D3"), S("F5")}
    game.end_turn()
    assert game.state.player("Toni").rack_size == 8


def test_match_counters_may_go_into_enclosures_and_score_one_more() -> None:
    game = toni_game(5)
    game.state = game.state.add_to_store("Toni", MatchCounter("leaf", 4, None))
    game.extra_action(MatchCounter("leaf", 4, None), "D3")
    toni = game.state.player("Toni")
    lines = player_breakdown(game.state, toni)
    assert lines["match_counters"] == 4 and lines["match_counters_in_enclosures"] == 1
