"""The coach: complete and duplicate-free enumeration, and its documented estimate."""

from __future__ import annotations

import itertools
import random

from glade_helpers import TONI_1, S, T, forest, toni_game
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.the_glade.coach import GroupIndex, Search, advise, evaluate, legal_placements
from companion.the_glade.forest import Forest
from companion.the_glade.names import ALL_TILES, BoardGeometry, Square, Tile
from companion.the_glade.placement import rule_placement

SMALL = BoardGeometry(5, 5, Square.parse("C3"))


def brute_force(f: Forest, rack: list[Tile]) -> set[frozenset]:
    """Every legal placement, found with the arbiter as the oracle."""
    geo = f.geometry
    empty = [s for s in geo.squares() if f.is_empty_square(s)]
    lines = [[s for s in empty if s.row == r] for r in range(geo.rows)]
    lines += [[s for s in empty if s.col == c] for c in range(geo.cols)]
    found: set[frozenset] = set()
    for line in lines:
        for k in range(1, 5):
            for squares in itertools.combinations(line, k):
                for tiles in set(itertools.permutations(rack, k)):
                    placed = dict(zip(squares, tiles, strict=True))
                    if rule_placement(f, placed).legal:
                        found.add(frozenset(placed.items()))
    return found


def random_forest(seed: int, geo: BoardGeometry, moves: int) -> Forest:
    rng = random.Random(seed)
    f = Forest(geo)
    for _ in range(moves):
        rack = rng.sample(ALL_TILES, 6)
        options = legal_placements(f, rack)
        if options:
            f = f.with_tiles(rng.choice(options))
    return f


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 6), st.integers(2, 4))
def test_enumeration_equals_brute_force(seed: int, moves: int, rack_size: int) -> None:
    rng = random.Random(seed)
    f = random_forest(seed, SMALL, moves)
    rack = [rng.choice(ALL_TILES) for _ in range(rack_size)]
    if rng.random() < 0.5:
        rack.append(rack[0])  # two copies of one tile
    got = legal_placements(f, rack)
    keys = [frozenset(p.items()) for p in got]
    assert len(keys) == len(set(keys)), "a placement was listed twice"
    assert set(keys) == brute_force(f, rack)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 8))
def test_group_index_agrees_with_counting_groups(seed: int, moves: int) -> None:
    f = random_forest(seed, BoardGeometry(), moves)
    rng = random.Random(seed)
    rack = rng.sample(ALL_TILES, 8)
    index = GroupIndex(f)
    for placed in legal_placements(f, rack)[:30]:
        change = len(f.with_tiles(placed).unconnected_groups()) - len(f.unconnected_groups())
        assert index.unconnected_change(placed) == change


def test_first_placement_options_cover_the_centre() -> None:
    for placed in legal_placements(Forest(), [T("Hab"), T("Hbm"), T("Hmo")]):
        assert S("D4") in placed


def test_two_copies_of_a_tile_give_one_listing() -> None:
    one = legal_placements(forest({"D4": "Hab"}), [T("Tab")])
    two = legal_placements(forest({"D4": "Hab"}), [T("Tab"), T("Tab")])
    singles = [p for p in two if len(p) == 1]
    assert len(singles) == len(one)
    assert len({frozenset(p.items()) for p in two}) == len(two)


def test_estimate_single_set_of_3_is_two_double_is_three_lone_tile_zero() -> None:
    game = toni_game(1)
    state = game.state
    lone = evaluate(state, "Toni", {S("D5"): T("hedgehog/blackberry/oak")})
    assert (lone.score_now, lone.potential, lone.points) == (0, 0, 0)
    single = evaluate(state, "Toni", {S("C3"): T("mouse/acorn/beech"),
                                      S("B3"): T("squirrel/blackberry/beech"),
                                      S("A3"): T("toad/hazelnut/beech")})
    assert single.points == 2
    double = evaluate(state, "Toni", {S("E3"): T("squirrel/mushroom/oak"),
                                      S("E5"): T("toad/mushroom/oak")})
    assert double.points == 3
    far = evaluate(state, "Toni", {S("A7"): T("toad/acorn/beech")})
    assert far.score_now == -1


def test_estimate_counts_own_counter_from_glade_to_store_as_one() -> None:
    state = toni_game(5).state
    top = advise(state, "Toni", [T("hedgehog/hazelnut/horse-chestnut")])[0]
    # F4 completes row 4 and takes her own single from the glade: glade 1 -> store 2.
    assert top.ruling.placed == {S("F4"): T("hedgehog/hazelnut/horse-chestnut")}
    assert top.score_now == 1


def test_advice_is_sorted_best_first() -> None:
    state = toni_game(1).state
    advice = advise(state, "Toni", [T(t) for t in TONI_1.values()] + [T("Tab"), T("Mmo")])
    points = [a.points for a in advice]
    assert points == sorted(points, reverse=True)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 8))
def test_three_or_four_tiles_always_make_a_set_of_3_or_4(seed: int, moves: int) -> None:
    """Rulebook: "if you play 3 or 4 tiles, you will create a set of 3 or 4 tiles"."""
    f = random_forest(seed, BoardGeometry(), moves)
    rack = random.Random(seed).sample(ALL_TILES, 8)
    for placed in legal_placements(f, rack):
        if len(placed) >= 3:
            r = rule_placement(f, placed)
            assert r.sets_of_3 or r.sets_of_4


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10))
def test_the_searchs_rulings_equal_the_arbiters(seed: int, moves: int) -> None:
    f = random_forest(seed, BoardGeometry(), moves)
    rack = random.Random(seed).sample(ALL_TILES, 8)
    search = Search(f, rack)
    for found in search.found[:200]:
        placed = search.placed(found)
        assert search.ruling(found) == rule_placement(f, placed)
