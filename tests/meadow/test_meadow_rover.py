"""Rover solo: the pile, the colour markers and the solo game token, Rover's deck and score."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from meadow_helpers import quote

from companion.meadow.actions import ChooseRow, PlaceToken
from companion.meadow.main_board import CLOCKWISE, spot_of
from companion.meadow.rover import (
    LOST,
    RESULTS,
    SOLO_SPOTS,
    result,
    rover_notch,
    rover_score,
    rover_turn,
)
from companion.meadow.rules import RULES


def solo(seed: int = 4):  # type: ignore[no-untyped-def]
    return RULES.new_game(["Ann"], None, {"seed": seed})


@quote("Shuffle the path tokens (including the ? tokens) of all of the other colors and form a "
       "face-down pile.")
def test_rover_pile() -> None:
    s = solo()
    pile = s.rover.pile
    assert len(pile) == 15
    colours = Counter(t.split(":")[0] for t in pile)
    assert set(colours) == {"blue", "yellow", "red"} and set(colours.values()) == {5}
    assert sum(t.endswith("?") for t in pile) == 3
    assert {c for c, _n in s.table.markers} == {"blue", "yellow", "red"}
    assert {n for _c, n in s.table.markers} == set(SOLO_SPOTS)


@quote("Then take all of the cards from the 1st row under the deck holders and 1 card from "
       "the N deck and place them in Rover's deck.")
def test_rover_starting_deck() -> None:
    s = solo()
    row1 = [s.board.card_at(f"r1c{c}") for c in range(1, 5)]
    after = s.apply(ChooseRow(2))
    n_second = s.board.deck("N")[1]
    assert after.rover.deck[:4] == tuple(row1) and after.rover.deck[4] == n_second
    assert all(after.board.card_at(f"r1c{c}") for c in range(1, 5))


@quote("In the solo game, Rover is always the first player.")
def test_rover_first_each_round() -> None:
    s = solo().apply(ChooseRow(1))
    s = s.apply(s.legal_actions()[0])
    assert (len(s.notches) == 1 and s.notches[0][1] == -1) or "discarded" in s.rover.log[-1]
    assert s.current_player() == 0


@quote("If the token is a ? token, place it in any unused notch of the campfire board. If all "
       "of the notches are used, discard the token.")
def test_question_token_to_campfire_or_discarded() -> None:
    s = solo().apply(ChooseRow(1))
    s = s.apply(s.legal_actions()[0])
    s = replace(s, rover=replace(s.rover, pile=("red:?", "red:?", "red:?", "red:?", "red:?")))
    taken = s.taken()
    t = rover_turn(s)
    assert t.notches[-1][0].startswith("C") and t.notches[-1][0] not in taken
    full = replace(s, notches=(*s.notches, *((f"C{i}", 0, "1") for i in range(1, 5))))
    u = rover_turn(full)
    assert u.notches == full.notches and "discarded" in u.rover.log[-1]
    assert u.rover.deck == full.rover.deck


@quote("If the notch indicated by the solo play game token is already taken, use the closest "
       "clockwise unused notch.")
def test_closest_clockwise_notch() -> None:
    s = solo().apply(ChooseRow(1))
    s = s.apply(s.legal_actions()[0])
    colour, notch = s.table.markers[0]
    assert rover_notch(replace(s, notches=()), colour) == notch
    busy = replace(s, notches=((notch, 0, "1"),))
    nxt = CLOCKWISE[(CLOCKWISE.index(notch) + 1) % len(CLOCKWISE)]
    assert rover_notch(busy, colour) == nxt


@quote("Then take the card indicated by the path token, place it on Rover's deck, and refill "
       "the empty spot with a card from the corresponding deck.")
def test_rover_takes_the_card() -> None:
    s = solo().apply(ChooseRow(1))
    s = s.apply(s.legal_actions()[0])
    colour, notch = s.table.markers[1]
    s = replace(s, notches=(), rover=replace(s.rover, pile=(f"{colour}:3",)))
    card = s.board.card_at(spot_of(notch, 3))
    t = rover_turn(s)
    assert t.rover.deck[-1] == card and t.notches == ((notch, -1, f"{colour}:3"),)
    assert t.board.card_at(spot_of(notch, 3)) not in (None, card)


@quote("The round is over when you place your last path token.")
def test_solo_round() -> None:
    s = solo().apply(ChooseRow(1))
    s = s.apply(s.legal_actions()[0])
    rng = random.Random(3)
    placed = 0
    while s.round == 1:
        a = rng.choice(s.legal_actions())
        placed += isinstance(a, PlaceToken)
        s = s.apply(a)
    assert placed == 5 and len(s.rover.pile) == 14  # new pile of 15, Rover's first flip done


@quote("The game ends at the end of the 6th round – it is time to count the points.")
def test_solo_game_ends_after_six_rounds() -> None:
    s = solo(7)
    rng = random.Random(7)
    while not s.is_terminal():
        s = s.apply(rng.choice(s.legal_actions()))
    assert s.round == 6
    sheet = s.score_sheet()
    assert sheet.result.startswith(f"Rover {rover_score(s)}:")


@quote("Count all of the points in Rover's card deck.")
def test_rover_score() -> None:
    s = solo()
    s = replace(s, rover=replace(s.rover, deck=("W26", "N10")))
    assert rover_score(s) == s.cat.cards["W26"].points + s.cat.cards["N10"].points


@quote("If your score is higher than or equal to Rover's score, check the table below to see "
       "how you faired.")
def test_result_table() -> None:
    assert result(45, 46) == LOST
    assert result(45, 45) == RESULTS[2][1]
    assert result(60, 10) == RESULTS[0][1] and result(59, 10) == RESULTS[1][1]
    assert result(39, 10) == RESULTS[3][1] and result(40, 10) == RESULTS[2][1]
