"""Mission tiles: each effect's gems and passing them on between rounds."""

from __future__ import annotations

from gardlings_helpers import garden

from companion.gardlings.missions import count_all, has_shape, pass_missions


def test_a_shape_counts_once_turned_or_mirrored_on_other_tiles() -> None:
    t_shape = ["###", ".#."]
    assert has_shape({(0, 0), (0, 1), (0, 2), (1, 1)}, t_shape)  # turned
    assert not has_shape({(0, 0), (1, 0), (2, 0)}, t_shape)
    g = garden("X1@0,0 P2@2,0 P3@3,0 D1@4,0 D2@3,1")
    assert count_all(g, "X1").mission == 3
    # the mission's own cells do not count toward the shape
    assert count_all(garden("X1@0,0 P2@2,0 P3@2,1"), "X1").mission == 0


def test_empty_joins_blue_gems_and_surrounded() -> None:
    assert count_all(garden("X4@0,0 P2@2,0"), "X4").mission == 0  # 1 empty join
    assert count_all(garden("X4@0,0 P2@2,0 P3@2,1"), "X4").mission == 2  # 3 empty joins
    blue = "X5@0,0 P1@2,0 N1@3,0 N2@4,0 N3@5,0"  # 3 blue gems, then a 4th
    assert count_all(garden(blue), "X5").mission == 0
    assert count_all(garden(blue + " N4@6,0"), "X5").mission == 2
    around = ("X6@0,0 P2@0,-1 P3@1,-1 D1@2,0 D2@2,1 G3@0,2 G4@1,2 G5@-1,0 G6@-1,1")
    assert count_all(garden(around), "X6").mission == 3
    assert count_all(garden(around.replace(" G6@-1,1", "")), "X6").mission == 0


def test_missions_pass_clockwise_and_through_the_places_between() -> None:
    assert pass_missions(["A", "B", "C", "D"], []) == (("D", "A", "B", "C"), ())
    held, between = pass_missions(["A", "B", "C"], ["x", "y", "z"])
    assert held == ("x", "y", "z") and between == ("C", "A", "B")
    assert pass_missions(["A"], ["x"]) == (("x",), ("A",))
