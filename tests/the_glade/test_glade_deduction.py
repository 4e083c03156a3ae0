"""Doubts the game's own rules settle when a finished game is scored from photos
(``companion.the_glade.deduction``): the rulebook's 2 copies of each tile, its lines of
tiles that are sets, its 12 counters of each player colour and no colour nobody plays. Each
case is the bundled finished game (3 players) with one reading made a doubt between the
truth and a look-alike, as the forest scan and the glade scan report them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_glade_photo_game import CONFIG, readings

from companion.the_glade import deduction, jobs
from companion.the_glade.photo_flow import Progress, doubts_of, settled_of
from companion.the_glade.photo_game import CannotScore, assemble, score_readings

LIZ = 2  # the third player's forest: toni.jpg, emma.jpg, liz.jpg


def doubt_square(forest: dict[str, Any], square: str, candidates: list[str]) -> None:
    """The square as the forest scan leaves a look-alike doubt: left out, named uncertain,
    with the two names it hesitated between."""
    forest["forest"]["tiles"].pop(square, None)
    forest["forest"]["counters"].pop(square, None)
    forest["uncertain"] = [*forest.get("uncertain", []), square]
    forest.setdefault("candidates", {})[square] = candidates
    forest.setdefault("reasons", {})[square] = f"looks like {candidates[0]} or {candidates[1]}"


def at_the_table(glade: dict[str, Any], forests: list[dict[str, Any]]) -> Progress:
    """The readings as the table's Score from photos holds them (the sample's three seats)."""
    return Progress([("Toni", "yellow"), ("Emma", "blue"), ("Liz", "red")], "basic", glade,
                    forests)


def truth() -> dict[str, Any]:
    return jobs.score(CONFIG / "sample-game.json").data


@pytest.mark.parametrize("square, real, other, rule", [
    # both copies of mouse/hazelnut/oak lie on emma's G2 and liz's B3
    ("C3", "mouse/mushroom/oak", "mouse/hazelnut/oak", deduction.TILE_COPIES_RULE),
    # row C7 D7 E7 holds two squirrels: a third squirrel with an acorn makes it no set
    ("E7", "squirrel/blackberry/oak", "squirrel/acorn/oak", deduction.NOT_A_SET),
])
def test_a_look_alike_the_rules_rule_out_is_settled_and_the_game_scored_exactly(
        square: str, real: str, other: str, rule: str) -> None:
    plan, glade, forests = readings()
    doubt_square(forests[LIZ], square, [other, real])  # the look-alike named first
    report = score_readings(plan, glade, forests)
    settled = report.data.pop("settled")
    assert report.data == truth()
    assert settled == [{"photo": "liz.jpg", "where": square, "name": real, "ruled_out": other,
                        "rule": rule, "why": settled[0]["why"]}]
    assert f"Settled by the rules: liz.jpg: square {square} is {real}" in report.text


def test_a_game_with_nothing_settled_reports_as_before() -> None:
    plan, glade, forests = readings()
    report = score_readings(plan, glade, forests)
    assert "settled" not in report.data and "Settled" not in report.text


def test_a_doubt_in_the_line_says_nothing_of_it() -> None:
    """E7's row is C7 D7 E7 and its column E5 E6 E7: either settles it alone (the column
    holds two squirrels with blackberries), but with D7 and E6 in doubt too (glare: no
    candidates) neither line is known, and E7 stays a doubt."""
    plan, glade, forests = readings()
    doubt_square(forests[LIZ], "E7", ["squirrel/acorn/oak", "squirrel/blackberry/oak"])
    for square in ("D7", "E6"):
        forests[LIZ]["forest"]["tiles"].pop(square)
        forests[LIZ]["uncertain"].append(square)
    built = assemble(plan, glade, forests)
    assert built.settled == []
    assert {(d.part, d.place) for d in built.doubts} == {
        ("forest-square", "E7"), ("forest-square", "D7"), ("forest-square", "E6")}
    forests[LIZ]["uncertain"].remove("E6")  # E6 read after all (the tile it holds)
    forests[LIZ]["forest"]["tiles"]["E6"] = "squirrel/blackberry/maple"
    assert [s.label for s in assemble(plan, glade, forests).settled] == ["E7"]


def test_two_names_the_rules_both_allow_stay_a_doubt() -> None:
    """liz's F6 toad/acorn/maple against toad/acorn/beech: beech's copies are both on the
    boards, but a third name the recogniser may have missed must be ruled out too: with F6's
    column and row unknown (F5 and E6 in doubt) many tiles fit there, so nothing is settled."""
    plan, glade, forests = readings()
    doubt_square(forests[LIZ], "F6", ["toad/acorn/beech", "toad/acorn/maple"])
    for square in ("F5", "E6", "G6", "F7"):
        if square in forests[LIZ]["forest"]["tiles"]:
            forests[LIZ]["forest"]["tiles"].pop(square)
            forests[LIZ]["uncertain"].append(square)
    with pytest.raises(CannotScore) as caught:
        score_readings(plan, glade, forests)
    assert ("forest-square", "F6") in {(d.part, d.place) for d in caught.value.doubts}
    assert caught.value.settled == ()


def test_only_one_survivor_among_every_tile_settles_it() -> None:
    """The rules must leave one tile of all 64, not one of the recogniser's two: with the
    open rule off (the two alone) the same doubt would be settled."""
    plan, glade, forests = readings()
    doubt_square(forests[LIZ], "F6", ["toad/acorn/beech", "toad/acorn/maple"])
    forests[LIZ]["forest"]["tiles"].pop("F5")
    forests[LIZ]["uncertain"].append("F5")
    seats = [(s.forest_photo, s.colour) for s in plan.seats]
    pair = deduction.settle(seats, plan.glade_photo, glade, forests, mode="pair")[2]
    every = deduction.settle(seats, plan.glade_photo, glade, forests, mode="all")[2]
    assert [s.label for s in pair] == ["F6"]
    assert every == []


def test_sure_readings_that_break_a_rule_settle_nothing() -> None:
    """A third copy of a tile among the sure readings means one of them is wrong: no doubt
    is settled from them (C3 would be, by mouse/hazelnut/oak's two copies)."""
    plan, glade, forests = readings()
    doubt_square(forests[LIZ], "C3", ["mouse/hazelnut/oak", "mouse/mushroom/oak"])
    forests[0]["forest"]["tiles"]["A1"] = "mouse/hazelnut/oak"  # misread, sure
    built = assemble(plan, glade, forests)
    assert built.settled == []
    assert ("forest-square", "C3") in {(d.part, d.place) for d in built.doubts}


def test_a_doubt_no_tile_fits_settles_nothing_in_the_game() -> None:
    plan, glade, forests = readings()
    doubt_square(forests[LIZ], "C3", ["mouse/hazelnut/oak", "mouse/mushroom/oak"])
    doubt_square(forests[LIZ], "E7", ["squirrel/acorn/oak", "squirrel/blackberry/oak"])
    # two sure copies (on squares with no neighbour: no line) of the only tile E7's row and
    # column leave: no tile fits E7, so a sure reading is wrong somewhere
    forests[1]["forest"]["tiles"]["E1"] = "squirrel/blackberry/oak"
    forests[LIZ]["forest"]["tiles"]["A1"] = "squirrel/blackberry/oak"
    seats = [(s.forest_photo, s.colour) for s in plan.seats]
    assert deduction.broken(deduction.Evidence(seats, glade, forests)) == []
    assert deduction.settle(seats, plan.glade_photo, glade, forests)[2] == []
    del forests[1]["forest"]["tiles"]["E1"]  # one copy elsewhere: E7 and C3 settled
    assert {s.label for s in deduction.settle(seats, plan.glade_photo, glade, forests)[2]
            } == {"C3", "E7"}


def test_a_glade_counter_of_a_colour_nobody_plays_is_settled() -> None:
    plan, glade, forests = readings()
    space = "hedgehog/hazelnut/beech"  # yellow-single in the finished game
    del glade["glade"][space]
    glade["uncertain"].append(space)
    glade["candidates"] = {space: ["green-single", "yellow-single"]}
    report = score_readings(plan, glade, forests)
    settled = report.data.pop("settled")
    assert report.data == truth()
    assert [(s["where"], s["name"], s["rule"]) for s in settled] == [
        (space, "yellow-single", deduction.COLOUR_NOT_IN_PLAY)]


def test_an_enclosed_counter_of_a_colour_all_found_is_settled() -> None:
    plan, glade, forests = readings()
    doubt_square(forests[0], "F5", ["red-double", "blue-double"])  # toni's F5: blue-double
    report = score_readings(plan, glade, forests)
    settled = report.data.pop("settled")
    assert report.data == truth()
    assert [(s["where"], s["name"], s["rule"]) for s in settled] == [
        ("F5", "blue-double", deduction.COLOUR_COUNT)]


def test_a_colour_not_all_found_leaves_the_counter_a_doubt() -> None:
    plan, glade, forests = readings()
    doubt_square(forests[0], "F5", ["red-double", "blue-double"])
    forests[LIZ]["store"].remove("red-single")  # a red counter missed: red may be at F5
    with pytest.raises(CannotScore) as caught:
        score_readings(plan, glade, forests)
    assert (caught.value.doubts[0].part, caught.value.doubts[0].place) == ("forest-square",
                                                                            "F5")


def test_names_settled_that_fail_a_check_leave_the_doubts_as_read() -> None:
    """C3 is settled by mouse/hazelnut/oak's two copies; but with a yellow counter out of
    the photos the state built with it fails the count of each colour's 12: the doubt
    stands as read (the person sees the square first, then the count)."""
    plan, glade, forests = readings()
    doubt_square(forests[LIZ], "C3", ["mouse/hazelnut/oak", "mouse/mushroom/oak"])
    assert [s.label for s in assemble(plan, glade, forests).settled] == ["C3"]
    forests[1]["store"].remove("yellow-single")
    built = assemble(plan, glade, forests)
    assert built.settled == []
    assert [(d.part, d.place) for d in built.doubts] == [("forest-square", "C3")]
    assert "C3" not in built.state["players"][LIZ]["forest"]["tiles"]


def test_two_doubts_settled_to_more_copies_than_the_game_has_settle_neither() -> None:
    plan, glade, forests = readings()
    seats = [(s.forest_photo, s.colour) for s in plan.seats]
    evidence = deduction.Evidence(seats, glade, forests)
    first = deduction.Doubted("liz.jpg", LIZ, "C3", ("a", "b"))
    second = deduction.Doubted("emma.jpg", 1, "A1", ("a", "b"))
    name = "hedgehog/blackberry/beech"  # one copy on the boards: one left
    assert len(evidence.tiles[name]) == 1
    found = [(d, deduction.Settled(d.photo, d.label, name, "x", "r", "w"))
             for d in (first, second)]
    assert deduction._consistent(evidence, found) == []
    assert deduction._consistent(evidence, found[:1]) == found[:1]


def test_a_supply_doubt_at_a_seat_nobody_sits_at_stops_nothing() -> None:
    plan, glade, forests = readings()
    glade["uncertain"].append("seat-4:3")  # 3 players: seat 4 is empty
    report = score_readings(plan, glade, forests)
    assert report.data == truth()
    glade["uncertain"].append("seat-3:7")  # liz's 6 red counters lie on spaces 7-12
    glade["supply"]["3"] -= 1
    with pytest.raises(CannotScore) as caught:
        score_readings(plan, glade, forests)
    assert caught.value.doubts[0].place == "seat-3:7"


@pytest.mark.parametrize("seat, colour, spaces", [
    ("3", "red", ["seat-3:3"]),                 # liz: 6 left, on spaces 7-12
    ("2", "blue", ["seat-2:1", "seat-2:9"]),    # emma: 3 left, on spaces 10-12
    ("1", "yellow", ["seat-1:12"]),             # toni: none left
])
def test_a_bare_supply_space_is_settled_when_all_12_of_its_colour_are_found(
        seat: str, colour: str, spaces: list[str]) -> None:
    """Rulebook: each player's 12 counters start on the 12 spaces at their edge and only
    ever leave them; all 12 of the colour found elsewhere (and on the seat's spaces read
    surely), a space in doubt there is bare."""
    plan, glade, forests = readings()
    glade["uncertain"] += spaces
    glade["reasons"] = {s: "glare" for s in spaces}
    report = score_readings(plan, glade, forests)
    settled = report.data.pop("settled")
    assert report.data == truth()
    assert [(s["where"], s["name"], s["ruled_out"], s["rule"]) for s in settled] == [
        (s, deduction.EMPTY, f"{colour}-single", deduction.COLOUR_COUNT) for s in spaces]
    space = spaces[0].partition(":")[2]
    assert f"glade.jpg: supply space {space} of seat {seat} is empty" in report.text


def test_a_supply_space_stays_a_doubt_while_a_counter_of_its_colour_may_lie_there() -> None:
    """The doubted space holds one of liz's counters (read 5 of her 6, so 11 red found), the
    leftmost of her six, bare space 6 beside it: never settled bare; nor a bare one while a
    red counter elsewhere is not read surely and the scan does not say which of the seat's
    spaces it read held (so supply-order has nothing to reason from)."""
    plan, glade, forests = readings()
    glade["uncertain"].append("seat-3:7")
    glade["supply"]["3"] -= 1
    with pytest.raises(CannotScore) as caught:
        score_readings(plan, glade, forests)
    assert [(d.part, d.place) for d in caught.value.doubts] == [("glade-board", "seat-3:7")]
    plan, glade, forests = readings()
    glade["uncertain"].append("seat-3:3")
    del glade["supply_spaces"]
    forests[LIZ]["store"].remove("red-single")  # a red counter in the store not named
    forests[LIZ]["store_uncertain"] = 1
    with pytest.raises(CannotScore) as caught:
        score_readings(plan, glade, forests)
    assert caught.value.settled == ()
    assert caught.value.doubts[0].place == "seat-3:3"


@pytest.mark.parametrize("space, held", [
    ("seat-3:3", False),   # liz's 6 red counters lie on 7-12: 4-6 read bare right of it
    ("seat-3:9", True),    # 7 and 8 read holding hers left of it
    ("seat-2:11", True),   # emma's 3 blue on 10-12
    ("seat-1:1", False),   # toni has none left
])
def test_a_supply_space_is_settled_by_the_order_counters_leave_in(space: str,
                                                                    held: bool) -> None:
    """Rulebook: "Remove the leftmost toadstool counter from your side", every time: the
    counters left lie on the seat's rightmost spaces. A supply space in doubt right of one
    read holding a counter holds one; left of one read bare, it is bare. Settled so even
    while another counter of the colour is in doubt (a store thing), where the count of 12
    says nothing."""
    seat = space.removeprefix("seat-").partition(":")[0]
    colour = {"1": "yellow", "2": "blue", "3": "red"}[seat]
    plan, glade, forests = readings()
    glade["uncertain"].append(space)
    glade["supply"][seat] -= held
    owner = next(f for f in forests if any(c.startswith(colour) for c in f["store"]))
    owner["store"].remove(next(c for c in owner["store"] if c.startswith(colour)))
    owner["store_uncertain"] = 1  # a counter of the colour in a store not named
    with pytest.raises(CannotScore) as caught:
        score_readings(plan, glade, forests)
    assert [d.part for d in caught.value.doubts] == ["store"]
    assert [(s.label, s.name, s.ruled_out, s.rule) for s in caught.value.settled] == [
        (space, f"{colour}-single" if held else deduction.EMPTY,
         deduction.EMPTY if held else f"{colour}-single", deduction.SUPPLY_ORDER)]
    plan, glade, forests = readings()  # without the store's doubt: the game is scored
    glade["uncertain"].append(space)
    glade["supply"][seat] -= held
    report = score_readings(plan, glade, forests)
    rules = {s["rule"] for s in report.data.pop("settled")}
    assert report.data == truth()
    # all 12 found, a bare space is the count's to settle first
    assert rules == ({deduction.SUPPLY_ORDER} if held else {deduction.COLOUR_COUNT})


def test_a_seat_read_out_of_order_or_at_its_edge_settles_nothing_by_order() -> None:
    """A bare space read right of a held one (a sure reading wrong, or counters not taken
    leftmost first) says nothing of the seat's doubts; nor does a doubt between the last
    space read bare and the first read held (either may be the seat's edge)."""
    plan, glade, forests = readings()  # liz: 6 red on 7-12
    glade["uncertain"] += ["seat-3:6", "seat-3:7"]  # the edge: 5 read bare, 8 held
    glade["supply"]["3"] -= 1
    forests[LIZ]["store_uncertain"] = 1
    forests[LIZ]["store"].remove("red-single")
    with pytest.raises(CannotScore) as caught:
        score_readings(plan, glade, forests)
    assert caught.value.settled == ()
    plan, glade, forests = readings()
    glade["supply_spaces"]["3"] = [2, 8, 9, 10, 11, 12]  # 2 read held, 3-7 bare
    glade["uncertain"].append("seat-3:1")
    forests[LIZ]["store_uncertain"] = 1
    forests[LIZ]["store"].remove("red-single")
    with pytest.raises(CannotScore) as caught:
        score_readings(plan, glade, forests)
    assert caught.value.settled == ()


@settings(max_examples=60, deadline=None)
@given(left=st.integers(0, 9), doubted=st.sets(st.integers(1, 12), min_size=1, max_size=5))
def test_a_supply_space_settled_by_order_is_always_the_truth(left: int,
                                                             doubted: set[int]) -> None:
    """Any count left on liz's seat (0-9: her other counters in her store, so 12 in all, one
    of them a store thing in doubt), any of its spaces in doubt: every space the order
    settles is as laid out, and a space left in doubt lies at the seat's edge."""
    plan, glade, forests = readings()
    first = 13 - left  # her counters lie on first..12
    moved = 6 - left   # the sample leaves her 6 on the seat: the rest go to her store
    store = forests[LIZ]["store"]
    for _ in range(max(moved, 0)):
        store.append("red-single")
    for _ in range(max(-moved, 0)):
        store.remove(next(c for c in store if c.startswith("red")))
    store.remove(next(c for c in store if c.startswith("red")))
    forests[LIZ]["store_uncertain"] = 1
    glade["supply"]["3"] = sum(1 for k in range(first, 13) if k not in doubted)
    glade["supply_spaces"]["3"] = [k for k in range(first, 13) if k not in doubted]
    glade["uncertain"] += [f"seat-3:{k}" for k in sorted(doubted)]
    seats = [(s.forest_photo, s.colour) for s in plan.seats]
    _glade, _forests, settled = deduction.settle(seats, plan.glade_photo, glade, forests)
    named = {s.label: s.name for s in settled if s.label.startswith("seat-3:")}
    for label, name in named.items():
        k = int(label.partition(":")[2])
        assert (name == "red-single") == (k >= first), (label, name)
    sure_held = [k for k in range(first, 13) if k not in doubted]
    sure_bare = [k for k in range(1, first) if k not in doubted]
    for k in doubted - {int(label.partition(":")[2]) for label in named}:
        assert not any(h < k for h in sure_held) and not any(b > k for b in sure_bare)


def test_the_review_names_a_bare_supply_space_settled() -> None:
    _plan, glade, forests = readings()
    glade["uncertain"].append("seat-3:3")
    progress = at_the_table(glade, forests)
    _state, doubts, fixes = doubts_of(progress)
    assert doubts == [] and fixes == []
    assert settled_of(progress) == ["Glade seat 3 space 3: empty, all 12 red found"]


def test_the_review_names_a_supply_space_the_order_settles() -> None:
    _plan, glade, forests = readings()
    glade["uncertain"].append("seat-3:9")  # liz's red on 7-12: 7 and 8 read holding hers
    glade["supply"]["3"] -= 1
    progress = at_the_table(glade, forests)
    _state, doubts, fixes = doubts_of(progress)
    assert doubts == [] and fixes == []
    assert settled_of(progress) == ["Glade seat 3 space 9: red-single, taken leftmost first"]


def test_a_supply_space_a_player_fixes_as_held_is_reasoned_from_as_held() -> None:
    """Liz holding 8 red on spaces 5-12, 5 and 6 in doubt (the seat's edge: neither is
    settled). A player puts 6 right with the buttons ("A counter there"): the seat's count
    and the spaces read holding one both take it, so space 5, left of a held space and right
    of bare ones, stays a doubt rather than being settled bare as if 6 were read bare."""
    from companion.the_glade import photo_flow

    _plan, glade, forests = readings()
    for _ in range(2):  # two of liz's stored red back on her seat: 8 on 5-12
        forests[LIZ]["store"].remove("red-single" if "red-single" in forests[LIZ]["store"]
                                     else "red-double")
    glade["supply"]["3"] = 6
    glade["supply_spaces"]["3"] = [7, 8, 9, 10, 11, 12]
    glade["uncertain"] += ["seat-3:5", "seat-3:6"]
    progress = at_the_table(glade, forests)
    assert settled_of(progress) == []
    _state, _doubts, fixes = doubts_of(progress)
    six = next(f for f in fixes if f.what == "seat-3:6")
    dict(photo_flow.fix_options(progress, six))["A counter there"](progress)
    assert progress.glade["supply"]["3"] == 7
    assert progress.glade["supply_spaces"]["3"] == [6, 7, 8, 9, 10, 11, 12]
    assert settled_of(progress) == []
    _state, _doubts, fixes = doubts_of(progress)
    assert [f.what for f in fixes if f.what.startswith("seat-")] == ["seat-3:5"]


def test_the_table_review_shows_what_was_settled_and_offers_no_fix_for_it() -> None:
    _plan, glade, forests = readings()
    doubt_square(forests[LIZ], "C3", ["mouse/hazelnut/oak", "mouse/mushroom/oak"])
    doubt_square(forests[1], "G2", ["mouse/hazelnut/oak", "mouse/mushroom/oak"])
    forests[1]["forest"]["tiles"]["G2"] = "mouse/hazelnut/oak"  # emma's G2 read after all
    forests[1]["uncertain"].remove("G2")
    forests[0]["uncertain"].append("A1")  # a doubt the rules cannot settle (no candidates)
    progress = at_the_table(glade, forests)
    _state, doubts, fixes = doubts_of(progress)
    assert [d.what for d in doubts] == ["square A1 is uncertain"]
    assert [(f.photo, f.what) for f in fixes] == [(1, "A1")]
    lines = settled_of(progress)
    assert len(lines) == 1 and lines[0].startswith("Liz C3: mouse/mushroom/oak")


def test_the_review_says_what_was_settled_before_the_score() -> None:
    from companion.the_glade.photo_flow import review_page
    from companion.ui.pages import TextPage

    _plan, glade, forests = readings()
    doubt_square(forests[LIZ], "C3", ["mouse/hazelnut/oak", "mouse/mushroom/oak"])
    progress = at_the_table(glade, forests)
    page = review_page(None, progress, None)  # type: ignore[arg-type]
    assert isinstance(page, TextPage) and page.title == "Settled by the rules"
    assert page.lines[0].startswith("Liz C3: mouse/mushroom/oak, both copies of")


def test_a_doubt_naming_one_tile_twice_is_left_a_doubt() -> None:
    """No scan gives it, but a hand-written reading may: the rules then settle nothing there
    (it raised IndexError before) and the square stays named as a doubt."""
    plan, glade, forests = readings()
    real = forests[LIZ]["forest"]["tiles"]["E7"]
    doubt_square(forests[LIZ], "E7", [real, real])
    built = assemble(plan, glade, forests)
    assert [(d.photo, d.place) for d in built.doubts] == [("liz.jpg", "E7")]
    assert built.settled == []


def doubt_store_thing(forest: dict[str, Any], counter: str, other: str) -> None:
    """One of the store's counters as the store scan leaves a "which counter?" doubt: left
    out of ``store``, counted in ``store_uncertain`` and listed in ``store_doubts`` with the
    two faces it hesitated between (the other named first)."""
    forest["store"].remove(counter)
    forest["store_uncertain"] = forest.get("store_uncertain", 0) + 1
    forest.setdefault("store_doubts", []).append(
        {"at": [-300.0, 100.0 * len(forest["store_doubts"])], "candidates": [other, counter]})


def test_a_store_thing_of_a_colour_nobody_plays_is_settled() -> None:
    """Emma's store holds yellow-double twice; one in doubt with green-double (no player
    is green) is the yellow one, and the game is scored exactly; the review says so."""
    plan, glade, forests = readings()
    doubt_store_thing(forests[1], "yellow-double", "green-double")
    report = score_readings(plan, glade, forests)
    settled = report.data.pop("settled")
    assert report.data == truth()
    assert [(s["photo"], s["where"], s["name"], s["ruled_out"], s["rule"]) for s in settled
            ] == [("emma.jpg", "store:1", "yellow-double", "green-double",
                   deduction.COLOUR_NOT_IN_PLAY)]
    assert "emma.jpg: thing 1 in doubt in the store is yellow-double" in report.text
    progress = at_the_table(glade, forests)
    _state, doubts, fixes = doubts_of(progress)
    assert doubts == [] and fixes == []
    assert settled_of(progress) == ["Emma store: yellow-double, no player has green"]


def test_two_store_things_one_settled_leave_the_other_a_doubt_with_its_candidates() -> None:
    """Of two things in doubt in one store, the one the colours settle is put in and the
    other stays a doubt (its words count one thing now), its candidates kept for the table."""
    plan, glade, forests = readings()
    doubt_store_thing(forests[1], "yellow-double", "green-double")
    doubt_store_thing(forests[1], "yellow-single", "yellow-double")  # no count tells sides
    built = assemble(plan, glade, forests)
    assert [(s.label, s.name) for s in built.settled] == [("store:1", "yellow-double")]
    assert [(d.photo, d.part) for d in built.doubts] == [("emma.jpg", "store")]
    emma = built.forests[1]
    assert emma["store_uncertain"] == 1 and emma["store"].count("yellow-double") == 2
    assert emma["store_doubts"] == [{"at": [-300.0, 100.0],
                                     "candidates": ["yellow-double", "yellow-single"]}]
    progress = at_the_table(glade, forests)
    _state, _doubts, fixes = doubts_of(progress)
    assert [(f.at, f.candidates) for f in fixes] == [
        ((-300.0, 100.0), ("yellow-double", "yellow-single"))]


def test_a_store_thing_in_doubt_with_a_colour_a_counter_of_may_be_missing() -> None:
    """Of two things in doubt, yellow or green and blue either side: the blue one leaves a
    blue counter unaccounted for, so the first may be blue as well (a counter the scan hesitated
    on need not be either of its two names): nothing is settled."""
    plan, glade, forests = readings()
    doubt_store_thing(forests[1], "yellow-double", "green-double")
    doubt_store_thing(forests[1], "blue-single", "blue-double")
    with pytest.raises(CannotScore) as caught:
        score_readings(plan, glade, forests)
    assert caught.value.settled == ()


def test_a_store_thing_whose_colours_may_both_be_stays_a_doubt() -> None:
    """Yellow in doubt with blue in Emma's store, and a blue counter missed elsewhere (Liz's
    store): neither colour's 12 are all found, so either may lie there: nothing is settled.
    (With every blue counter found, the thing is yellow: ``colour-count``.)"""
    plan, glade, forests = readings()
    doubt_store_thing(forests[1], "yellow-double", "blue-double")
    forests[LIZ]["store"].remove("blue-single")
    with pytest.raises(CannotScore) as caught:
        score_readings(plan, glade, forests)
    assert caught.value.settled == ()
    assert [(d.photo, d.part) for d in caught.value.doubts] == [("emma.jpg", "store")]
    assert "yellow-double" in str(caught.value.doubts[0])  # the doubt names its candidates


def test_a_store_thing_of_a_colour_all_found_elsewhere_is_settled() -> None:
    plan, glade, forests = readings()
    doubt_store_thing(forests[1], "yellow-double", "blue-double")
    report = score_readings(plan, glade, forests)
    settled = report.data.pop("settled")
    assert report.data == truth()
    assert [(s["where"], s["name"], s["rule"]) for s in settled] == [
        ("store:1", "yellow-double", deduction.COLOUR_COUNT)]


def doubt_name(forest: dict[str, Any], square: str, likeliest: str,
               doubt: str = "glare-lit") -> None:
    """The square as the forest scan leaves a tile whose name alone is in doubt (glare on it,
    a poor photo's close call): left out, named uncertain, no candidates, the name it would
    have read under ``likeliest``."""
    forest["forest"]["tiles"].pop(square, None)
    forest["uncertain"] = [*forest.get("uncertain", []), square]
    forest.setdefault("reasons", {})[square] = f"glare on the tile: {likeliest}, or another?"
    forest.setdefault("doubts", {})[square] = doubt
    forest.setdefault("likeliest", {})[square] = likeliest


@pytest.mark.parametrize("doubt", ["glare-lit", "shade-lit", "poor-photo"])
def test_a_tile_name_its_lines_allow_alone_is_settled_and_the_game_scored(doubt: str) -> None:
    """liz's E7 squirrel/blackberry/oak: its row C7 D7 E7 and its column E5 E6 E7 allow no
    other of the 64 tiles, and the recogniser's likeliest name is that tile: settled under
    only-tile, the game scored exactly."""
    plan, glade, forests = readings()
    doubt_name(forests[LIZ], "E7", "squirrel/blackberry/oak", doubt)
    report = score_readings(plan, glade, forests)
    settled = report.data.pop("settled")
    assert report.data == truth()
    assert [{k: s[k] for k in ("photo", "where", "name", "ruled_out", "rule")}
            for s in settled] == [{"photo": "liz.jpg", "where": "E7",
                                   "name": "squirrel/blackberry/oak",
                                   "ruled_out": "any other tile", "rule": deduction.ONLY_TILE}]


def test_a_likeliest_name_the_lines_rule_out_is_left_a_doubt() -> None:
    """The rules allow squirrel/blackberry/oak alone on E7; a scan that would have named
    another tile there saw something else (or a sure reading beside it is wrong): nothing
    is settled, the square is named as the doubt."""
    plan, glade, forests = readings()
    doubt_name(forests[LIZ], "E7", "squirrel/acorn/oak")
    with pytest.raises(CannotScore) as caught:
        score_readings(plan, glade, forests)
    assert [(d.part, d.place) for d in caught.value.doubts] == [("forest-square", "E7")]
    assert caught.value.settled == ()


def test_a_tile_name_its_lines_allow_with_others_is_left_a_doubt() -> None:
    """liz's D5 hedgehog/blackberry/maple: its lines allow hedgehog/blackberry/beech too."""
    plan, glade, forests = readings()
    doubt_name(forests[LIZ], "D5", "hedgehog/blackberry/maple")
    built = assemble(plan, glade, forests)
    assert built.settled == []
    assert [(d.part, d.place) for d in built.doubts] == [("forest-square", "D5")]


def test_a_tile_name_beside_another_doubt_is_left_a_doubt() -> None:
    """E7 with D7 and E6 in doubt too: neither line through it is known, so the rules say
    nothing of it; with E6 read after all its column alone settles it."""
    plan, glade, forests = readings()
    doubt_name(forests[LIZ], "E7", "squirrel/blackberry/oak")
    for square in ("D7", "E6"):
        forests[LIZ]["forest"]["tiles"].pop(square)
        forests[LIZ]["uncertain"].append(square)
    assert assemble(plan, glade, forests).settled == []
    forests[LIZ]["uncertain"].remove("E6")
    forests[LIZ]["forest"]["tiles"]["E6"] = "squirrel/blackberry/maple"
    assert [(s.label, s.rule) for s in assemble(plan, glade, forests).settled] == [
        ("E7", deduction.ONLY_TILE)]


def test_a_tile_name_settled_is_shown_at_the_table_and_a_doubt_left_offers_its_tile() -> None:
    """At the table the review says why E7 stands; liz's D5 is offered for the buttons with
    the tile the scan would have named first, then the one other tile its lines allow."""
    from companion.the_glade import photo_flow

    _plan, glade, forests = readings()
    doubt_name(forests[LIZ], "E7", "squirrel/blackberry/oak")
    doubt_name(forests[LIZ], "D5", "hedgehog/blackberry/maple")
    progress = at_the_table(glade, forests)
    assert settled_of(progress) == [
        "Liz E7: squirrel/blackberry/oak, only tile its lines allow"]
    _state, _doubts, fixes = doubts_of(progress)
    assert [(f.photo, f.what) for f in fixes] == [(3, "D5")]
    options = photo_flow.fix_options(progress, fixes[0])
    assert [w for w, _ in options[:3]] == [
        "hedgehog/blackberry/maple", "hedgehog/blackberry/beech", "Empty"]
    options[0][1](progress)
    assert progress.forests[LIZ]["forest"]["tiles"]["D5"] == "hedgehog/blackberry/maple"
    assert "D5" not in progress.forests[LIZ]["uncertain"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2), st.data())
def test_a_tile_name_settled_by_the_rules_is_always_the_truth(player: int, data) -> None:
    """Soundness over the sample game: any square of any forest, any name the scan might
    give as likeliest: when the sure readings are right, what is settled is the truth."""
    from companion.the_glade.names import ALL_TILES

    plan, glade, forests = readings()
    tiles = forests[player]["forest"]["tiles"]
    square = data.draw(st.sampled_from(sorted(tiles)))
    real = tiles[square]
    likeliest = data.draw(st.sampled_from([real, *sorted(str(t) for t in ALL_TILES)]))
    doubt_name(forests[player], square, likeliest)
    built = assemble(plan, glade, forests)
    for s in built.settled:
        assert (s.label, s.name) == (square, real)
    if likeliest != real:
        assert built.settled == []


def test_a_tile_name_whose_lines_allow_many_is_offered_alone() -> None:
    """liz's B5 hedgehog/hazelnut/maple: its lines allow 36 tiles; the menu offers the
    scan's likeliest alone (then Empty and the counters), not a list no one scrolls."""
    from companion.the_glade import photo_flow

    _plan, glade, forests = readings()
    doubt_name(forests[LIZ], "B5", "hedgehog/hazelnut/maple")
    progress = at_the_table(glade, forests)
    _state, _doubts, fixes = doubts_of(progress)
    words = [w for w, _ in photo_flow.fix_options(progress, fixes[0])]
    assert words[:2] == ["hedgehog/hazelnut/maple", "Empty"]


def test_the_tiles_allowed_are_none_when_sure_readings_break_a_rule() -> None:
    plan, glade, forests = readings()
    seats = [(s.forest_photo, s.colour) for s in plan.seats]
    doubt_name(forests[LIZ], "E7", "squirrel/blackberry/oak")
    assert deduction.allowed_tiles(seats, glade, forests, LIZ, "E7") == [
        "squirrel/blackberry/oak"]
    forests[0]["forest"]["tiles"]["A1"] = "mouse/hazelnut/oak"  # a third copy, sure
    assert deduction.allowed_tiles(seats, glade, forests, LIZ, "E7") is None


def test_a_malformed_likeliest_is_no_doubt_the_rules_read() -> None:
    """A hand-edited or damaged reading (its ``likeliest`` a list, a name no tile): the
    square stays a plain doubt, and nothing raises."""
    from companion.the_glade import photo_flow

    plan, glade, forests = readings()
    doubt_name(forests[LIZ], "E7", "squirrel/blackberry/oak")
    forests[LIZ]["likeliest"] = ["E7"]
    built = assemble(plan, glade, forests)
    assert built.settled == [] and [d.place for d in built.doubts] == ["E7"]
    progress = at_the_table(glade, forests)
    assert photo_flow.square_tiles(progress, 3, "E7") == []
    forests[LIZ]["likeliest"] = {"E7": "no/such/tile"}
    assert assemble(plan, glade, forests).settled == []
