"""Action 2, Claim a toadstool: 2a own board, 2b another player's board, fall-backs."""

from __future__ import annotations

from dataclasses import replace

import pytest
from glade_helpers import TONI_1, TONI_2, TONI_3, S, T, forest, toni_game, with_forest

from companion.the_glade.claim import claim_options, completing_squares
from companion.the_glade.names import Counter
from companion.the_glade.table import IllegalAction
from companion.the_glade.tracker import Game

MOUSE = "mouse/mushroom/oak"


def emma_to_claim(extra_toni: dict | None = None) -> Game:
    """After Toni's turn 3 (her double on the dark brown mouse with a mushroom), Emma's turn."""
    game = toni_game(3)
    if extra_toni:
        with_forest(game, "Toni", forest({**TONI_1, **TONI_2, **TONI_3, **extra_toni}))
    game.end_turn()
    return game


def test_2b_claimant_completes_the_set_of_4_on_the_owners_board_and_chooses_the_square() -> None:
    game = emma_to_claim()
    board, squares, completes = game.claim_squares(MOUSE)
    assert (board, completes) == ("Toni", True)
    assert squares == [S("E2"), S("E6")]
    with pytest.raises(IllegalAction, match="choose the square") as info:
        game.claim(MOUSE)
    assert info.value.code == "choose-square"
    out = game.claim(MOUSE, "E6")
    emma, toni = game.state.player("Emma"), game.state.player("Toni")
    assert emma.store == (Counter("yellow", "double"),)
    assert toni.forest.tiles[S("E6")] == T(MOUSE)
    assert toni.supply == 9 and toni.store == ()  # the set of 4 is not paid again
    assert out.board == "Toni" and out.claimed == Counter("yellow", "double")


def test_2b_a_square_that_does_not_complete_is_refused() -> None:
    game = emma_to_claim()
    with pytest.raises(IllegalAction, match="must complete the set of 4") as info:
        game.claim(MOUSE, "A1")
    assert info.value.code == "wrong-square"


def test_2b_falls_back_to_own_board_when_completion_is_illegal() -> None:
    # Block both ends of Toni's column E with tiles the mouse cannot sit beside.
    game = emma_to_claim({"F2": "toad/acorn/beech", "F6": "squirrel/hazelnut/maple"})
    assert completing_squares(game.state.player("Toni").forest, T(MOUSE)) == []
    board, squares, completes = game.claim_squares(MOUSE)
    assert board == "Emma" and not completes
    assert S("D5") in squares and S("D4") not in squares
    game.claim(MOUSE, "D5")
    assert game.state.player("Emma").forest.tiles[S("D5")] == T(MOUSE)


def test_2b_the_placed_tile_may_make_a_set_of_3_for_the_owner() -> None:
    row6 = {"C6": "squirrel/mushroom/maple", "D6": "toad/mushroom/beech"}
    game = emma_to_claim(row6)
    game.claim(MOUSE, "E6")
    toni = game.state.player("Toni")
    assert game.state.glade[T("hedgehog/mushroom/horse-chestnut")] == Counter("yellow", "single")
    assert toni.supply == 8


def test_2b_a_second_set_of_4_is_ignored() -> None:
    game = toni_game(3)
    # Toni's column E (E3-E5) and a row of 3 ending at D6 both miss the mouse at E6.
    base = {**TONI_1, **TONI_2, **TONI_3, "B6": "squirrel/mushroom/oak",
            "C6": "hedgehog/mushroom/oak", "D6": "toad/mushroom/oak"}
    with_forest(game, "Toni", forest(base))
    game.end_turn()
    game.claim(MOUSE, "E6")
    toni, emma = game.state.player("Toni"), game.state.player("Emma")
    assert emma.store == (Counter("yellow", "double"),)
    assert toni.store == () and toni.supply == 9


def test_2a_own_counter_must_complete_own_set() -> None:
    game = toni_game(3)
    game.end_turn()
    game.place({"A1": "mouse/hazelnut/maple"})
    game.end_turn()
    _board, squares, completes = game.claim_squares(MOUSE)
    assert completes and squares == [S("E2"), S("E6")]
    game.claim(MOUSE, "E2")
    toni = game.state.player("Toni")
    assert toni.store == (Counter("yellow", "double"),)
    assert toni.forest.tiles[S("E2")] == T(MOUSE)


def test_2a_falls_back_to_any_legal_square_of_own_board() -> None:
    game = toni_game(3)
    with_forest(game, "Toni", forest({**TONI_1, **TONI_2, **TONI_3,
                                      "F2": "toad/acorn/beech", "F6": "squirrel/hazelnut/maple"}))
    game.end_turn()
    game.place({"A1": "mouse/hazelnut/maple"})
    game.end_turn()
    board, squares, completes = game.claim_squares(MOUSE)
    assert board == "Toni" and not completes and S("A7") in squares
    game.claim(MOUSE, "A7")
    assert game.state.player("Toni").forest.tiles[S("A7")] == T(MOUSE)


def test_claim_needs_a_counter_on_the_glade_and_the_tile_on_the_rack() -> None:
    game = emma_to_claim()
    with pytest.raises(IllegalAction, match="no toadstool counter") as info:
        game.claim("toad/acorn/beech", "A1")
    assert info.value.code == "no-counter"
    state = game.state.with_player(replace(game.state.player("Emma"), rack=(T("Hab"),),
                                           rack_size=1))
    game.state = state
    with pytest.raises(IllegalAction, match="rack holds no") as info:
        game.claim(MOUSE, "E6")
    assert info.value.code == "rack"


def test_claim_options_for_a_neutral_counter_are_own_board() -> None:
    from companion.the_glade.solo import solo_setup
    drawn = [T(t) for t in ("Hab", "Hbb", "Hhb", "Hmb", "Mab", "Mbb", "Mhb", "Mmb", "Sab",
                            "Sbb", "Shb", "Smb")]
    state = solo_setup("Sol", "yellow", "grey", drawn)
    opts = claim_options(state, "Sol", T("Hab"))
    assert opts.board == "Sol" and opts.squares == (S("D4"),) and not opts.completes


def test_2b_set_of_3_for_an_owner_out_of_toadstools_flips_and_triggers_the_end() -> None:
    row6 = {"C6": "squirrel/mushroom/maple", "D6": "toad/mushroom/beech"}
    game = emma_to_claim(row6)
    toni = game.state.player("Toni")
    game.state = game.state.with_player(replace(toni, supply=0))
    game.claim(MOUSE, "E6")
    # Toni's new set of 3 (single) cannot take a counter: one of hers is flipped instead.
    assert T("hedgehog/mushroom/horse-chestnut") not in game.state.glade
    assert game.state.glade[T("hedgehog/hazelnut/horse-chestnut")] == Counter("yellow",
                                                                              "double")
    assert game.state.end_triggered
