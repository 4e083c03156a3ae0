"""The play validator, one rulebook sentence per test (codes compared, never messages)."""

from __future__ import annotations

from meadow_helpers import CAT, area, quote

from companion.meadow.meadow import visible
from companion.meadow.requirements import Place, play_card, rule_play


def places(ruling):  # type: ignore[no-untyped-def]
    return {str(p): list(c) for p, c in ruling.places}


@quote("The requirements are considered fulfilled if your meadow area has all the required "
       "symbols visible.")
def test_requirements_met_by_visible_symbols() -> None:
    a = area("start-1a | G2", hand="OW OWB")
    assert rule_play(a, CAT, "OW").legal
    r = rule_play(a, CAT, "OWB")
    assert not r.legal and r.codes == ("missing",)


@quote("Card has 1 requirement. You play the card on top of a card with the required symbol.")
def test_one_requirement_goes_on_a_card_with_it() -> None:
    a = area("start-1a | G2 | G3", hand="OW")
    r = rule_play(a, CAT, "OW")
    assert places(r) == {"2": ["worm"]}
    bad = rule_play(a, CAT, "OW", Place.on_column(1))
    assert bad.codes == ("place",)


@quote("If you have several cards that fulfill this requirement, choose 1 of them and place "
       "the card on it.")
def test_several_cards_with_the_symbol_each_a_place() -> None:
    a = area("G2 | start-2b", hand="OW")
    assert set(places(rule_play(a, CAT, "OW"))) == {"1", "2"}


@quote("All of the required symbols must be visible in your meadow – only then can you cover "
       "1 of them.")
def test_two_requirements_all_visible_one_covered() -> None:
    a = area("G2 | G3", hand="OWB")
    r = rule_play(a, CAT, "OWB")
    assert places(r) == {"1": ["worm"], "2": ["bug"]}
    assert not rule_play(area("G2 | G1", hand="OWB"), CAT, "OWB").legal


@quote("The covered symbol cannot be used again, however the remaining symbols can be used in "
       "the future (as long as they are visible).")
def test_covered_symbol_is_lost_the_rest_stays() -> None:
    a = area("G2 | G3", hand="OWB OW")
    after = play_card(a, CAT, "OWB", Place.on_column(1))
    seen = visible(after, CAT)
    assert seen["worm"] == 0 and seen["bug"] == 1 and seen["bird"] == 1
    assert rule_play(after, CAT, "OW").codes == ("missing",)


@quote("The new card may also grant its own card symbol.")
def test_new_card_grants_its_symbol() -> None:
    after = play_card(area("G2", hand="OW"), CAT, "OW", Place.on_column(1))
    assert visible(after, CAT)["bird"] == 1


@quote("If 1 of the requirements on the observation card is for a ground symbol, you can play "
       "the card directly on top of an empty ground card (you must still fulfill all other "
       "requirements) or on another observation card at the top of a column with that ground "
       "card at the bottom (regardless of the symbols on the top observation card in this "
       "column).")
def test_ground_symbol_requirement_places() -> None:
    a = area("G1 | G5 | G2+OW", hand="OG")
    r = rule_play(a, CAT, "OG")
    assert places(r) == {"1": [], "2": ["bird"], "3": ["bird"]}
    a2 = area("start-1a+OS | G5", hand="OG")
    assert "1" in places(rule_play(a2, CAT, "OG"))
    assert rule_play(area("G1 | G2", hand="OG"), CAT, "OG").codes == ("missing",)


@quote("When playing an observation card on a ground card, you must remember not to cover the "
       "ground symbol.")
def test_ground_symbol_never_covered() -> None:
    a = area("G2", hand="OW")
    after = play_card(a, CAT, "OW", Place.on_column(1))
    assert visible(after, CAT)["wetlands"] == 1
    assert rule_play(a, CAT, "OW", Place.on_column(1)).covers == ("worm",)


@quote("If the requirement symbols are divided with a slash, it means that you need only 1 out "
       "of 2 presented symbols to fulfill the requirement.")
def test_slash_either_symbol() -> None:
    assert rule_play(area("G2", hand="OS"), CAT, "OS").legal
    assert rule_play(area("G3", hand="OS"), CAT, "OS").legal
    assert not rule_play(area("G1", hand="OS"), CAT, "OS").legal


@quote("For game purposes, a choice requirement only counts as one symbol (not two).")
def test_slash_counts_once() -> None:
    r = rule_play(area("G1", hand="OS X1 X2 X3"), CAT, "OS", discards=("X1", "X2"))
    assert r.codes == ("ignore-all",)
    assert r.fewest_discards is None


@quote("In such a case, the card must be played in a column immediately adjacent to a column "
       "showing the indicated required symbol.")
def test_arrows_adjacent_column() -> None:
    a = area("G1 | G4 | G2 | G3", hand="OA")
    assert set(places(rule_play(a, CAT, "OA"))) == {"1", "3"}
    assert rule_play(a, CAT, "OA", Place.on_column(4)).codes == ("adjacent",)
    assert rule_play(a, CAT, "OA", Place.on_column(2)).codes == ("adjacent",)


@quote("If, among the requirement symbols, there is a symbol marked with arrows and another "
       "symbol without arrows, you must have both symbols in your play area, but you can "
       "choose where to place the card.")
def test_mixed_arrows_both_needed_either_place() -> None:
    a = area("G4 | G1 | G5 | G1", hand="OM")
    assert set(places(rule_play(a, CAT, "OM"))) == {"2", "3"}
    assert rule_play(area("G1 | G5", hand="OM"), CAT, "OM").codes == ("missing",)


@quote("Some of the cards provide 2 card symbols – covering them loses both.")
def test_two_symbols_both_lost() -> None:
    a = area("start-1a+OT | G1", hand="OS")
    r = rule_play(a, CAT, "OS", Place.on_column(1))
    assert r.legal and r.covers == ("worm", "bug")
    after = play_card(a, CAT, "OS", Place.on_column(1))
    assert visible(after, CAT)["worm"] == 0 and visible(after, CAT)["bug"] == 0


@quote("However, you still have the ground symbol visible and you can use it multiple times.")
def test_ground_symbol_used_many_times() -> None:
    a = area("G1+OS", hand="OG")
    assert rule_play(area("G5 | G1+OB", hand="OG"), CAT, "OG").legal
    assert visible(a, CAT)["grass"] == 1


@quote("If you are missing a required symbol in your play area, you may discard any 2 cards "
       "from your hand to ignore 1 requirement symbol of the played card (you can do this "
       "multiple times).")
def test_two_discards_ignore_one() -> None:
    a = area("G2", hand="OWB X1 X2 X3 X4")
    assert rule_play(a, CAT, "OWB").codes == ("missing",)
    r = rule_play(a, CAT, "OWB", discards=("X1", "X2"))
    assert r.legal and r.fewest_discards == 2
    a2 = area("G1", hand="D2 X1 X2 X3 X4", lands="L1")
    assert set(rule_play(a2, CAT, "D2", discards=("X1", "X2")).codes) == {"missing"}
    assert rule_play(a2, CAT, "D2", discards=("X1", "X2", "X3", "X4")).legal


@quote("You cannot ignore all of the symbols this way – you must always have at least 1 of "
       "the required symbols.")
def test_cannot_ignore_all() -> None:
    a = area("G1", hand="OW X1 X2")
    r = rule_play(a, CAT, "OW", discards=("X1", "X2"))
    assert r.codes == ("ignore-all",) and r.fewest_discards is None


def test_ignored_requirement_gives_no_place() -> None:
    """Spec reading 5: an ignored requirement gives no place."""
    a = area("G3 | G1", hand="OWB X1 X2")
    r = rule_play(a, CAT, "OWB", discards=("X1", "X2"))
    assert places(r) == {"1": ["bug"]}


@quote("Card requires only a road token. You play the card and place 1 of your unused road "
       "tokens below it, then flip the token, so the side without the road symbol is visible, "
       "marking it as used.")
def test_landscape_uses_a_road_token() -> None:
    a = area("G1", hand="L1", unused=1)
    r = rule_play(a, CAT, "L1")
    assert r.legal and places(r) == {"surroundings": []}
    after = play_card(a, CAT, "L1", Place.in_surroundings())
    assert (after.roads_unused, after.roads_used) == (0, 1)
    assert rule_play(area("G1", hand="L1", unused=0), CAT, "L1").codes == ("road",)


@quote("You do not lose the required symbols – you may still use them to fulfill the "
       "requirements of other cards.")
def test_landscape_keeps_symbols() -> None:
    a = area("G5", hand="L2 OB")
    after = play_card(a, CAT, "L2", Place.in_surroundings())
    assert visible(after, CAT) == visible(a, CAT)


@quote("You cannot ignore the road token requirement this way.")
def test_road_never_ignored() -> None:
    a = area("G1", hand="L2 X1 X2 X3 X4", unused=0)
    assert "road" in rule_play(a, CAT, "L2", discards=("X1", "X2", "X3", "X4")).codes
    ok = area("G1", hand="L2 X1 X2", unused=1)
    assert rule_play(ok, CAT, "L2", discards=("X1", "X2")).legal


@quote("You place the discovery cards on previously played landscape cards by covering the "
       "road symbol.")
def test_discovery_on_unused_landscape() -> None:
    a = area("G1", hand="D1", lands="L1:D2 L2")
    r = rule_play(a, CAT, "D1")
    assert places(r) == {"L2": ["road"]}
    assert rule_play(a, CAT, "D1", Place.on_landscape("L1")).codes == ("discovery",)
    assert rule_play(area("G1", hand="D1"), CAT, "D1").codes == ("discovery",)


@quote("You cannot ignore the discovery requirement this way.")
def test_discovery_never_ignored() -> None:
    a = area("G1", hand="D1 X1 X2")
    assert "discovery" in rule_play(a, CAT, "D1", discards=("X1", "X2")).codes


@quote("You cannot place any cards on a card with this symbol – even if there is a required "
       "ground symbol on the card in the column, or if this column would fulfill the "
       "requirement of adjacent areas.")
def test_encounter_never_covered() -> None:
    a = area("G3+OE | G4", hand="OS OA")
    assert rule_play(a, CAT, "OA", Place.on_column(1)).codes == ("encounter",)
    a2 = area("G1+OE", hand="OG")
    assert rule_play(a2, CAT, "OG", Place.on_column(1)).codes == ("encounter",)


@quote("You can have up to 10 ground cards in your meadow area.")
def test_ground_limit() -> None:
    ten = " | ".join(["G1"] * 10)
    r = rule_play(area(ten, hand="G2"), CAT, "G2")
    assert r.codes == ("ground-limit",)


@quote("When playing a ground card, place it on the right or left side of any already played "
       "ground cards.")
def test_ground_left_or_right() -> None:
    a = area("G1", hand="G2")
    r = rule_play(a, CAT, "G2")
    assert places(r) == {"left": [], "right": []}
    left = play_card(a, CAT, "G2", Place.new_ground("left"))
    assert left.meadow == (("G2",), ("G1",))


@quote("The ground cards create the lowest level of the meadow, therefore they cannot be "
       "played on top of other cards.")
def test_ground_not_on_a_column() -> None:
    assert rule_play(area("G1", hand="G2"), CAT, "G2", Place.on_column(1)).codes == ("area",)
    assert rule_play(area("G2", hand="OW"), CAT, "OW",
                     Place.new_ground("left")).codes == ("area",)


def test_two_of_the_same_need_two() -> None:
    """Spec reading 2: each requirement by a symbol of its own."""
    assert not rule_play(area("G2", hand="OWW"), CAT, "OWW").legal
    assert rule_play(area("G2 | start-2b", hand="OWW"), CAT, "OWW").legal
