"""Action 1: the placement rules, every violation reported, and what a placement creates."""

from __future__ import annotations

import pytest
from glade_helpers import TONI_1, TONI_2, TONI_3, TONI_4, S, T, forest, tiles

from companion.errors import StateError
from companion.the_glade.forest import Forest
from companion.the_glade.names import BoardGeometry, Counter, Square
from companion.the_glade.placement import placed_between, rule_placement


def rules(r) -> list[str]:
    return [v.rule for v in r.violations]


def test_first_placement_must_cover_the_centre() -> None:
    r = rule_placement(forest(), tiles(TONI_1))
    assert r.legal
    off = {"C5": TONI_1["C4"], "D5": TONI_1["D4"], "E5": TONI_1["E4"]}
    r = rule_placement(forest(), tiles(off))
    assert rules(r) == ["centre"] and r.violations[0].squares == (S("D4"),)


def test_centre_comes_from_the_geometry() -> None:
    geo = BoardGeometry(5, 5, Square.parse("C3"))
    assert rule_placement(Forest(geo), {S("C3"): T("Hao")}).legal
    assert rules(rule_placement(Forest(geo), {S("D4"): T("Hao")})) == ["centre"]


def test_tiles_must_be_in_one_row_or_column() -> None:
    r = rule_placement(forest({"D4": "Hao"}), tiles({"D5": "Hbo", "E6": "Hho"}))
    assert "line" in rules(r)
    assert "not in one row or one column" in r.violations[0].message


def test_tiles_must_connect_directly_or_through_existing_tiles() -> None:
    before = forest({"D4": "Hbb"})
    assert rule_placement(before, tiles({"C4": "Ham", "E4": "Hmo"})).legal  # through D4
    r = rule_placement(before, tiles({"B4": "Ham", "F4": "Hmo"}))
    assert "gap" in rules(r)
    gap = next(v for v in r.violations if v.rule == "gap")
    assert gap.squares == (S("C4"), S("E4"))
    assert "C4 and E4 in row 4 are empty" in gap.message


def test_one_to_four_tiles() -> None:
    assert rules(rule_placement(forest({"D4": "Hao"}), {})) == ["count"]
    five = {"A1": "Hab", "B1": "Hbb", "C1": "Hhb", "D1": "Hmb", "E1": "Mab"}
    assert "count" in rules(rule_placement(forest({"D4": "Hao"}), tiles(five)))


def test_no_tile_off_the_board_or_on_a_tile_or_on_a_counter() -> None:
    before = forest({"D3": "Hao", "C4": "Hbo", "E4": "Hho", "D5": "Hmo", "D4": "Mao"},
                    {})
    r = rule_placement(before, {Square(0, 7): T("Tmb")})
    assert rules(r) == ["off-board"]
    r = rule_placement(before, {S("D4"): T("Tmb")})
    assert rules(r) == ["occupied"]
    without = {k: v for k, v in before.tiles.items() if k != S("D4")}
    with_counter = Forest(before.geometry, without, {S("D4"): Counter.parse("blue-double")})
    r = rule_placement(with_counter, {S("D4"): T("Hbb")})
    assert "counter" in rules(r)
    assert "once a counter is on a square nothing else" in r.violations[0].message


def test_message_names_the_line_and_what_breaks_it() -> None:
    before = forest({"C2": "hedgehog/acorn/beech", "C3": "hedgehog/blackberry/oak"})
    r = rule_placement(before, tiles({"C4": "hedgehog/acorn/maple"}))
    assert rules(r) == ["set"]
    v = r.violations[0]
    assert v.message == "C4 makes column C three hedgehogs with two acorns"
    assert v.squares == (S("C2"), S("C3"), S("C4"))


def test_rulebook_illegal_light_green_squirrel_over_three_dark_brown_tiles() -> None:
    before = forest({"D4": "hedgehog/acorn/oak", "D5": "mouse/blackberry/oak",
                     "D6": "toad/hazelnut/oak"})
    r = rule_placement(before, tiles({"D3": "squirrel/mushroom/beech"}))
    assert not r.legal
    assert r.violations[0].message == ("D3 makes column D four tiles with three dark brown "
                                       "leaves")


def test_rulebook_illegal_dark_green_mouse_next_to_light_green_toad() -> None:
    before = forest({"D4": "toad/hazelnut/beech"})
    r = rule_placement(before, tiles({"E4": "mouse/acorn/horse-chestnut"}))
    assert rules(r) == ["set"]
    assert "share no characteristic" in r.violations[0].message


def test_every_broken_rule_is_reported() -> None:
    before = forest({"D4": "Hao", "C3": "Tmb"})
    r = rule_placement(before, tiles({"D5": "Mbc", "E6": "Mbc", "D4": "Sab"}),
                       rack=[T("Mbc")])
    assert set(rules(r)) == {"occupied", "line", "set", "rack"}
    rack = next(v for v in r.violations if v.rule == "rack")
    assert "the rack holds one dark green mouse" in rack.message


def test_every_line_a_placed_tile_touches_must_be_a_set() -> None:
    # D4-E4 fine as a row, but E4 also touches column E where it clashes with E5.
    before = forest({"D4": "Hao", "E5": "Tmb"})
    r = rule_placement(before, tiles({"E4": "Hbo"}))
    assert rules(r) == ["set"] and "column E" in r.violations[0].message


def test_toni_second_turn_mouse_forms_a_set_of_2_with_acorns() -> None:
    before = forest(TONI_1)
    r = rule_placement(before, tiles(TONI_2))
    assert r.legal
    assert [s.missing for s in r.sets_of_3] == [T("hedgehog/mushroom/beech")]
    assert (S("C3"), S("C4")) in r.lines


def test_unconnected_groups_are_legal() -> None:
    before = forest(TONI_1)
    emma_style = {"A6": "hedgehog/acorn/oak", "A7": "hedgehog/blackberry/oak"}
    assert rule_placement(before, tiles(emma_style)).legal


def test_toni_third_turn_set_of_3_two_shared_double() -> None:
    r = rule_placement(forest({**TONI_1, **TONI_2}), tiles(TONI_3))
    assert r.legal
    (s3,) = r.sets_of_3
    assert s3.squares == (S("E3"), S("E4"), S("E5"))
    assert s3.missing == T("mouse/mushroom/oak") and s3.side == "double"


def test_toni_fourth_turn_two_sets_of_3_and_an_enclosure() -> None:
    r = rule_placement(forest({**TONI_1, **TONI_2, **TONI_3}), tiles(TONI_4))
    assert r.legal
    found = {(s.missing, s.side) for s in r.sets_of_3}
    assert found == {(T("squirrel/mushroom/horse-chestnut"), "double"),
                     (T("toad/acorn/oak"), "single")}
    assert r.enclosures == (S("D3"),)
    assert r.to_dict()["enclosures"] == ["D3"]


def test_set_of_4_one_tile_added_of_two_placed() -> None:
    """Rulebook: 2 tiles sharing mushroom; the mouse creates a set of 4 (mushroom + leaf)."""
    before = forest({"D3": "squirrel/mushroom/oak", "D4": "hedgehog/mushroom/oak",
                     "D5": "toad/mushroom/oak"})
    r = rule_placement(before, tiles({"D6": "mouse/mushroom/oak", "E6": "toad/mushroom/maple"}))
    assert r.legal
    (s4,) = r.sets_of_4
    assert s4.added == 1 and s4.shared == 2 and s4.squares[-1] == S("D6")


def test_set_of_4_three_tiles_added() -> None:
    before = forest({"D4": "hedgehog/acorn/beech"})
    placed = {"E4": "mouse/blackberry/beech", "F4": "squirrel/hazelnut/beech",
              "G4": "toad/mushroom/beech"}
    r = rule_placement(before, tiles(placed))
    (s4,) = r.sets_of_4
    assert (s4.added, s4.shared, s4.side) == (3, 1, "single")


def test_lines_longer_than_four_are_illegal() -> None:
    before = forest({"B4": "Hab", "C4": "Hbb", "D4": "Hhb", "E4": "Hmb"})
    r = rule_placement(before, tiles({"F4": "Mab"}))
    assert rules(r) == ["set"] and "at most 4" in r.violations[0].message


def test_edge_squares_are_never_enclosures() -> None:
    f = forest({"A2": "Hab", "B1": "Hbb", "A3": "Hhb"})
    assert not f.is_enclosure(S("A1")) and not f.is_enclosure(S("A2"))
    ring = forest({"C3": "Hab", "E3": "Hbb", "D2": "Hhb", "D4": "Hmb"})
    assert ring.is_enclosure(S("D3")) and ring.empty_enclosures() == [S("D3")]


def test_placed_between_finds_the_new_tiles() -> None:
    before, after = forest(TONI_1), forest({**TONI_1, **TONI_2})
    assert placed_between(before, after) == tiles(TONI_2)


@pytest.mark.parametrize("after, words", [
    ({"C4": "hedgehog/acorn/maple", "D4": "hedgehog/blackberry/beech"}, "gone"),
    ({**TONI_1, "E4": "hedgehog/mushroom/maple"}, "never move or change"),
])
def test_placed_between_refuses_moved_or_removed_tiles(after: dict, words: str) -> None:
    with pytest.raises(StateError, match=words):
        placed_between(forest(TONI_1), forest(after))


def test_placed_between_refuses_a_new_counter() -> None:
    ring = {"C3": "Hab", "E3": "Hbb", "D2": "Hhb", "D4": "Hmb"}
    with pytest.raises(StateError, match="new counter"):
        placed_between(forest(ring), forest(ring, {"D3": "blue-single"}))


def test_rule_placement_also_takes_the_forest_after() -> None:
    r = rule_placement(forest(TONI_1), forest({**TONI_1, **TONI_2}))
    assert r.legal and set(r.placed) == {S("A3"), S("B3"), S("C3")}
