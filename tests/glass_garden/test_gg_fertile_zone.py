"""Fertile zones and the sets of 3 identical active resources that pay a cost."""

from __future__ import annotations

from gg_helpers import make_deck, plant
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.glass_garden.deck import load_deck
from companion.glass_garden.fertile_zone import (
    payable_kinds,
    payments,
    resource_id,
    runs,
    zone_of,
)
from companion.glass_garden.garden import CRITTER, Garden


def up(p: int, slot: int = 0) -> int:
    return resource_id(p, 0, slot)


def low(p: int, slot: int = 0) -> int:
    return resource_id(p, 1, slot)


def test_which_dirt_half_lends_to_which_zone() -> None:
    # top row: lower dirt -> zone 0; middle: upper -> 0, lower -> 1; bottom: upper -> 1
    assert [zone_of(0, 0), zone_of(0, 1)] == [None, 0]
    assert [zone_of(1, 0), zone_of(1, 1)] == [0, 1]
    assert [zone_of(2, 0), zone_of(2, 1)] == [1, None]


def deck_with_clouds() -> object:
    return make_deck({i: plant("ABCDEFGH"[i], upper=["cloud"], lower=["cloud"]) for i in range(8)})


def test_three_consecutive_columns_in_one_zone() -> None:
    deck = deck_with_clouds()
    g = Garden.parse("@ a- b- c- d_ e_ f_ g_ h_")
    sets = payments(deck, g)["cloud"]
    assert (up(0), up(1), up(2)) in sets  # middle row, upper dirt, zone 0
    assert (low(0), low(1), low(2)) in sets  # middle row, lower dirt, zone 1
    assert (up(3), up(4), up(5)) in sets  # bottom row, upper dirt, zone 1
    assert (low(2), up(3), up(4)) in sets  # zone 1 mixes middle lower and bottom upper
    assert not any(set(s) == {up(0), up(1), up(3)} for s in sets)  # d's upper is zone 1
    assert not any(set(s) == {up(0), up(1), up(2)} - {up(2)} | {up(3)} for s in sets)


def test_a_deck_taking_a_freed_decks_id_gets_its_own_payments() -> None:
    # CPython reuses a freed object's id: a memo keyed by id alone would answer a deck loaded
    # later (a user's transcribed deck replacing the sample) with the old deck's payments
    from companion.glass_garden import fertile_zone

    clouds, droplets = deck_with_clouds(), make_deck(
        {i: plant("ABCDEFGH"[i], upper=["droplet"], lower=["droplet"]) for i in range(8)})
    g = Garden.parse("@ a- b- c- d_ e_ f_ g_ h_")
    stale = payments(clouds, g)
    # the entry a freed deck would leave under the id the new deck now has
    key = (id(droplets), g.cols, g.rows, g.grown, frozenset())
    fertile_zone._MEMO[key] = (clouds, stale)
    sets = payments(droplets, g)
    assert "cloud" not in sets and (up(0), up(1), up(2)) in sets["droplet"]


def test_four_columns_apart_is_too_far() -> None:
    deck = deck_with_clouds()
    g = Garden.parse("@ a- b^ c^ d- e^ f^ g- h^")
    sets = payments(deck, g).get("cloud", [])
    # a, d, g are middle-row but never within 3 consecutive columns of each other
    assert not any({up(0), up(3)} <= set(s) for s in sets)


def test_the_critter_separates_a_run_whatever_the_rows() -> None:
    deck = deck_with_clouds()
    g = Garden.parse("a- b- @ c- d^ e^ f^ g^ h^")
    sets = payments(deck, g).get("cloud", [])
    assert not any({up(1), up(2)} <= set(s) for s in sets)
    assert not any({up(0), up(2)} <= set(s) for s in sets)
    assert runs(g)[0] == (0, 1)


def test_inactive_sprouts_do_not_count_until_the_card_is_grown() -> None:
    deck = make_deck({i: plant("ABCDEFGH"[i], upper=["sprout"]) for i in range(8)})
    soil = Garden.parse("@ a- b- c- d- e- f- g- h-")
    assert "sprout" not in payments(deck, soil)
    two = Garden.parse("@ A- B- c- d- e- f- g- h-")
    assert "sprout" not in payments(deck, two)
    three = Garden.parse("@ A- B- C- d- e- f- g- h-")
    assert payments(deck, three)["sprout"] == [(up(0), up(1), up(2))]


def test_nutrients_are_always_active_and_one_plant_may_lend_several() -> None:
    deck = make_deck({0: plant("A", upper=["droplet", "droplet"]),
                      1: plant("B", upper=["droplet"])})
    g = Garden.parse("@ a- b- c- d- e- f- g- h-")
    assert payments(deck, g)["droplet"] == [(up(0), up(0, 1), up(1))]


def test_used_resources_cannot_pay_again() -> None:
    deck = deck_with_clouds()
    g = Garden.parse("@ a- b- c- d^ e^ f^ g^ h^")
    used = frozenset({up(0)})
    sets = payments(deck, g, used)["cloud"]
    assert all(up(0) not in s for s in sets)


@settings(max_examples=300, deadline=None)
@given(order=st.permutations(range(8)), col=st.integers(0, 8),
       rows=st.lists(st.integers(0, 2), min_size=8, max_size=8), grown=st.integers(0, 255))
def test_payable_kinds_are_the_kinds_of_the_payments(order: list[int], col: int,
                                                     rows: list[int], grown: int) -> None:
    """The packed count (used to order the search and to skip growing steps where nothing
    can grow) agrees with listing every set."""
    deck = load_deck()
    g = Garden((*order[:col], CRITTER, *order[col:]), tuple(rows), grown)
    assert payable_kinds(deck, g) == frozenset(payments(deck, g))
