"""Step 3 (Apply Damage): the rulebook's three worked examples and the general rules."""

from __future__ import annotations

from gg_helpers import critter, make_deck, plant, state

from companion.glass_garden.actions import Done, Protect
from companion.glass_garden.damage import apply_damage, damaged_plants
from companion.glass_garden.deck import DamagePattern
from companion.glass_garden.garden import Garden

SNAIL = (DamagePattern("left", "closest", 1, "plants"),)
ANT = (DamagePattern("both", "farthest", 1, "plants"),)
WORM = (DamagePattern("left", "closest", 3, "columns"),)


def test_example_1_snail_skips_bottom_row_plant_6_to_damage_plant_5() -> None:
    g = Garden.parse("a- b- c- d- e^ f_ @ g- h-")  # plants 1-6 are a-f
    assert apply_damage(g, SNAIL).text() == "a- b- c- d- e- f_ @ g- h-"


def test_example_2_ant_damages_plant_2_left_and_nothing_right() -> None:
    g = Garden.parse("a_ b^ c- @ d_ e_ f_ g_ h_")
    assert damaged_plants(g, ANT[0]) == [1]
    assert apply_damage(g, ANT).text() == "a_ b- c- @ d_ e_ f_ g_ h_"


def test_example_3_worm_damages_plants_4_and_5_not_6() -> None:
    g = Garden.parse("a- b- c- d- e^ f_ @ g- h-")
    assert apply_damage(g, WORM).text() == "a- b- c- d_ e- f_ @ g- h-"


def test_no_damage_when_every_plant_on_the_side_is_in_the_bottom_row() -> None:
    g = Garden.parse("a_ b_ @ c- d- e- f- g- h-")
    assert apply_damage(g, SNAIL) == g


def test_damage_moves_down_one_row_only_top_and_middle() -> None:
    g = Garden.parse("a^ @ b- c- d- e- f- g- h-")
    assert apply_damage(g, SNAIL).rows[0] == 1


def test_right_side_and_several_plants() -> None:
    two_right = (DamagePattern("right", "closest", 2, "plants"),)
    g = Garden.parse("a- @ b_ c^ d- e- f- g- h-")
    assert apply_damage(g, two_right).text() == "a- @ b_ c- d_ e- f- g- h-"


def test_farthest_columns_with_a_row_filter() -> None:
    top_only = (DamagePattern("right", "farthest", 2, "columns", rows=(0,)),)
    g = Garden.parse("a- @ b- c- d- e- f- g- h^")
    assert apply_damage(g, top_only).text() == "a- @ b- c- d- e- f- g- h-"


def test_critter_in_the_end_column_damages_nothing_beyond_it() -> None:
    g = Garden.parse("a- b- c- d- e- f- g- h- @")
    assert apply_damage(g, (DamagePattern("right", "closest", 1, "plants"),)) == g


def test_protected_plants_are_skipped_like_bottom_row_plants() -> None:
    g = Garden.parse("a- b- c- d- e- f- @ g- h-")
    assert apply_damage(g, SNAIL, protected=1 << 5).text() == "a- b- c- d- e_ f- @ g- h-"


def test_damage_happens_when_growing_ends_with_the_face_up_side() -> None:
    deck = make_deck(
        plants={0: plant("A", effect=[{"protect": {}}])},
        critters=[critter("Snail", [{"side": "left", "from": "closest", "count": 1}],
                          [{"side": "right", "from": "closest", "count": 1}])])
    s = state(deck, "a- b- @ c- d- e- f- g- h-", turn=3, phase="grow")
    after = s.apply(Done())
    assert after.garden.text() == "a- b_ c- @ d- e- f- g- h-"  # b damaged, then the advance
    side_two = state(deck, "a- b- @ c- d- e- f- g- h-", turn=3, phase="grow", side=1)
    assert side_two.apply(Done()).garden.text() == "a- b- c_ @ d- e- f- g- h-"


def test_protect_effect_shields_for_this_turn_only() -> None:
    deck = make_deck(critters=[critter("Snail", [{"side": "left", "from": "closest",
                                                    "count": 1}], [])])
    s = state(deck, "a- b- @ c- d- e- f- g- h-", turn=3, phase="grow")
    from dataclasses import replace

    from companion.glass_garden.deck import Step
    from companion.glass_garden.game import Pending
    s = replace(s, pending=(Pending(Step("protect", plant="self"), 1),))
    s = s.apply(Protect(1))
    assert s.protected == 2
    after = s.apply(Done())
    assert after.garden.rows[1] == 1 and after.garden.rows[0] == 2
    assert after.protected == 0
