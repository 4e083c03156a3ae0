"""The turn structure, the critter's advance, the sunlight phase and scoring."""

from __future__ import annotations

import pytest
from gg_helpers import make_deck, plant, state

from companion.errors import StateError
from companion.glass_garden.actions import Done, Grow, Move, Shift, UseGlass
from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import new_game
from companion.glass_garden.garden import Garden
from companion.glass_garden.scoring import score, title


def test_nine_dark_turns_then_sunlight_then_over() -> None:
    s = new_game(load_deck(), "Fly", order=range(8))
    cols = []
    for turn in range(1, 10):
        assert s.turn == turn and s.phase == "actions"
        assert s.garden.critter_col == turn - 1
        assert s.garden.critter_side == (turn - 1) % 2
        cols.append(s.garden.critter_col)
        s = s.apply(Done())
        while s.phase == "grow" and not s.pending:
            s = s.apply(Done())
    assert s.phase == "sunlight" and s.garden.critter_col == 8
    assert s.garden.critter_side == 0  # no flip on the ninth turn
    s = s.apply(Done())
    assert s.is_terminal() and s.returns() == [float(s.score())]


def test_up_to_two_actions_and_the_same_one_twice() -> None:
    s = new_game(make_deck(), "Still", order=range(8))
    s = s.apply(Move(3, -1))
    assert s.phase == "actions" and s.actions_left == 1
    s = s.apply(Move(3, 1))
    assert s.phase == "grow"
    assert s.garden.rows[3] == 1


def test_illegal_actions_are_refused() -> None:
    s = new_game(make_deck(), "Still", order=range(8))
    with pytest.raises(StateError):
        s.apply(Shift(0, -1))  # the arrow points right on turn 1
    with pytest.raises(StateError):
        s.apply(Grow(0, (1, 2, 3)))


def test_advance_swaps_the_critter_with_the_plant_on_its_right() -> None:
    s = state(make_deck(), "a^ @ b_ c- d- e- f- g- h-", turn=2, phase="grow")
    after = s.apply(Done())
    assert after.garden.text() == "a^ b_ @ c- d- e- f- g- h-"
    assert after.garden.rows[1] == 2 and after.garden.critter_side == 0


def test_sunlight_glass_bonus_then_flip_back_and_reactivate() -> None:
    d = make_deck({i: plant("ABCDEFGH"[i], upper=["cloud"], cost="cloud") for i in range(8)},
                  glass={"left-middle": {"name": "L", "bonus": [{"move": {"direction": "up"}}]}})
    s = state(d, "a- b- c- d^ e^ f^ g^ h- @", turn=10, phase="sunlight", glass=1 << 1,
              side=0)
    assert UseGlass(1) in s.legal_actions() and UseGlass(0) not in s.legal_actions()
    s = s.apply(UseGlass(1))
    assert s.garden.is_sunlit(1)  # "after using [its] bonus actions, flip it back"
    assert Move(7, -1) in s.legal_actions()
    s = s.apply(Move(7, -1))
    assert s.pending == () and not s.garden.is_sunlit(1) and UseGlass(1) not in s.legal_actions()
    # growing the left edge plant (middle row) re-activates the middle-left glass
    grow_a = next(a for a in s.legal_actions() if isinstance(a, Grow) and a.plant == 0)
    s = s.apply(grow_a)
    assert s.garden.is_sunlit(1) and UseGlass(1) in s.legal_actions()


def test_glass_bonus_steps_are_optional() -> None:
    d = make_deck()
    s = state(d, "a- b- c- d^ e^ f^ g^ h- @", turn=10, phase="sunlight", glass=1)
    s = s.apply(UseGlass(0))
    assert any(type(a).__name__ == "Skip" for a in s.legal_actions())


def test_scoring_and_titles() -> None:
    assert score(Garden.parse("@ A^ B- C_ D^ E^ F^ G^ H^")) == 14
    assert score(Garden.parse("@ a^ b- c_ d^ e^ f^ g^ h^")) == 0
    assert [title(n) for n in (16, 14, 13, 12, 11, 10, 9, 0)] == [
        "Master Gardener", "Master Gardener", "Amateur Grower", "Amateur Grower",
        "Novice Planter", "Novice Planter", "Dirt Farmer!", "Dirt Farmer!"]


def test_new_game_deals_by_seed_and_refuses_unknown_critters() -> None:
    deck = load_deck()
    a = new_game(deck, "Ant", seed=3)
    assert a == new_game(deck, "Ant", seed=3)
    assert sorted(a.garden.plant_order()) == list(range(8))
    with pytest.raises(StateError, match="critter"):
        new_game(deck, "Dragon")
