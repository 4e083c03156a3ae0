"""Counting gems: the rulebook's mushroom example, triple gems, eggs, ponds, empty joins."""

from __future__ import annotations

from gardlings_helpers import garden

from companion.gardlings.gems import complete_gems, count_gems, empty_joins, ponds


def test_the_mushroom_example_five_gems_on_three_tiles() -> None:
    # M (a strip, two lines), A under it, B standing to their right: 4 edge gems, and only
    # the lower line's bonus gem (the top-right gem of M is not complete)
    g = garden("M@0,0 A@0,1 B@2,0")
    count = count_gems(g)
    assert (count.plain, count.triple, count.bonus) == (4, 0, 1)
    assert count.total == 5
    assert len(g) == 3


def test_a_bonus_line_needs_both_ends_complete() -> None:
    assert count_gems(garden("M@0,0 A@0,1")).bonus == 1
    assert count_gems(garden("M@0,0 B@2,0")).bonus == 0


def test_two_gardeners_make_a_strong_triple_gem() -> None:
    count = count_gems(garden("T1@0,0 T2@1,0"))
    assert (count.plain, count.triple, count.total) == (0, 3, 3)
    # a triple half beside a plain half is a plain gem
    assert count_gems(garden("T1@0,0 N1@1,0")).total == 1


def test_an_egg_matches_any_colour_and_takes_it() -> None:
    gems = complete_gems(garden("K1@0,0 E1@1,0"))
    assert [(g.value, g.colours) for g in gems] == [(1, frozenset({"pink"}))]


def test_halves_of_one_tile_never_make_a_gem_and_incomplete_halves_count_nothing() -> None:
    assert count_gems(garden("N1@0,0")).total == 0
    assert count_gems(garden("N1@0,0 N2@0,1")).total == 0  # only empty edges meet


def test_maria_row_has_seven_gems() -> None:
    g = garden("P1@0,0 N1@1,0 N2@2,0 N3@3,0 N4@4,0 N5@5,0 G1@6,0 G2@7,0")
    assert count_gems(g).total == 7


def test_a_pond_is_a_gap_surrounded_by_tiles() -> None:
    ring = "P2@0,0 P3@1,0 D1@2,0 D2@0,1 G3@2,1 G4@0,2 G5@1,2 G6@2,2"
    assert ponds(garden(ring)) == 1
    assert ponds(garden(ring.replace(" G5@1,2", ""))) == 0
    assert empty_joins(garden("P2@0,0 P3@1,0 D1@2,0")) == 2
