"""The solo game: neutral counters, the box, turns as the first goal."""

from __future__ import annotations

import pytest
from glade_helpers import TONI_1, T

from companion.the_glade.names import Counter
from companion.the_glade.solo import SoloResult, best_solo, rank_solo, solo_setup
from companion.the_glade.table import IllegalAction
from companion.the_glade.tracker import Game

DRAWN = [T(t) for t in ("hedgehog/hazelnut/horse-chestnut", "Hbb", "Hhb", "Hmb", "Mab", "Mbb",
                        "Mhb", "Mmb", "Sab", "Sbb", "Shb", "Smb")]


def test_ten_turns_25_points_beats_eleven_turns_34_points() -> None:
    assert SoloResult(10, 25) < SoloResult(11, 34)
    assert best_solo([SoloResult(11, 34), SoloResult(10, 25)]) == SoloResult(10, 25)
    assert rank_solo([SoloResult(10, 20), SoloResult(11, 34), SoloResult(10, 25)]) == [
        SoloResult(10, 25), SoloResult(10, 20), SoloResult(11, 34)]


def test_setup_puts_twelve_neutral_singles_on_the_drawn_tiles_spaces() -> None:
    state = solo_setup("Sol", "yellow", "grey", DRAWN)
    assert len(state.glade) == 12
    assert set(state.glade.values()) == {Counter("grey", "single")}
    assert state.bag == 128 - 8 - 1
    with pytest.raises(IllegalAction, match="12 different") as info:
        solo_setup("Sol", "yellow", "grey", [DRAWN[0]] * 12)
    assert info.value.code == "setup"


def test_a_set_of_3_on_a_neutral_counter_sends_it_to_the_box() -> None:
    game = Game(solo_setup("Sol", "yellow", "grey", DRAWN))
    game.place(TONI_1)  # misses hedgehog/hazelnut/horse-chestnut, a neutral space
    assert game.state.glade[T("hedgehog/hazelnut/horse-chestnut")] == Counter("yellow", "single")
    assert game.state.boxed == 1
    assert game.state.player("Sol").store == ()


def test_claiming_a_neutral_counter_places_the_tile_on_own_board() -> None:
    game = Game(solo_setup("Sol", "yellow", "grey", DRAWN))
    game.claim("Hbb", "D4")
    sol = game.state.player("Sol")
    assert sol.store == (Counter("grey", "single"),)
    assert sol.forest.tiles


def test_game_ends_at_the_end_of_the_turn_of_the_twelfth_counter_without_refill() -> None:
    game = Game(solo_setup("Sol", "yellow", "grey", DRAWN))
    from dataclasses import replace
    game.state = game.state.with_player(replace(game.state.player("Sol"), supply=1, turns=9))
    bag = game.state.bag
    game.place(TONI_1)
    game.end_turn()
    sol = game.state.player("Sol")
    assert game.finished and sol.turns == 10
    assert sol.rack_size == 5 and game.state.bag == bag  # no refill, no face-down tile


def test_each_other_turn_draws_a_face_down_tile_too() -> None:
    game = Game(solo_setup("Sol", "yellow", "grey", DRAWN))
    bag = game.state.bag
    game.place(TONI_1)
    game.end_turn()
    assert game.state.bag == bag - 4 and game.state.player("Sol").turns == 1
    assert not game.finished and game.current == "Sol"
