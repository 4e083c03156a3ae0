"""Sets of tiles: the rulebook's set examples, missing tiles, sides, the identical pair."""

from __future__ import annotations

import itertools

import pytest
from glade_helpers import T
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.the_glade.names import ALL_TILES
from companion.the_glade.sets import (
    could_grow,
    describe_tiles,
    is_identical_pair,
    is_set,
    missing_tile,
    shared_count,
    side_for,
    why_not_a_set,
)


def tl(*names: str) -> list:
    return [T(n) for n in names]


def test_three_blackberries_one_shared_is_a_set() -> None:
    tiles = tl("hedgehog/blackberry/beech", "mouse/blackberry/oak", "toad/blackberry/maple")
    assert is_set(tiles) and shared_count(tiles) == 1


def test_three_hedgehogs_with_two_hazelnuts_is_no_set() -> None:
    tiles = tl("hedgehog/hazelnut/beech", "hedgehog/hazelnut/oak", "hedgehog/acorn/maple")
    assert not is_set(tiles)
    assert why_not_a_set(tiles) == "three hedgehogs with two hazelnuts"


def test_four_squirrels_one_shared_is_a_set() -> None:
    tiles = tl("squirrel/acorn/beech", "squirrel/blackberry/oak", "squirrel/hazelnut/maple",
               "squirrel/mushroom/horse-chestnut")
    assert is_set(tiles) and shared_count(tiles) == 1 and side_for(tiles) == "single"


def test_three_toads_same_leaf_two_shared() -> None:
    tiles = tl("toad/acorn/oak", "toad/mushroom/oak", "toad/hazelnut/oak")
    assert is_set(tiles) and shared_count(tiles) == 2 and side_for(tiles) == "double"
    assert describe_tiles(tiles) == "three dark brown toads"


def test_one_tile_is_a_set_and_nothing_is_not() -> None:
    assert is_set(tl("toad/acorn/oak"))
    assert not is_set([])


def test_identical_pair_is_a_set_that_cannot_grow() -> None:
    pair = tl("toad/acorn/oak", "toad/acorn/oak")
    assert is_set(pair) and is_identical_pair(pair) and shared_count(pair) == 3
    for third in ALL_TILES:
        assert not is_set([*pair, third])
    assert "never grow" in why_not_a_set([*pair, T("toad/acorn/beech")])


def test_two_tiles_sharing_nothing_are_no_set() -> None:
    tiles = tl("mouse/acorn/horse-chestnut", "toad/hazelnut/beech")
    assert not is_set(tiles)
    assert "share no characteristic" in why_not_a_set(tiles)


def test_five_tiles_are_never_a_set() -> None:
    tiles = tl("toad/acorn/oak", "toad/mushroom/oak", "toad/hazelnut/oak",
               "toad/blackberry/oak", "toad/acorn/oak")
    assert not is_set(tiles) and "at most 4" in why_not_a_set(tiles)


def test_toni_missing_tiles_from_the_rulebook() -> None:
    hedgehogs = tl("hedgehog/acorn/maple", "hedgehog/blackberry/beech", "hedgehog/mushroom/oak")
    assert missing_tile(hedgehogs) == T("hedgehog/hazelnut/horse-chestnut")
    assert side_for(hedgehogs) == "single"
    light_green = tl("toad/hazelnut/beech", "squirrel/blackberry/beech", "mouse/acorn/beech")
    assert missing_tile(light_green) == T("hedgehog/mushroom/beech")
    mushrooms = tl("squirrel/mushroom/oak", "hedgehog/mushroom/oak", "toad/mushroom/oak")
    assert missing_tile(mushrooms) == T("mouse/mushroom/oak") and side_for(mushrooms) == "double"
    acorns = tl("squirrel/acorn/horse-chestnut", "mouse/acorn/beech", "hedgehog/acorn/maple")
    assert missing_tile(acorns) == T("toad/acorn/oak")


def test_missing_tile_refuses_a_non_set() -> None:
    with pytest.raises(ValueError):
        missing_tile(tl("toad/acorn/oak", "mouse/blackberry/beech", "toad/acorn/beech"))


def _all_sets_of_3() -> list:
    return [list(c) for c in itertools.combinations(ALL_TILES, 3) if is_set(c)]


def test_every_set_of_3_has_exactly_one_missing_tile() -> None:
    """The box: "there is always just 1 specific missing tile"."""
    sets = _all_sets_of_3()
    assert len(sets) > 1000
    for three in sets[::7]:
        fourth = [t for t in ALL_TILES if t not in three and is_set([*three, t])]
        assert fourth == [missing_tile(three)]
        assert side_for([*three, fourth[0]]) == side_for(three)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(ALL_TILES), min_size=1, max_size=4))
def test_set_order_does_not_matter_and_subsets_stay_sets(tiles: list) -> None:
    assert is_set(tiles) == is_set(list(reversed(tiles)))
    if is_set(tiles):
        assert could_grow(tiles)
        for k in range(1, len(tiles)):
            for sub in itertools.combinations(tiles, k):
                assert is_set(list(sub))
        assert 1 <= shared_count(tiles) <= (3 if len(tiles) <= 2 else 2)
