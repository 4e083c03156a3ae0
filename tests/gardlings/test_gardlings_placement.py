"""Placement rules: first tile free, touching, matching every unit edge; unicorn moves."""

from __future__ import annotations

from gardlings_helpers import CATALOGUE, garden

from companion.gardlings.garden import Placement, turned
from companion.gardlings.placement import (
    breaches,
    fits,
    garden_breaches,
    legal_moves,
    legal_placements,
    move_breaches,
)


def codes(found: list) -> list[str]:
    return [b.rule for b in found]


def test_the_first_tile_goes_anywhere() -> None:
    empty = garden("")
    assert breaches(empty, Placement("N1", (7, -3), 90)) == []
    assert [p.cell for p in legal_placements(empty, CATALOGUE["N1"])] == [(0, 0)] * 4


def test_a_tile_must_touch_on_a_side() -> None:
    g = garden("N1@0,0")
    assert codes(breaches(g, Placement("N2", (1, 1)))) == ["not-touching"]  # corner only
    assert codes(breaches(g, Placement("N2", (1, 0)))) == []


def test_overlap_is_reported_alone_with_the_covered_cells() -> None:
    g = garden("N1@0,0")
    found = breaches(g, Placement("A", (-1, 0)))
    assert codes(found) == ["overlap"] and found[0].cells == ((0, 0),)


def test_every_mismatched_unit_edge_is_reported_with_cells_and_halves() -> None:
    g = garden("N1@0,0 N2@1,0")
    # N3 turned 90 puts blue on top and bottom: below N1 (empty bottom) it mismatches
    found = breaches(g, Placement("N3", (0, 1), 90))
    assert codes(found) == ["edge"]
    assert found[0].cells == ((0, 1), (0, 0)) and found[0].edges == ("blue", "empty")
    # a strip under both meets two unit edges: blue vs empty twice
    found = breaches(g, Placement("A", (0, 1)))
    assert codes(found) == ["edge", "edge"]
    assert {b.cells for b in found} == {((0, 1), (0, 0)), ((1, 1), (1, 0))}


def test_gem_half_to_same_colour_empty_to_empty_egg_to_any() -> None:
    g = garden("K1@0,0")
    assert fits(g, CATALOGUE["E1"], Placement("E1", (1, 0)))  # egg meets pink
    assert not fits(g, CATALOGUE["N1"], Placement("N1", (1, 0)))  # blue meets pink
    assert fits(g, CATALOGUE["P2"], Placement("P2", (0, 1)))  # empty meets empty


def test_placements_list_every_cell_and_turn_even_alike_ones() -> None:
    g = garden("P2@0,0")
    found = legal_placements(g, CATALOGUE["P3"])  # all-empty square: 4 cells x 4 turns
    assert len(found) == 16 and len(set(found)) == 16


def test_strips_turn_and_swap_width_and_height() -> None:
    assert turned(CATALOGUE["A"], 90)[:2] == (1, 2)
    g = garden("M@0,0 A@0,1")
    assert garden_breaches(g) == []
    assert g.cells_of(Placement("A", (5, 5), 270)) == [(5, 5), (5, 6)]


def test_only_a_unicorn_moves_and_never_splits_the_garden() -> None:
    g = garden("P2@0,0 G6@1,0 P3@2,0")
    assert codes(move_breaches(g, Placement("P2", (0, 1)))) == ["not-unicorn"]
    split = move_breaches(g, Placement("G6", (0, 1)))
    assert codes(split) == ["split"] and split[0].cells == ((2, 0),)
    moves = legal_moves(garden("P2@0,0 P3@1,0 G6@2,0"), "G6")
    assert Placement("G6", (0, 1), 0) in moves
    assert Placement("G6", (2, 0), 0) not in moves  # where it lies is no move
