"""The garden's geometry and the two actions, in the rulebook's words."""

from __future__ import annotations

import pytest
from gg_helpers import make_deck, state

from companion.errors import StateError
from companion.glass_garden.actions import Move, Shift
from companion.glass_garden.garden import Garden


def test_start_is_critter_left_then_eight_plants_in_middle_row() -> None:
    g = Garden.start(tuple(range(8)))
    assert g.text() == "@ a- b- c- d- e- f- g- h-"
    assert g.critter_col == 0


def test_text_round_trip() -> None:
    text = "a^ B_ @ c- D^ e_ f- g- H-"
    assert Garden.parse(text).text() == text


@pytest.mark.parametrize("bad", ["@ a- b-", "@ a- a- c- d- e- f- g- h-",
                                 "@ a? b- c- d- e- f- g- h-", "a- b- c- d- e- f- g- h- i-"])
def test_bad_text_is_refused(bad: str) -> None:
    with pytest.raises(StateError):
        Garden.parse(bad)


def test_neighboring_is_consecutive_columns_any_row_even_across_the_critter() -> None:
    g = Garden.parse("a^ @ b_ c- d- e- f- g- h-")
    assert g.neighbors(0) == (1,)  # a and b are separated by the critter: still neighbors
    assert g.neighbors(1) == (0, 2)
    assert g.adjacent(1) == ()  # different rows: neighboring, not adjacent
    assert g.adjacent(2) == (3,)


def test_adjacent_across_the_critter_when_same_row() -> None:
    g = Garden.parse("a- @ b- c- d- e- f- g- h-")
    assert g.adjacent(0) == (1,)


def test_edge_plants_are_adjacent_to_the_nearest_glass_of_their_row() -> None:
    g = Garden.parse("@ a- b- c- d- e- f- g- h_")
    # the left edge plant is adjacent to the middle-left glass although the critter separates
    assert g.edge_plants() == (0, 7)
    assert g.adjacent_glass(0) == 1
    assert g.adjacent_glass(7) == 5  # right-bottom
    assert g.adjacent_glass(3) is None
    assert g.glass_plant(1) == 0 and g.glass_plant(0) is None and g.glass_plant(5) == 7


def test_shift_example_plant_a_two_right_b_and_c_slide_back() -> None:
    # rulebook: "Plant A shifts 2 columns to the right. As it shifts, plants B and then C shift
    # backwards to fill the gaps left by plant A. Plant A could not have shifted further right
    # because it may not pass the critter."
    g = Garden.parse("d- a^ b- c_ @ e- f- g- h-")
    assert g.shift(0, 2).text() == "d- b- c_ a^ @ e- f- g- h-"
    assert g.shift_targets(0, 1) == [1, 2]  # never past the critter
    assert g.shift_targets(2, -1) == [-1, -2, -3]
    assert g.shift_targets(3, -1) == []
    assert Garden.parse("@ a- b- c- d- e- f- g- h-").shift_targets(7, 1) == []  # garden edge


def test_shift_actions_follow_the_arrow_and_plants_keep_rows() -> None:
    deck = make_deck()
    s = state(deck, "@ a^ b- c_ d- e- f- g- h-")
    shifts = s.shift_actions()
    assert all(a.steps > 0 for a in shifts)
    assert Shift(0, 7) in shifts and Shift(7, 1) not in shifts
    after = s.apply(Shift(0, 2))
    assert after.garden.text() == "@ b- c_ a^ d- e- f- g- h-"
    left = state(deck, "a- b- c- d- @ e- f- g- h-", turn=2, side=1)
    assert all(a.steps < 0 for a in left.shift_actions())
    assert Shift(5, -1) in left.shift_actions() and Shift(4, -1) not in left.shift_actions()


def test_move_one_row_within_the_garden() -> None:
    s = state(make_deck(), "@ a^ b- c_ d- e- f- g- h-")
    moves = s.move_actions()
    assert Move(0, -1) not in moves and Move(0, 1) in moves
    assert Move(2, 1) not in moves and Move(1, -1) in moves and Move(1, 1) in moves
