"""Sets of 3 and 4 pay out counters: Toni's turns 1-5, Emma's counter, running out."""

from __future__ import annotations

from dataclasses import replace

import pytest
from glade_helpers import T, forest, tiles, toni_game

from companion.the_glade.actions import place_tiles
from companion.the_glade.names import Counter
from companion.the_glade.placement import rule_placement
from companion.the_glade.set_rewards import Flip, Move, reward_sets
from companion.the_glade.table import CounterRef, GameState, IllegalAction, Player


def glade(game) -> dict[str, str]:
    return {str(t): str(c) for t, c in game.state.glade.items()}


def test_toni_turn_1_single_counter_on_dark_green_hedgehog_with_hazelnut() -> None:
    game = toni_game(1)
    assert glade(game) == {"hedgehog/hazelnut/horse-chestnut": "yellow-single"}
    assert game.state.player("Toni").supply == 11


def test_toni_turn_2_single_counter_on_light_green_hedgehog_with_mushroom() -> None:
    game = toni_game(2)
    assert glade(game)["hedgehog/mushroom/beech"] == "yellow-single"


def test_toni_turn_3_double_counter_on_dark_brown_mouse_with_mushroom() -> None:
    game = toni_game(3)
    assert glade(game)["mouse/mushroom/oak"] == "yellow-double"


def test_toni_turn_4_emma_gets_her_counter_back_same_side() -> None:
    game = toni_game(4)
    g = glade(game)
    assert g["squirrel/mushroom/horse-chestnut"] == "yellow-double"
    assert g["toad/acorn/oak"] == "yellow-single"
    emma = game.state.player("Emma")
    assert emma.store == (Counter("blue", "double"),)
    assert game.state.player("Toni").supply == 12 - 5
    moves = [e for e in game.log[-1].events if isinstance(e, Move)]
    back = [m for m in moves if m.dst == CounterRef("store", player="Emma")]
    assert len(back) == 1 and back[0].token == Counter("blue", "double")


def test_toni_turn_5_takes_the_glade_counter_same_side_into_her_store() -> None:
    game = toni_game(5)
    toni = game.state.player("Toni")
    assert toni.store == (Counter("yellow", "double"),)
    assert "mouse/mushroom/oak" not in glade(game)
    assert toni.supply == 7  # no counter left her side for the set of 4


def _one_player(supply: int = 12, glade_: dict | None = None, f=None) -> GameState:
    return GameState((Player("Toni", "yellow", supply, f or forest()),
                      Player("Emma", "blue", 12)),
                     glade={T(k): Counter.parse(v) for k, v in (glade_ or {}).items()})


FOUR_BEFORE = {"D3": "squirrel/mushroom/oak", "D4": "hedgehog/mushroom/oak",
               "D5": "toad/mushroom/oak"}


def test_set_of_4_one_added_takes_any_players_counter_from_the_glade() -> None:
    state = _one_player(glade_={"mouse/mushroom/oak": "blue-double"}, f=forest(FOUR_BEFORE))
    state, _ = place_tiles(state, "Toni", tiles({"D6": "mouse/mushroom/oak"}))
    assert state.player("Toni").store == (Counter("blue", "double"),)
    assert state.player("Toni").supply == 12


def test_set_of_4_one_added_without_glade_counter_takes_leftmost_single() -> None:
    """Even for 2 shared characteristics: single side (the exception)."""
    state = _one_player(f=forest(FOUR_BEFORE))
    state, _ = place_tiles(state, "Toni", tiles({"D6": "mouse/mushroom/oak"}))
    assert state.player("Toni").store == (Counter("yellow", "single"),)
    assert state.player("Toni").supply == 11


@pytest.mark.parametrize("placed, side", [
    ({"E4": "mouse/blackberry/beech", "F4": "squirrel/hazelnut/beech",
      "G4": "toad/mushroom/beech"}, "single"),           # 1 shared: leaf
    ({"E4": "hedgehog/blackberry/beech", "F4": "hedgehog/hazelnut/beech"}, None),
])
def test_set_of_4_two_or_three_added_side_by_shared_count(placed: dict, side: str | None
                                                         ) -> None:
    before = {"D4": "hedgehog/acorn/beech"}
    if side is None:  # 2 added to a pair: creature and leaf shared -> double
        before["G4"] = "hedgehog/mushroom/beech"
        side = "double"
    state = _one_player(f=forest(before))
    state, _ = place_tiles(state, "Toni", tiles(placed))
    assert Counter("yellow", side) in state.player("Toni").store


def test_four_tiles_placed_as_a_new_set_of_4_pay_like_two_or_three() -> None:
    placed = {"D4": "squirrel/acorn/beech", "E4": "squirrel/blackberry/oak",
              "F4": "squirrel/hazelnut/maple", "G4": "squirrel/mushroom/horse-chestnut"}
    state, _ = place_tiles(_one_player(), "Toni", tiles(placed))
    assert state.player("Toni").store == (Counter("yellow", "single"),)


def test_set_of_3_on_own_counter_returns_it_to_own_store() -> None:
    state = _one_player(glade_={"hedgehog/hazelnut/horse-chestnut": "yellow-double"})
    state, _ = place_tiles(state, "Toni", tiles({"C4": "hedgehog/acorn/maple",
                                                 "D4": "hedgehog/blackberry/beech",
                                                 "E4": "hedgehog/mushroom/oak"}))
    assert state.player("Toni").store == (Counter("yellow", "double"),)
    assert state.glade[T("hedgehog/hazelnut/horse-chestnut")] == Counter("yellow", "single")


def test_sets_of_4_are_paid_before_sets_of_3() -> None:
    """D6 completes column D (its glade space holds Emma's counter); E6 makes column E a set
    of 3 missing that same tile. Choice: the set of 4 takes the counter that was there, then
    the new set of 3 marks the space afresh."""
    before = {**FOUR_BEFORE, "E4": "mouse/acorn/oak", "E5": "mouse/hazelnut/oak"}
    state = _one_player(glade_={"mouse/mushroom/oak": "blue-single"}, f=forest(before))
    state, _ = place_tiles(state, "Toni", tiles({"D6": "mouse/mushroom/oak",
                                                 "E6": "mouse/blackberry/oak"}))
    assert state.player("Toni").store == (Counter("blue", "single"),)
    assert state.glade[T("mouse/mushroom/oak")] == Counter("yellow", "double")


def test_running_out_single_flips_one_double_flips_two() -> None:
    base = _one_player(supply=0, glade_={"toad/acorn/beech": "yellow-single",
                                         "toad/acorn/oak": "yellow-single",
                                         "toad/acorn/maple": "yellow-single"})
    ruling = rule_placement(forest(), tiles({"C4": "hedgehog/acorn/maple",
                                             "D4": "hedgehog/blackberry/beech",
                                             "E4": "hedgehog/mushroom/oak"}))
    state, events = reward_sets(base, "Toni", ruling)
    assert [type(e) for e in events] == [Flip]
    assert sum(c.side == "double" for c in state.glade.values()) == 1
    assert T("hedgehog/hazelnut/horse-chestnut") not in state.glade  # nothing placed
    ruling2 = rule_placement(forest(), tiles({"C4": "toad/mushroom/oak",
                                              "D4": "toad/hazelnut/oak",
                                              "E4": "toad/blackberry/oak"}))
    _state2, events2 = reward_sets(base, "Toni", ruling2)
    assert [type(e) for e in events2] == [Flip, Flip]


def test_running_out_the_player_chooses_which_counters_to_flip() -> None:
    base = _one_player(supply=0, glade_={"toad/acorn/beech": "yellow-single",
                                         "toad/acorn/oak": "yellow-single"})
    base = base.add_to_store("Emma", Counter("yellow", "single"))
    ruling = rule_placement(forest(), tiles({"C4": "hedgehog/acorn/maple",
                                             "D4": "hedgehog/blackberry/beech",
                                             "E4": "hedgehog/mushroom/oak"}))
    state, _ = reward_sets(base, "Toni", ruling, flips=[CounterRef.parse("store:Emma")])
    assert state.player("Emma").store == (Counter("yellow", "double"),)
    assert all(c.side == "single" for c in state.glade.values())
    with pytest.raises(IllegalAction, match="cannot flip"):
        reward_sets(base, "Toni", ruling, flips=[CounterRef.parse("store:Toni")])


def test_running_out_flips_what_there_is() -> None:
    base = _one_player(supply=0, glade_={"toad/acorn/beech": "yellow-double"})
    ruling = rule_placement(forest(), tiles({"C4": "toad/mushroom/oak", "D4": "toad/hazelnut/oak",
                                             "E4": "toad/blackberry/oak"}))
    state, events = reward_sets(base, "Toni", ruling)
    assert events == [] and state == base


def test_compensation_keeps_score_as_if_a_counter_was_taken() -> None:
    from companion.the_glade.scoring import player_breakdown
    ruling = rule_placement(forest(), tiles({"C4": "toad/mushroom/oak", "D4": "toad/hazelnut/oak",
                                             "E4": "toad/blackberry/oak"}))
    rich = _one_player(supply=1, glade_={"toad/acorn/beech": "yellow-single",
                                         "toad/acorn/maple": "yellow-single"})
    poor = replace(rich, players=(replace(rich.players[0], supply=0), rich.players[1]))
    after_rich, _ = reward_sets(rich, "Toni", ruling)
    after_poor, _ = reward_sets(poor, "Toni", ruling)

    def total(s: GameState) -> int:
        return sum(player_breakdown(s, s.players[0]).values())

    assert total(after_rich) - total(rich) == total(after_poor) - total(poor) == 2


def test_a_set_of_1_or_2_ends_the_action_with_nothing_paid() -> None:
    state = _one_player(f=forest({"D4": "hedgehog/acorn/beech"}))
    after, out = place_tiles(state, "Toni", tiles({"D5": "hedgehog/acorn/oak",
                                                   "E5": "toad/acorn/oak"}))
    assert out.events == () and after.glade == state.glade
    assert after.player("Toni").supply == 12


def test_two_new_sets_of_3_missing_the_same_tile() -> None:
    """The second set finds the first one's counter there: it goes to its owner (you)."""
    before = {"B4": "hedgehog/blackberry/beech", "C4": "hedgehog/hazelnut/beech",
              "D2": "hedgehog/blackberry/beech", "D3": "hedgehog/hazelnut/beech"}
    state = _one_player(f=forest(before))
    state, out = place_tiles(state, "Toni", tiles({"D4": "hedgehog/acorn/beech"}))
    assert len(out.ruling.sets_of_3) == 2
    assert state.glade[T("hedgehog/mushroom/beech")] == Counter("yellow", "double")
    assert state.player("Toni").store == (Counter("yellow", "double"),)
    assert state.player("Toni").supply == 10


def test_tracker_lists_the_flip_choices() -> None:
    game = toni_game(1)
    assert [str(r) for r in game.flip_choices()] == ["glade:hedgehog/hazelnut/horse-chestnut"]


def test_running_out_on_a_set_of_4_without_glade_counter_flips_one() -> None:
    state = _one_player(supply=0, glade_={"toad/acorn/beech": "yellow-single"},
                        f=forest(FOUR_BEFORE))
    state, out = place_tiles(state, "Toni", tiles({"D6": "mouse/mushroom/oak"}))
    assert [type(e) for e in out.events] == [Flip]
    assert state.glade[T("toad/acorn/beech")] == Counter("yellow", "double")
    assert state.player("Toni").store == ()
